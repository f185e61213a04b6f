import Foundation

/// The date text the library stores, UTC `YYYY-MM-DD HH:MM:SS.SSS`, printed and parsed by hand as a careful
/// person writing the baseline would: digits in, digits out, days-from-civil arithmetic (Howard Hinnant's),
/// no `DateFormatter`, no `Calendar`. Parsing accepts only this fixed form, which is all the baseline
/// stores.
enum BaselineDateText {
    /// The length of the text, in bytes.
    static let length = 23

    /// Writes `date`, rounded to the millisecond, into the 23 bytes at `buffer`.
    /// - Returns: false when the date is outside the years 0000-9999 or not finite (nothing is written).
    static func write(_ date: Date, into buffer: UnsafeMutablePointer<UInt8>) -> Bool {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        // -62167219200000 ms is 0000-01-01, 253402300800000 ms is 10000-01-01.
        guard milliseconds.isFinite, milliseconds >= -62_167_219_200_000, milliseconds < 253_402_300_800_000
        else { return false }
        let total = Int64(milliseconds)
        var days = total / 86_400_000
        var millisecondOfDay = total % 86_400_000
        if millisecondOfDay < 0 {
            days -= 1
            millisecondOfDay += 86_400_000
        }
        let (year, month, day) = civil(fromDays: Int(days))
        let time = Int(millisecondOfDay)

        func put(_ value: Int, _ width: Int, at start: Int) {
            var value = value
            var position = start + width - 1
            while position >= start {
                buffer[position] = UInt8(truncatingIfNeeded: 48 + value % 10)
                value /= 10
                position -= 1
            }
        }
        put(year, 4, at: 0)
        buffer[4] = UInt8(ascii: "-")
        put(month, 2, at: 5)
        buffer[7] = UInt8(ascii: "-")
        put(day, 2, at: 8)
        buffer[10] = UInt8(ascii: " ")
        put(time / 3_600_000, 2, at: 11)
        buffer[13] = UInt8(ascii: ":")
        put(time / 60_000 % 60, 2, at: 14)
        buffer[16] = UInt8(ascii: ":")
        put(time / 1000 % 60, 2, at: 17)
        buffer[19] = UInt8(ascii: ".")
        put(time % 1000, 3, at: 20)
        return true
    }

    /// Parses the 23-byte form; nil for any other text.
    static func parse(_ bytes: UnsafePointer<UInt8>, count: Int) -> Date? {
        guard count == length, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: ".")
        else { return nil }
        var valid = true
        func number(at start: Int, _ width: Int) -> Int {
            var value = 0
            for position in start..<start + width {
                let digit = Int(bytes[position]) &- 48
                if digit < 0 || digit > 9 { valid = false }
                value = value * 10 + digit
            }
            return value
        }
        let year = number(at: 0, 4)
        let month = number(at: 5, 2)
        let day = number(at: 8, 2)
        let hour = number(at: 11, 2)
        let minute = number(at: 14, 2)
        let second = number(at: 17, 2)
        let millisecond = number(at: 20, 3)
        guard valid, month >= 1, month <= 12, day >= 1, day <= 31, hour < 24, minute < 60, second < 60 else {
            return nil
        }
        let days = Int64(daysFromCivil(year: year, month: month, day: day))
        let milliseconds = days * 86_400_000 + Int64(((hour * 60 + minute) * 60 + second) * 1000 + millisecond)
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a count of days since 1970-01-01.
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
