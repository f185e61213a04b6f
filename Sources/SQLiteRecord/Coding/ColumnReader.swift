import CSQLiteRecord
import Foundation

/// Reads one column of the current row as the Swift type a coding key asks for, following the value table
/// (the ValuesAndCoding article of the documentation): a conversion happens when it is exact, and anything that would lose information throws.
///
/// Errors name the column, the table when known, the stored storage class and value, and the Swift type;
/// their coding path ends with the key. Their kinds follow Foundation's coders: `typeMismatch` when the
/// storage class can never hold the Swift type (a BLOB for an `Int`), `dataCorrupted` when it is the right
/// one but its content is no valid value (70000 for an `Int16`, a date text that does not parse, a UUID BLOB
/// that is not 16 bytes), `valueNotFound` for NULL.
///
/// Four words (the two 32-bit fields share one, the key position is a plain `Int`), so that the slow paths
/// below, which take the reader as `self`, get it in registers: at five words it is passed in memory, and
/// every read stored it to the stack before testing for its fast path.
struct ColumnReader {
    /// The decoding state, through which the reader reaches the row and the context (the statement's column
    /// names, table and JSON decoder) without retaining anything: a reader lives only while its row decodes,
    /// inside ``RowDecodingContext/decodeRow(_:)``, which holds the context. ``ColumnValueDecoder``, which
    /// the type's own code may keep, holds the context strongly and reads through its reader only while the
    /// row it was made for is current.
    let state: RowDecodingState
    /// Where the coding key that asked for this column sits in the column lookup's ``KeyTrail``, which keeps
    /// its name; nil for a single-column row decoded as one value. Rows decode at the top of a coding path,
    /// so the key alone is the path. A position rather than the key's string: making that string for every
    /// column read cost more than the read, and only errors need it. ``columnNamePosition`` for a read of
    /// ``FetchedRow``, whose path is the column's own name.
    var keyPosition: Int? { storedKeyPosition == Self.noKeyPosition ? nil : storedKeyPosition }
    /// ``keyPosition``, ``noKeyPosition`` for nil: an `Int?` would take a fifth word.
    private let storedKeyPosition: Int
    /// The column in the current row, found once for the reads below.
    let column: StatementColumn
    let index: Int32
    /// The column's storage class in the current row, read once.
    let storage: Int32

    init(index: Int32, state: RowDecodingState, keyPosition: Int?) {
        self.index = index
        self.state = state
        self.storedKeyPosition = keyPosition ?? Self.noKeyPosition
        column = StatementColumn(state.row, at: index)
        storage = column.storageClass
    }

    /// The stored ``keyPosition`` of a reader without one: no position in a trail, nor ``columnNamePosition``.
    private static var noKeyPosition: Int { Int.min }

    /// The ``keyPosition`` of a read that ``FetchedRow`` makes by index or name: its errors' coding path is
    /// the column's name.
    static let columnNamePosition = -1

    var codingPath: [any CodingKey] {
        guard let keyPosition else { return [] }
        if keyPosition == Self.columnNamePosition {
            let names = context.columnNames
            return [ColumnCodingKey(stringValue: names.indices.contains(Int(index)) ? names[Int(index)] : "")]
        }
        guard let key = state.trail.key(atPosition: keyPosition) else { return [] }
        return [ColumnCodingKey(stringValue: key)]
    }

    var context: RowDecodingContext { state.context }
    /// The current row, by handle: reading a column retains nothing.
    var row: StatementRow { state.row }
    var isNull: Bool { storage == SQLITE_NULL }

    // MARK: Errors

