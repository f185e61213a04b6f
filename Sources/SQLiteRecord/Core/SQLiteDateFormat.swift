import Foundation

/// The date texts SQLite's date and time functions read, parsed and printed by hand.
///
/// Parsing accepts what <https://www.sqlite.org/lang_datefunc.html> calls time values 1 to 10 with a date:
/// `YYYY-MM-DD`, optionally followed by a space or `T` and `HH:MM`, `HH:MM:SS` or `HH:MM:SS.SSS` (any
/// number of fraction digits), optionally followed by `Z` or an offset `+HH:MM` / `-HH:MM`, and the other
/// offsets ISO 8601 allows and other tools write: `+HHMM` (what `DateFormatter`'s `Z` pattern writes, as
/// `+0000` or `+0530`) and hours alone, `+HH`. A text with no zone is UTC, as in SQLite. Printing writes one form: UTC `YYYY-MM-DD HH:MM:SS.SSS`, which sorts as
/// text, keeps milliseconds, and is what `datetime()` and `strftime()` read.
///
/// Neither direction goes through `DateFormatter` or ICU: on the hot path of every fetch and save, a
/// formatter costs more than the SQLite call itself (on Linux each call copies an ICU formatter). The
/// arithmetic is Howard Hinnant's days-from-civil algorithm over the proleptic Gregorian calendar.
public enum SQLiteDateFormat {
    /// Parses a SQLite date text into a `Date`; nil when the text is not one of the accepted forms or
    /// names an impossible date (month 13, February 30, hour 24).
    public static func date(from text: String) -> Date? {
        ByteView.withUTF8(of: text) { date(fromUTF8: $0) }
    }

    /// Parses UTF-8 bytes as ``date(from:)`` does, without making a `String` first.
    static func date(fromUTF8 bytes: ByteView) -> Date? {
        if let date = storedFormDate(bytes) { return date }
        var cursor = DigitCursor(bytes: bytes)
        guard let year = cursor.number(4), cursor.expect(UInt8(ascii: "-")), let month = cursor.number(2),
            cursor.expect(UInt8(ascii: "-")), let day = cursor.number(2), month >= 1, month <= 12, day >= 1,
            day <= daysInMonth(month, year: year)
        else { return nil }

        var seconds = Double(daysFromCivil(year: year, month: month, day: day)) * 86_400
        guard !cursor.isAtEnd else { return Date(timeIntervalSince1970: seconds) }

        guard cursor.expect(UInt8(ascii: " ")) || cursor.expect(UInt8(ascii: "T")) else { return nil }
        guard let hour = cursor.number(2), cursor.expect(UInt8(ascii: ":")), let minute = cursor.number(2),
            hour < 24, minute < 60
        else { return nil }
        var second = 0
        var fraction = 0.0
        if cursor.expect(UInt8(ascii: ":")) {
            guard let value = cursor.number(2), value < 60 else { return nil }
            second = value
            if cursor.expect(UInt8(ascii: ".")) {
                // Up to nine digits (nanoseconds) count; more are read and ignored, as SQLite does.
                guard let (numerator, denominator) = cursor.fraction(maximumDigits: 9) else { return nil }
                fraction = Double(numerator) / Double(denominator)
            }
        }
        seconds += Double(hour * 3600 + minute * 60 + second) + fraction

        if !cursor.isAtEnd {
            if cursor.expect(UInt8(ascii: "Z")) || cursor.expect(UInt8(ascii: "z")) {
                // UTC, as with no zone at all.
            } else {
                let sign: Double
                if cursor.expect(UInt8(ascii: "+")) {
                    sign = 1
                } else if cursor.expect(UInt8(ascii: "-")) {
                    sign = -1
                } else {
                    return nil
                }
                // +HH:MM, +HHMM or +HH (ISO 8601's three offset forms).
                guard let offsetHours = cursor.number(2), offsetHours < 24 else { return nil }
                var offsetMinutes = 0
                if !cursor.isAtEnd {
                    _ = cursor.expect(UInt8(ascii: ":"))
                    guard let minutes = cursor.number(2), minutes < 60 else { return nil }
                    offsetMinutes = minutes
                }
                seconds -= sign * Double(offsetHours * 3600 + offsetMinutes * 60)
            }
        }
        guard cursor.isAtEnd else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// The form ``string(from:)`` writes, `YYYY-MM-DD HH:MM:SS.SSS`, which nearly every stored date is in:
    /// its fields at fixed offsets, read without a check per separator or per field width. nil for any other
    /// text, which the general parse then reads; the same `Date` as the general parse of the same text, by
    /// the same arithmetic.
    @inline(__always)
    private static func storedFormDate(_ bytes: ByteView) -> Date? {
        guard bytes.count == textLength, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: ".")
        else { return nil }
        let year = bytes.digits(at: 0, count: 4)
        let month = bytes.digits(at: 5, count: 2)
        let day = bytes.digits(at: 8, count: 2)
        let hour = bytes.digits(at: 11, count: 2)
        let minute = bytes.digits(at: 14, count: 2)
        let second = bytes.digits(at: 17, count: 2)
        let millisecond = bytes.digits(at: 20, count: 3)
        // A field with a byte that is no digit is negative (see ByteView.digits(at:count:)).
        guard year >= 0, month >= 1, month <= 12, day >= 1, day <= daysInMonth(month, year: year), hour >= 0,
            hour < 24, minute >= 0, minute < 60, second >= 0, second < 60, millisecond >= 0
        else { return nil }
        var seconds = Double(daysFromCivil(year: year, month: month, day: day)) * 86_400
        seconds += Double(hour * 3600 + minute * 60 + second) + Double(millisecond) / Double(1000)
        return Date(timeIntervalSince1970: seconds)
    }

