// SQLite's SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import,
// sqlite3_db_config is variadic, which Swift cannot call, and a WAL hook is a C function.
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

/// The write-ahead-log hook `agg_sqlite_checkpoint_at` installs: once a commit leaves at least
/// the threshold's frames in the WAL, copies them into the database and truncates the WAL to
/// nothing, without waiting for anyone (the busy timeout is 0 for the checkpoint, then put back).
/// When another connection is reading or writing, the checkpoint copies what it can and the WAL
/// stays; a later commit tries again.
///
/// SQLite's own automatic checkpoint copies the WAL but never empties it: the first connection of
/// a process rebuilds the WAL's index from the whole file, which forgets that it was copied, so
/// the WAL of a database used by one short process after another only ever grew, every process
/// read all of it, and every commit checkpointed it again.
static int agg_sqlite_truncating_checkpoint(void *context, sqlite3 *db, const char *name, int frames) {
    unsigned long long packed = (unsigned long long)(unsigned long)context;
    int threshold = (int)(packed & 0xFFFFF);
    int busyMilliseconds = (int)(packed >> 20);
    if (frames < threshold) return SQLITE_OK;
    sqlite3_busy_timeout(db, 0);
    sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_TRUNCATE, (int *)0, (int *)0);
    sqlite3_busy_timeout(db, busyMilliseconds);
    return SQLITE_OK;
}

/// Installs `agg_sqlite_truncating_checkpoint` on `db` for WALs of `frames` frames or more
/// (below 2^20); `busyMilliseconds` is the connection's busy timeout, put back after each
/// checkpoint. The two numbers travel in the hook's context pointer, so nothing is allocated.
static inline void agg_sqlite_checkpoint_at(sqlite3 *db, int frames, int busyMilliseconds) {
    unsigned long long packed = ((unsigned long long)busyMilliseconds << 20) | (unsigned long long)(frames & 0xFFFFF);
    sqlite3_wal_hook(db, agg_sqlite_truncating_checkpoint, (void *)(unsigned long)packed);
}

#endif
