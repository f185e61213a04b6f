#if PostgreSQL
import Foundation
import SQLiteRecord

/// A `Decoder` over one result row: each coding key names a column (an exact match first, then ASCII
/// case-insensitively), read by ``PostgresValueReader``.
struct PostgresRowDecoder: Decoder {
    let rows: PostgresRows
    let row: Int
    /// Coding key to column name, when the record's decoder renames keys (snake case); nil for none.
    var columnNames: [String: String]? = nil
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self,
            DecodingError.Context(
                codingPath: [], debugDescription: "A row decodes as a keyed type (a struct), not as an array"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard rows.columnNames.count == 1 else {
            throw DecodingError.typeMismatch(
                Any.self,
                DecodingError.Context(
                    codingPath: [],
                    debugDescription: "A single value needs a row of one column; this one has \(rows.columnNames)"))
        }
        let name = rows.columnNames[0]
        return PostgresValueDecoder(
            reader: PostgresValueReader.Context(
                cell: rows.result.cell(row: row, column: 0), column: name, codingPath: []))
    }

    func column(for key: some CodingKey) -> String { columnNames?[key.stringValue] ?? key.stringValue }

    /// The keyed container over the row. Each key's column comes from the layout's lookup, made for the first
    /// row of the SQL text's first result and reused for every other row of every result of it
    /// (``PostgresColumnLayout/column(for:renaming:)``).
    /// The types records hold most (`String`, `Int64`, `Int`, `Double`, `Bool`, `Date`, and their Optionals)
    /// are read in place from libpq's bytes when the column's type is the one that stores them
    /// (``PostgresResult/int64(row:column:)`` and its siblings); every other case, and every error, goes
    /// through ``PostgresValueReader``, so a value and its error are the same on either path.
    struct RowContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        /// The decoder alone, so that a copy of the container (the standard library's box makes one for every
        /// key it reads) retains the rows and the renaming, no more.
        let decoder: PostgresRowDecoder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { layout.names.compactMap { Key(stringValue: $0) } }

        private var result: PostgresResult { decoder.rows.result }
        private var layout: PostgresColumnLayout { decoder.rows.layout }
        private var row: Int { decoder.row }

        /// The index of `key`'s column, nil for none. Called once per key read: it moves the layout's
        /// position in the recorded key order.
        @inline(__always)
        private func column(_ key: Key) -> Int? { layout.column(for: key, renaming: decoder.columnNames) }

        func contains(_ key: Key) -> Bool { column(key) != nil }

        @inline(never)
        private func missing(_ key: Key) -> DecodingError {
            DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: [key],
                    debugDescription:
                        "No column \"\(decoder.column(for: key))\" in the row; it has \(layout.names.map { "\"\($0)\"" }.joined(separator: ", "))"
                ))
        }

        /// The value table's read of column `index`, for what the fast paths leave: other column types, NULL,
        /// errors.
        @inline(never)
        private func read<T: Decodable>(_ type: T.Type, _ index: Int?, _ key: Key) throws -> T {
            guard let index else { throw missing(key) }
            return try PostgresValueReader.read(
                T.self, result.cell(row: row, column: index), column: decoder.column(for: key), codingPath: [key])
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            guard let index = column(key) else { throw missing(key) }
            return result.isNull(row: row, column: index)
        }

        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            let index = column(key)
            if let index, let value = result.string(row: row, column: index) { return value }
            return try read(String.self, index, key)
        }

        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
            let index = column(key)
            if let index, let value = result.int64(row: row, column: index) { return value }
            return try read(Int64.self, index, key)
        }

        func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
            let index = column(key)
            if let index, let value = result.int64(row: row, column: index), let exact = Int(exactly: value) {
                return exact
            }
            return try read(Int.self, index, key)
        }

        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            let index = column(key)
            if let index, let value = result.double(row: row, column: index) { return value }
            return try read(Double.self, index, key)
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            let index = column(key)
            if let index, let value = result.bool(row: row, column: index) { return value }
            return try read(Bool.self, index, key)
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let index = column(key)
            if T.self == Date.self, let index, let micros = result.timestampMicroseconds(row: row, column: index) {
                return try SameTypeCast.cast(checked: PostgresValueReader.date(microseconds: micros), to: T.self)
            }
            return try read(T.self, index, key)
        }

        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            guard let index = column(key) else { return nil }
            if let value = result.string(row: row, column: index) { return value }
            if result.isNull(row: row, column: index) { return nil }
            return try read(String.self, index, key)
        }

        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
            guard let index = column(key) else { return nil }
            if let value = result.int64(row: row, column: index) { return value }
            if result.isNull(row: row, column: index) { return nil }
            return try read(Int64.self, index, key)
        }

        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
            guard let index = column(key) else { return nil }
            if let value = result.int64(row: row, column: index), let exact = Int(exactly: value) { return exact }
            if result.isNull(row: row, column: index) { return nil }
            return try read(Int.self, index, key)
        }

        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
            guard let index = column(key) else { return nil }
            if let value = result.double(row: row, column: index) { return value }
            if result.isNull(row: row, column: index) { return nil }
            return try read(Double.self, index, key)
        }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
            guard let index = column(key) else { return nil }
            if let value = result.bool(row: row, column: index) { return value }
            if result.isNull(row: row, column: index) { return nil }
            return try read(Bool.self, index, key)
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let index = column(key) else { return nil }
            if T.self == Date.self, let micros = result.timestampMicroseconds(row: row, column: index) {
                return try SameTypeCast.cast(checked: PostgresValueReader.date(microseconds: micros), to: T.self)
            }
            if result.isNull(row: row, column: index) { return nil }
            return try read(T.self, index, key)
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.typeMismatch(
                type,
                DecodingError.Context(
                    codingPath: [key],
                    debugDescription: "Column \"\(key.stringValue)\" is one value; decode a Decodable type from it"))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch(
                [Any].self,
                DecodingError.Context(
                    codingPath: [key],
                    debugDescription: "Column \"\(key.stringValue)\" is one value; decode an array type from it"))
        }

        func superDecoder() throws -> any Decoder { decoder }
        func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
    }
}
#endif
