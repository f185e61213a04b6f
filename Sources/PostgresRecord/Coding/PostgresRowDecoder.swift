#if PostgreSQL
import Foundation
import SQLiteRecord

/// Decodes the rows of one result, one after the other, through one reader and one keyed container: a
/// synthesized `init(from:)` asks for its container on every row, and making one costs an allocation and two
/// generic metadata lookups, so the container made for the first row is kept in a box
/// (SQLiteRecord's `KeyedContainerBox`, the owner of that trick) and handed out again while its key type is
/// the one asked for.
///
/// A row's decoder and containers hold their reader, so the reader moves to the next row only when nothing
/// else holds them once the row is decoded: this object (the decoders' only reference) is uniquely referenced
/// and no copy of the boxed container is held elsewhere. A type that keeps either past its row (a class that
/// stores its decoder) leaves this object and its reader on that row for good, and the next rows go on
/// through a fresh one (``next(row:)``), so a kept decoder or container still reads its own row.
final class PostgresRowDecoding {
    let reader: PostgresRowReader
    private var box: ReusableContainerBox?
    /// True once a container was handed out that no box holds: nothing can tell whether it was kept.
    private var handedOutUnboxedContainer = false

    init(reader: PostgresRowReader) { self.reader = reader }

    /// A boxed container reads its reader unretained: when user code still holds it, the reader is kept
    /// for as long as it does (the invariant of `PostgresRowReader.swift`).
    deinit {
        if let box, box.isHeldElsewhere { RevokedRowStates.shared.keep(reader, whileHeld: [box]) }
    }

    /// True when something made for the current row may outlive it: a keyed container the type kept, or one
    /// no box tracks.
    var containerMayBeKept: Bool { handedOutUnboxedContainer || box?.isHeldElsewhere == true }

    /// A decoding of the same result on `row`, for the rows after one whose decoder or container was kept.
    func next(row: Int) -> PostgresRowDecoding { PostgresRowDecoding(reader: reader.copy(row: row)) }

