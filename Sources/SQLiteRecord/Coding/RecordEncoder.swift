import Foundation

/// The columns a record encodes to, in coding-key order, ready to bind.
public struct EncodedColumns: Sendable, Equatable {
    /// Column names, one per coding key the record encoded.
    public var names: [String] = []
    /// The values, in the same order as ``names``.
    public var values: [SQLiteValue] = []

    /// Empty columns.
    public init() {}

    /// The value encoded for `name`, if any.
    public func value(for name: String) -> SQLiteValue? {
        names.firstIndex(of: name).map { values[$0] }
    }
}

/// Encodes `Encodable` values to column values: each coding key names a column.
///
/// A small public type over the library's own encoder, like Foundation's `JSONEncoder`: its properties are
/// the strategies. Records use ``Record/recordEncoder``; override it in a record type to change how that
/// type is stored.
///
/// By default values are stored as the value table in <doc:ValuesAndCoding> says: Bool as INTEGER 0/1, Date as UTC text
/// `YYYY-MM-DD HH:MM:SS.SSS`, UUID as lowercase hyphenated text, URL as its absolute text, Decimal as INTEGER,
/// REAL or TEXT (whichever keeps every digit and compares as a number), RawRepresentable enums as their raw
/// value, nested structs, arrays and dictionaries as JSON text, and nil as NULL (so an UPDATE clears the
/// column).
public struct RecordEncoder: Sendable {
    /// How dates are stored.
    public enum DateEncodingStrategy: Sendable {
        /// TEXT `YYYY-MM-DD HH:MM:SS.SSS` in UTC: sorts as text, keeps milliseconds, and SQLite's date
        /// functions read it. The default. Printed by hand, without formatters.
        case sqliteText
        /// REAL seconds since 1970-01-01 00:00:00 UTC (what FMDB writes).
        case unixSeconds
        /// INTEGER milliseconds since 1970-01-01 00:00:00 UTC, rounded to the nearest.
        case unixMilliseconds
        /// TEXT in ISO 8601 with fractional seconds, `2024-05-01T12:30:00.250Z`, printed by Foundation's
        /// `Date.ISO8601FormatStyle`.
        case iso8601
        /// TEXT printed by a `DateFormatter` of your own.
        case formatted(DateFormatter)
        /// Your own function of the date; what it throws is passed on.
        case custom(@Sendable (Date) throws -> SQLiteValue)
    }

    /// How UUIDs are stored.
    public enum UUIDEncodingStrategy: Sendable {
        /// TEXT, lowercase with hyphens, as RFC 9562 recommends: `e621e1f8-c36c-495a-93fc-0c247a3e6e5f`. The
        /// default.
        case lowercaseText
        /// A 16-byte BLOB, in the UUID's byte order.
        case blob
    }

    /// How coding keys name columns.
    public enum KeyEncodingStrategy: Sendable, Equatable {
        /// A key's string value is the column name. The default.
        case useDefaultKeys
        /// Keys are converted to snake_case as Foundation's `JSONEncoder` does: `countryId` writes
        /// `country_id`, `imageURL` writes `image_url`.
        case convertToSnakeCase
    }

    /// How dates are stored; ``DateEncodingStrategy/sqliteText`` by default.
    public var dateEncodingStrategy: DateEncodingStrategy = .sqliteText
    /// How UUIDs are stored; ``UUIDEncodingStrategy/lowercaseText`` by default.
    public var uuidEncodingStrategy: UUIDEncodingStrategy = .lowercaseText
    /// How keys name columns; ``KeyEncodingStrategy/useDefaultKeys`` by default.
    public var keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys
    /// Writes nested values (structs, arrays, dictionaries) as JSON text; by default with sorted keys, so
    /// equal values give equal text.
    public var jsonEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// An encoder with the default strategies.
    public init() {}