    /// `typeMismatch`: the storage class can never hold `type`.
    func mismatch(_ type: Any.Type, _ reason: String? = nil) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: describe(type, reason)))
    }

    /// `dataCorrupted`: the storage class is one `type` reads, but this value is not a valid one.
    func corrupted(_ type: Any.Type, _ reason: String, underlyingError: (any Error)? = nil) -> DecodingError {
        DecodingError.dataCorrupted(
            .init(codingPath: codingPath, debugDescription: describe(type, reason), underlyingError: underlyingError))
    }

    /// `Expected Int16 but column "age" of table "people" holds INTEGER 70000, out of range`.
    private func describe(_ type: Any.Type, _ reason: String?) -> String {
        let stored = row.value(at: index)
        var text = "Expected \(type) but \(context.describeColumn(at: index)) holds \(stored)"
        if let reason { text += ", \(reason)" }
        return text
    }

    func valueNotFound(_ type: Any.Type) -> DecodingError {
        let text = "Expected \(type) but \(context.describeColumn(at: index)) holds NULL"
        return DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: text))
    }

    /// The decoding error for a value the value table refused as `type`.
    private func decodingError(_ failure: SQLiteConversionFailure, _ type: Any.Type) -> DecodingError {
        switch failure.kind {
        case .null: return valueNotFound(type)
        case .mismatch: return mismatch(type, failure.reason)
        case .corrupted: return corrupted(type, failure.reason ?? "")
        }
    }

    /// Throws `valueNotFound` for NULL: every typed read below starts here.
    private func checkNotNull(_ type: Any.Type) throws {
        if isNull { throw valueNotFound(type) }
    }

    // MARK: Numbers

    /// INTEGER in range, or REAL with no fractional part in range.
    ///
    /// Inlined into each keyed container method, which reads one column per call: the common case, an
    /// INTEGER in range, then costs a compare and the read, and the rest stays in ``convertedInteger(_:)``.
    @inline(__always)
    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        if let value = Self.commonInteger(type, column, storage) { return value }
        return try convertedInteger(type)
    }

    /// ``integer(_:)``'s common case, read from the column alone: an INTEGER in range; nil for the rest.
    ///
    /// The common cases are functions of the column and its storage class, not of a reader, so that the keyed
    /// container reads them without making one: it would otherwise write the reader to memory for every
    /// column before it knows whether the conversions need it.
    @inline(__always)
    static func commonInteger<T: FixedWidthInteger>(_ type: T.Type, _ column: StatementColumn, _ storage: Int32) -> T? {
        storage == SQLITE_INTEGER ? T(exactly: column.int64) : nil
    }

    /// ``integer(_:)`` for every case but an INTEGER in range: REAL, out of range, NULL, TEXT, BLOB.
    @inline(never)
    private func convertedInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        do throws(SQLiteConversionFailure) { return try SQLiteValueTable.integer(type, from: column) } catch {
            throw decodingError(error, type)
        }
    }

    /// REAL, or an INTEGER a `Double` holds exactly. Inlined as ``integer(_:)`` is, for REAL.
    @inline(__always)
    func double() throws -> Double {
        if let value = Self.commonDouble(column, storage) { return value }
        return try convertedDouble()
    }

    /// ``double()``'s common case: REAL.
    @inline(__always)
    static func commonDouble(_ column: StatementColumn, _ storage: Int32) -> Double? {
        storage == SQLITE_FLOAT ? column.double : nil
    }

    @inline(never)
    private func convertedDouble() throws -> Double {
        do throws(SQLiteConversionFailure) { return try SQLiteValueTable.double(from: column) } catch {
            throw decodingError(error, Double.self)
        }
    }

    /// REAL within Float's range, rounded as Float does, or an INTEGER a Float holds exactly.
    func float() throws -> Float {
        do throws(SQLiteConversionFailure) { return try SQLiteValueTable.float(from: column) } catch {
            throw decodingError(error, Float.self)
        }
    }

    /// INTEGER 0 or 1, REAL 0.0 or 1.0, or one of the words SQLite's boolean texts use, in any case.
    /// Inlined as ``integer(_:)`` is: an INTEGER 0 or 1 is read here, the rest in ``convertedBool()``.
    @inline(__always)
    func bool() throws -> Bool {
        if let value = Self.commonBool(column, storage) { return value }
        return try convertedBool()
    }

    /// ``bool()``'s common case: INTEGER 0 or 1.
    @inline(__always)
    static func commonBool(_ column: StatementColumn, _ storage: Int32) -> Bool? {
        guard storage == SQLITE_INTEGER else { return nil }
        switch column.int64 {
        case 0: return false
        case 1: return true
        default: return nil
        }
    }

    @inline(never)
    private func convertedBool() throws -> Bool {
        do throws(SQLiteConversionFailure) { return try SQLiteValueTable.bool(from: column) } catch {
            throw decodingError(error, Bool.self)
        }
    }

    // MARK: Text and bytes

    /// TEXT, or INTEGER and REAL as their decimal text. Inlined as ``integer(_:)`` is, for valid TEXT.
    @inline(__always)
    func string() throws -> String {
        if let text = Self.commonString(column, storage) { return text }
        return try convertedString()
    }

    /// ``string()``'s common case: TEXT that is valid UTF-8.
    @inline(__always)
    static func commonString(_ column: StatementColumn, _ storage: Int32) -> String? {
        storage == SQLITE_TEXT ? column.validatedString : nil
    }

    @inline(never)
    private func convertedString() throws -> String {
        do throws(SQLiteConversionFailure) { return try SQLiteValueTable.string(from: column) } catch {
            throw decodingError(error, String.self)
        }
    }

    /// BLOB, or TEXT as its UTF-8 bytes.
    func data() throws -> Data {
        do throws(SQLiteConversionFailure) { return try SQLiteValueTable.data(from: column) } catch {
            throw decodingError(error, Data.self)
        }
    }

    // MARK: Foundation values

    /// A date by the decoder's ``RowDecoder/DateDecodingStrategy``.
    ///
    /// Inlined, with the automatic strategy's TEXT case: the keyed container reads a date through here first
    /// thing in its generic `decode`, so a date column costs a compare, the read and the parse.
    @inline(__always)
    func date() throws -> Date {
        // Asked of the state first: switching over the strategy itself copies its payloads, per date.
        if state.readsDatesAutomatically, let date = Self.commonDate(column, storage) { return date }
        return try dateByStrategy()
    }

    /// ``date()``'s common case under the automatic strategy (which the caller checks): TEXT that parses.
    @inline(__always)
    static func commonDate(_ column: StatementColumn, _ storage: Int32) -> Date? {
        storage == SQLITE_TEXT ? column.withUTF8(SQLiteDateFormat.date(fromUTF8:)) : nil
    }

    /// ``date()`` for every case but the automatic strategy's TEXT that parses.
    @inline(never)
    private func dateByStrategy() throws -> Date {
        try checkNotNull(Date.self)
        if state.readsDatesAutomatically { return try automaticDate() }
        switch context.decoder.dateDecodingStrategy {
        case .automatic:
            return try automaticDate()
        case .unixSeconds:
            return try unixDate(divisor: 1)
        case .unixMilliseconds:
            return try unixDate(divisor: 1000)
        case .iso8601:
            guard storage == SQLITE_TEXT else { throw mismatch(Date.self, "where ISO 8601 text was expected") }
            let text = row.string(at: index)
            // Both with and without fractional seconds, as ISO 8601 allows.
            if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
                return date
            }
            if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
            throw corrupted(Date.self, "which is not an ISO 8601 date")
        case .formatted(let formatter):
            guard storage == SQLITE_TEXT else { throw mismatch(Date.self, "where text was expected") }
            guard let date = formatter.date(from: row.string(at: index)) else {
                throw corrupted(Date.self, "which the date formatter (\(formatter.dateFormat ?? "")) cannot read")
            }
            return date
        case .custom(let read):
            return try read(row.value(at: index))
        }
    }

    /// ``RowDecoder/DateDecodingStrategy/automatic``: TEXT SQLite's date functions read, or unix seconds.
    private func automaticDate() throws -> Date {
        do throws(SQLiteConversionFailure) { return try SQLiteValueTable.date(from: column) } catch {
            throw decodingError(error, Date.self)
        }
    }

    /// INTEGER or REAL seconds (or milliseconds, with `divisor` 1000) since 1970.
    private func unixDate(divisor: Double) throws -> Date {
        do throws(SQLiteConversionFailure) {
            return try SQLiteValueTable.unixDate(from: column, divisor: divisor)
        } catch {
            throw decodingError(error, Date.self)
        }
    }

    /// TEXT with or without hyphens or braces, in any case, or a 16-byte BLOB.
    func uuid() throws -> UUID {
        do throws(SQLiteConversionFailure) { return try SQLiteValueTable.uuid(from: column) } catch {
            throw decodingError(error, UUID.self)
        }
    }

    /// TEXT holding an absolute or relative URL.
    func url() throws -> URL {
        do throws(SQLiteConversionFailure) { return try SQLiteValueTable.url(from: column) } catch {
            throw decodingError(error, URL.self)
        }
    }

    /// TEXT holding a decimal number, INTEGER, or REAL through its shortest decimal text (19.99 stays 19.99).
    func decimal() throws -> Decimal {
        do throws(SQLiteConversionFailure) { return try SQLiteValueTable.decimal(from: column) } catch {
            throw decodingError(error, Decimal.self)
        }
    }

    /// TEXT or BLOB holding JSON, for nested structs, arrays and dictionaries.
    func json<T: Decodable>(_ type: T.Type) throws -> T {
        let bytes: Data
        switch storage {
        case SQLITE_TEXT, SQLITE_BLOB: bytes = column.data
        default:
            try checkNotNull(type)
            throw mismatch(type, "where JSON text was expected")
        }
        do {
            return try context.decoder.jsonDecoder.decode(type, from: bytes)
        } catch let error as DecodingError {
            // The JSON decoder's own error keeps its kind and its path, below this column's key: a missing
            // `zip` in column `address` is keyNotFound at ["address", "zip"]. Text that is not JSON is
            // dataCorrupted, as JSONDecoder reports it.
            throw nested(error, in: type)
        } catch {
            throw corrupted(type, "which is not JSON for it: \(error)", underlyingError: error)
        }
    }

    /// `error`, thrown by the JSON decoder for the value of this column, with the column's key in front of
    /// its coding path and the column named in its description.
    private func nested(_ error: DecodingError, in type: Any.Type) -> DecodingError {
        func located(_ inner: DecodingError.Context, key: (any CodingKey)? = nil) -> DecodingError.Context {
            // A missing key's path ends with the key itself (["address", "zip"]), where Foundation's stops at
            // its container: the path then names the value the person fixing the row must add.
            .init(
                codingPath: codingPath + inner.codingPath + (key.map { [$0] } ?? []),
                debugDescription: describe(type, "whose JSON does not decode: \(inner.debugDescription)"),
                underlyingError: inner.underlyingError)
        }
        switch error {
        case .typeMismatch(let expected, let inner): return .typeMismatch(expected, located(inner))
        case .valueNotFound(let expected, let inner): return .valueNotFound(expected, located(inner))
        case .keyNotFound(let key, let inner): return .keyNotFound(key, located(inner, key: key))
        case .dataCorrupted(let inner): return .dataCorrupted(located(inner))
        @unknown default: return error
        }
    }

    // MARK: Any Decodable

    /// The value table's fast paths first (Date, Data, URL, UUID, Decimal are read straight from the
    /// column rather than through their own `Decodable`, which would ask for other shapes), then the type's
    /// own `init(from:)` over this one column (RawRepresentable enums and single-value wrappers), then JSON
    /// for types that ask for a keyed or unkeyed container.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // T is the type just compared, so each bit cast is the identity; a dynamic `as? T` cast would cost
        // more than reading the value.
        if T.self == Date.self { return try SameTypeCast.cast(checked: try date(), to: T.self) }
        if T.self == Data.self { return try SameTypeCast.cast(checked: try data(), to: T.self) }
        if T.self == UUID.self { return try SameTypeCast.cast(checked: try uuid(), to: T.self) }
        if T.self == URL.self { return try SameTypeCast.cast(checked: try url(), to: T.self) }
        if T.self == Decimal.self { return try SameTypeCast.cast(checked: try decimal(), to: T.self) }
        // An Optional reaches here through a generic property (`struct Page<T> { var value: T }` with T an
        // Optional calls decode, not decodeIfPresent): its own init(from:) reads NULL as nil with decodeNil.
        if isNull && !(T.self is any OptionalValue.Type) { throw valueNotFound(type) }
        do {
            return try T(from: ColumnValueDecoder(reader: self))
        } catch is ColumnValueDecoder.NeedsContainer {
            return try json(type)
        } catch DecodingError.dataCorrupted(let inner)
            where !inner.debugDescription.contains(context.describeColumn(at: index))
        {
            // A type's own init(from:) rejected the value (a RawRepresentable enum and an unknown raw value):
            // say where the value came from. The column readers' own errors say it already.
            let text =
                "Cannot decode \(type) from \(context.describeColumn(at: index)), which holds "
                + "\(row.value(at: index)): \(inner.debugDescription)"
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: text, underlyingError: inner.underlyingError))
        }
    }

    /// True for the types the value table reads straight from a column rather than through their own
    /// `Decodable` (which would ask for other shapes: a Double for Date, a keyed container for URL).
    static func readsDirectly(_ type: Any.Type) -> Bool {
        type == Date.self || type == Data.self || type == UUID.self || type == URL.self || type == Decimal.self
    }
}

/// Marks `Optional`, so that the column reader can tell it apart from other generic types.
private protocol OptionalValue {}

extension Optional: OptionalValue {}
