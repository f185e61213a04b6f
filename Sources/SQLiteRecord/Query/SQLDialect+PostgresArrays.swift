/// Which Swift arrays PostgreSQL stores as its own arrays (`TEXT[]`, `BIGINT[]`...), told from a property's
/// Swift type as the schema probe prints it: what `createTable`, the schema check and the schema diff
/// declare and accept on PostgreSQL. SQLite has no array type: there every array is a nested value, stored as
/// JSON text.
extension SQLDialect {
    /// The element of an array property PostgreSQL stores as an array: `[E]`, `[E?]` or `[E]?` (printed
    /// `Array<E>`, `Array<Optional<E>>`, `Optional<Array<E>>`) where `E` is one of the value table's scalars:
    /// `String` TEXT, `Int64` and `Int` BIGINT, `Int32` INTEGER, `Int16` SMALLINT, `Double` DOUBLE PRECISION,
    /// `Float` REAL, `Bool` BOOLEAN, `Data` BYTEA, `Date` TIMESTAMPTZ, `UUID` UUID, `Decimal` NUMERIC. Nil for
    /// another type (an array of structs, of enums, of `UInt8`, of arrays), which is a nested value (JSONB).
    ///
    /// PostgresRecord's writer (`PostgresArrayElement`) writes the same list as arrays; PostgresArrayTests
    /// holds the two together (each element type's declared array, and what a save stores there).
    /// - Returns: the element's Swift name and the SQL type of its elements.
    package static func postgresArrayElement(ofValueType valueType: String) -> (swiftType: String, sqlType: String)? {
        func unwrapped(_ text: Substring, _ generic: String) -> Substring? {
            guard text.hasPrefix(generic + "<"), text.hasSuffix(">") else { return nil }
            return text.dropFirst(generic.count + 1).dropLast()
        }
        var type = Substring(valueType)
        if let wrapped = unwrapped(type, "Optional") { type = wrapped }
        guard var element = unwrapped(type, "Array") else { return nil }
        if let wrapped = unwrapped(element, "Optional") { element = wrapped }
        let sqlType: String
        switch element {
        case "String": sqlType = "TEXT"
        case "Int64", "Int": sqlType = "BIGINT"
        case "Int32": sqlType = "INTEGER"
        case "Int16": sqlType = "SMALLINT"
        case "Double": sqlType = "DOUBLE PRECISION"
        case "Float": sqlType = "REAL"
        case "Bool": sqlType = "BOOLEAN"
        case "Data": sqlType = "BYTEA"
        case "Date": sqlType = "TIMESTAMPTZ"
        case "UUID": sqlType = "UUID"
        case "Decimal": sqlType = "NUMERIC"
        default: return nil
        }
        return (String(element), sqlType)
    }
}