    /// Encodes `value`'s properties to columns.
    /// - Throws: `EncodingError.invalidValue` naming the column when a value cannot be stored (a NaN, a date
    ///   outside the years the text form holds, an integer above Int64.max, a nested value JSON cannot
    ///   hold), or when the value is not a keyed type (a struct with coding keys).
    public func encode<T: Encodable>(_ value: T) throws -> EncodedColumns {
        try encode(value, tableName: nil)
    }

    /// ``encode(_:)``, naming `tableName` in errors.
    func encode<T: Encodable>(_ value: T, tableName: String?) throws -> EncodedColumns {
        try encodeWithKeys(value, tableName: tableName).columns
    }

    /// ``encode(_:)``, naming `tableName` in errors, with the string value of each coding key the columns
    /// came from (they differ from the column names under ``KeyEncodingStrategy/convertToSnakeCase``).
    ///
    /// With `writtenColumns`, for a partial update that writes only those columns, by `keyColumns`: the
    /// encoding stops once every one of both is encoded (see ``EncodingStop``), and the values of other
    /// columns are collected as NULL, unconverted (the update does not write them).
    func encodeWithKeys<T: Encodable>(
        _ value: T, tableName: String?, writtenColumns: [String]? = nil, keyColumns: [String] = []
    ) throws -> (columns: EncodedColumns, keys: [String]) {
        let encoder = ColumnsEncoder(tableName: tableName, options: self)
        // The encoder serves this one value: what the value's own code keeps of it throws from now on.
        defer { encoder.retire() }
        if let writtenColumns { encoder.collectOnly(writtenColumns, by: keyColumns) }
        do {
            try value.encode(to: encoder)
        } catch where encoder.hasStopped {
            // Every column the update needs is collected; an error thrown after the stop (the stop wrapped
            // in one of the record's own) comes from code the update does not run.
        }
        if let failure = encoder.failure { throw failure }
        return (encoder.columns, encoder.keys)
    }

    /// ``encode(_:)`` with the default strategies, naming `tableName` in errors.
    static func encode<T: Encodable>(_ value: T, tableName: String?) throws -> EncodedColumns {
        try RecordEncoder().encode(value, tableName: tableName)
    }
}

/// An `Encoder` from a record to column values: each coding key names a column, each value becomes the
/// ``SQLiteValue`` the value table gives (Date as UTC text, Bool as 0/1, UUID as lowercase text,
/// nested values as JSON text). Optional properties that are nil encode as NULL, so an UPDATE clears them.
///
/// It works in one of two ways. Without a ``StatementBinding`` it collects ``columns`` (and the ``keys``
/// they came from), one encoder per record. With one, it binds each value straight to the statement's
/// parameter as the record encodes it; the Record layer keeps such an encoder with its prepared statement
/// and reuses it for every record of the type, through ``encode(_:)``.
///
/// What user code may keep of it past a record (see ``retire()``): a reused encoder hands each record a
/// ``RecordEncodingHandle`` rather than itself, which knows its record; the keyed container it reuses is
/// checked when each record ends, and if user code kept it, the Record layer retires this encoder and goes on
/// with a new one. A retired encoder binds nothing and throws for every value.
final class ColumnsEncoder: Encoder {
    /// The table, named in errors.
    let tableName: String?
    let options: RecordEncoder
    /// The statement the values are bound to; nil while collecting ``columns``, and once retired.
    private(set) var binding: StatementBinding?
    /// ``binding`` without ownership, for the binds of every value: reaching a class reference through an
    /// Optional retains and releases it around each call. Set and cleared with ``binding``, which keeps it
    /// alive meanwhile.
    private var guaranteedBinding: UnownedStatementBinding?
    /// True once the record or records this encoder served are done (``retire()``).
    private(set) var isRetired = false
    /// Which record a reused encoder is on: moved on when a record starts and again when it ends, so that a
    /// ``RecordEncodingHandle`` kept past its record no longer matches.
    private(set) var recordSerial: UInt = 0

