import Foundation

/// The reads of a ``FetchedRow`` on an engine other than SQLite: how one ``FetchableRecord/init(row:)`` reads
/// the rows of every engine. An engine's module implements it over its result and lends its rows with
/// ``FetchedRow/init(engine:row:)``; the row's subscripts then call it. SQLite's own rows are read from the
/// statement in place and never come here.
///
/// Every read converts as the engine's decoder converts one column, with its `DecodingError`s, so that a
/// value and its error are the same through `init(row:)` and `init(from:)`. Names match as the engine's
/// decoder matches them. The typed reads are the ones an engine can do in place, without the decoder; the
/// row's subscripts read every other type through ``decode(_:row:column:)``.
@_spi(RecordEngine)
public protocol EngineRowReader: AnyObject {
    /// The number of columns of every row.
    var columnCount: Int { get }

    /// The column names, in order, as the result names them.
    var resultColumnNames: [String] { get }

    /// True when a column is named `name`, as the engine matches names.
    func hasColumn(_ name: String) -> Bool

    /// The index of the column named `name`.
    /// - Throws: `keyNotFound` for a name no column has.
    func columnIndex(named name: String) throws -> Int

    /// The index of the column named `name`, nil for no such column where a missing Optional column reads
    /// as nil (raw SQL).
    /// - Throws: `keyNotFound` for a name no column has where the library wrote the SELECT.
    func columnIndexIfPresent(named name: String) throws -> Int?

    /// True when column `column` of row `row` is NULL; false past the last column, which the read then
    /// reports.
    func isNull(row: Int, column: Int) -> Bool

    /// Column `column` of row `row` as `T`, by the engine's decoder's rules for one column.
    /// - Throws: `keyNotFound` past the last column; `valueNotFound`, `typeMismatch` or `dataCorrupted` as
    ///   the decoder throws them.
    func decode<T: Decodable>(_ type: T.Type, row: Int, column: Int) throws -> T

    /// Column `column` of row `row` as a `String`; the errors of ``decode(_:row:column:)``.
    func string(row: Int, column: Int) throws -> String
    /// Column `column` of row `row` as an `Int64`; the errors of ``decode(_:row:column:)``.
    func int64(row: Int, column: Int) throws -> Int64
    /// Column `column` of row `row` as an `Int`; the errors of ``decode(_:row:column:)``.
    func int(row: Int, column: Int) throws -> Int
    /// Column `column` of row `row` as a `Double`; the errors of ``decode(_:row:column:)``.
    func double(row: Int, column: Int) throws -> Double
    /// Column `column` of row `row` as a `Bool`; the errors of ``decode(_:row:column:)``.
    func bool(row: Int, column: Int) throws -> Bool
    /// Column `column` of row `row` as a `Date`; the errors of ``decode(_:row:column:)``.
    func date(row: Int, column: Int) throws -> Date
}