    /// The keyed container for the current row: the boxed one when its key type is `Key`.
    @inline(__always)
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        guard let box else { return makeContainer(keyedBy: type) }
        return box.decodingContainer(keyedBy: type) { makeContainer(keyedBy: type) }
    }

    /// Makes the keyed container, and keeps it boxed for the next rows when no other is boxed. Not inlined,
    /// so that its metadata lookups stay out of ``container(keyedBy:)``.
    @inline(never)
    private func makeContainer<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        let view = reader.view(keyedBy: type)
        if box == nil {
            // Plain data: this decoding holds the reader for it, and hands it on when it ends (`deinit`).
            let container = KeyedDecodingContainer(PostgresRowContainer<Key, Unretained>(view: view, retainer: Unretained()))
            if let boxed = KeyedContainerBox(container, keyedBy: type) {
                box = boxed
                return container
            }
        }
        handedOutUnboxedContainer = true
        return KeyedDecodingContainer(PostgresRowContainer<Key, PostgresRowReader>(view: view, retainer: reader))
    }

    /// Row `row` of `rows` decoded as `T` (through its row initializer when it is a
    /// `FetchableRecord`), through the decoding its layout kept from the last call that decoded as this one
    /// (see ``decoding(of:row:columnNames:jsonDecoder:missingOptionalColumnIsNil:)``), and keeps its own,
    /// moved off `rows` (``PostgresColumnLayout/keep(_:)``), when nothing made for the row was kept.
    /// - Throws: as ``PostgresRow/decode(_:)``.
    static func decodeOne<T: Decodable>(
        _ type: T.Type, _ rows: PostgresRows, row: Int, columnNames: [String: String]?, jsonDecoder: JSONDecoder,
        missingOptionalColumnIsNil: Bool
    ) throws -> T {
        var decoding = decoding(
            of: rows, row: row, columnNames: columnNames, jsonDecoder: jsonDecoder,
            missingOptionalColumnIsNil: missingOptionalColumnIsNil)
        let value: T
        if let rowType = PostgresRowInitializer.type(of: T.self) {
            value = try PostgresRowInitializer.make(rowType, decoding.reader, as: T.self)
        } else {
            value = try T(from: PostgresRowDecoder(decoding: decoding))
        }
        if rows.count == 1, isKnownUniquelyReferenced(&decoding), !decoding.containerMayBeKept {
            rows.layout.keep(decoding)
        }
        return value
    }

    /// Every row of `rows` decoded as `T`, through its row initializer when it is a `FetchableRecord`. The
    /// Codable path goes through the decoding `rows`' layout kept from the last call that decoded as this
    /// one, and keeps its own, moved off `rows` (``PostgresColumnLayout/keep(_:)``), when nothing made for
    /// the rows was kept: a loop of fetches of one SQL text makes no reader, view or container after the first.
    /// - Throws: the first row's `DecodingError` (see ``PostgresRow/decode(_:)``).
    static func decodeAll<T: Decodable>(
        _ type: T.Type, _ rows: PostgresRows, columnNames: [String: String]?, jsonDecoder: JSONDecoder,
        missingOptionalColumnIsNil: Bool
    ) throws -> [T] {
        let count = rows.count
        guard count > 0 else { return [] }
        if let rowType = PostgresRowInitializer.type(of: T.self) {
            let reader = PostgresRowReader(
                rows: rows, row: 0, columnNames: columnNames, jsonDecoder: jsonDecoder,
                missingOptionalColumnIsNil: missingOptionalColumnIsNil)
            return try PostgresRowInitializer.makeAll(rowType, reader, as: T.self)
        }
        var last: PostgresRowDecoding?
        // ``PostgresRowsDecoder``'s loop, written out: the rows in order, each decoding checked once it ends.
        // Each value is made where the array keeps it (no append through unspecialized code), and
        // `initialized` counts the values made, so a throw destroys exactly those.
        let values = try [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let start = buffer.baseAddress else { return }
            var decoding = decoding(
                of: rows, row: 0, columnNames: columnNames, jsonDecoder: jsonDecoder,
                missingOptionalColumnIsNil: missingOptionalColumnIsNil)
            for row in 0..<count {
                decoding.reader.row = row
                (start + row).initialize(to: try T(from: PostgresRowDecoder(decoding: decoding)))
                initialized = row + 1
                if !isKnownUniquelyReferenced(&decoding) || decoding.containerMayBeKept {
                    decoding = decoding.next(row: row + 1)
                }
            }
            last = consume decoding
        }
        // Unique and holding nothing kept: the loop moved on from any decoding a row kept.
        if let last { rows.layout.keep(last) }
        return values
    }

    /// The decoding `rows`' layout kept (``PostgresColumnLayout/takeKeptDecoding()``), moved to row `row` of
    /// `rows`, when it decodes as asked (same renaming, same JSON decoder, same rule for missing Optional
    /// columns); else a new one.
    private static func decoding(
        of rows: PostgresRows, row: Int, columnNames: [String: String]?, jsonDecoder: JSONDecoder,
        missingOptionalColumnIsNil: Bool
    ) -> PostgresRowDecoding {
        if let kept = rows.layout.takeKeptDecoding(), kept.reader.jsonDecoder === jsonDecoder,
            kept.reader.columnNames == columnNames,
            kept.reader.missingOptionalColumnIsNil == missingOptionalColumnIsNil
        {
            kept.reader.read(rows, row: row)
            return kept
        }
        return PostgresRowDecoding(
            reader: PostgresRowReader(
                rows: rows, row: row, columnNames: columnNames, jsonDecoder: jsonDecoder,
                missingOptionalColumnIsNil: missingOptionalColumnIsNil))
    }
}

/// The rows of one result decoded as one type, in any order and any subset (a join's rows, an eager load's
/// children), through one ``PostgresRowDecoding`` while nothing made for a row is kept past it.
struct PostgresRowsDecoder {
    private var decoding: PostgresRowDecoding

    /// A decoder of `rows` where the library wrote the SELECT: an Optional key with no column throws.
    init(_ rows: PostgresRows, columnNames: [String: String]?, jsonDecoder: JSONDecoder) {
        decoding = PostgresRowDecoding(
            reader: PostgresRowReader(
                rows: rows, row: 0, columnNames: columnNames, jsonDecoder: jsonDecoder,
                missingOptionalColumnIsNil: false))
    }

