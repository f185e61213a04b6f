import CSQLiteRecord
import Foundation

/// What a prepared statement keeps for decoding (in its `codingCache` slot, read through `codingState`): the column lookup and the
/// context that ``RowDecoder/decode(_:from:)`` reuses from row to row. The context refers to the lookup,
/// never the other way, so nothing here is a cycle.
final class StatementCodingState {
    let lookup: ColumnLookup
    /// The context ``RowDecoder/decode(_:from:)`` reuses. That call reads it without retaining it (a retain
    /// and a release a row), so a context replaced while it decodes a row (a row initializer or `init(from:)`
    /// that decodes the same statement with another decoder) moves to `busyContexts` rather than go.
    var reusableContext: RowDecodingContext? {
        willSet {
            if let old = reusableContext, old !== newValue, old.isDecodingKeptRow { busyContexts.append(old) }
        }
    }
    /// `reusableContext`, unretained, for the per-row check of ``RowDecoder/decode(_:from:)``.
    var unretainedReusableContext: Unmanaged<RowDecodingContext>? { reusableContext.map { .passUnretained($0) } }
    /// Contexts replaced while they decoded a row, kept alive until then (see `reusableContext`): let go
    /// once idle, when a context is next made for the statement.
    private(set) var busyContexts: [RowDecodingContext] = []
    /// The statement's ``Statement/endedRuns`` when `lookup` was last found current on one of its rows:
    /// while the count is the same, it still is. `UInt.max` until then.
    var lookupCheckedAtEndedRuns = UInt.max
    /// The type the statement's rows were last decoded as, and the call of its row initializer when it is a
    /// ``FetchableRecord``: asked once per statement rather than once per fetch (a conformance check is a
    /// lookup in the runtime's cache, which a point lookup would pay on every call).
    var decodedType: ObjectIdentifier?
    var decodedTypeInitializer: RowInitializerCall?

    init(lookup: ColumnLookup) { self.lookup = lookup }

    /// Takes over the busy contexts of the state this one replaces on a statement, and its reusable context
    /// when that one is decoding a row.
    func keepBusyContexts(of replaced: StatementCodingState) {
        busyContexts += replaced.busyContexts
        if let context = replaced.reusableContext, context.isDecodingKeptRow { busyContexts.append(context) }
    }

    /// Lets go of the busy contexts that are done with their rows.
    func releaseIdleContexts() {
        if !busyContexts.isEmpty { busyContexts.removeAll { !$0.isDecodingKeptRow } }
    }
}

/// A statement's result columns, looked up by coding key. Built once per prepared statement and kept on
/// it (statements are cached per connection), so rows and calls after the first pay one hash per key.
final class ColumnLookup {
    let names: [String]
    /// `names.count`, as SQLite counts columns.
    let columnCount: Int32
    /// The statement's ``Statement/reprepareCount`` when the names were read: compared on every row that
    /// ``RowDecoder/decode(_:from:)`` decodes and on every fetch, which is how a statement that SQLite
    /// prepared again after a schema change is noticed, even when its columns only changed names.
    let reprepareCount: Int32
    let keyStrategy: RowDecoder.KeyDecodingStrategy
    /// Column name to index, as SQLite matches names (see ``ColumnNameIndex``).
    private let indexes: ColumnNameIndex
    /// Key string to index for snake_case lookups, -1 for none: the conversion happens once per key.
    private var convertedIndexes: [String: Int32] = [:]

    /// The lookup of every column, or of those in `range` only: a joined row holds two tables' columns,
    /// and each record is decoded from its own.
    init(statement: Statement, keyStrategy: RowDecoder.KeyDecodingStrategy, range: Range<Int>? = nil) {
        reprepareCount = statement.reprepareCount
        let names = statement.columnNames
        self.names = range.map { Array(names[$0.clamped(to: names.indices)]) } ?? names
        self.columnCount = Int32(names.count)
        self.indexes = ColumnNameIndex(names, range: range)
        self.keyStrategy = keyStrategy
        trail.initialize(to: KeyTrail())
        nameTrail.initialize(to: KeyTrail())
    }

    /// The lookup for `statement` and `keyStrategy`, from the statement when it has one.
    static func of(_ statement: Statement, keyStrategy: RowDecoder.KeyDecodingStrategy) -> ColumnLookup {
        state(of: statement, keyStrategy: keyStrategy).lookup
    }

