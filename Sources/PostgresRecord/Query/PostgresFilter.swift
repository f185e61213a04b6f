#if PostgreSQL
import Foundation
import SQLiteRecord

/// The condition and arguments of a `where:` dictionary, its columns checked against the table's.
struct PostgresFilter {
    /// The columns, sorted, and whether each is compared with NULL (`IS NULL`, no argument).
    let columns: [String]
    let nulls: [Bool]
    let arguments: [PostgresValue]

    /// `"a" = $1 AND "b" IS NULL`, numbered from `$1`.
    var condition: String { RecordSQL.equalities(zip(columns, nulls).map { ($0, $1) }, dialect: .postgres) }

    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for a key the table has no column
    ///   for, `EncodingError` for a value PostgreSQL cannot store (nested values are written by the record's
    ///   JSON encoder, as a save writes them).
    ///
    /// `checked` names columns this connection found in the table already (the last fetch's); keys that are
    /// exactly those are not checked again.
    init(
        _ conditions: [String: (any Encodable)?], shape: PostgresRecordShape, connection: PostgresConnection,
        checked: [String]? = nil
    ) throws {
        // Sorted, so that one set of keys gives one SQL text and one prepared statement.
        let names = conditions.keys.sorted()
        if names != checked { try connection.checkColumns(names, of: shape.table) }
        var arguments: [PostgresValue] = []
        var nulls: [Bool] = []
        nulls.reserveCapacity(names.count)
        for name in names {
            // Refused as a request's filter value is on both engines: the table, the column, the type, why.
            let value: PostgresValue
            do {
                value = try conditions[name].flatMap { $0 }.map {
                    try connection.filterForm(
                        of: $0,
                        written: PostgresValueWriter.value(
                            $0, codingPath: [PostgresColumnKey(name)], jsonEncoder: shape.jsonEncoder),
                        table: shape.table, column: name, jsonEncoder: shape.jsonEncoder)
                } ?? .null
            } catch let EncodingError.invalidValue(refused, context) {
                throw RecordError.invalidQueryValue(
                    table: shape.table, column: name, type: "\(type(of: refused))", reason: context.debugDescription)
            }
            nulls.append(value.isNull)
            if !value.isNull { arguments.append(value) }
        }
        columns = names
        self.nulls = nulls
        self.arguments = arguments
    }
}
#endif