    /// The columns collected so far (without a binding).
    var columns = EncodedColumns()
    /// The string value of the coding key of each column in ``columns``.
    var keys: [String] = []
    /// A shape the encoder cannot store (the record is not keyed, or nests a container under a key).
    /// `Encoder`'s container methods cannot throw, so the failure is kept and thrown when encoding ends.
    var failure: EncodingError? { hasFailed ? recordedFailure : nil }
    /// True once ``failure`` is set. Kept apart from it because `EncodingError` is a resilient standard
    /// library type: every test or reset of the Optional goes through its value witnesses, and a reused
    /// encoder would pay that for every record.
    private var hasFailed = false
    private var recordedFailure: EncodingError?
    /// The keyed container the records of a reused encoder share, boxed with its key type: making one per
    /// record costs an allocation and two generic metadata lookups.
    private var containerBox: ReusableContainerBox?
    /// True once a reused encoder handed out a keyed container that is not kept in `containerBox`: user code
    /// may hold it, and nothing can tell (see ``isHeldByUserCode``).
    private var handedOutUnboxedContainer = false
    /// Collecting for a partial update (``collectOnly(_:by:)``): the columns it writes, whose values are
    /// converted, and the columns still to collect before the encoding stops. Nil otherwise.
    private var writtenColumns: [String]?
    private var columnsBeforeStop: [String] = []
    /// True once collecting for a partial update threw ``EncodingStop`` into the record's `encode(to:)`.
    private(set) var hasStopped = false

