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

    /// The keyed container over the row. Each key's column comes from the result's lookup, made for the first
    /// row and reused for every other (``PostgresRows/column(for:names:)``). The types records hold most
    /// (`String`, `Int64`, `Int`, `Double`, `Bool`, `Date`, and their Optionals) are read in place from
    /// libpq's bytes when the column's type is the one that stores them (``PostgresResult/int64(row:column:)``
    /// and its siblings); every other case, and every error, goes through ``PostgresValueReader``, so a value
    /// and its error are the same on either path.
    struct RowContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: PostgresRowDecoder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { decoder.rows.columnNames.compactMap { Key(stringValue: $0) } }

        private var result: PostgresResult { decoder.rows.result }
        private var row: Int { decoder.row }

        private func column(_ key: Key) -> PostgresRows.KeyColumn {
            decoder.rows.column(for: key, names: decoder.columnNames)
        }

        func contains(_ key: Key) -> Bool { column(key).index != nil }

        private func index(_ key: Key) throws -> Int {
            let column = column(key)
            guard let index = column.index else { throw missing(key, column.name) }
            return index
        }

        @inline(never)
        private func missing(_ key: Key, _ name: String) -> DecodingError {
            DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: [key],
                    debugDescription:
                        "No column \"\(name)\" in the row; it has \(decoder.rows.columnNames.map { "\"\($0)\"" }.joined(separator: ", "))"
                ))
        }

        /// The value table's read of `column`, for what the fast paths leave: other column types, NULL, errors.
        @inline(never)
        private func read<T: Decodable>(_ type: T.Type, _ column: PostgresRows.KeyColumn, _ key: Key) throws -> T {
            guard let index = column.index else { throw missing(key, column.name) }
            return try PostgresValueReader.read(
                T.self, result.cell(row: row, column: index), column: column.name, codingPath: [key])
        }

        func decodeNil(forKey key: Key) throws -> Bool { result.isNull(row: row, column: try index(key)) }

        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            let column = column(key)
            if let index = column.index, let value = result.string(row: row, column: index) { return value }
            return try read(String.self, column, key)
        }

        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
            let column = column(key)
            if let index = column.index, let value = result.int64(row: row, column: index) { return value }
            return try read(Int64.self, column, key)
        }

        func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
            let column = column(key)
            if let index = column.index, let value = result.int64(row: row, column: index),
                let exact = Int(exactly: value)
            {
                return exact
            }
            return try read(Int.self, column, key)
        }

        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            let column = column(key)
            if let index = column.index, let value = result.double(row: row, column: index) { return value }
            return try read(Double.self, column, key)
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            let column = column(key)
            if let index = column.index, let value = result.bool(row: row, column: index) { return value }
            return try read(Bool.self, column, key)
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let column = column(key)
            if T.self == Date.self, let index = column.index,
                let micros = result.timestampMicroseconds(row: row, column: index)
            {
                return try SameTypeCast.cast(checked: PostgresValueReader.date(microseconds: micros), to: T.self)
            }
            return try read(T.self, column, key)
        }

        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            let column = column(key)
            guard let index = column.index else { return nil }
            if let value = result.string(row: row, column: index) { return value }
            if result.isNull(row: row, column: index) { return nil }
            return try read(String.self, column, key)
        }

        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
            let column = column(key)
            guard let index = column.index else { return nil }
            if let value = result.int64(row: row, column: index) { return value }
            if result.isNull(row: row, column: index) { return nil }
            return try read(Int64.self, column, key)
        }

        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
            let column = column(key)
            guard let index = column.index else { return nil }
            if let value = result.int64(row: row, column: index), let exact = Int(exactly: value) { return exact }
            if result.isNull(row: row, column: index) { return nil }
            return try read(Int.self, column, key)
        }

        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
            let column = column(key)
            guard let index = column.index else { return nil }
            if let value = result.double(row: row, column: index) { return value }
            if result.isNull(row: row, column: index) { return nil }
            return try read(Double.self, column, key)
        }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
            let column = column(key)
            guard let index = column.index else { return nil }
            if let value = result.bool(row: row, column: index) { return value }
            if result.isNull(row: row, column: index) { return nil }
            return try read(Bool.self, column, key)
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            let column = column(key)
            guard let index = column.index else { return nil }
            if T.self == Date.self, let micros = result.timestampMicroseconds(row: row, column: index) {
                return try SameTypeCast.cast(checked: PostgresValueReader.date(microseconds: micros), to: T.self)
            }
            if result.isNull(row: row, column: index) { return nil }
            return try read(T.self, column, key)
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
