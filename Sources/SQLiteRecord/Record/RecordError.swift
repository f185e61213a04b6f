/// The library's own failures, as opposed to SQLite's (``DatabaseError``).
public enum RecordError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An update found no row with the record's id: it was deleted, or never inserted. An update never
    /// inserts in its place.
    case recordNotFound(table: String, id: Int64)
    /// The record has no id yet, so it cannot be updated or deleted: save it first.
    case recordNotSaved(table: String)
    /// A `where:` key or `orderBy:` column is not a column of the table. Nothing ran.
    case unknownColumn(table: String, column: String, columns: [String])
    /// The record encodes no column named by its type's ``Record/primaryKeyColumn`` (its `CodingKeys` leave
    /// `id` out, or rename it without `primaryKeyColumn` saying so), so the library cannot find its row.
    case missingPrimaryKey(table: String, column: String)
    /// A call without a database was made before ``RecordStore/use(_:)`` set the default queue.
    case noDefaultStore

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
            return "No default database: call RecordStore.use(_:) with a DatabaseQueue first, "
                + "or pass a Database explicitly"
        }
    }
}
