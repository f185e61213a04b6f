import CSQLiteRecord
import Foundation

// The encoder's reused bind buffers: the one file of the Coding layer's encoding side that holds raw memory
// and unretained references.
//
// Invariants:
// 1. A `StatementBinding` owns its buffers: each is allocated in `init` with `count` (keys) or
//    `parameterCount` (bound values) elements, all initialized there, and freed in `deinit`. Indexes are a key's
//    position (below `count`, checked by `parameter(for:)` before any read) or a parameter minus 1 (a
//    parameter is 1...`parameterCount`, as `init` numbered them). Nothing outside this type sees a buffer.
// 2. A binding is used by one encoding at a time, on the thread that uses its connection: the Record layer
//    keeps it with its prepared statement, whose connection is used by one thread at a time.
// 3. `UnownedStatementBinding` is read only while its `ColumnsEncoder` holds the same binding strongly: the
//    encoder sets and clears both together.
// 4. A date's text is printed into stack memory that lives only for the bind (`bind(sqliteTextOf:at:)`);
//    SQLite copies it (`SQLITE_TRANSIENT`).

/// Where ``ColumnsEncoder`` binds a record's values when it encodes straight into a prepared statement,
/// without collecting ``EncodedColumns`` first: the statement, the parameter each coding key binds, and how
/// far the current record has got.
///
/// The Record layer builds one from the coding keys of the record a write plan is made from (encoded once
/// into ``EncodedColumns``), and keeps it with the plan's prepared INSERT or UPDATE. A type's `encode(to:)`
/// encodes the same keys in the same order for every value, so each later record binds value by value; a
/// record whose keys differ (a custom `encode(to:)` that leaves a key out) marks the binding as diverged,
/// and the caller writes that record through a plan made from it instead.
final class StatementBinding {
    let statement: Statement
    /// False for a binding that only keeps the values a record encodes, to compare them with another
    /// record's (see ``holdsSameValue(at:as:)``), and never binds them to ``statement``.
    let bindsValues: Bool
    /// How many coding keys a record of the type encodes.
    let count: Int
    // Raw buffers rather than arrays: reading an array element in a class costs a retain and release of
    // the array; these are read for every value of every record. Allocated once, freed in deinit.
    /// The string value of each coding key, in the order the record type encodes them.
    private let keys: UnsafeMutableBufferPointer<String>
    /// The parameter (1-based) each key binds; ``leftOut`` for a key whose value the statement leaves out,
    /// such as the primary key of an INSERT that lets SQLite choose the rowid, or a column a partial update
    /// does not write.
    private let parameters: UnsafeMutableBufferPointer<Int32>
    /// The parameter of a key whose value the statement leaves out: the encoder converts the value (so it
    /// refuses what a plan made from the record refuses) and binds nothing.
    static let leftOut: Int32 = 0
    /// True for the keys whose text values are kept in ``keptTexts`` for the caller to check before the
    /// statement runs (columns whose affinity may store text as a number).
    private let keepsText: UnsafeMutableBufferPointer<Bool>
    /// For each key, once it has matched by its string: its type and raw bytes when it is plain data (as a
    /// CodingKeys enum is), so that later records' keys are recognized by ``KeyIdentity``, as the decoder's
    /// ``KeyTrail`` recognizes them, without asking the key for its string (a call through its witness table
    /// that makes a String) for every value. Type 0 for a key not recognized that way.
    private let keyTypes: UnsafeMutableBufferPointer<UInt>
    private let keyBytes: UnsafeMutableBufferPointer<KeyIdentity.Bytes>

    /// The number of parameters the statement binds: the keys with a parameter, numbered 1 to this in order.
    let parameterCount: Int
    // What was bound to each parameter (index 0 for parameter 1) for the current record, so that an error
    // carries the values that were bound, as ``Statement/bind(_:)`` keeps its arguments for its errors.
    // Kept by storage class in plain buffers: storing an `SQLiteValue` (whose blob case holds a resilient
    // `Data`) goes through its value witnesses, which costs more than the bind.
    /// The storage class bound (`SQLITE_INTEGER`, ...), or ``boundDate`` for a date printed on the stack
    /// (its text is made only when an error asks), or ``boundOther`` for a value kept in ``boundOthers``.
    private let boundKinds: UnsafeMutableBufferPointer<Int32>
    /// The integer, or the bit pattern of the double, or of the date's `timeIntervalSinceReferenceDate` (the
    /// date exactly as it was bound).
    private let boundNumbers: UnsafeMutableBufferPointer<UInt64>
    private let boundTexts: UnsafeMutableBufferPointer<String>
    /// Values bound through ``bind(_:at:)`` (blobs, and what custom strategies make), by parameter index.
    @exclusivity(unchecked) private var boundOthers: [Int: SQLiteValue] = [:]
    private static let boundDate: Int32 = -1
    private static let boundOther: Int32 = -2

