// SQLite's SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
#ifndef AGG_CSQLITE_SHIM_H
#define AGG_CSQLITE_SHIM_H

#include <sqlite3.h>

static inline sqlite3_destructor_type agg_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif
