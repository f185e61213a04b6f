#if PostgreSQL
import Foundation
import SQLiteRecord

// The PostgreSQL decoder's reused memory: a reader's current result (its cells) and row, and for each key type
// its containers decode, a view storage (the position, the reader, the column of each key), in raw memory the
// reader owns, which the keyed container reads through a view of one word, the storage's address
// (`UnsafeMutablePointer`, `UnsafeBufferPointer`, `Unmanaged`, `unsafelyUnwrapped`). The standard library's
// keyed container box copies its container for every key it decodes; a container of one word of plain data
// costs that copy no retain, no release and no `memcpy`. Pinned by `PostgresRowDecoderTests`' containers kept
// past their rows, under the address sanitizer (`Scripts/sanitizers.sh`).
//
// Invariant: a `PostgresRowReader` allocates its position in `init` and a key type's view storage and column
// table when a container of that key type is first made, and frees them in `deinit`; its `rows` keeps alive
// the result the position's cells name. A `PostgresRowView` is read only while its reader lives: an unboxed
// container retains its reader itself; a boxed container's reader is held by the `PostgresRowDecoding` that
// boxed it, and once that decoding ends with the box held elsewhere (a type kept its container past its row),
// by `RevokedRowStates` for as long as the box is held. Nothing moves a reader but its decoding, so a kept
// container reads the row it was kept on.

/// What the decoders of a result's rows read: the result and its layout, the record's renaming of its keys,
/// the JSON decoder of its nested values, and the row being decoded.
///
/// Held by the ``PostgresRowDecoding`` that moves it from row to row (and, for a lookup of one row, from result
/// to result of one SQL text), and by the keyed containers handed out for its rows (see the invariant at the
/// top of this file). Its ``row`` and rows move only while nothing handed out for an earlier row still holds
/// it (see ``PostgresRowDecoding``), so every container reads the row it was made for.
final class PostgresRowReader {
    private(set) var rows: PostgresRows
    private(set) var result: PostgresResult
    /// The layout of ``rows``: read through them, so that a reader its layout keeps (parked on empty rows of
    /// another layout) holds no reference back to that layout.
    var layout: PostgresColumnLayout { rows.layout }
    /// Coding key to column name, when the record's decoder renames keys (snake case); nil for none.
    let columnNames: [String: String]?
    /// The record's `RowDecoder.jsonDecoder`: what reads its nested values (JSONB).
    let jsonDecoder: JSONDecoder
    /// True for raw SQL (a query of the caller's own, a request's own selection), where an Optional key
    /// with no column decodes as nil, as Codable's `decodeIfPresent` does, so partial SELECTs work; false
    /// where the library wrote the SELECT from the record's table, where such a key is a misspelling or a
    /// property the table lacks and throws `keyNotFound` at the first fetch (DESIGN.md's rule, the same as
    /// SQLiteRecord's).
    let missingOptionalColumnIsNil: Bool
    /// The result and row read now, for the containers' views.
    private let position: UnsafeMutablePointer<PostgresRowPosition>
    /// What the containers of each key type read: the position, this reader, and the column of each key by
    /// its byte (see ``PostgresColumnLayout/keyColumns(for:renaming:)``), one allocation per key type.
    private var viewStorages: [ObjectIdentifier: UnsafeMutablePointer<PostgresRowViewStorage>] = [:]

    init(
        rows: PostgresRows, row: Int, columnNames: [String: String]?, jsonDecoder: JSONDecoder,
        missingOptionalColumnIsNil: Bool
    ) {
        self.rows = rows
        result = rows.result
        self.columnNames = columnNames
        self.jsonDecoder = jsonDecoder
        self.missingOptionalColumnIsNil = missingOptionalColumnIsNil
        position = .allocate(capacity: 1)
        position.initialize(to: PostgresRowPosition(cells: rows.result.cells, row: row))
    }

    deinit {
        position.deinitialize(count: 1)
        position.deallocate()
        for storage in viewStorages.values {
            storage.pointee.keyColumns.deallocate()
            storage.deinitialize(count: 1)
            storage.deallocate()
        }
    }

    /// The row read now.
    var row: Int {
        @inline(__always) get { position.pointee.row }
        @inline(__always) set { position.pointee.row = newValue }
    }

    /// Moves the reader to row `row` of `rows`, a result of the same layout.
    func read(_ rows: PostgresRows, row: Int) {
        self.rows = rows
        result = rows.result
        position.pointee = PostgresRowPosition(cells: rows.result.cells, row: row)
    }

    /// A reader of the same result and coders, on `row`.
    func copy(row: Int) -> PostgresRowReader {
        PostgresRowReader(
            rows: rows, row: row, columnNames: columnNames, jsonDecoder: jsonDecoder,
            missingOptionalColumnIsNil: missingOptionalColumnIsNil)
    }

    /// The view a keyed container of `Key` reads this reader through, made with its key table on first use.
    func view<Key: CodingKey>(keyedBy type: Key.Type) -> PostgresRowView {
        let identifier = ObjectIdentifier(type)
        if let known = viewStorages[identifier] { return PostgresRowView(known) }
        let columns = layout.keyColumns(for: type, renaming: columnNames)
        let table = UnsafeMutableBufferPointer<Int32>.allocate(capacity: columns.count)
        _ = table.initialize(from: columns)
        let storage = UnsafeMutablePointer<PostgresRowViewStorage>.allocate(capacity: 1)
        storage.initialize(
            to: PostgresRowViewStorage(
                position: position, reader: .passUnretained(self), keyColumns: UnsafeBufferPointer(table)))
        viewStorages[identifier] = storage
        return PostgresRowView(storage)
    }

    /// The column name `key` reads (renamed when the record renames its keys), for messages.
    func column(for key: some CodingKey) -> String { columnNames?[key.stringValue] ?? key.stringValue }

    /// The value table's read of column `index` of the current row.
    /// - Throws: as ``PostgresValueReader/read(_:_:column:codingPath:jsonDecoder:)``.
    func read<T: Decodable>(_ type: T.Type, column index: Int, key: some CodingKey) throws -> T {
        try PostgresValueReader.read(
            T.self, result.cell(row: row, column: index), column: column(for: key), codingPath: [key],
            jsonDecoder: jsonDecoder)
    }
}

/// A reader's result's cells (its `rows` holds the result), and row.
struct PostgresRowPosition {
    var cells: PostgresCells
    var row: Int
}

/// What the keyed containers of one key type read: the reader's position, the reader, and the key table. In
/// memory the reader owns, valid while it lives (the invariant at the top of this file).
struct PostgresRowViewStorage {
    let position: UnsafeMutablePointer<PostgresRowPosition>
    let reader: Unmanaged<PostgresRowReader>
    /// The column of each key by its byte, -1 where the table does not tell; empty for a key type with no
    /// table.
    let keyColumns: UnsafeBufferPointer<Int32>
}

/// What a keyed container reads for every column: the address of its ``PostgresRowViewStorage``, valid while
/// its reader lives (the invariant at the top of this file).
///
/// Held as an integer: one word of plain data with no spare bit pattern, which the runtime copies as one word
/// (its common value witnesses for 8-byte integers). The standard library's box copies the container for every
/// key it decodes; a pointer, which has a spare pattern (nil), or several words would be copied through the
/// runtime's generic copy of plain data, a `memcpy`.
struct PostgresRowView {
    private let address: UInt

    fileprivate init(_ storage: UnsafeMutablePointer<PostgresRowViewStorage>) {
        address = UInt(bitPattern: storage)
    }

    private var storage: UnsafeMutablePointer<PostgresRowViewStorage> {
        // The address of a live allocation (see `init`), never 0: unwrapped unchecked.
        @inline(__always) get {
            UnsafeMutablePointer<PostgresRowViewStorage>(bitPattern: address).unsafelyUnwrapped
        }
    }

    /// The column of `key` in the key table of its type, by the key's byte; nil where the table does not
    /// tell, and for a key type with no table.
    ///
    /// A key table is made only for a key type of plain data of at most one byte, and has an entry for each
    /// of the 256 values of that byte (``PostgresColumnLayout/keyColumns(for:renaming:)``, which reads keys'
    /// bytes through SQLiteRecord's `KeyIdentity`), so a key's byte (none for a type of no size) indexes it
    /// without asking the key type again.
    @inline(__always)
    func tableColumn<Key>(of key: Key) -> Int? {
        let keyColumns = storage.pointee.keyColumns
        guard keyColumns.count == 256 else { return nil }
        let column = keyColumns[MemoryLayout<Key>.size == 1 ? Int(unsafeBitCast(key, to: UInt8.self)) : 0]
        return column >= 0 ? Int(column) : nil
    }

    /// The reader's current row.
    var row: Int { storage.pointee.position.pointee.row }

    /// The reader's current result's cells and row.
    var current: PostgresRowPosition {
        @inline(__always) get { storage.pointee.position.pointee }
    }

    /// The reader, for what a column's fast path leaves: a key with no table entry, other column types,
    /// NULL, errors.
    var reader: PostgresRowReader { storage.pointee.reader.takeUnretainedValue() }
}
#endif
