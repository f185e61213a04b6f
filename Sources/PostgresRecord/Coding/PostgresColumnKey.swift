#if PostgreSQL
/// A coding key naming a column, for coding paths and errors.
struct PostgresColumnKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = String(intValue) }
}

/// Thrown by the single-value coders when a type asks for a keyed or unkeyed container: the value is a
/// nested one, which the column holds as JSON. Caught by the reader and writer, never by the user.
struct NestedValueRequest: Error {}
#endif
