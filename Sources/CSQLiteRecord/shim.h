#ifndef CSQLITERECORD_SHIM_H
#define CSQLITERECORD_SHIM_H
#include <sqlite3.h>

/// Turns off SQLite's double-quoted string literal misfeature on `db`, so that a double-quoted name is
/// always an identifier: `WHERE "id" = ?` on a table without an `id` column is an error, not a comparison
/// with the text 'id'. sqlite3_db_config is variadic, which Swift cannot call, hence this shim.
/// See https://www.sqlite.org/quirks.html#dblquote. Returns SQLITE_OK, or the first failing result code.
static inline int csqliterecord_disable_double_quoted_strings(sqlite3 *db) {
#if defined(SQLITE_DBCONFIG_DQS_DML) && defined(SQLITE_DBCONFIG_DQS_DDL)
    int code = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
    if (code != SQLITE_OK) return code;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)0);
#else
    (void)db;
    return SQLITE_OK;
#endif
}

#endif
