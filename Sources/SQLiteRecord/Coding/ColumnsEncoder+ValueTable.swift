import Foundation

/// How a ``ColumnsEncoder`` converts a value to the ``SQLiteValue`` the value table gives, under its
/// strategies, and names its column in errors.
extension ColumnsEncoder {
    /// The column a key names under the key strategy.
    func columnName<Key: CodingKey>(for key: Key) -> String {
        switch options.keyEncodingStrategy {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return KeyCase.snakeCase(key.stringValue)
        }
    }

    /// `column "name" of table "cities"`, or `column "name"` when the table is unknown.
    func describeColumn<Key: CodingKey>(_ key: Key) -> String {
        guard let tableName else { return "column \"\(columnName(for: key))\"" }
        return "column \"\(columnName(for: key))\" of table \"\(tableName)\""
    }

    func real<Key: CodingKey>(_ value: Double, type: Any.Type, for key: Key) throws -> SQLiteValue {
        // sqlite3_bind_double stores NaN as NULL: refuse rather than lose the value silently.
        guard !value.isNaN else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [key],
                    debugDescription: "Cannot store \(type) NaN in \(describeColumn(key)): " + RecordError.nanRefusal))
        }
        return .real(value)
    }

    func integer<T: FixedWidthInteger, Key: CodingKey>(_ value: T, for key: Key) throws -> SQLiteValue {
        guard let integer = Int64(exactly: value) else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [key],
                    debugDescription:
                        "Cannot store \(T.self) \(value) in \(describeColumn(key)): SQLite integers are 64-bit signed, at most \(Int64.max)"
                ))
        }
        return .integer(integer)
    }

    /// The value table's fast paths (Date, Data, UUID, URL, Decimal), then the type's own `encode(to:)` into
    /// one column (RawRepresentable enums store their raw value), then JSON text for types that encode a
    /// keyed or unkeyed container.
    func columnValue<T: Encodable, Key: CodingKey>(_ value: T, for key: Key) throws -> SQLiteValue {
        // Type comparisons and identity casts (SameTypeCast) rather than `as?`: a dynamic cast per value costs
        // more than binding it.
        if T.self == Date.self {
            return try dateValue(try SameTypeCast.cast(checked: value, to: Date.self), for: key)
        }
        if T.self == String.self { return .text(try SameTypeCast.cast(checked: value, to: String.self)) }
        if T.self == Data.self { return .blob(try SameTypeCast.cast(checked: value, to: Data.self)) }
        if T.self == UUID.self {
            let uuid = try SameTypeCast.cast(checked: value, to: UUID.self)
            switch options.uuidEncodingStrategy {
            case .lowercaseText: return .text(UUIDText.lowercase(uuid))
            case .blob:
                let bytes = uuid.uuid
                return .blob(
                    Data([
                        bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5, bytes.6, bytes.7,
                        bytes.8, bytes.9, bytes.10, bytes.11, bytes.12, bytes.13, bytes.14, bytes.15,
                    ]))
            }
        }
        if T.self == URL.self { return .text(try SameTypeCast.cast(checked: value, to: URL.self).absoluteString) }
        if T.self == Decimal.self {
            let decimal = try SameTypeCast.cast(checked: value, to: Decimal.self)
            guard decimal.isFinite else {
                throw EncodingError.invalidValue(
                    decimal,
                    .init(codingPath: [key], debugDescription: "Cannot store a NaN Decimal in \(describeColumn(key))"))
            }
            // INTEGER, REAL or TEXT, whichever keeps every digit and compares as a number (see the conformance).
            return decimal.sqliteValue
        }
        let single = ColumnValueEncoder(codingPath: [key], owner: self)
        // The value's own code may keep the encoder: it throws once this column is done.
        defer { single.finish() }
        try value.encode(to: single)
        if single.needsContainer {
            do {
                let json = try options.jsonEncoder.encode(value)
                return .text(String(decoding: json, as: UTF8.self))
            } catch {
                throw EncodingError.invalidValue(
                    value,
                    .init(
                        codingPath: [key],
                        debugDescription: "Cannot store \(T.self) as JSON in \(describeColumn(key)): \(error)",
                        underlyingError: error))
            }
        }
        guard let encoded = single.value else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: [key], debugDescription: "\(T.self) encoded nothing for \(describeColumn(key))"))
        }
        return encoded
    }

    /// A date under the date strategy.
    func dateValue<Key: CodingKey>(_ date: Date, for key: Key) throws -> SQLiteValue {
        guard !date.timeIntervalSince1970.isNaN else {
            throw EncodingError.invalidValue(
                date.timeIntervalSince1970,
                .init(codingPath: [key], debugDescription: "Cannot store a NaN date in \(describeColumn(key))"))
        }
        switch options.dateEncodingStrategy {
        case .sqliteText:
            guard let text = SQLiteDateFormat.string(from: date) else {
                // The error holds the seconds, not the Date: printing a NaN Date traps inside Foundation.
                throw EncodingError.invalidValue(
                    date.timeIntervalSince1970,
                    .init(
                        codingPath: [key],
                        debugDescription: "Cannot store \(date.timeIntervalSince1970) unix seconds in "
                            + "\(describeColumn(key)) as text: outside the years 0000-9999 that the text holds"))
            }
            return .text(text)
        case .unixSeconds:
            return try real(date.timeIntervalSince1970, type: Date.self, for: key)
        case .unixMilliseconds:
            let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
            guard let integer = Int64(exactly: milliseconds) else {
                throw EncodingError.invalidValue(
                    date.timeIntervalSince1970,
                    .init(
                        codingPath: [key],
                        debugDescription: "Cannot store \(date.timeIntervalSince1970) unix seconds in "
                            + "\(describeColumn(key)) as integer milliseconds"))
            }
            return .integer(integer)
        case .iso8601:
            return .text(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        case .formatted(let formatter):
            return .text(formatter.string(from: date))
        case .custom(let write):
            return try write(date)
        }
    }
}
