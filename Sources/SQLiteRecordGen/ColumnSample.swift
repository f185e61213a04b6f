import Foundation
import SQLiteRecord

/// What a bounded sample of one column's stored values holds: how many of each storage class, and which
/// Swift types every non-NULL value of the sample converts to exactly (by the library's own conversions,
/// ``SQLiteValueReadable``, so a type chosen here reads those values back).
struct ColumnSample: Sendable, Equatable {
    var nullCount = 0
    var integerCount = 0
    var realCount = 0
    var textCount = 0
    var blobCount = 0
    /// Every INTEGER (and REAL) value is 0 or 1.
    var allZeroOrOne = true
    /// Every REAL has no fractional part.
    var allRealsWhole = true
    /// Every TEXT parses as a date in a form SQLite's date functions read (`Date(sqliteValue:)`).
    var allTextsDates = true
    /// Every TEXT parses as a UUID (`UUID(sqliteValue:)`): any case, with or without hyphens or braces.
    var allTextsUUIDs = true
    /// Every TEXT is a Bool's text (`0`, `1`, `true`, `false`, `yes`, `no`, ...).
    var allTextsBools = true
    /// Every TEXT is in the one form the encoder writes dates (`YYYY-MM-DD HH:MM:SS.SSS`) or UUIDs
    /// (lowercase, hyphenated): a save writes them back unchanged.
    var allTextsCanonical = true
    /// Every BLOB is 16 bytes: it may be a UUID.
    var allBlobsSixteenBytes = true
    /// The first TEXT value seen, for notes.
    var firstText: String?

    /// The number of non-NULL values.
    var valueCount: Int { integerCount + realCount + textCount + blobCount }

    /// The storage classes present, as SQLite's `typeof()` names them, in a fixed order.
    var storageClasses: [String] {
        var classes: [String] = []
        if integerCount > 0 { classes.append("INTEGER") }
        if realCount > 0 { classes.append("REAL") }
        if textCount > 0 { classes.append("TEXT") }
        if blobCount > 0 { classes.append("BLOB") }
        return classes
    }

    /// Adds one stored value.
    mutating func add(_ value: SQLiteValue) {
        switch value {
        case .null:
            nullCount += 1
        case .integer(let integer):
            integerCount += 1
            if integer != 0 && integer != 1 { allZeroOrOne = false }
        case .real(let real):
            realCount += 1
            if real != 0 && real != 1 { allZeroOrOne = false }
            if real.rounded() != real { allRealsWhole = false }
        case .text(let text):
            textCount += 1
            if firstText == nil { firstText = text }
            let date = Date(sqliteValue: value)
            if date == nil { allTextsDates = false }
            let uuid = UUID(sqliteValue: value)
            if uuid == nil { allTextsUUIDs = false }
            if Bool(sqliteValue: value) == nil { allTextsBools = false }
            if let date, SQLiteDateFormat.string(from: date) != text, uuid?.uuidString.lowercased() != text {
                allTextsCanonical = false
            } else if let uuid, uuid.uuidString.lowercased() != text {
                allTextsCanonical = false
            }
        case .blob(let data):
            blobCount += 1
            if data.count != 16 { allBlobsSixteenBytes = false }
        }
    }
}