    // Unchecked: a binding is used by one encoding at a time, on the thread that uses its connection, and a
    // checked access costs more than the bind it counts.
    /// How many keys the current record has encoded.
    @exclusivity(unchecked) private(set) var position = 0
    /// True once a key differed from ``keys``: nothing more is bound for this record.
    @exclusivity(unchecked) private(set) var hasDiverged = false
    /// The text bound for keys that ``keepsText``, with the key's position.
    @exclusivity(unchecked) private(set) var keptTexts: [(position: Int, text: String)] = []
    /// How many values the current record has bound. A record is complete only when it bound every one of
    /// the ``parameterCount`` parameters: a record whose `encode(to:)` caught an error of ours (a NaN, text
    /// over SQLite's length limit) and went on must not run with the value the record before it bound there.
    @exclusivity(unchecked) private var bindCount = 0
    /// True once the current record bound a text or blob of more than ``largeValueByteCount`` bytes: the
    /// caller lets go of it (and SQLite of its copy) once the statement ran, rather than keeping it until
    /// the next record of the type.
    @exclusivity(unchecked) private(set) var holdsLargeValue = false
    static let largeValueByteCount = 4096

    /// A binding of the keys `keys` to `parameters` of `statement`, keeping the text of the keys where
    /// `keepsText` is true; the three arrays run in parallel. With `bindsValues` false, the values are only
    /// kept.
    init(statement: Statement, keys: [String], parameters: [Int32], keepsText: [Bool], bindsValues: Bool = true) {
        self.statement = statement
        self.bindsValues = bindsValues
        count = keys.count
        self.keys = .allocate(capacity: count)
        _ = self.keys.initialize(from: keys)
        self.parameters = .allocate(capacity: count)
        _ = self.parameters.initialize(from: parameters)
        self.keepsText = .allocate(capacity: count)
        _ = self.keepsText.initialize(from: keepsText)
        keyTypes = .allocate(capacity: count)
        keyTypes.initialize(repeating: 0)
        keyBytes = .allocate(capacity: count)
        keyBytes.initialize(repeating: (0, 0))
        parameterCount = Int(parameters.max() ?? 0)
        boundKinds = .allocate(capacity: parameterCount)
        boundKinds.initialize(repeating: SQLITE_NULL)
        boundNumbers = .allocate(capacity: parameterCount)
        boundNumbers.initialize(repeating: 0)
        boundTexts = .allocate(capacity: parameterCount)
        boundTexts.initialize(repeating: "")
    }

    deinit {
        keys.deinitialize().deallocate()
        parameters.deallocate()
        keepsText.deallocate()
        keyTypes.deallocate()
        keyBytes.deallocate()
        boundKinds.deallocate()
        boundNumbers.deallocate()
        boundTexts.deinitialize().deallocate()
    }

    /// Starts a new record. Inlined into the encoder, which calls it for every record; the rare clearing of
    /// kept texts stays apart.
    @inline(__always)
    func start() {
        position = 0
        hasDiverged = false
        bindCount = 0
        if !keptTexts.isEmpty { clearKeptTexts() }
    }

    @inline(never)
    private func clearKeptTexts() {
        keptTexts.removeAll(keepingCapacity: true)
    }

    /// True when the record encoded ``keys``, in order, and every parameter was bound for it.
    var isComplete: Bool { !hasDiverged && position == count && bindCount == parameterCount }

    /// The parameter for `key`, the next key the record encodes; ``leftOut`` when the statement leaves that
    /// value out, or when `key` is not the key expected there (then ``hasDiverged`` is set, and every later
    /// key of the record gets ``leftOut`` too).
    @inline(__always)
    func parameter<Key: CodingKey>(for key: Key) -> Int32 {
        let position = position
        guard !hasDiverged, position < count else {
            hasDiverged = true
            return Self.leftOut
        }
        let keyType = keyTypes[position]
        if KeyIdentity.isKey(key, recordedAs: keyType, keyBytes[position]) {
            self.position = position &+ 1
            return parameters[position]
        }
        return parameter(forNewKey: key, at: position)
    }