    var codingPath: [any CodingKey] { [] }
    /// Always empty, and a value: keeping it is safe.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(tableName: String?, options: RecordEncoder, binding: StatementBinding? = nil) {
        self.tableName = tableName
        self.options = options
        self.binding = binding
        guaranteedBinding = binding.map(UnownedStatementBinding.init)
        if binding == nil {
            columns.names.reserveCapacity(16)
            columns.values.reserveCapacity(16)
            keys.reserveCapacity(16)
        }
    }

    /// Encodes `value` into the binding's statement.
    /// - Returns: false when the value's keys differed from the binding's (nothing is known to be bound then,
    ///   and the caller encodes the value the collected way); true when every parameter is bound.
    /// - Throws: what encoding the value throws, as the collected way would throw it, and ``DatabaseError``
    ///   from a bind.
    func encode<T: Encodable>(_ value: T) throws -> Bool {
        guard let binding else { return false }
        binding.start()
        if hasFailed {
            hasFailed = false
            recordedFailure = nil
        }
        recordSerial &+= 1
        defer { recordSerial &+= 1 }
        do {
            try value.encode(to: RecordEncodingHandle(encoder: self, recordSerial: recordSerial))
        } catch where binding.hasStopped {
            // A partial update's binding has every value it binds (see ``StatementBinding/stopsPastLastKey``);
            // an error thrown after the stop (the stop wrapped) comes from code the update does not run.
        }
        guard !binding.hasDiverged else { return false }
        if hasFailed, let failure = recordedFailure { throw failure }
        return binding.isComplete
    }

    /// Makes this collecting encoder collect for a partial update that writes `columns` by `keyColumns`:
    /// encoding stops once every one of both is collected (``EncodingStop``), and the values of other
    /// columns are collected as NULL without being converted.
    func collectOnly(_ columns: [String], by keyColumns: [String]) {
        writtenColumns = columns
        columnsBeforeStop = columns + keyColumns
    }

    /// Collecting for a partial update: throws ``EncodingStop`` again for a value after the stop (a record
    /// that caught it and went on).
    /// - Returns: true when `key`'s value is not written, and is collected as NULL without being converted.
    private func collectsUnconverted<Key: CodingKey>(_ key: Key) throws -> Bool {
        guard let writtenColumns, !isRetired else { return false }
        if columnsBeforeStop.isEmpty { throw stopEncoding() }
        return !writtenColumns.contains(columnName(for: key))
    }

    /// The ``EncodingStop`` to throw into the record's `encode(to:)`, noting that it was thrown.
    private func stopEncoding() -> EncodingStop {
        hasStopped = true
        return EncodingStop()
    }

    /// Lets go of the kept keyed container, which refers back to this encoder: called when the encoder's
    /// owner is done with it.
    func dropContainer() {
        containerBox = nil
        handedOutUnboxedContainer = false
    }

    /// True when user code may still hold the keyed container of the record just written: a copy of the one
    /// this reused encoder keeps (asked when the record ends, when every copy the record's own code made is
    /// released unless it was kept), or one it could not keep.
    var isHeldByUserCode: Bool {
        @inline(__always) get { handedOutUnboxedContainer || containerBox?.isHeldElsewhere == true }
    }

    /// Ends this encoder's use: it binds nothing from now on, and every value encoded through it, or through
    /// a container it handed out, throws ``FinishedEncoding/recordIsDone(_:codingPath:)``. Called when a
    /// collected encoding ends, and by the Record layer for a reused encoder whose container user code kept.
    /// Also lets go of the kept container, which refers back to this encoder.
    func retire() {
        isRetired = true
        binding = nil
        guaranteedBinding = nil
        dropContainer()
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        guard let box = containerBox else { return makeContainer(keyedBy: type) }
        return box.encodingContainer(keyedBy: type) { makeContainer(keyedBy: type) }
    }

    /// Makes a keyed container, and keeps it when this encoder is reused. Not inlined, so that the metadata
    /// lookups it needs stay out of `container(keyedBy:)`, which would otherwise make them for every record.
    @inline(never)
    private func makeContainer<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if isRetired { return KeyedEncodingContainer(FinishedKeyedEncodingContainer<Key>(codingPath: [])) }
        let container = KeyedEncodingContainer(RecordKeyedContainer<Key>(encoder: self))
        if binding != nil {
            // A box this replaces may hold a container of this same record, which could be kept.
            if containerBox != nil { handedOutUnboxedContainer = true }
            containerBox = KeyedContainerBox(container, keyedBy: type)
            if containerBox == nil { handedOutUnboxedContainer = true }
        }
        return container
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if isRetired { return FinishedEncodingContainer(codingPath: []) }
        fail(nil, "A record encodes into a keyed container, one column per coding key; not an array")
        return DiscardingUnkeyedContainer(codingPath: [])
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        if isRetired { return FinishedEncodingContainer(codingPath: []) }
        fail(nil, "A record encodes into a keyed container, one column per coding key; not a single value")
        return ColumnValueEncoder(codingPath: [])
    }

    func fail(_ key: (any CodingKey)?, _ message: String, value: Any = ()) {
        guard !hasFailed else { return }
        hasFailed = true
        recordedFailure = EncodingError.invalidValue(
            value, .init(codingPath: key.map { [$0] } ?? [], debugDescription: message))
    }

    /// `column "name" of table "cities"`, or `column "name"` when the table is unknown.
    func describeColumn<Key: CodingKey>(_ key: Key) -> String {
        guard let tableName else { return "column \"\(columnName(for: key))\"" }
        return "column \"\(columnName(for: key))\" of table \"\(tableName)\""
    }

    // MARK: Values

    // These take the key as a generic, not `any CodingKey`: an existential would box the key for every
    // column of every record.

    /// Adds `value` to the columns (collecting), or binds it (with a binding).
    func put<Key: CodingKey>(_ value: SQLiteValue, for key: Key) throws {
        guard let binding else {
            // A retired encoder has no binding, so every value it is given ends here.
            if isRetired { throw FinishedEncoding.recordIsDone(value, codingPath: [key]) }
            let name = columnName(for: key)
            if writtenColumns != nil {
                if columnsBeforeStop.isEmpty { throw stopEncoding() }
                columnsBeforeStop.removeAll { $0 == name }
            }
            columns.names.append(name)
            columns.values.append(value)
            keys.append(key.stringValue)
            return
        }
        let parameter = try binding.parameter(for: key)
        if parameter != 0 { try binding.bind(value, at: parameter) }
    }

    /// ``put(_:for:)`` for NULL.
    @inline(__always)
    func putNull<Key: CodingKey>(for key: Key) throws {
        guard let binding = guaranteedBinding else { return try put(.null, for: key) }
        try binding.bindNull(for: key)
    }

    /// ``put(_:for:)`` for an INTEGER.
    @inline(__always)
    func put<Key: CodingKey>(integer: Int64, for key: Key) throws {
        guard let binding = guaranteedBinding else { return try put(.integer(integer), for: key) }
        try binding.bind(integer: integer, for: key)
    }

    /// ``put(_:for:)`` for TEXT.
    @inline(__always)
    func put<Key: CodingKey>(text: String, for key: Key) throws {
        guard let binding = guaranteedBinding else { return try put(.text(text), for: key) }
        try binding.bind(text: text, for: key)
    }

    /// ``put(_:for:)`` for a REAL, refusing NaN as ``real(_:type:for:)`` does.
    @inline(__always)
    func put<Key: CodingKey>(real: Double, type: Any.Type, for key: Key) throws {
        guard let binding = guaranteedBinding else {
            if try collectsUnconverted(key) { return try put(.null, for: key) }
            return try put(try self.real(real, type: type, for: key), for: key)
        }
        // The key is checked before the value: once a record's keys differ from the binding's, nothing is
        // converted, so the collected way, which encodes the record next, throws the record's first error.
        try binding.withBinding { binding in
            let parameter = try binding.parameter(for: key)
            guard parameter != 0 else { return }
            _ = try self.real(real, type: type, for: key)
            try binding.bind(real: real, at: parameter)
        }
    }

    /// ``put(_:for:)`` for an unsigned integer, refused above `Int64.max` as ``integer(_:for:)`` does.
    func put<T: FixedWidthInteger, Key: CodingKey>(unsigned value: T, for key: Key) throws {
        guard let binding else {
            if try collectsUnconverted(key) { return try put(.null, for: key) }
            return try put(try integer(value, for: key), for: key)
        }
        // As for reals: the key first, then the conversion that may throw.
        let parameter = try binding.parameter(for: key)
        guard parameter != 0 else { return }
        try binding.bind(try integer(value, for: key), at: parameter)
    }

    /// ``put(_:for:)`` for any other value, converted by ``columnValue(_:for:)``. A Date stored as SQLite
    /// text is bound from a buffer on the stack: its 23 bytes would otherwise allocate a `String`.
    func put<T: Encodable, Key: CodingKey>(_ value: T, for key: Key) throws {
        if let binding, T.self == Date.self, case .sqliteText = options.dateEncodingStrategy {
            let parameter = try binding.parameter(for: key)
            guard parameter != 0 else { return }
            if binding.keepsCurrentText {
                // Rare (a date in a numeric column): through a String, which is kept.
                return try binding.bind(try columnValue(value, for: key), at: parameter)
            }
            let date = try SameTypeCast.cast(checked: value, to: Date.self)
            // No text form: dateValue throws the error the collected way throws.
            if try !binding.bind(sqliteTextOf: date, at: parameter) {
                try binding.bind(try dateValue(date, for: key), at: parameter)
            }
            return
        }
        guard let binding else {
            if try collectsUnconverted(key) { return try put(.null, for: key) }
            return try put(try columnValue(value, for: key), for: key)
        }
        let parameter = try binding.parameter(for: key)
        guard parameter != 0 else { return }
        try binding.bind(try columnValue(value, for: key), at: parameter)
    }

    /// The column a key names under the key strategy.
    func columnName<Key: CodingKey>(for key: Key) -> String {
        switch options.keyEncodingStrategy {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return KeyCase.snakeCase(key.stringValue)
        }
    }

    func real<Key: CodingKey>(_ value: Double, type: Any.Type, for key: Key) throws -> SQLiteValue {
        // sqlite3_bind_double stores NaN as NULL: refuse rather than lose the value silently.
        guard !value.isNaN else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [key],
                    debugDescription: "Cannot store \(type) NaN in \(describeColumn(key)): SQLite stores NaN as NULL"))
        }
        return .real(value)
    }

    func integer<T: FixedWidthInteger, Key: CodingKey>(_ value: T, for key: Key) throws -> SQLiteValue {
        guard let integer = Int64(exactly: value) else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [key],
                    debugDescription:
                        "Cannot store \(T.self) \(value) in \(describeColumn(key)): SQLite integers are 64-bit signed, at most \(Int64.max)"
                ))
        }
        return .integer(integer)
    }

    /// The value table's fast paths (Date, Data, UUID, URL, Decimal), then the type's own `encode(to:)` into
    /// one column (RawRepresentable enums store their raw value), then JSON text for types that encode a
    /// keyed or unkeyed container.
    func columnValue<T: Encodable, Key: CodingKey>(_ value: T, for key: Key) throws -> SQLiteValue {
        // Type comparisons and identity casts (SameTypeCast) rather than `as?`: a dynamic cast per value costs
        // more than binding it.
        if T.self == Date.self {
            return try dateValue(try SameTypeCast.cast(checked: value, to: Date.self), for: key)
        }
        if T.self == String.self { return .text(try SameTypeCast.cast(checked: value, to: String.self)) }
        if T.self == Data.self { return .blob(try SameTypeCast.cast(checked: value, to: Data.self)) }
        if T.self == UUID.self {
            let uuid = try SameTypeCast.cast(checked: value, to: UUID.self)
            switch options.uuidEncodingStrategy {
            case .lowercaseText: return .text(UUIDText.lowercase(uuid))
            case .blob:
                let bytes = uuid.uuid
                return .blob(
                    Data([
                        bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5, bytes.6, bytes.7,
                        bytes.8, bytes.9, bytes.10, bytes.11, bytes.12, bytes.13, bytes.14, bytes.15,
                    ]))
            }
        }
        if T.self == URL.self { return .text(try SameTypeCast.cast(checked: value, to: URL.self).absoluteString) }
        if T.self == Decimal.self {
            let decimal = try SameTypeCast.cast(checked: value, to: Decimal.self)
            guard decimal.isFinite else {
                throw EncodingError.invalidValue(
                    decimal,
                    .init(codingPath: [key], debugDescription: "Cannot store a NaN Decimal in \(describeColumn(key))"))
            }
            // INTEGER, REAL or TEXT, whichever keeps every digit and compares as a number (see the conformance).
            return decimal.sqliteValue
        }
        let single = ColumnValueEncoder(codingPath: [key], owner: self)
        // The value's own code may keep the encoder: it throws once this column is done.
        defer { single.finish() }
        try value.encode(to: single)
        if single.needsContainer {
            do {
                let json = try options.jsonEncoder.encode(value)
                return .text(String(decoding: json, as: UTF8.self))
            } catch {
                throw EncodingError.invalidValue(
                    value,
                    .init(
                        codingPath: [key],
                        debugDescription: "Cannot store \(T.self) as JSON in \(describeColumn(key)): \(error)",
                        underlyingError: error))
            }
        }
        guard let encoded = single.value else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: [key], debugDescription: "\(T.self) encoded nothing for \(describeColumn(key))"))
        }
        return encoded
    }

    /// A date under the date strategy.
    func dateValue<Key: CodingKey>(_ date: Date, for key: Key) throws -> SQLiteValue {
        guard !date.timeIntervalSince1970.isNaN else {
            throw EncodingError.invalidValue(
                date.timeIntervalSince1970,
                .init(codingPath: [key], debugDescription: "Cannot store a NaN date in \(describeColumn(key))"))
        }
        switch options.dateEncodingStrategy {
        case .sqliteText:
            guard let text = SQLiteDateFormat.string(from: date) else {
                // The error holds the seconds, not the Date: printing a NaN Date traps inside Foundation.
                throw EncodingError.invalidValue(
                    date.timeIntervalSince1970,
                    .init(
                        codingPath: [key],
                        debugDescription: "Cannot store \(date.timeIntervalSince1970) unix seconds in "
                            + "\(describeColumn(key)) as text: outside the years 0000-9999 that the text holds"))
            }
            return .text(text)
        case .unixSeconds:
            return try real(date.timeIntervalSince1970, type: Date.self, for: key)
        case .unixMilliseconds:
            let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
            guard let integer = Int64(exactly: milliseconds) else {
                throw EncodingError.invalidValue(
                    date.timeIntervalSince1970,
                    .init(
                        codingPath: [key],
                        debugDescription: "Cannot store \(date.timeIntervalSince1970) unix seconds in "
                            + "\(describeColumn(key)) as integer milliseconds"))
            }
            return .integer(integer)
        case .iso8601:
            return .text(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        case .formatted(let formatter):
            return .text(formatter.string(from: date))
        case .custom(let write):
            return try write(date)
        }
    }
}