    /// What the statement keeps for decoding, made anew when the key strategy changed or SQLite prepared
    /// the statement again.
    static func state(of statement: Statement, keyStrategy: RowDecoder.KeyDecodingStrategy) -> StatementCodingState {
        if let state = statement.codingState, state.lookup.keyStrategy == keyStrategy,
            state.lookup.reprepareCount == statement.reprepareCount
        {
            return state
        }
        let state = StatementCodingState(lookup: ColumnLookup(statement: statement, keyStrategy: keyStrategy))
        statement.codingState = state
        return state
    }

    /// The keys asked for, in the order a row asks for them, with their columns (see ``KeyTrail``). Kept
    /// with the statement, so later fetches through the cached statement start with it.
    let trail = UnsafeMutablePointer<KeyTrail>.allocate(capacity: 1)
    /// The column names ``FetchedRow`` reads by name, in the order a row reads them, with their columns: a
    /// trail of its own, since a name is a column name whatever the key strategy, where a coding key in
    /// ``trail`` may name another column under it.
    let nameTrail = UnsafeMutablePointer<KeyTrail>.allocate(capacity: 1)

    deinit {
        trail.pointee.deallocate()
        trail.deinitialize(count: 1)
        trail.deallocate()
        nameTrail.pointee.deallocate()
        nameTrail.deinitialize(count: 1)
        nameTrail.deallocate()
    }

    /// The column named `name` (as SQLite matches names), -1 for none, when ``nameTrail`` does not know it at
    /// `position`; recorded there for the next row.
    @inline(never)
    func column(named name: String, position: Int) -> Int32 {
        let column = indexes.index(of: name) ?? -1
        nameTrail.pointee.record(name, column: column, at: position, keyType: 0, keyBytes: (0, 0))
        return column
    }

    /// The column named `name` (as SQLite matches names), or nil.
    func columnIndex(named name: String) -> Int32? { indexes.index(of: name) }

    /// The column `key` names, -1 for none, when the trail does not know it at `position` (a first row, or
    /// a row that asks for other keys): by the key's string, a hash, recorded in the trail for the next row.
    func column<Key: CodingKey>(forKey key: Key, position: Int) -> Int32 {
        let bytes = KeyTrail.bytes(of: key)
        let keyType = bytes == nil ? 0 : KeyTrail.typeBits(of: Key.self)
        return column(forKey: key.stringValue, position: position, type: keyType, bytes: bytes ?? (0, 0))
    }

    private func column(forKey key: String, position: Int, type: UInt, bytes: KeyTrail.KeyBytes) -> Int32 {
        if let column = trail.pointee.column(forKey: key, position: position, keyType: type, keyBytes: bytes) {
            return column
        }
        var column = index(forKey: key) ?? -1
        // Two keys that name one column up to case: -2 sends every row of this key to the error path.
        if indexes.mayConflictInCase(columnName(forKey: key)), keyDiffering(inCaseFrom: key, before: position) != nil {
            column = -2
        }
        trail.pointee.record(key, column: column, at: position, keyType: type, keyBytes: bytes)
        return column
    }

    /// A key asked for before `position` in the current row (anywhere in the trail when nil) whose column
    /// name differs from `key`'s only in ASCII case: SQLite would take both for one column.
    func keyDiffering(inCaseFrom key: String, before position: Int? = nil) -> String? {
        let name = columnName(forKey: key)
        for earlier in 0..<min(position ?? Int.max, trail.pointee.count) {
            guard let other = trail.pointee.key(atPosition: earlier) else { break }
            if ColumnNameIndex.differOnlyInCase(columnName(forKey: other), name) { return other }
        }
        return nil
    }

    /// The column name `key` asks for under the key strategy.
    func columnName(forKey key: String) -> String {
        keyStrategy == .convertFromSnakeCase ? KeyCase.snakeCase(key) : key
    }

    /// The column a key names, or nil.
    func index(forKey key: String) -> Int32? {
        switch keyStrategy {
        case .useDefaultKeys:
            return indexes.index(of: key)
        case .convertFromSnakeCase:
            if let known = convertedIndexes[key] { return known < 0 ? nil : known }
            let index = indexes.index(of: KeyCase.snakeCase(key))
            convertedIndexes[key] = index ?? -1
            return index
        }
    }

