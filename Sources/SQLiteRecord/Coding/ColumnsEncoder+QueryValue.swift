import Foundation

extension ColumnsEncoder {
    /// `value` as one column's value, for a request: converted as ``columnValue(_:for:)`` converts a
    /// record's property (the encoder's date, UUID and Decimal strategies, an enum's raw value), except that
    /// a value that needs a container (a struct, an array) is refused rather than stored as JSON: compared
    /// with a column, JSON text would silently match nothing.
    /// - Throws: `EncodingError.invalidValue` naming `column` and the value's type.
    func queryValue<T: Encodable>(_ value: T, column: String) throws -> SQLiteValue {
        let key = ColumnCodingKey(stringValue: column)
        if T.self == Date.self || T.self == String.self || T.self == Data.self || T.self == UUID.self
            || T.self == URL.self || T.self == Decimal.self
        {
            return try columnValue(value, for: key)
        }
        let single = ColumnValueEncoder(codingPath: [key], owner: self)
        try value.encode(to: single)
        if single.needsContainer {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [key],
                    debugDescription: "\(T.self) encodes to a container of several values, not to one column's "
                        + "value; compare a column with a value of one column (for a list, use in(_:))"))
        }
        guard let encoded = single.value else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [key], debugDescription: "\(T.self) encoded nothing"))
        }
        return encoded
    }
}