    /// Row `row` decoded as `T`, through its row initializer when it is a `FetchableRecord`.
    /// - Throws: as ``PostgresRow/decode(_:)``.
    mutating func decode<T: Decodable>(_ type: T.Type, row: Int) throws -> T {
        decoding.reader.row = row
        if let rowType = PostgresRowInitializer.type(of: T.self) {
            return try PostgresRowInitializer.make(rowType, decoding.reader, as: T.self)
        }
        // Checked on every way out, a throw too: a type may keep its decoder and then throw.
        defer {
            if !isKnownUniquelyReferenced(&decoding) || decoding.containerMayBeKept {
                decoding = decoding.next(row: row)
            }
        }
        return try T(from: PostgresRowDecoder(decoding: decoding))
    }
}

/// A `Decoder` over one result row: each coding key names a column (an exact match first, then ASCII
/// case-insensitively), read by ``PostgresValueReader``.
struct PostgresRowDecoder: Decoder {
    let decoding: PostgresRowDecoding
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(decoding: PostgresRowDecoding) { self.decoding = decoding }

    /// A decoder of row `row` of `rows` alone, a result of raw SQL: an Optional key with no column is nil.
    init(
        rows: PostgresRows, row: Int, columnNames: [String: String]? = nil,
        jsonDecoder: JSONDecoder = PostgresValueReader.defaultJSONDecoder
    ) {
        decoding = PostgresRowDecoding(
            reader: PostgresRowReader(
                rows: rows, row: row, columnNames: columnNames, jsonDecoder: jsonDecoder,
                missingOptionalColumnIsNil: true))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        decoding.container(keyedBy: type)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self,
            DecodingError.Context(
                codingPath: [], debugDescription: "A row decodes as a keyed type (a struct), not as an array"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        let reader = decoding.reader
        guard reader.layout.names.count == 1 else {
            throw DecodingError.typeMismatch(
                Any.self,
                DecodingError.Context(
                    codingPath: [],
                    debugDescription:
                        "A single value needs a row of one column; this one has \(reader.layout.names)"))
        }
        let name = reader.layout.names[0]
        return PostgresValueDecoder(
            reader: PostgresValueReader.Context(
                cell: reader.result.cell(row: reader.row, column: 0), column: name, codingPath: [],
                jsonDecoder: reader.jsonDecoder))
    }
}

/// The keyed container over a row. A key's column comes from the layout's table for its key type
/// (``PostgresColumnLayout/keyColumns(for:renaming:)``, one array read for a `CodingKeys` enum), else from
/// the layout's lookup (``PostgresColumnLayout/column(for:renaming:)``).
/// The types records hold most (`String`, `Int64`, `Int`, `Double`, `Bool`, `Date`, and their Optionals)
/// are read in place from libpq's bytes when the column's type is the one that stores them
/// (``PostgresResult/int64(row:column:)`` and its siblings); every other case, and every error, goes
/// through ``PostgresValueReader``, so a value and its error are the same on either path.
///
/// Plain data (a ``PostgresRowView`` and, for a container no box keeps, its reader as `Retainer`), so that
/// the copy the standard library's box makes of it for every key it reads retains nothing.
struct PostgresRowContainer<Key: CodingKey, Retainer>: KeyedDecodingContainerProtocol {
    let view: PostgresRowView
    /// The reader, for a container no decoding holds the reader of; ``Unretained`` for a boxed one.
    let retainer: Retainer

    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { reader.layout.names.compactMap { Key(stringValue: $0) } }

    private var reader: PostgresRowReader { view.reader }
    private var row: Int { view.row }

    /// The index of `key`'s column, -1 for none: from its key type's table, else by its name.
    @inline(__always)
    private func column(_ key: Key) -> Int {
        view.tableColumn(of: key) ?? lookUpColumn(key)
    }

    /// The index of `key`'s column by its name: a key type with no table, or a key the table does not tell.
    @inline(never)
    private func lookUpColumn(_ key: Key) -> Int {
        reader.layout.column(for: key, renaming: reader.columnNames) ?? -1
    }

    func contains(_ key: Key) -> Bool { column(key) >= 0 }