    /// The key string a column answers to under the strategy (for `allKeys`).
    func keyString(forColumn name: String) -> String {
        guard keyStrategy == .convertFromSnakeCase else { return name }
        var parts = name.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1 else { return name }
        for index in parts.indices.dropFirst() { parts[index] = parts[index].capitalized }
        return parts.joined()
    }
}

/// What every row of one fetch shares while it is decoded: the column lookup, the table name for errors,
/// the strategies, and one JSON decoder for nested values.
final class RowDecodingContext {
    /// Unowned: a context lives inside one fetch over its statement, or is kept by that statement's own
    /// ``StatementCodingState``, so the statement always outlives it; a strong reference would make that
    /// kept context a retain cycle.
    unowned(unsafe) let statement: Statement
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
    /// ``decodeRow(_:)``). Unchecked: a context is used by one decoding at a time.
    @exclusivity(unchecked) private(set) var lookup: ColumnLookup
    // Unchecked, as `lookup`: read for every row, replaced only between rows.
    /// What the keyed container and the column readers read per column (see ``RowDecodingState``), and the
    /// object that owns it. Replaced, and the old one revoked, when user code kept a row's keyed container.
    @exclusivity(unchecked) private(set) var state: UnsafeMutablePointer<RowDecodingState>
    @exclusivity(unchecked) private(set) var stateStorage: RowDecodingStateStorage
    /// The keyed container the rows of this fetch share, and the key type it was made for.
    @exclusivity(unchecked) var containerKeyType: ObjectIdentifier?
    @exclusivity(unchecked) var containerBox: ReusableContainerBox?
    /// True when the current row was handed a keyed container that is not kept in `containerBox` (see
    /// ``KeyedContainerBox/init(_:)``): it is revoked when the row ends, whoever holds it.
    @exclusivity(unchecked) var handedOutUnboxedContainer = false
    /// Boxes that `containerBox` replaced during the current row (a type that asks for containers of two key
    /// types): checked with it when the row ends.
    @exclusivity(unchecked) var replacedBoxes: [ReusableContainerBox] = []
    /// The type the rows were last decoded as, and the call of its row initializer when it has one (see
    /// ``rowInitializer(for:)``). The call is not retained, so that a row reads it without a retain and a
    /// release: ``rowInitializerCalls`` keeps it, with every call this context was handed (one per record
    /// type), until the context goes, so it stays valid while a row initializer that decodes another type
    /// through this context replaces it.
    @exclusivity(unchecked) private var decodedType: ObjectIdentifier?
    @exclusivity(unchecked) private var decodedTypeInitializer: Unmanaged<RowInitializerCall>?
    @exclusivity(unchecked) private var rowInitializerCalls: [RowInitializerCall] = []
    /// True until the first row has compared the statement's reprepare count with the lookup's (see
    /// ``checkReprepare()``). Unchecked, as `lookup`.
    @exclusivity(unchecked) private var checksReprepare = true
    /// How many rows ``RowDecoder/decode(_:from:)`` is decoding through this context as the statement's kept
    /// context (nested when a row's own code decodes the statement again): while it is not 0 the statement's
    /// coding state keeps this context alive, as that call does not retain it.
    @exclusivity(unchecked) private var keptRowDepth = 0
    var isDecodingKeptRow: Bool { keptRowDepth > 0 }

