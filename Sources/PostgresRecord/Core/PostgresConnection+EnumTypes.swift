#if PostgreSQL
import Foundation

/// Enum columns read as their labels: an enum's binary form (`enum_send`) is its label's text, but a result
/// names only the enum's type OID, one of the database's own; the catalog tells, once per type and
/// connection, whether that type is an enum. See <https://www.postgresql.org/docs/current/datatype-enum.html>
/// and <https://www.postgresql.org/docs/current/catalog-pg-type.html>.
extension PostgresConnection {
    /// The first OID of a type a database defines itself (`FirstNormalObjectId`): built-in types are below.
    static let firstUserTypeOID: UInt32 = 16384

    /// Marks the enum columns of `result` to read as text. Columns of built-in types cost one compare each.
    /// - Throws: ``PostgresError`` when the catalog cannot be read.
    func readEnumsAsText(_ result: PostgresResult) throws {
        var enums: [Int] = []
        for column in 0..<result.columnCount where result.columnType(column) >= Self.firstUserTypeOID {
            if try isEnumType(result.columnType(column)) { enums.append(column) }
        }
        if !enums.isEmpty { result.readAsText(enums) }
    }

    /// Whether the type of OID `type` is an enum (`pg_type.typtype = 'e'`), read once per connection.
    /// - Throws: ``PostgresError`` when the catalog cannot be read.
    func isEnumType(_ type: UInt32) throws -> Bool {
        guard type >= Self.firstUserTypeOID else { return false }
        if let known = enumTypes[type] { return known }
        let result = try run(
            "SELECT typtype = 'e' FROM pg_catalog.pg_type WHERE oid = $1::int8::oid", [PostgresValue(Int64(type))])
        let isEnum = result.rowCount == 1 && result.bool(row: 0, column: 0) == true
        enumTypes[type] = isEnum
        return isEnum
    }
}
#endif