    @inline(never)
    private func missing(_ key: Key) -> DecodingError {
        DecodingError.keyNotFound(
            key,
            DecodingError.Context(
                codingPath: [key],
                debugDescription:
                    "No column \"\(reader.column(for: key))\" in the row; it has \(reader.layout.names.map { "\"\($0)\"" }.joined(separator: ", "))"
            ))
    }

    /// What `decodeIfPresent` gives for a key with no column: nil in raw SQL, `keyNotFound` where the
    /// library wrote the SELECT (``PostgresRowReader/missingOptionalColumnIsNil``).
    @inline(never)
    private func absent<T>(_ key: Key) throws -> T? {
        if reader.missingOptionalColumnIsNil { return nil }
        throw missing(key)
    }

    /// The value table's read of column `index`, for what the fast paths leave: other column types, NULL,
    /// errors.
    @inline(never)
    private func read<T: Decodable>(_ type: T.Type, _ index: Int, _ key: Key) throws -> T {
        guard index >= 0 else { throw missing(key) }
        return try reader.read(T.self, column: index, key: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        let index = column(key)
        guard index >= 0 else { throw missing(key) }
        return view.current.cells.isNull(row: view.row, column: index)
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let index = column(key)
        if index >= 0, let value = view.current.cells.string(row: view.row, column: index) { return value }
        return try read(String.self, index, key)
    }

    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        let index = column(key)
        if index >= 0, let value = view.current.cells.int64(row: view.row, column: index) { return value }
        return try read(Int64.self, index, key)
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        let index = column(key)
        if index >= 0, let value = view.current.cells.int64(row: view.row, column: index), let exact = Int(exactly: value) {
            return exact
        }
        return try read(Int.self, index, key)
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        let index = column(key)
        if index >= 0, let value = view.current.cells.double(row: view.row, column: index) { return value }
        return try read(Double.self, index, key)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let index = column(key)
        if index >= 0, let value = view.current.cells.bool(row: view.row, column: index) { return value }
        return try read(Bool.self, index, key)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let index = column(key)
        if T.self == Date.self, index >= 0, let micros = view.current.cells.timestampMicroseconds(row: view.row, column: index) {
            return try SameTypeCast.cast(checked: PostgresValueReader.date(microseconds: micros), to: T.self)
        }
        return try read(T.self, index, key)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        let index = column(key)
        guard index >= 0 else { return try absent(key) }
        if let value = view.current.cells.string(row: view.row, column: index) { return value }
        if view.current.cells.isNull(row: view.row, column: index) { return nil }
        return try read(String.self, index, key)
    }

    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        let index = column(key)
        guard index >= 0 else { return try absent(key) }
        if let value = view.current.cells.int64(row: view.row, column: index) { return value }
        if view.current.cells.isNull(row: view.row, column: index) { return nil }
        return try read(Int64.self, index, key)
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        let index = column(key)
        guard index >= 0 else { return try absent(key) }
        if let value = view.current.cells.int64(row: view.row, column: index), let exact = Int(exactly: value) { return exact }
        if view.current.cells.isNull(row: view.row, column: index) { return nil }
        return try read(Int.self, index, key)
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        let index = column(key)
        guard index >= 0 else { return try absent(key) }
        if let value = view.current.cells.double(row: view.row, column: index) { return value }
        if view.current.cells.isNull(row: view.row, column: index) { return nil }
        return try read(Double.self, index, key)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        let index = column(key)
        guard index >= 0 else { return try absent(key) }
        if let value = view.current.cells.bool(row: view.row, column: index) { return value }
        if view.current.cells.isNull(row: view.row, column: index) { return nil }
        return try read(Bool.self, index, key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let index = column(key)
        guard index >= 0 else { return try absent(key) }
        if T.self == Date.self, let micros = view.current.cells.timestampMicroseconds(row: view.row, column: index) {
            return try SameTypeCast.cast(checked: PostgresValueReader.date(microseconds: micros), to: T.self)
        }
        if view.current.cells.isNull(row: view.row, column: index) { return nil }
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

    /// A decoder of this container's row alone, through a reader of its own: it keeps reading this row
    /// whatever the fetch decodes next.
    func superDecoder() throws -> any Decoder {
        PostgresRowDecoder(decoding: PostgresRowDecoding(reader: reader.copy(row: row)))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { try superDecoder() }
}
#endif