    /// ``decodeRow(_:)`` for ``RowDecoder/decode(_:from:)``, which reads this context from the statement
    /// without retaining it.
    @inline(__always)
    func decodeKeptRow<T: Decodable>(_ type: T.Type) throws -> T {
        keptRowDepth &+= 1
        defer { keptRowDepth &-= 1 }
        return try decodeRow(type)
    }

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
        } else {
            lookup = ColumnLookup.of(statement, keyStrategy: decoder.keyDecodingStrategy)
        }
        let storage = RowDecodingStateStorage()
        stateStorage = storage
        state = storage.state
        // The state names this context, so it is filled in once every property is.
        storage.initialize(to: freshState(rowSerial: 0))
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
        state.pointee.keyPosition = 0
        state.pointee.rowSerial &+= 1
        defer { endRow() }
        // The record is written straight into this function's result (see ``RowInitializerCall``).
        if let initializer = rowInitializer(for: type) {
            return try initializer._withUnsafeGuaranteedRef { try $0.call(as: type, context: self) }
        }
        if lookup.columnCount == 1, ColumnReader.readsDirectly(type) {
            return try ColumnReader(index: 0, state: state, keyPosition: nil).decode(type)
        }
        return try T(from: StatementRowDecoder(context: self, rowSerial: state.pointee.rowSerial))
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
        let state = self.state
        state.pointee.keyPosition = 0
        state.pointee.rowSerial &+= 1
        defer { endRow() }
        try initializer._withUnsafeGuaranteedRef { try $0.appendRow(to: &records, context: self) }
    }

    /// The call of `type`'s `init(row:)` when it is a ``FetchableRecord``, which then decodes the rows; nil
    /// for a type that decodes through `Decodable` alone. One compare per row: the answer is kept for the
    /// type, here and on the statement.
    @inline(__always)
    private func rowInitializer<T>(for type: T.Type) -> Unmanaged<RowInitializerCall>? {
        if decodedType == ObjectIdentifier(type) { return decodedTypeInitializer }
        return findRowInitializer(for: type)
    }

    /// ``rowInitializer(for:)`` for the first row of a type: the call this context was handed before for the
    /// type, or the statement's when its rows were decoded as that type before, or else by a conformance
    /// check, kept on the statement for later fetches.
    @inline(never)
    private func findRowInitializer<T>(for type: T.Type) -> Unmanaged<RowInitializerCall>? {
        let identifier = ObjectIdentifier(type)
        decodedType = identifier
        decodedTypeInitializer = nil
        if ignoresRowInitializers { return nil }
        if let kept = rowInitializerCalls.first(where: { $0.recordType == identifier }) {
            decodedTypeInitializer = Unmanaged.passUnretained(kept)
            return decodedTypeInitializer
        }
        let initializer: RowInitializerCall?
        if let state = statement.codingState, state.decodedType == identifier {
            initializer = state.decodedTypeInitializer
        } else {
            initializer = (type as? any FetchableRecord.Type).map { RowInitializerCall.of($0) }
            if let state = statement.codingState {
                state.decodedType = identifier
                state.decodedTypeInitializer = initializer
            }
        }
        guard let initializer else { return nil }
        // Kept for as long as the context, so that the unretained reference stays valid.
        rowInitializerCalls.append(initializer)
        decodedTypeInitializer = Unmanaged.passUnretained(initializer)
        return decodedTypeInitializer
    }

    /// Ends the current row: decoders made for it no longer match the row serial, and a keyed container that
    /// user code kept past the row is revoked (see ``RowDecodingStateStorage``).
    ///
    /// Every copy of the container that the type's own `init(from:)` made has been released by now, unless
    /// the type kept one: so a box still held elsewhere means a kept container. The rows after this one then
    /// decode through a fresh state and container, and the kept one throws instead of reading them.
    @inline(__always)
    private func endRow() {
        state.pointee.rowSerial &+= 1
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
        let rowSerial = state.pointee.rowSerial
        stateStorage.revoke()
        if !keptBoxes.isEmpty { RevokedRowStates.shared.keep(stateStorage, whileHeld: keptBoxes) }
        containerKeyType = nil
        containerBox = nil
        handedOutUnboxedContainer = false
        let storage = RowDecodingStateStorage()
        storage.initialize(to: freshState(rowSerial: rowSerial))
        stateStorage = storage
        state = storage.state
    }

    /// A state for the current lookup, whose rows start after `rowSerial`.
    private func freshState(rowSerial: UInt) -> RowDecodingState {
        RowDecodingState(
            row: row, trail: lookup.trail, readsDatesAutomatically: decoder.readsDatesAutomatically,
            context: .passUnretained(self), rowSerial: rowSerial)
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
            ?? ColumnLookup.of(statement, keyStrategy: decoder.keyDecodingStrategy)
        state.pointee = freshState(rowSerial: state.pointee.rowSerial)
    }

    /// True when a decoder made for row `rowSerial` may read: the context is still on that row.
    @inline(__always)
    func isOnRow(_ rowSerial: UInt) -> Bool { state.pointee.rowSerial == rowSerial }

    /// True when `other` decodes exactly as this context's decoder does: the same key strategy, the same JSON
    /// decoder object, and the automatic date strategy on both (see ``RowDecoder/readsDatesAutomatically``).
    /// Compares the JSON decoders by identity and the rest as flags, without copying either decoder.
    @inline(__always)
    func decodes(like other: RowDecoder) -> Bool {
        state.pointee.readsDatesAutomatically && other.readsDatesAutomatically
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
        // The container holds nothing that changes between rows, so one serves every row of the fetch:
        // making it anew costs two generic metadata lookups and an allocation per row.
        if context.containerKeyType == ObjectIdentifier(type), let box = context.containerBox {
            // The key type was compared just above, so the box holds a container of this type.
            return unsafeDowncast(box, to: KeyedContainerBox<KeyedDecodingContainer<Key>>.self).container
        }
        return makeContainer(keyedBy: type)
    }

    /// Makes the keyed container for the first row and keeps it. Not inlined, so that the metadata lookups it
    /// needs stay out of `container(keyedBy:)`, which would otherwise make them on every row.
    @inline(never)
    private func makeContainer<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        guard KeyedContainerLayout.isOneReference else {
            // No box can tell whether this container is kept: it retains the state's storage itself, and the
            // row's end revokes that state whatever happened to it.
            context.handedOutUnboxedContainer = true
            return KeyedDecodingContainer(
                RowKeyedContainer<Key, RowDecodingStateStorage>(state: context.state, retainer: context.stateStorage))
        }
        let container = KeyedDecodingContainer(
            RowKeyedContainer<Key, Unretained>(state: context.state, retainer: Unretained()))
        // A box this replaces may hold a container of this same row: the row's end checks it too.
        if let replaced = context.containerBox { context.replacedBoxes.append(replaced) }
        context.containerKeyType = ObjectIdentifier(type)
        context.containerBox = KeyedContainerBox(container)
        return container
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

