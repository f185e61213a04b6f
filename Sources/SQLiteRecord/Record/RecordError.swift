/// The library's own failures, as opposed to SQLite's (``DatabaseError``).
public enum RecordError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An update found no row with the record's id: it was deleted, or never inserted. An update never
    /// inserts in its place.
    /// `id` is the key as text: `42`, a UUID, or `auth_name = 'EPSG', code = 9001` for a composite key.
    case recordNotFound(table: String, id: String)
    /// The record has no id yet, so it cannot be updated or deleted: save it first.
    case recordNotSaved(table: String)
    /// A `where:` key or `orderBy:` column is not a column of the table. Nothing ran.
    case unknownColumn(table: String, column: String, columns: [String])
    /// The record encodes no column named by its type's ``Record/primaryKeyColumn`` (its `CodingKeys` leave
    /// `id` out, or rename it without `primaryKeyColumn` saying so), so the library cannot find its row.
    case missingPrimaryKey(table: String, column: String)
    /// A call without a database was made before ``RecordStore/use(_:)`` set the default queue.
    case noDefaultStore
    /// The record's key, or one column of a composite key, is nil where the table needs a value (a key the
    /// client chooses, such as a `UUID?` left nil). Nothing was written.
    case missingKey(table: String, column: String)
    /// The record type's key columns are neither the table's primary key nor a UNIQUE constraint on exactly
    /// those columns, so a call by key could touch many rows. Nothing ran.
    case keyNotUnique(table: String, columns: [String])
    /// An insert ran but inserted no row: a conflict clause that ignores (`UNIQUE ... ON CONFLICT IGNORE` in
    /// the schema) or a trigger (`RAISE(IGNORE)`) skipped it. The record keeps the id it had (nil for a new
    /// one), since no row has the rowid SQLite would otherwise report.
    case rowNotInserted(table: String)
    /// An update ran but changed no row although the record's row exists: a conflict clause that ignores or
    /// a trigger (`RAISE(IGNORE)`) skipped it.
    case rowNotUpdated(table: String, id: String)
    /// A delete ran but deleted no row although the record's row exists: a trigger (`RAISE(IGNORE)`)
    /// skipped it.
    case rowNotDeleted(table: String, id: String)
    /// A record with a nil id was to be inserted, but the table's primary key column is not SQLite's rowid
    /// (only an `INTEGER PRIMARY KEY` column of a rowid table is: `INT PRIMARY KEY`, `INTEGER PRIMARY KEY
    /// DESC`, a WITHOUT ROWID table or a column outside the primary key are not), so SQLite would not give
    /// the row the id the record would take. Nothing was written. `declaration` says what the table has.
    /// See <https://www.sqlite.org/lang_createtable.html#rowid>.
    case rowIDNotAssigned(table: String, column: String, declaration: String)
    /// The table is a view: SQLite reports neither the rowid nor the changes of a write made through its
    /// INSTEAD OF triggers, so the library cannot tell what it wrote. Nothing was written; write to the
    /// tables behind the view, or run the SQL with ``Database/execute(sql:arguments:)``.
    case viewNotWritable(table: String)
    /// A value in a request is one no column can hold: a NaN, an integer above `Int64.max`, a date with no
    /// stored form, text PostgreSQL cannot hold (U+0000). `column` is the column it is compared with or assigned to (nil when there is none) and `type`
    /// the value's Swift type. Nothing ran.
    case invalidQueryValue(table: String, column: String?, type: String, reason: String)
    /// A request asks for something SQL cannot do with it (deleting the rows of a grouped request, say).
    /// Nothing ran.
    case invalidQuery(table: String, reason: String)
    /// An association cannot be used as declared: its foreign key column is not in the child table, or a
    /// nested result type asks for keys the request does not provide. `association` names the types, the
    /// key and the tables (`City.belongsTo(Country) "country": "cities"."country_id" -> "countries"."id"`).
    case invalidAssociation(association: String, reason: String)
    /// A joined fetch that requires a parent
    /// (``QueryInterfaceRequest/including(required:)->JoinedRequest<Base,Parent>``) found a child row whose
    /// foreign key `value` matches no row of `parentTable` (or is NULL). For a foreign key of several columns,
    /// `column` lists them separated by `, ` and `value` is their values in parentheses.
    case missingParent(table: String, column: String, value: String, parentTable: String)
    /// An upsert's conflict target (`onConflict:`) is neither the table's PRIMARY KEY nor a UNIQUE
    /// constraint on exactly those columns, which SQLite needs to know which row an insert collides with.
    /// Nothing was written. See <https://www.sqlite.org/lang_upsert.html>.
    case conflictTargetNotUnique(table: String, columns: [String])
    /// A table, column, index or alias name has more bytes of UTF-8 (`bytes`) than the engine keeps
    /// (`limit`: PostgreSQL's 63, NAMEDATALEN - 1), so the engine would cut it short and two names that share
    /// their first `limit` bytes would name one table or column. Nothing ran. SQLite has no such limit. See
    /// <https://www.postgresql.org/docs/current/sql-syntax-lexical.html#SQL-SYNTAX-IDENTIFIERS>.
    case identifierTooLong(table: String, identifier: String, bytes: Int, limit: Int)

    /// A sentence for a log: what failed and where.
    public var description: String {
        switch self {
        case .recordNotFound(let table, let id):
            return "No row in table \"\(table)\" has id \(id): the record was deleted or never inserted"
        case .recordNotSaved(let table):
            return "The record for table \"\(table)\" has no id: save or insert it first"
        case .unknownColumn(let table, let column, let columns):
            return "Table \"\(table)\" has no column \"\(column)\"; its columns are: "
                + columns.map { "\"\($0)\"" }.joined(separator: ", ")
        case .missingPrimaryKey(let table, let column):
            return "Records of table \"\(table)\" encode no \"\(column)\" column for their id; when CodingKeys "
                + "renames id, set static primaryKeyColumn to that name"
        case .noDefaultStore:
            return "No default database: call RecordStore.use(_:) with a DatabaseQueue or DatabasePool first, "
                + "or pass a Database explicitly"
        case .missingKey(let table, let column):
            return "The record for table \"\(table)\" has no value for its key column \"\(column)\": set the key "
                + "before saving, since SQLite does not choose it"
        case .keyNotUnique(let table, let columns):
            return "The key (" + columns.map { "\"\($0)\"" }.joined(separator: ", ") + ") of table \"\(table)\" is "
                + "neither its primary key nor UNIQUE, so a call by key could touch several rows; declare it "
                + "PRIMARY KEY or add a UNIQUE index on exactly those columns"
        case .rowNotInserted(let table):
            return "No row was inserted into table \"\(table)\": a conflict clause that ignores (ON CONFLICT IGNORE) "
                + "or a trigger (RAISE(IGNORE)) skipped the insert; the record was not saved"
        case .rowNotUpdated(let table, let id):
            return "The row with id \(id) of table \"\(table)\" was not updated: a conflict clause that ignores (ON "
                + "CONFLICT IGNORE) or a trigger (RAISE(IGNORE)) skipped the update"
        case .rowNotDeleted(let table, let id):
            return "The row with id \(id) of table \"\(table)\" was not deleted: a trigger (RAISE(IGNORE)) skipped "
                + "the delete"
        case .rowIDNotAssigned(let table, let column, let declaration):
            return "Cannot insert a record with a nil id into table \"\(table)\": its column \"\(column)\" is not "
                + "the rowid (\(declaration)), so SQLite would not set it. Declare it INTEGER PRIMARY KEY, or set "
                + "the id before inserting"
        case .conflictTargetNotUnique(let table, let columns):
            return "The conflict target (" + columns.map { "\"\($0)\"" }.joined(separator: ", ")
                + ") of table \"\(table)\" "
                + "is neither its primary key nor a UNIQUE constraint on exactly those columns; nothing was written"
        case .viewNotWritable(let table):
            return "\"\(table)\" is a view: SQLite reports neither the rowid nor the changes of writes made through "
                + "its INSTEAD OF triggers, so records are not written to it; write to its tables, or run the "
                + "SQL with Database.execute(sql:arguments:)"
        case .invalidQueryValue(let table, let column, let type, let reason):
            let place = column.map { "column \"\($0)\" of table \"\(table)\"" } ?? "a request on table \"\(table)\""
            return "A \(type) value cannot be compared with or stored in \(place): \(reason)"
        case .invalidQuery(let table, let reason):
            return "Invalid request on table \"\(table)\": \(reason)"
        case .invalidAssociation(let association, let reason):
            return "Association \(association): \(reason)"
        case .missingParent(let table, let column, let value, let parentTable):
            return "A row of table \"\(table)\" has \"\(column)\" = \(value), which matches no row of table "
                + "\"\(parentTable)\": the parent is missing (use including(optional:) to fetch it as nil)"
        case .identifierTooLong(let table, let identifier, let bytes, let limit):
            return "The name \"\(identifier)\" (for table \"\(table)\") is \(bytes) bytes of UTF-8, more than the "
                + "\(limit) an identifier keeps on PostgreSQL, which would cut it short and could merge it with "
                + "another name; nothing ran. Use a shorter name (see https://www.postgresql.org/docs/current/"
                + "sql-syntax-lexical.html#SQL-SYNTAX-IDENTIFIERS)"
        }
    }
}

extension RecordError {
    /// Why NaN is refused, in a stored value and in a filter, in the same words on every engine.
    package static let nanRefusal =
        "NaN is refused on every engine (SQLite would store it as NULL, PostgreSQL would match it in a filter and "
        + "sort it above every number)"
}
