#if PostgreSQL
import Foundation

/// Columns of the database's own types whose binary form is text, read as text: an enum's (`enum_send` sends
/// its label) and `citext`'s (the extension's case-insensitive text, whose `citextsend` sends its text). A
/// result names only the type's OID, one the database gave it when the type or the extension was created; the
/// catalog tells, once per type and connection, which it is. See
/// <https://www.postgresql.org/docs/current/datatype-enum.html>,
/// <https://www.postgresql.org/docs/current/citext.html> and
/// <https://www.postgresql.org/docs/current/catalog-pg-type.html>.
extension PostgresConnection {
    /// The first OID of a type a database defines itself (`FirstNormalObjectId`): built-in types are below.
    static let firstUserTypeOID: UInt32 = 16384

    /// What a type of the database's own is to the library.
    enum OwnType: Equatable {
        /// An enum: its values read and write as their labels' text.
        case enumeration
        /// `citext`: read and written as text, compared by the server without regard to case. `arrayType`
        /// is the OID of `citext[]` (`pg_type.typarray`), which binds a list of keys compared as citext.
        case citext(arrayType: UInt32)
        /// An array of an enum or of `citext` (`citext[]`): its binary form is `text[]`'s (`array_send` of
        /// elements sent as text) but for the element type, `element`, that its header names.
        case textArray(element: UInt32)
        /// Any other type (a composite, a range, a domain's base type of another kind...).
        case other
    }

    /// Marks the enum and `citext` columns of `result` to read as text, and the arrays of them as `text[]`.
    /// Columns of built-in types cost one compare each.
    /// - Throws: ``PostgresError`` when the catalog cannot be read.
    func readTextTypesAsText(_ result: PostgresResult) throws {
        var texts: [Int] = []
        var textArrays: [(column: Int, element: UInt32)] = []
        for column in 0..<result.columnCount where result.columnType(column) >= Self.firstUserTypeOID {
            switch try ownType(result.columnType(column)) {
            case .enumeration, .citext: texts.append(column)
            case .textArray(let element): textArrays.append((column, element))
            case .other: break
            }
        }
        if !texts.isEmpty { result.readAsText(texts) }
        if !textArrays.isEmpty { result.readAsTextArrays(textArrays) }
    }

    /// What the type of OID `type` is (`pg_type.typtype = 'e'` for an enum; a base type sent by `citextsend`
    /// for `citext`; an array type, `typcategory = 'A'`, whose `typelem` is either), read once per connection;
    /// `.other` for a built-in type.
    /// - Throws: ``PostgresError`` when the catalog cannot be read.
    func ownType(_ type: UInt32) throws -> OwnType {
        guard type >= Self.firstUserTypeOID else { return .other }
        if let known = ownTypes[type] { return known }
        let result = try run(
            """
            SELECT t.typtype = 'e', t.typtype = 'b' AND p.proname = 'citextsend', t.typarray::int8,
                t.typcategory = 'A' AND (e.typtype = 'e' OR (e.typtype = 'b' AND ep.proname = 'citextsend')),
                t.typelem::int8
            FROM pg_catalog.pg_type t LEFT JOIN pg_catalog.pg_proc p ON p.oid = t.typsend
                LEFT JOIN pg_catalog.pg_type e ON e.oid = t.typelem
                LEFT JOIN pg_catalog.pg_proc ep ON ep.oid = e.typsend
            WHERE t.oid = $1::int8::oid
            """, [PostgresValue(Int64(type))])
        let kind: OwnType
        if result.rowCount == 1, result.bool(row: 0, column: 0) == true {
            kind = .enumeration
        } else if result.rowCount == 1, result.bool(row: 0, column: 1) == true,
            let array = result.int64(row: 0, column: 2), let arrayType = UInt32(exactly: array)
        {
            kind = .citext(arrayType: arrayType)
        } else if result.rowCount == 1, result.bool(row: 0, column: 3) == true,
            let element = result.int64(row: 0, column: 4), let elementType = UInt32(exactly: element)
        {
            kind = .textArray(element: elementType)
        } else {
            kind = .other
        }
        ownTypes[type] = kind
        return kind
    }

    /// The type a column of type `oid` reads and writes as, for the schema check and the schema diff: `text`
    /// for `citext`, `text[]` for an array of an enum or of `citext`, `oid` itself otherwise, and whether it is
    /// an enum (which reads as its labels' text).
    /// - Throws: ``PostgresError`` when the catalog cannot be read.
    func schemaReadType(of oid: UInt32) throws -> (oid: UInt32, isEnum: Bool) {
        switch try ownType(oid) {
        case .enumeration: return (oid, true)
        case .citext: return (PostgresType.text, false)
        case .textArray: return (PostgresType.textArray, false)
        case .other: return (oid, false)
        }
    }
}
#endif
