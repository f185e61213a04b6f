import Foundation

/// A `Decoder` over one column: what a value type's own `init(from:)` sees (a RawRepresentable enum reads
/// its raw value here). Keyed and unkeyed containers are not offered: asking for one means the type is a
/// nested struct, array or dictionary, and ``ColumnReader/decode(_:)`` then reads the column as JSON.
struct ColumnValueDecoder: Decoder, SingleValueDecodingContainer {
    /// Thrown when the type asks for a keyed or unkeyed container; caught by ``ColumnReader/decode(_:)``.
    struct NeedsContainer: Error {}

    /// The column, read only while the row it was made for is current: it refers to the row's memory
    /// without retaining anything (see ``currentReader``).
    private let reader: ColumnReader
    /// Keeps the context alive for as long as the type's own code holds this decoder: the reader refers to it
    /// without retaining it.
    private let context: RowDecodingContext
    /// The row the reader was made for (see ``RowDecodingState/rowSerial``).
    private let rowSerial: UInt

    init(reader: ColumnReader) {
        self.reader = reader
        self.context = reader.context
        self.rowSerial = reader.state.rowSerial
    }

    /// The reader, while its row is current: a type that keeps this decoder (a wrapper that stores it for
    /// later) gets ``RowDecodingStateStorage/rowIsGone(codingPath:)`` after the row, never a later row's value
    /// or memory the statement has let go of. A serial that matches means the context is still on the row,
    /// with the state the reader points into.
    private var currentReader: ColumnReader {
        @inline(__always) get throws {
            guard context.isOnRow(rowSerial) else { throw RowDecodingStateStorage.rowIsGone(codingPath: []) }
            return reader
        }
    }

    var codingPath: [any CodingKey] { context.isOnRow(rowSerial) ? reader.codingPath : [] }
    /// Always empty, and a value: keeping it is safe.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        _ = try currentReader
        throw NeedsContainer()
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        _ = try currentReader
        throw NeedsContainer()
    }
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        _ = try currentReader
        return self
    }

    /// False once the row is gone, so that the decode that follows throws the error that says so.
    func decodeNil() -> Bool { context.isOnRow(rowSerial) && reader.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try currentReader.bool() }
    func decode(_ type: String.Type) throws -> String { try currentReader.string() }
    func decode(_ type: Double.Type) throws -> Double { try currentReader.double() }
    func decode(_ type: Float.Type) throws -> Float { try currentReader.float() }
    func decode(_ type: Int.Type) throws -> Int { try currentReader.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try currentReader.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try currentReader.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try currentReader.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try currentReader.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try currentReader.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try currentReader.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try currentReader.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try currentReader.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try currentReader.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try currentReader.decode(type) }
}
