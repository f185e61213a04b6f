#if PostgreSQL
import Foundation

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

    struct RowContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: PostgresRowDecoder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { decoder.rows.columnNames.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { decoder.rows.columnIndex(decoder.column(for: key)) != nil }

        private func index(_ key: Key) throws -> Int {
            let name = decoder.column(for: key)
            guard let index = decoder.rows.columnIndex(name) else {
                throw DecodingError.keyNotFound(
                    key,
                    DecodingError.Context(
                        codingPath: [key],
                        debugDescription:
                            "No column \"\(name)\" in the row; it has \(decoder.rows.columnNames.map { "\"\($0)\"" }.joined(separator: ", "))"
                    ))
            }
            return index
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            if case .null = decoder.rows.result.cell(row: decoder.row, column: try index(key)) { return true }
            return false
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let cell = decoder.rows.result.cell(row: decoder.row, column: try index(key))
            return try PostgresValueReader.read(T.self, cell, column: decoder.column(for: key), codingPath: [key])
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let index = decoder.rows.columnIndex(decoder.column(for: key)) else { return nil }
            let cell = decoder.rows.result.cell(row: decoder.row, column: index)
            if case .null = cell { return nil }
            return try PostgresValueReader.read(T.self, cell, column: decoder.column(for: key), codingPath: [key])
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
