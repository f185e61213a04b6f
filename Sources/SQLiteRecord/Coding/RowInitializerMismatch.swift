/// Thrown by ``FetchableRecord/checkRowInitializer(_:sql:arguments:decoder:)`` for a row that a type's
/// ``FetchableRecord/init(row:)`` and its `Decodable` `init(from:)` read differently.
public struct RowInitializerMismatch: Error, CustomStringConvertible {
    /// The type whose two initializers disagree.
    public let type: Any.Type
    /// The row, counted from 0 in the order the query returned it.
    public let rowIndex: Int
    /// The row's columns and values.
    public let row: Row
    /// What `init(row:)` made of the row: the value, or the error it threw.
    public let rowInitializerResult: String
    /// What `init(from:)` made of the row: the value, or the error it threw.
    public let decodableResult: String

    /// `City: row 3 [id: 4, ...] reads differently: init(row:) gave ..., init(from:) gave ...`.
    public var description: String {
        "\(type): row \(rowIndex) \(row) reads differently: init(row:) gave \(rowInitializerResult); "
            + "init(from:) gave \(decodableResult)"
    }
}