    /// Reads digits and separators from the front of a byte buffer: a struct rather than nested functions, so
    /// the parse compiles to straight-line code with nothing captured.
    private struct DigitCursor {
        let bytes: ByteView
        var index = 0

        var isAtEnd: Bool { index >= bytes.count }

        /// Exactly `width` decimal digits as a number, or nil (and nothing consumed).
        @inline(__always)
        mutating func number(_ width: Int) -> Int? {
            guard index + width <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<width {
                let digit = Int(bytes[index + offset]) &- 48
                guard digit >= 0 && digit <= 9 else { return nil }
                value = value &* 10 &+ digit
            }
            index += width
            return value
        }

        /// Consumes `byte` when it comes next.
        @inline(__always)
        mutating func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count && bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// One or more digits, the first `maximumDigits` of them as numerator / 10^n; nil when there is none.
        mutating func fraction(maximumDigits: Int) -> (Int, Int)? {
            var digits = 0
            var numerator = 0
            var denominator = 1
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                if digits < maximumDigits {
                    numerator = numerator * 10 + Int(bytes[index] - 48)
                    denominator *= 10
                }
                digits += 1
                index += 1
            }
            return digits > 0 ? (numerator, denominator) : nil
        }
    }

    /// The length of the text form in bytes: `YYYY-MM-DD HH:MM:SS.SSS` is 23 ASCII characters.
    static let textLength = 23

    /// Prints `date` as UTC `YYYY-MM-DD HH:MM:SS.SSS`, rounded to the nearest millisecond; nil when the date
    /// falls outside the years 0000 to 9999 that the form can hold, or is not finite.
    public static func string(from date: Date) -> String? {
        guard let fields = Fields(date) else { return nil }
        return MutableByteView.makeString(capacity: textLength) { buffer in
            fields.write(into: buffer)
            return textLength
        }
    }

    /// Prints `date` as ``string(from:)`` does into the first ``textLength`` bytes of `buffer`, which must
    /// hold at least that many; false when the date has no text form.
    static func write(_ date: Date, into buffer: MutableByteView) -> Bool {
        guard buffer.count >= textLength, let fields = Fields(date) else { return false }
        fields.write(into: buffer)
        return true
    }

    /// Calls `body` with the text of `date` as ``string(from:)`` prints it, made on the stack: what the
    /// record encoder binds, without making a `String` (23 bytes is past the length a `String` holds without
    /// allocating). nil, without calling `body`, when the date has no text form.
    static func withText<Result>(of date: Date, _ body: (ByteView) throws -> Result) rethrows -> Result? {
        guard let fields = Fields(date) else { return nil }
        return try MutableByteView.withTemporaryBytes(count: textLength) { buffer in
            fields.write(into: buffer)
            return try body(buffer.prefix(textLength))
        }
    }

    /// A date's calendar fields in UTC, to the millisecond.
    private struct Fields {
        let year, month, day, hour, minute, second, millisecond: Int

        init?(_ date: Date) {
            let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
            // 253402300800000 ms is 10000-01-01; -62167219200000 ms is 0000-01-01.
            guard milliseconds.isFinite, milliseconds >= -62_167_219_200_000, milliseconds < 253_402_300_800_000
            else { return nil }
            let total = Int64(milliseconds)
            let (days, millisecondOfDay) = SQLiteDateFormat.floorDivision(total, 86_400_000)
            (year, month, day) = SQLiteDateFormat.civil(fromDays: Int(days))
            let millisecondsInDay = Int(millisecondOfDay)
            hour = millisecondsInDay / 3_600_000
            minute = millisecondsInDay / 60_000 % 60
            second = millisecondsInDay / 1000 % 60
            millisecond = millisecondsInDay % 1000
        }

        /// Writes the 23 bytes of the text form at the start of `buffer`.
        func write(into buffer: MutableByteView) {
            // Checked once here, so that the constant offsets below need no check each.
            guard buffer.count >= SQLiteDateFormat.textLength else { return }
            // Two digits at a time, each pair with one division by a constant and no loop: every insert of a
            // record with a date prints one. Every field is in range (0...9999 at most), so each digit is 0...9.
            func putPair(_ value: Int, at start: Int) {
                let tens = value / 10
                buffer[start] = UInt8(truncatingIfNeeded: 48 &+ tens)
                buffer[start &+ 1] = UInt8(truncatingIfNeeded: 48 &+ value &- tens &* 10)
            }
            let century = year / 100
            putPair(century, at: 0)
            putPair(year &- century &* 100, at: 2)
            buffer[4] = UInt8(ascii: "-")
            putPair(month, at: 5)
            buffer[7] = UInt8(ascii: "-")
            putPair(day, at: 8)
            buffer[10] = UInt8(ascii: " ")
            putPair(hour, at: 11)
            buffer[13] = UInt8(ascii: ":")
            putPair(minute, at: 14)
            buffer[16] = UInt8(ascii: ":")
            putPair(second, at: 17)
            buffer[19] = UInt8(ascii: ".")
            let hundreds = millisecond / 100
            buffer[20] = UInt8(truncatingIfNeeded: 48 &+ hundreds)
            putPair(millisecond &- hundreds &* 100, at: 21)
        }
    }

    static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
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

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = value / divisor
        let remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