    /// ``parameter(for:)`` for a key not recognized by its bytes: compared by its string, and remembered
    /// by its bytes when it matches.
    @inline(never)
    private func parameter<Key: CodingKey>(forNewKey key: Key, at position: Int) -> Int32 {
        let bytes = KeyIdentity.bytes(of: key)
        guard key.stringValue == keys[position] else {
            hasDiverged = true
            return Self.leftOut
        }
        if let bytes {
            keyTypes[position] = KeyIdentity.typeBits(of: Key.self)
            keyBytes[position] = bytes
        }
        self.position = position + 1
        return parameters[position]
    }

    /// Binds NULL for `key`, the next key the record encodes (see ``parameter(for:)``).
    /// - Throws: ``DatabaseError`` from the bind.
    @inline(__always)
    func bindNull<Key: CodingKey>(for key: Key) throws {
        let parameter = parameter(for: key)
        guard parameter != Self.leftOut else { return }
        if bindsValues { try statement.bindNull(at: parameter) }
        boundKinds[Int(parameter) - 1] = SQLITE_NULL
        bindCount &+= 1
    }

    /// Binds an INTEGER for `key`.
    /// - Throws: ``DatabaseError`` from the bind.
    @inline(__always)
    func bind<Key: CodingKey>(integer: Int64, for key: Key) throws {
        let parameter = parameter(for: key)
        guard parameter != Self.leftOut else { return }
        if bindsValues { try statement.bind(integer: integer, at: parameter) }
        boundKinds[Int(parameter) - 1] = SQLITE_INTEGER
        boundNumbers[Int(parameter) - 1] = UInt64(bitPattern: integer)
        bindCount &+= 1
    }

    /// Binds a REAL at `parameter`, the parameter of the key just encoded; the caller has refused NaN.
    /// - Throws: ``DatabaseError`` from the bind.
    @inline(__always)
    func bind(real: Double, at parameter: Int32) throws {
        if bindsValues { try statement.bind(real: real, at: parameter) }
        boundKinds[Int(parameter) - 1] = SQLITE_FLOAT
        boundNumbers[Int(parameter) - 1] = real.bitPattern
        bindCount &+= 1
    }

    /// Binds TEXT for `key`, keeping it when the key ``keepsText``.
    /// - Throws: ``DatabaseError`` from the bind.
    @inline(__always)
    func bind<Key: CodingKey>(text: String, for key: Key) throws {
        let parameter = parameter(for: key)
        guard parameter != Self.leftOut else { return }
        if bindsValues { try statement.bind(text: text, at: parameter) }
        boundKinds[Int(parameter) - 1] = SQLITE_TEXT
        boundTexts[Int(parameter) - 1] = text
        bindCount &+= 1
        if text.utf8.count > Self.largeValueByteCount { holdsLargeValue = true }
        if keepsCurrentText { keep(text) }
    }

    /// Binds `value` at `parameter`, the parameter of the key just encoded, keeping its text when the key
    /// ``keepsText``.
    /// - Throws: ``DatabaseError`` from the bind.
    func bind(_ value: SQLiteValue, at parameter: Int32) throws {
        if bindsValues { try statement.bind(value, at: parameter) }
        boundKinds[Int(parameter) - 1] = Self.boundOther
        boundOthers[Int(parameter) - 1] = value
        bindCount &+= 1
        switch value {
        case .text(let text):
            if text.utf8.count > Self.largeValueByteCount { holdsLargeValue = true }
            if keepsCurrentText { keep(text) }
        case .blob(let data):
            if data.count > Self.largeValueByteCount { holdsLargeValue = true }
        default:
            break
        }
    }