/// The keyed container over a row: `decode(_:forKey:)` reads the column named by the key.
///
/// Generic over the key type and reached through the standard library's type-erasing box, so it runs
/// unspecialized: it uses the key only to find its column (``KeyTrail``), then hands over to the column
/// reader, which is not generic.
private struct RowKeyedContainer<Key: CodingKey, Retainer>: KeyedDecodingContainerProtocol {
    /// The context's state, not the context: the context keeps this container (in `containerBox`) for the
    /// rows after the first, so a strong reference would be a cycle, and every fetch would leak its context
    /// and column lookup. The state stays valid for as long as any copy of this container lives: a boxed
    /// container is plain data (`Retainer` is ``Unretained``), and ``RevokedRowStates`` keeps the state's
    /// storage alive while user code holds a copy; an unboxed one retains the storage in `retainer`. A
    /// container that user code keeps past its row is revoked when that row ends (see
    /// ``RowDecodingStateStorage``): its reads then all miss the emptied key trail, and the slow paths below
    /// check ``RowDecodingState/isRevoked`` before they reach the context.
    let state: UnsafeMutablePointer<RowDecodingState>
    let retainer: Retainer

    /// The context: only while the state is not revoked (the context may be gone after that).
    var context: RowDecodingContext { state.pointee.context.takeUnretainedValue() }
    var codingPath: [any CodingKey] { [] }
    /// The keys the row's columns answer to; none once the row is gone.
    var allKeys: [Key] {
        guard !state.pointee.isRevoked else { return [] }
        return context.columnNames.compactMap { Key(stringValue: context.lookup.keyString(forColumn: $0)) }
    }

    /// True when the row has a column for `key`; also true once the row is gone, so that the decode that
    /// follows throws the error that says so, where false would read as a column the row lacks.
    func contains(_ key: Key) -> Bool {
        column(key, position: state.pointee.takeKeyPosition()) >= 0 || state.pointee.isRevoked
    }

    /// The error for a container used after its row, or nil.
    @inline(never)
    private func rowIsGone(_ key: Key?) -> DecodingError? {
        guard state.pointee.isRevoked else { return nil }
        return RowDecodingStateStorage.rowIsGone(codingPath: key.map { [$0] } ?? [])
    }

    /// The column `key` names, -1 for none: from the key trail, or else by the key's string.
    @inline(__always)
    private func column(_ key: Key, position: Int) -> Int32 {
        if let column = state.pointee.trail.pointee.column(forKey: key, position: position) { return column }
        return lookUpColumn(key, position: position)
    }

