import Foundation

/// The dates users type and read: `yyyy-MM-dd HH:mm:ss` in local time (how the legacy property lists store
/// them), or ISO 8601 with an offset (`2024-03-31T08:30:00Z`, `2024-03-31T10:30:00+02:00`).
///
/// These are user-facing, user-chosen formats, read a few times per command, so they go through
/// Foundation's `Calendar` and `DateFormatter` with a fixed POSIX locale; the library's own UTC text (how
/// the `date` column stores them) is a separate, hand-written format on its hot path. The time zone is a
/// parameter so that tests do not depend on the machine's.
struct NoteDateFormat {
    /// The zone local times are read and written in.
    let timeZone: TimeZone
    private let calendar: Calendar
    private let formatter: DateFormatter

    /// A format reading and writing local times in `timeZone` (the process's, which honours `TZ`, by
    /// default).
    init(timeZone: TimeZone = .current) {
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.locale = Locale(identifier: "en_US_POSIX")
        self.calendar = calendar
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = calendar
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        self.formatter = formatter
    }

    /// `date` as local `yyyy-MM-dd HH:mm:ss`; fractions of a second are dropped.
    func string(from date: Date) -> String {
        formatter.string(from: date)
    }

    /// Reads `yyyy-MM-dd HH:mm:ss` as a local time, or ISO 8601 (`T` between date and time; `Z`, `+HH:MM`
    /// or `+HHMM` after it; without an offset it is local time too). Seconds are whole: fractions are not
    /// accepted.
    ///
    /// A local time that falls twice (the hour repeated when daylight saving ends) is the first of the
    /// two; ISO 8601 with the offset reaches either.
    /// - Throws: ``NotesError/invalidDate(_:)`` for text in neither form or a day that no calendar has
    ///   (`2024-02-30`); ``NotesError/nonexistentLocalTime(_:timeZone:)`` for a local time the clocks
    ///   skip (`2024-03-31 02:30:00` in Europe/Paris).
    func date(from text: String) throws -> Date {
        guard let parts = LexedDate(text) else { throw NotesError.invalidDate(text) }
        var components = DateComponents(
            year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute,
            second: parts.second)
        var zoneCalendar = calendar
        if let offset = parts.offsetSeconds {
            guard let zone = TimeZone(secondsFromGMT: offset) else { throw NotesError.invalidDate(text) }
            zoneCalendar.timeZone = zone
        }
        components.timeZone = zoneCalendar.timeZone
        // Calendar accepts out-of-range fields and rolls them over (February 30 is March 1), and moves a
        // local time the clocks skip forward: reading the date back and comparing catches both.
        guard let date = zoneCalendar.date(from: components), Self.fields(of: date, in: zoneCalendar) == parts.fields
        else {
            if parts.offsetSeconds == nil && Self.existsInUTC(parts) {
                throw NotesError.nonexistentLocalTime(parts.localText, timeZone: timeZone.identifier)
            }
            throw NotesError.invalidDate(text)
        }
        return date
    }

    /// The year-to-second fields of `date` in `calendar`'s zone.
    private static func fields(of date: Date, in calendar: Calendar) -> [Int] {
        let components = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return [
            components.year ?? -1, components.month ?? -1, components.day ?? -1, components.hour ?? -1,
            components.minute ?? -1, components.second ?? -1,
        ]
    }

    /// Whether the fields name a real time where clocks never jump (UTC): when they do and the local zone
    /// still rejects them, the zone skipped that time.
    private static func existsInUTC(_ parts: LexedDate) -> Bool {
        var utc = Calendar(identifier: .gregorian)
        guard let zone = TimeZone(secondsFromGMT: 0) else { return false }
        utc.timeZone = zone
        let components = DateComponents(
            timeZone: zone, year: parts.year, month: parts.month, day: parts.day, hour: parts.hour,
            minute: parts.minute, second: parts.second)
        guard let date = utc.date(from: components) else { return false }
        return fields(of: date, in: utc) == parts.fields
    }
}

/// The digits of a date text, split by position: `yyyy-MM-dd HH:mm:ss` or `yyyy-MM-ddTHH:mm:ss`, then
/// nothing, `Z`, `±HH:MM` or `±HHMM`. Only the shape is checked here; the calendar checks the values.
private struct LexedDate {
    let year: Int
    let month: Int
    let day: Int
    let hour: Int
    let minute: Int
    let second: Int
    /// nil for a local time.
    let offsetSeconds: Int?

    var fields: [Int] { [year, month, day, hour, minute, second] }

    /// The fields as `yyyy-MM-dd HH:mm:ss`, for messages.
    var localText: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let paddedYear = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(paddedYear)-\(two(month))-\(two(day)) \(two(hour)):\(two(minute)):\(two(second))"
    }

    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19 else { return nil }
        func number(_ start: Int, _ length: Int) -> Int? {
            var value = 0
            for byte in bytes[start..<start + length] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func byte(_ index: Int, is character: Character) -> Bool { bytes[index] == character.asciiValue }
        guard let year = number(0, 4), byte(4, is: "-"), let month = number(5, 2), byte(7, is: "-"),
            let day = number(8, 2), byte(10, is: " ") || byte(10, is: "T"), let hour = number(11, 2),
            byte(13, is: ":"), let minute = number(14, 2), byte(16, is: ":"), let second = number(17, 2)
        else { return nil }
        switch bytes.count - 19 {
        case 0:
            offsetSeconds = nil
        case 1 where byte(19, is: "Z"):
            offsetSeconds = 0
        case 5, 6:
            let hasColon = bytes.count == 25
            guard byte(19, is: "+") || byte(19, is: "-"), !hasColon || byte(22, is: ":"),
                let offsetHours = number(20, 2), let offsetMinutes = number(hasColon ? 23 : 22, 2),
                offsetHours <= 23, offsetMinutes <= 59
            else { return nil }
            offsetSeconds = (byte(19, is: "-") ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60)
        default:
            return nil
        }
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (
            year, month, day, hour, minute, second
        )
    }
}
