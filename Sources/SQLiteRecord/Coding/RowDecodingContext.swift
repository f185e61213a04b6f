import CSQLiteRecord
import Foundation

/// What every row of one fetch shares while it is decoded: the column lookup, the table name for errors,
/// the strategies, and one JSON decoder for nested values.
final class RowDecodingContext {
    /// Unowned: a context lives inside one fetch over its statement, or is kept by that statement's own
    /// ``StatementCodingState``, so the statement outlives every use of it here; a strong reference would
    /// make that kept context a retain cycle. Read only when a row's columns must be looked up again.
    unowned let statement: Statement
    /// The statement's current row by handle: column reads through it retain nothing.
    let row: StatementRow
    /// The table the library selected from, named in errors; nil for raw SQL.
    let tableName: String?
    /// True for raw SQL: an Optional key with no column decodes as nil, as `decodeIfPresent` does in
    /// Foundation's decoders, so partial SELECTs work. False when the library wrote the SELECT: then a
    /// misspelled key is an error at the first fetch, not a nil forever.
    let missingOptionalColumnIsNil: Bool
    let decoder: RowDecoder
    /// The statement's column lookup; replaced when SQLite prepares the statement again (see
    /// ``checkReprepare()``), which happens only between rows.
    private(set) var lookup: ColumnLookup
    /// What the keyed container and the column readers read per column (see ``RowDecodingState``), and the
    /// object that owns it. Replaced, and the old one revoked, when user code kept a row's keyed container.
    private(set) var state: RowDecodingState
    private var stateStorage: RowDecodingStateStorage
    /// The keyed container the rows of this fetch share, boxed with its key type; nil until the first row
    /// asks for one, and whenever the keyed containers' layout does not allow a box
    /// (``KeyedContainerLayout``).
    private(set) var containerBox: ReusableContainerBox?
    /// True when the current row was handed a keyed container that is not kept in `containerBox`: it is
    /// revoked when the row ends, whoever holds it.
    private var handedOutUnboxedContainer = false
    /// Boxes that `containerBox` replaced during the current row (a type that asks for containers of two key
    /// types): checked with it when the row ends.
    private var replacedBoxes: [ReusableContainerBox] = []
    /// The calls of row initializers: the statement's (``StatementCodingState/rowInitializers``), shared by
    /// every context of the statement, or this context's own when it reads a range of the columns.
    private let rowInitializers: RowInitializerCache
    /// True until the first row has compared the statement's reprepare count with the lookup's (see
    /// ``checkReprepare()``).
    private var checksReprepare = true
    /// How many rows ``RowDecoder/decode(_:from:)`` is decoding through this context as the statement's kept
    /// context (nested when a row's own code decodes the statement again): while it is not 0 the statement's
    /// coding state keeps this context alive, as that call does not retain it.
    private var keptRowDepth = 0
    var isDecodingKeptRow: Bool { keptRowDepth > 0 }

    /// ``decodeRow(_:)`` for ``RowDecoder/decode(_:from:)``, which reads this context from the statement
    /// without retaining it.
    @inline(__always)
    func decodeKeptRow<T: Decodable>(_ type: T.Type) throws -> T {
        keptRowDepth &+= 1
        defer { keptRowDepth &-= 1 }
        return try decodeRow(type)
    }

    /// True when this context keeps the keyed container it hands out in a box and hands it out again for the
    /// rows after the first: when ``KeyedContainerLayout`` proved the box sound in this process. False makes
    /// every row take the plain path (tests pin both).
    var reusesKeyedContainers = KeyedContainerLayout.isOneReference

    /// True to decode every type through `Decodable`, row initializer or not: for
    /// ``FetchableRecord/checkRowInitializer(_:sql:arguments:decoder:)``, which compares the two.
    var ignoresRowInitializers = false
    var columnNames: [String] { lookup.names }

    /// The columns this context reads, nil for all; see ``ColumnLookup/init(statement:keyStrategy:range:)``.
    let columnRange: Range<Int>?

    init(
        statement: Statement, tableName: String?, missingOptionalColumnIsNil: Bool, decoder: RowDecoder = RowDecoder(),
        columnRange: Range<Int>? = nil
    ) {
        self.statement = statement
        self.row = statement.row
        self.tableName = tableName
        self.missingOptionalColumnIsNil = missingOptionalColumnIsNil
        self.decoder = decoder
        self.columnRange = columnRange
        if let columnRange {
            lookup = ColumnLookup(statement: statement, keyStrategy: decoder.keyDecodingStrategy, range: columnRange)
            rowInitializers = statement.codingState?.rowInitializers ?? RowInitializerCache()
        } else {
            let codingState = ColumnLookup.state(of: statement, keyStrategy: decoder.keyDecodingStrategy)
            lookup = codingState.lookup
            rowInitializers = codingState.rowInitializers
        }
        let storage = RowDecodingStateStorage()
        stateStorage = storage
        state = storage.state
        // The state names this context, so it is filled in once every property is.
        fillState(rowSerial: 0)
    }

    deinit {
        // Nothing but this context should hold its state now (a container kept past its row was revoked when
        // that row ended); revoked all the same, so that no path can reach this context through it.
        stateStorage.revoke()
    }

    /// Decodes the statement's current row as `T`. A row of one column decodes Date, Data, UUID, URL and
    /// Decimal as that column's value, by the value table, rather than through their own `Decodable`.
    func decodeRow<T: Decodable>(_ type: T.Type) throws -> T {
        if checksReprepare { checkReprepare() }
        let state = self.state
        state.startRow()
        defer { endRow() }
        // The record is written straight into this function's result (see ``RowInitializerCall``).
        if let initializer = rowInitializer(for: type) { return try initializer.call(as: type, context: self) }
        if lookup.columnCount == 1, ColumnReader.readsDirectly(type) {
            return try ColumnReader(index: 0, state: state, keyPosition: nil).decode(type)
        }
        return try T(from: StatementRowDecoder(context: self, rowSerial: state.rowSerial))
    }

    /// True when `type` decodes through a row initializer (see ``appendRow(_:to:)``). Asked once per fetch.
    func hasRowInitializer<T: Decodable>(_ type: T.Type) -> Bool { rowInitializer(for: type) != nil }

    /// Decodes the statement's current row as `T` through `T`'s row initializer and appends it to
    /// `records` (see ``FetchableRecord/_appendRow(_:to:)``): for a fetch's loop, which then appends without
    /// the standard library's unspecialized generic code. A fetch calls it only for a type that
    /// ``hasRowInitializer(_:)``; for any other, the row decodes as ``decodeRow(_:)`` decodes it.
    func appendRow<T: Decodable>(_ type: T.Type, to records: inout [T]) throws {
        guard let initializer = rowInitializer(for: type) else { return records.append(try decodeRow(type)) }
        if checksReprepare { checkReprepare() }
        state.startRow()
        defer { endRow() }
        try initializer.appendRow(to: &records, context: self)
    }

    /// The call of `type`'s `init(row:)` when it is a ``FetchableRecord``, which then decodes the rows; nil
    /// for a type that decodes through `Decodable` alone, and for every type while
    /// ``ignoresRowInitializers``.
    @inline(__always)
    private func rowInitializer<T>(for type: T.Type) -> RowInitializerCallReference? {
        ignoresRowInitializers ? nil : rowInitializers.call(for: type)
    }

