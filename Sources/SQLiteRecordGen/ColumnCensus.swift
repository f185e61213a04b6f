import Foundation
import SQLiteRecord

/// What every stored value of one column holds: how many of each storage class (SQLite's `typeof()`), and
/// which Swift types read all of them, by the library's own conversions (``SQLiteValueReadable``), so that
/// a type chosen from it reads every row of the table as it is.
///
/// A census is taken over the whole table in one scan (``CensusQuery``): SQLite stores any value in any
/// column (<https://www.sqlite.org/datatype3.html>), so a value past any sample (a text among dates, a 2 in
/// a column of 0 and 1) would make a type chosen from a sample throw at `fetch()`.
struct ColumnCensus: Sendable, Equatable {
    var nullCount = 0
    var integerCount = 0
    var realCount = 0
    var textCount = 0
    var blobCount = 0
    /// INTEGER and REAL values other than 0 and 1 (which `Bool` does not read).
    var notZeroOrOneCount = 0
    /// REAL values with a fractional part (which no integer type reads).
    var fractionalRealCount = 0
    /// INTEGER values beyond 2^53 in magnitude: a `Double` may not hold them exactly.
    var largeIntegerCount = 0
    /// REAL values beyond `Int64`'s range (which `Int64` does not read, whole or not).
    var realBeyondInt64Count = 0
    /// TEXT values that are not a date in a form `Date(sqliteValue:)` reads.
    var nonDateTextCount = 0
    /// TEXT values that are not a UUID `UUID(sqliteValue:)` reads (any case, with or without hyphens or
    /// braces).
    var nonUUIDTextCount = 0
    /// TEXT values that are not a Bool's text (`0`, `1`, `true`, `false`, `t`, `f`, `yes`, `no`, `y`, `n`).
    var nonBoolTextCount = 0
    /// TEXT values that are dates or UUIDs not in the one form the encoder writes them
    /// (`YYYY-MM-DD HH:MM:SS.SSS`, lowercase hyphenated UUIDs): a save rewrites them.
    var nonCanonicalTextCount = 0
    /// BLOB values that are not 16 bytes long (which `UUID` does not read).
    var notSixteenByteBlobCount = 0
    /// One stored TEXT value, for notes.
    var firstText: String?

    /// The number of non-NULL values.
    var valueCount: Int { integerCount + realCount + textCount + blobCount }

    var allZeroOrOne: Bool { notZeroOrOneCount == 0 }
    var allRealsWhole: Bool { fractionalRealCount == 0 }
    var allTextsDates: Bool { nonDateTextCount == 0 }
    var allTextsUUIDs: Bool { nonUUIDTextCount == 0 }
    var allTextsBools: Bool { nonBoolTextCount == 0 }
    var allTextsCanonical: Bool { nonCanonicalTextCount == 0 }
    var allBlobsSixteenBytes: Bool { notSixteenByteBlobCount == 0 }

    /// The storage classes present, as SQLite's `typeof()` names them, in a fixed order.
    var storageClasses: [String] {
        var classes: [String] = []
        if integerCount > 0 { classes.append("INTEGER") }
        if realCount > 0 { classes.append("REAL") }
        if textCount > 0 { classes.append("TEXT") }
        if blobCount > 0 { classes.append("BLOB") }
        return classes
    }

    /// The storage classes with their counts, for notes: `3 INTEGER and 1 TEXT`.
    var countedClasses: String {
        let counts = [
            ("INTEGER", integerCount), ("REAL", realCount), ("TEXT", textCount), ("BLOB", blobCount),
        ].filter { $0.1 > 0 }
        return counts.map { "\($0.1) \($0.0)" }.joined(separator: " and ")
    }

    /// The flags of one TEXT value, as the census function returns them (see ``CensusQuery``).
    struct TextForm: OptionSet, Sendable {
        let rawValue: Int64
        static let date = TextForm(rawValue: 1)
        static let uuid = TextForm(rawValue: 2)
        static let bool = TextForm(rawValue: 4)
        static let canonical = TextForm(rawValue: 8)

        /// What `text` reads as, by the library's conversions.
        init(text: String) {
            var form: TextForm = []
            let value = SQLiteValue.text(text)
            let date = Date(sqliteValue: value)
            let uuid = UUID(sqliteValue: value)
            if date != nil { form.insert(.date) }
            if uuid != nil { form.insert(.uuid) }
            if Bool(sqliteValue: value) != nil { form.insert(.bool) }
            if let date, SQLiteDateFormat.string(from: date) == text { form.insert(.canonical) }
            if let uuid, uuid.uuidString.lowercased() == text { form.insert(.canonical) }
            self = form
        }

        init(rawValue: Int64) { self.rawValue = rawValue }
    }
}