    /// Binds the text of `date` in SQLite's form (``SQLiteDateFormat``) at `parameter`, printed into a buffer on
    /// the stack: its 23 bytes would otherwise allocate a `String`.
    /// - Returns: false, binding nothing, for a date that has no such text.
    /// - Throws: ``DatabaseError`` from the bind.
    func bind(sqliteTextOf date: Date, at parameter: Int32) throws -> Bool {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: SQLiteDateFormat.textLength) { buffer in
            guard SQLiteDateFormat.write(date, into: buffer) else { return false }
            if bindsValues { try statement.bind(utf8: UnsafeBufferPointer(buffer), at: parameter) }
            boundKinds[Int(parameter) - 1] = Self.boundDate
            boundNumbers[Int(parameter) - 1] = date.timeIntervalSinceReferenceDate.bitPattern
            bindCount &+= 1
            return true
        }
    }

    /// The values bound for the current record, parameter by parameter: what an error reports.
    var boundArguments: StatementArguments {
        StatementArguments((0..<parameterCount).map(boundValue(at:)))
    }

    /// The value bound for the current record at `index` (0 for parameter 1).
    func boundValue(at index: Int) -> SQLiteValue {
        switch boundKinds[index] {
        case SQLITE_INTEGER: return .integer(Int64(bitPattern: boundNumbers[index]))
        case SQLITE_FLOAT: return .real(Double(bitPattern: boundNumbers[index]))
        case SQLITE_TEXT: return .text(boundTexts[index])
        case Self.boundDate:
            let date = Date(timeIntervalSinceReferenceDate: Double(bitPattern: boundNumbers[index]))
            return SQLiteDateFormat.string(from: date).map { .text($0) } ?? .null
        case Self.boundOther: return boundOthers[index] ?? .null
        default: return .null
        }
    }

    /// True when the current record bound the same value at `index` (0 for parameter 1) as `other`'s current
    /// record, compared as the ``SQLiteValue``s that ``boundValue(at:)`` gives (so two dates that print the
    /// same text are the same value). `other` binds the same keys to the same parameters.
    func holdsSameValue(at index: Int, as other: StatementBinding) -> Bool {
        let kind = boundKinds[index]
        if kind == other.boundKinds[index] {
            // The common kinds compare without making values.
            switch kind {
            case SQLITE_NULL: return true
            case SQLITE_INTEGER: return boundNumbers[index] == other.boundNumbers[index]
            case SQLITE_FLOAT:
                return Double(bitPattern: boundNumbers[index]) == Double(bitPattern: other.boundNumbers[index])
            case SQLITE_TEXT: return boundTexts[index] == other.boundTexts[index]
            case Self.boundDate where boundNumbers[index] == other.boundNumbers[index]: return true
            default: break
            }
        }
        return boundValue(at: index) == other.boundValue(at: index)
    }

    /// Lets go of the values bound for the current record, and has SQLite let go of its copies
    /// (`sqlite3_clear_bindings`): after a record with a large value, which would otherwise stay in memory
    /// until the next record of the type.
    func releaseValues() {
        statement.resetAndClearBindings()
        for index in 0..<parameterCount {
            boundKinds[index] = SQLITE_NULL
            boundTexts[index] = ""
        }
        boundOthers.removeAll()
        holdsLargeValue = false
    }

    /// True when the key just encoded keeps its text.
    var keepsCurrentText: Bool { position > 0 && keepsText[position - 1] }

    /// Keeps `text`, bound for the key just encoded.
    func keep(_ text: String) {
        keptTexts.append((position - 1, text))
    }
}

/// A ``StatementBinding`` held without ownership, for the binds of every value by the ``ColumnsEncoder`` that
/// also holds it strongly: reaching a class reference through an Optional retains and releases it around each
/// call.
///
/// Invariant: the encoder sets and clears this together with its strong ``ColumnsEncoder/binding``, so the
/// binding is alive whenever this is read.
struct UnownedStatementBinding {
    private let binding: Unmanaged<StatementBinding>

    init(_ binding: StatementBinding) { self.binding = .passUnretained(binding) }

    /// ``StatementBinding/bindNull(for:)``.
    @inline(__always)
    func bindNull<Key: CodingKey>(for key: Key) throws {
        try binding._withUnsafeGuaranteedRef { try $0.bindNull(for: key) }
    }

    /// ``StatementBinding/bind(integer:for:)``.
    @inline(__always)
    func bind<Key: CodingKey>(integer: Int64, for key: Key) throws {
        try binding._withUnsafeGuaranteedRef { try $0.bind(integer: integer, for: key) }
    }

    /// ``StatementBinding/bind(text:for:)``.
    @inline(__always)
    func bind<Key: CodingKey>(text: String, for key: Key) throws {
        try binding._withUnsafeGuaranteedRef { try $0.bind(text: text, for: key) }
    }

    /// `body` with the binding, which it must not keep.
    @inline(__always)
    func withBinding<Result>(_ body: (StatementBinding) throws -> Result) rethrows -> Result {
        try binding._withUnsafeGuaranteedRef(body)
    }
}
