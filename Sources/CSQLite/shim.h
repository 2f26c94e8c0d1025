// SQLite's SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import,
// and sqlite3_db_config is variadic, which Swift cannot call.
#ifndef AGG_CSQLITE_SHIM_H
#define AGG_CSQLITE_SHIM_H

#include <sqlite3.h>

static inline sqlite3_destructor_type agg_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// Turns off the checkpoint SQLite runs when the last connection to a WAL database closes.
static inline int agg_sqlite_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

#endif
