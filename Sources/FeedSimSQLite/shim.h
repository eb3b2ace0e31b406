#ifndef FEEDSIM_SQLITE_SHIM_H
#define FEEDSIM_SQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a destructor pointer, which Swift cannot import.
/// Binding with it makes SQLite copy the bytes before the call returns.
static inline sqlite3_destructor_type feedsim_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// sqlite3_db_config is variadic; this wraps the int-flag form (e.g. SQLITE_DBCONFIG_DEFENSIVE).
static inline int feedsim_sqlite_db_config_int(sqlite3 *db, int op, int value, int *out) {
    return sqlite3_db_config(db, op, value, out);
}

/// sqlite3_config is variadic; this wraps SQLITE_CONFIG_MEMSTATUS (memory statistics on or off).
/// Like every sqlite3_config option it must run before the library initializes (the first open),
/// else SQLite refuses it with SQLITE_MISUSE and keeps its setting.
static inline int feedsim_sqlite_config_memstatus(int on) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}

/// SQLITE_CONSTRAINT_PRIMARYKEY is a macro built with | and <<, which Swift does not import.
static inline int feedsim_sqlite_constraint_primarykey(void) {
    return SQLITE_CONSTRAINT_PRIMARYKEY;
}

#endif