    /// The keyed container for the current row. The container holds nothing that changes between rows, so
    /// one serves every row of the fetch: the boxed one, when its key type is `Key`; making one anew costs two
    /// generic metadata lookups and an allocation per row.
    @inline(__always)
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        guard let box = containerBox else { return makeContainer(keyedBy: type) }
        return box.decodingContainer(keyedBy: type) { makeContainer(keyedBy: type) }
    }

    /// Makes the keyed container for the first row, and keeps it boxed when ``KeyedContainerLayout`` allows.
    /// Not inlined, so that the metadata lookups it needs stay out of ``container(keyedBy:)``.
    ///
    /// Without a box nothing can tell whether user code keeps the container: a plain container retains the
    /// state's storage itself, and the row's end revokes that state whatever happened to it. That is the
    /// default path; the box is an optimization over it.
    @inline(never)
    private func makeContainer<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        guard reusesKeyedContainers else {
            handedOutUnboxedContainer = true
            return KeyedDecodingContainer(
                RowKeyedContainer<Key, RowDecodingStateStorage>(state: state, retainer: stateStorage))
        }
        let container = KeyedDecodingContainer(RowKeyedContainer<Key, Unretained>(state: state, retainer: Unretained()))
        // A box this replaces may hold a container of this same row: the row's end checks it too.
        // Assigned rather than appended in place: an access that spans a call would keep the dynamic
        // exclusivity check on every access to the property, including the one at each row's end.
        if let replaced = containerBox { replacedBoxes = replacedBoxes + [replaced] }
        containerBox = KeyedContainerBox(container, keyedBy: type)
        if containerBox == nil { handedOutUnboxedContainer = true }
        return container
    }

    /// Ends the current row: decoders made for it no longer match the row serial, and a keyed container that
    /// user code kept past the row is revoked (see ``RowDecodingStateStorage``).
    ///
    /// Every copy of the container that the type's own `init(from:)` made has been released by now, unless
    /// the type kept one: so a box still held elsewhere means a kept container. The rows after this one then
    /// decode through a fresh state and container, and the kept one throws instead of reading them.
    @inline(__always)
    private func endRow() {
        state.endRow()
        if handedOutUnboxedContainer || !replacedBoxes.isEmpty || containerBox?.isHeldElsewhere == true {
            retireStateIfKept()
        }
    }

    /// Revokes the state when a container that refers to it is kept, and goes on with a fresh one and no
    /// container. A kept boxed container does not retain the state's storage (it is plain data, so that the
    /// standard library's box copies it for free on every call), so ``RevokedRowStates`` keeps the storage
    /// alive until user code lets go of the container.
    @inline(never)
    private func retireStateIfKept() {
        let boxes = (containerBox.map { [$0] } ?? []) + replacedBoxes
        replacedBoxes = []
        let keptBoxes = boxes.filter(\.isHeldElsewhere)
        guard handedOutUnboxedContainer || !keptBoxes.isEmpty else { return }
        let rowSerial = state.rowSerial
        stateStorage.revoke()
        if !keptBoxes.isEmpty { RevokedRowStates.shared.keep(stateStorage, whileHeld: keptBoxes) }
        containerBox = nil
        handedOutUnboxedContainer = false
        stateStorage = RowDecodingStateStorage()
        state = stateStorage.state
        fillState(rowSerial: rowSerial)
    }

    /// Fills in the state for the current lookup; its rows start after `rowSerial`.
    private func fillState(rowSerial: UInt) {
        stateStorage.initialize(
            row: row, trail: lookup.trail, readsDatesAutomatically: decoder.readsDatesAutomatically, context: self,
            rowSerial: rowSerial)
    }

    /// Takes the statement's columns anew when SQLite prepared the statement again since the lookup was made,
    /// and stops checking.
    ///
    /// The lookup was made before the fetch's first step, and that step is where SQLite prepares the statement
    /// again after a schema change: its columns may then be other names under the same count. SQLite does so
    /// only in a step that starts a run of the statement (`sqlite3_step` retries after `SQLITE_SCHEMA`, which
    /// the statement meets in its opening instructions, before any row; see
    /// <https://www.sqlite.org/c3ref/step.html>), never between two rows of one run. A context serves one run
    /// (one fetch, cursor or `decodeAll`), or is ``RowDecoder``'s kept context, whose caller compares the
    /// counts before every row it hands it. So the first row is checked, not every row: the check is a call
    /// into SQLite.
    @inline(never)
    private func checkReprepare() {
        checksReprepare = false
        if row.reprepareCount != lookup.reprepareCount { lookUpColumnsAgain() }
    }

    /// Takes the statement's columns anew, after SQLite prepared it again.
    @inline(never)
    private func lookUpColumnsAgain() {
        lookup =
            columnRange.map { ColumnLookup(statement: statement, keyStrategy: decoder.keyDecodingStrategy, range: $0) }
            ?? ColumnLookup.state(of: statement, keyStrategy: decoder.keyDecodingStrategy).lookup
        fillState(rowSerial: state.rowSerial)
    }

    /// True when a decoder made for row `rowSerial` may read: the context is still on that row.
    @inline(__always)
    func isOnRow(_ rowSerial: UInt) -> Bool { state.rowSerial == rowSerial }

    /// True when `other` decodes exactly as this context's decoder does: the same key strategy, the same JSON
    /// decoder object, and the automatic date strategy on both (see ``RowDecoder/readsDatesAutomatically``).
    /// Compares the JSON decoders by identity and the rest as flags, without copying either decoder.
    @inline(__always)
    func decodes(like other: RowDecoder) -> Bool {
        state.readsDatesAutomatically && other.readsDatesAutomatically
            && lookup.keyStrategy == other.keyDecodingStrategy && decoder.jsonDecoder === other.jsonDecoder
    }

    /// `column "name" of table "cities"`, or `column "name"` when the table is unknown. `index` is the
    /// statement's; in a joined row this context's columns start at its range's lower bound.
    func describeColumn(at index: Int32) -> String {
        let own = Int(index) - (columnRange?.lowerBound ?? 0)
        let name = own >= 0 && own < columnNames.count ? columnNames[own] : "#\(index)"
        guard let tableName else { return "column \"\(name)\"" }
        return "column \"\(name)\" of table \"\(tableName)\""
    }

    /// The `keyNotFound` error for a key with no column, listing the columns the row has; `dataCorrupted`
    /// naming both keys for a key whose column name differs from another key's only in case.
    func keyNotFound(_ key: any CodingKey) -> DecodingError {
        if let other = lookup.keyDiffering(inCaseFrom: key.stringValue) { return keysDifferInCase(key, other) }
        let place = tableName.map { " in table \"\($0)\"" } ?? " in the row"
        let column = lookup.keyStrategy == .convertFromSnakeCase ? KeyCase.snakeCase(key.stringValue) : key.stringValue
        let text =
            "No column \"\(column)\"\(place); the row has columns: "
            + columnNames.map { "\"\($0)\"" }.joined(separator: ", ")
        return DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: text))
    }
}