    /// The column `key` names, by its string (a first row, or a key the trail does not know at `position`).
    /// Not inlined, as none of the paths below that a row takes only now and then: the container's methods
    /// run once per column of every row, and the code of the rare paths costs them registers and stack.
    @inline(never)
    private func lookUpColumn(_ key: Key, position: Int) -> Int32 {
        guard !state.pointee.isRevoked else { return -1 }
        return context.lookup.column(forKey: key, position: position)
    }

    @inline(never)
    private func keyNotFound(_ key: Key) -> DecodingError { rowIsGone(key) ?? context.keyNotFound(key) }

    /// The reader for the column `key` names. It records the key by its position in the key trail, not as
    /// a String: only an error needs the key's name.
    @inline(__always)
    private func reader(_ key: Key) throws -> ColumnReader {
        let position = state.pointee.takeKeyPosition()
        let index = column(key, position: position)
        guard index >= 0 else { throw keyNotFound(key) }
        return ColumnReader(index: index, state: state, keyPosition: position)
    }

    /// The reader for an Optional key, or nil when the value is absent: NULL, or no such column in a raw-SQL
    /// row.
    @inline(__always)
    private func optionalReader(_ key: Key) throws -> ColumnReader? {
        let position = state.pointee.takeKeyPosition()
        let index = column(key, position: position)
        guard index >= 0 else { return try absentColumn(key) }
        let reader = ColumnReader(index: index, state: state, keyPosition: position)
        return reader.isNull ? nil : reader
    }

    /// The value of the column `key` names: `common`'s answer from the column alone (one of the reader's
    /// `common` functions), or else `read`'s through a reader, which converts or throws.
    ///
    /// The same as `read(reader(key))`, but the reader (six words, written to memory to be passed) is made
    /// only when `common` has no answer, in ``read(column:position:_:)``.
    @inline(__always)
    private func value<Value>(
        _ key: Key, _ common: (StatementColumn, Int32) -> Value?, _ read: (ColumnReader) throws -> Value
    ) throws -> Value {
        let position = state.pointee.takeKeyPosition()
        let index = column(key, position: position)
        guard index >= 0 else { throw keyNotFound(key) }
        let column = StatementColumn(state.pointee.row, at: index)
        if let value = common(column, column.storageClass) { return value }
        return try self.read(column: index, position: position, read)
    }

    /// ``value(_:_:_:)`` for an Optional key: nil when the value is absent (NULL, or no such column in a
    /// raw-SQL row).
    @inline(__always)
    private func valueIfPresent<Value>(
        _ key: Key, _ common: (StatementColumn, Int32) -> Value?, _ read: (ColumnReader) throws -> Value
    ) throws -> Value? {
        let position = state.pointee.takeKeyPosition()
        let index = column(key, position: position)
        guard index >= 0 else { return try absentColumn(key).map(read) }
        let column = StatementColumn(state.pointee.row, at: index)
        let storage = column.storageClass
        if storage == SQLITE_NULL { return nil }
        if let value = common(column, storage) { return value }
        return try self.read(column: index, position: position, read)
    }

    /// `read` through a reader of column `index`, asked for by the key at `position`: the conversions and
    /// errors of the reads above. Not inlined, so that the reader is made in memory only here.
    @inline(never)
    private func read<Value>(column index: Int32, position: Int, _ read: (ColumnReader) throws -> Value) throws -> Value {
        try read(ColumnReader(index: index, state: state, keyPosition: position))
    }

    /// A date, as ``ColumnReader/date()`` reads it.
    ///
    /// The strategy is read before the closure is made, so that it captures a flag, not the container: a
    /// closure over a generic container is allocated, with a generic metadata lookup, on every call.
    @inline(__always)
    private func date(_ key: Key) throws -> Date {
        let automatic = state.pointee.readsDatesAutomatically
        return try value(key, { automatic ? ColumnReader.commonDate($0, $1) : nil }) { try $0.date() }
    }

    /// ``date(_:)`` for an Optional key.
    @inline(__always)
    private func dateIfPresent(_ key: Key) throws -> Date? {
        let automatic = state.pointee.readsDatesAutomatically
        return try valueIfPresent(key, { automatic ? ColumnReader.commonDate($0, $1) : nil }) { try $0.date() }
    }

