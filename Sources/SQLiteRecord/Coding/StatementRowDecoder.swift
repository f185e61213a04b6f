import Foundation

/// A `Decoder` over the current row of a statement: each coding key names a column.
///
/// Rows decode into keyed types (structs with coding keys). A row of exactly one column also decodes as a
/// single value, so `SELECT count(*)` reads as an `Int`.
///
/// Made for one row, whose serial it keeps: a decoder that user code keeps past its row (a type that stores
/// it for lazy decoding) throws ``RowDecodingStateStorage/rowIsGone(codingPath:)`` from then on, rather than
/// read a later row or a statement that is gone. The context it holds stays alive with it.
struct StatementRowDecoder: Decoder {
    let context: RowDecodingContext
    /// The row this decoder was made for (see ``RowDecodingState/rowSerial``).
    let rowSerial: UInt
    var codingPath: [any CodingKey] { [] }
    /// Always empty, and a value: keeping it is safe.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard context.isOnRow(rowSerial) else { throw RowDecodingStateStorage.rowIsGone(codingPath: []) }
        return context.container(keyedBy: type)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard context.isOnRow(rowSerial) else { throw RowDecodingStateStorage.rowIsGone(codingPath: []) }
        throw DecodingError.typeMismatch(
            [Any].self,
            .init(
                codingPath: [],
                debugDescription: "A row decodes into a keyed type (a struct with coding keys) or, when it has "
                    + "one column, a single value; not an array"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard context.isOnRow(rowSerial) else { throw RowDecodingStateStorage.rowIsGone(codingPath: []) }
        guard context.columnNames.count == 1 else {
            throw DecodingError.typeMismatch(
                Any.self,
                .init(
                    codingPath: [],
                    debugDescription: "A single value decodes from a row of one column; this row has "
                        + "\(context.columnNames.count): \(context.columnNames.joined(separator: ", "))"))
        }
        return ColumnValueDecoder(reader: ColumnReader(index: 0, state: context.state, keyPosition: nil))
    }
}
