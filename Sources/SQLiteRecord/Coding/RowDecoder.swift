import Foundation

/// Decodes `Decodable` values from statement rows: each coding key names a column.
///
/// A small public type over the library's own decoder, like Foundation's `JSONDecoder`: its properties are
/// the strategies, its methods the entry points. Records use ``Record/rowDecoder``; a `RowDecoder` of your
/// own decodes rows of statements you run yourself.
///
/// ```swift
/// let statement = try db.makeStatement(sql: "SELECT * FROM cities")
/// var decoder = RowDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// let cities = try decoder.decodeAll(City.self, from: statement)
/// ```
///
/// Values convert as the value table in <doc:ValuesAndCoding> says: exactly, or with a thrown `DecodingError` naming the
/// column, the stored type and value, and the Swift type.
public struct RowDecoder: Sendable {
    /// How dates are read.
    public enum DateDecodingStrategy: Sendable {
        /// TEXT in any form SQLite's date functions read (`YYYY-MM-DD`, with ` HH:MM[:SS[.SSS]]` or a `T`,
        /// with `Z` or `±HH:MM`), or INTEGER / REAL unix seconds. The default. Parsed by hand, without
        /// formatters. See <https://www.sqlite.org/lang_datefunc.html>.
        case automatic
        /// INTEGER or REAL seconds since 1970-01-01 00:00:00 UTC.
        case unixSeconds
        /// INTEGER or REAL milliseconds since 1970-01-01 00:00:00 UTC.
        case unixMilliseconds
        /// TEXT in ISO 8601 (`2024-05-01T12:30:00Z`, fractional seconds allowed), read by Foundation's
        /// `Date.ISO8601FormatStyle`.
        case iso8601
        /// TEXT read by a `DateFormatter` of your own.
        case formatted(DateFormatter)
        /// Your own function of the stored value; what it throws is passed on.
        case custom(@Sendable (SQLiteValue) throws -> Date)
    }

    /// How coding keys find columns.
    public enum KeyDecodingStrategy: Sendable, Equatable {
        /// A key's string value is the column name. The default.
        case useDefaultKeys
        /// A key is converted to snake_case to find its column: `countryId` reads `country_id`. The
        /// conversion is the one ``RecordEncoder/KeyEncodingStrategy/convertToSnakeCase`` writes with, so
        /// `imageURL` reads `image_url`.
        case convertFromSnakeCase
    }

    /// How dates are read; ``DateDecodingStrategy/automatic`` by default.
    public var dateDecodingStrategy: DateDecodingStrategy = .automatic
    /// How keys find columns; ``KeyDecodingStrategy/useDefaultKeys`` by default.
    public var keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys
    /// Reads nested values (structs, arrays, dictionaries) that are stored as JSON text. Configure its own
    /// strategies for the JSON inside.
    public var jsonDecoder = JSONDecoder()

    /// A decoder with the default strategies.
    public init() {}

    /// Decodes the current row of `statement`, which must have stepped to a row.
    ///
    /// An Optional property with no column decodes as nil, so partial SELECTs work; a non-optional one is
    /// `keyNotFound`.
    /// - Throws: `DecodingError` naming the column whose value does not fit, or the key that has no column.
    public func decode<T: Decodable>(_ type: T.Type, from statement: Statement) throws -> T {
        // A caller stepping a statement row by row calls this once per row: the context (and the keyed
        // container it keeps) is reused while decoders that decode alike decode the same statement. The check
        // compares identities and flags only: copying or comparing this decoder's strategies would cost more
        // per row than the rest of the check.
        try decodeKeptRow(type, from: statement)
    }

    /// True when `state`'s column lookup was made for the statement as SQLite prepared it for this run;
    /// recorded for the rest of the run when the statement is on a row.
    @inline(never)
    static func lookupIsCurrent(_ state: StatementCodingState, on statement: Statement) -> Bool {
        guard state.lookup.reprepareCount == statement.reprepareCount else { return false }
        if statement.isBusy { state.lookupCheckedAtEndedRuns = statement.endedRuns }
        return true
    }

    /// Makes the context that ``decode(_:from:)`` keeps on `statement` for the rows after this one. Not
    /// inlined: the first row pays for it, the others do not carry its code.
    @inline(never)
    func makeReusableContext(for statement: Statement) -> RowDecodingContext {
        let context = RowDecodingContext(
            statement: statement, tableName: nil, missingOptionalColumnIsNil: true, decoder: self)
        let state = ColumnLookup.state(of: statement, keyStrategy: keyDecodingStrategy)
        state.releaseIdleContexts()
        state.reusableContext = context
        _ = Self.lookupIsCurrent(state, on: statement)
        return context
    }

    /// True for ``DateDecodingStrategy/automatic``. Other strategies hold closures or formatters that cannot
    /// be compared, so only this one tells that two decoders read dates alike.
    var readsDatesAutomatically: Bool {
        if case .automatic = dateDecodingStrategy { return true }
        return false
    }

    /// Steps `statement` through its remaining rows and decodes each one; the statement is left done.
    /// - Throws: ``DatabaseError`` from stepping, or `DecodingError` as ``decode(_:from:)``.
    public func decodeAll<T: Decodable>(_ type: T.Type, from statement: Statement) throws -> [T] {
        let context = RowDecodingContext(
            statement: statement, tableName: nil, missingOptionalColumnIsNil: true, decoder: self)
        var values: [T] = []
        // Reserving first makes the metadata of `[T]` a lookup per call, not per row: this code is generic and
        // runs unspecialized.
        values.reserveCapacity(4)
        while try statement.step() {
            values.append(try context.decodeRow(type))
        }
        return values
    }
}