    /// nil for an Optional key with no column in a raw-SQL row; `keyNotFound` where the library wrote the
    /// SELECT; the error for two keys that differ only in case either way.
    @inline(never)
    private func absentColumn(_ key: Key) throws -> ColumnReader? {
        if let gone = rowIsGone(key) { throw gone }
        if context.missingOptionalColumnIsNil, context.lookup.keyDiffering(inCaseFrom: key.stringValue) == nil {
            return nil
        }
        throw context.keyNotFound(key)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try reader(key).isNull }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try value(key, ColumnReader.commonBool) { try $0.bool() }
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try value(key, ColumnReader.commonString) { try $0.string() }
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try value(key, ColumnReader.commonDouble) { try $0.double() }
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try reader(key).float() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, forKey: key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // A Date first, and straight to the column: the date read is inlined here, where going through the
        // reader's generic decode would compare the type again and make a call per step. T is the type just
        // compared, so the bit cast is the identity.
        if T.self == Date.self { return unsafeBitCast(try date(key), to: T.self) }
        return try reader(key).decode(type)
    }

    /// An integer of `type`, in range, as ``ColumnReader/integer(_:)`` reads it.
    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ type: T.Type, forKey key: Key) throws -> T {
        try value(key, { ColumnReader.commonInteger(type, $0, $1) }) { try $0.integer(type) }
    }

    /// ``integer(_:forKey:)`` for an Optional key.
    @inline(__always)
    private func integerIfPresent<T: FixedWidthInteger>(_ type: T.Type, forKey key: Key) throws -> T? {
        try valueIfPresent(key, { ColumnReader.commonInteger(type, $0, $1) }) { try $0.integer(type) }
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try valueIfPresent(key, ColumnReader.commonBool) { try $0.bool() }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try valueIfPresent(key, ColumnReader.commonString) { try $0.string() }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try valueIfPresent(key, ColumnReader.commonDouble) { try $0.double() }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optionalReader(key)?.float() }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try integerIfPresent(type, forKey: key)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        // As in decode(_:forKey:).
        if T.self == Date.self { return try dateIfPresent(key).map { unsafeBitCast($0, to: T.self) } }
        return try optionalReader(key)?.decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw rowIsGone(key) ?? nestingError(key)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw rowIsGone(key) ?? nestingError(key)
    }

    /// A decoder over the same row, valid as long as this container is: for the row only.
    func superDecoder() throws -> any Decoder {
        if let gone = rowIsGone(nil) { throw gone }
        return StatementRowDecoder(context: context, rowSerial: state.pointee.rowSerial)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { ColumnValueDecoder(reader: try reader(key)) }

    private func nestingError(_ key: Key) -> DecodingError {
        DecodingError.typeMismatch(
            Any.self,
            .init(
                codingPath: [key],
                debugDescription: "Column \"\(key.stringValue)\" holds one value; a nested value is stored there "
                    + "as JSON and decodes through decode(_:forKey:) with a Decodable type"))
    }
}

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
        self.rowSerial = reader.state.pointee.rowSerial
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

extension Statement {
    /// ``codingState``, unretained, for the per-row check of ``RowDecoder/decode(_:from:)``.
    var unretainedCodingState: Unmanaged<StatementCodingState>? {
        guard let cache = codingCache,
            ObjectIdentifier(type(of: cache)) == ObjectIdentifier(StatementCodingState.self)
        else { return nil }
        return .passUnretained(unsafeDowncast(cache, to: StatementCodingState.self))
    }

    /// The Coding layer's state in the statement's ``Statement/codingCache`` slot. Read on every row that
    /// ``RowDecoder/decode(_:from:)`` decodes, so the slot's class is compared by identity (the slot holds
    /// nothing else) rather than with a dynamic cast.
    var codingState: StatementCodingState? {
        get {
            guard let cache = codingCache,
                ObjectIdentifier(type(of: cache)) == ObjectIdentifier(StatementCodingState.self)
            else { return nil }
            return unsafeDowncast(cache, to: StatementCodingState.self)
        }
        set {
            // A kept context may be decoding a row without retaining itself (see
            // ``StatementCodingState/reusableContext``): the new state keeps it until it is done.
            if let newValue, let old = codingState, old !== newValue { newValue.keepBusyContexts(of: old) }
            codingCache = newValue
        }
    }
}