/// The keyed container over a record: each `encode(_:forKey:)` adds one column.
private struct RecordKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    /// A reused encoder keeps this container in its container box, a cycle that the Record layer's plan
    /// breaks when it is dropped (``ColumnsEncoder/dropContainer()``), or that retiring the encoder breaks
    /// (``ColumnsEncoder/retire()``) when user code kept this container past its record: the encoder then
    /// lives as long as the kept container, binds nothing, and makes every value encoded here throw. Strong, because reaching the encoder
    /// through an unowned reference costs a retain and a release for every value.
    let encoder: ColumnsEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { try encoder.putNull(for: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try encoder.put(integer: value ? 1 : 0, for: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try encoder.put(text: value, for: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try encoder.put(real: value, type: Double.self, for: key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try encoder.put(real: Double(value), type: Float.self, for: key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { try encoder.put(integer: Int64(value), for: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encoder.put(integer: Int64(value), for: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encoder.put(integer: Int64(value), for: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encoder.put(integer: Int64(value), for: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encoder.put(integer: value, for: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try encoder.put(unsigned: value, for: key)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encoder.put(integer: Int64(value), for: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encoder.put(integer: Int64(value), for: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encoder.put(integer: Int64(value), for: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try encoder.put(unsigned: value, for: key)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.put(value, for: key)
    }

    // The standard library's encodeIfPresent skips nil, which would leave the column out: an UPDATE would
    // then keep the old value. Every overload is replaced so that nil writes NULL, and each concrete one
    // calls its concrete encode (a generic helper would send a String? through the generic path).
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        try encodeOptional(value, key)
    }

    private mutating func encodeOptional<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        if encoder.isRetired {
            return KeyedEncodingContainer(FinishedKeyedEncodingContainer<NestedKey>(codingPath: [key]))
        }
        encoder.fail(key, nestingMessage(key))
        return KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>(codingPath: [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        if encoder.isRetired { return FinishedEncodingContainer(codingPath: [key]) }
        encoder.fail(key, nestingMessage(key))
        return DiscardingUnkeyedContainer(codingPath: [key])
    }

    /// An encoder for the same record, that knows which record it is for as the one the record was given does.
    mutating func superEncoder() -> any Encoder {
        RecordEncodingHandle(encoder: encoder, recordSerial: encoder.recordSerial)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        if encoder.isRetired { return FinishedEncoder(codingPath: [key]) }
        encoder.fail(key, nestingMessage(key))
        return ColumnValueEncoder(codingPath: [key])
    }

    private func nestingMessage(_ key: Key) -> String {
        "\(encoder.describeColumn(key)) holds one value; encode a nested value with encode(_:forKey:) and it is "
            + "stored there as JSON"
    }
}
