import Foundation

/// A UUID's text forms, printed and parsed by hand, digits in and digits out.
///
/// On Linux, Foundation's `uuidString` prints through `snprintf` and `UUID(uuidString:)` parses through
/// `sscanf`, each of which costs about as much as a whole lookup by key; dates are read and written by hand
/// for the same reason (``SQLiteDateFormat``).
///
/// The forms read are the ones ``UUID/init(sqliteValue:)`` documents: 36 characters hyphenated as 8-4-4-4-12,
/// or 32 hex digits, in any case, either optionally in braces. The UUID's 16 bytes are handled as two
/// 64-bit halves, most significant byte first, so no code reads a UUID's memory as bytes.
enum UUIDText {
    /// The length of the hyphenated form.
    static let hyphenatedLength = 36

    /// The lowercase hyphenated form, `e621e1f8-c36c-495a-93fc-0c247a3e6e5f` (RFC 9562).
    static func lowercase(_ uuid: UUID) -> String {
        MutableByteView.makeString(capacity: hyphenatedLength) { buffer in write(uuid, into: buffer) }
    }

    /// Runs `body` with the 36 UTF-8 bytes of the lowercase hyphenated form, made on the stack: no string.
    static func withLowercaseUTF8<Result>(_ uuid: UUID, _ body: (ByteView) throws -> Result) rethrows -> Result {
        try MutableByteView.withTemporaryBytes(count: hyphenatedLength) { buffer in
            let count = write(uuid, into: buffer)
            return try body(buffer.prefix(count))
        }
    }

    /// The UUID `text` spells, or nil when it is not one of the forms read.
    static func parse(_ text: String) -> UUID? {
        ByteView.withUTF8(of: text) { parse(utf8: $0) }
    }

    /// The UUID the UTF-8 `bytes` spell, or nil when they are not one of the forms read.
    static func parse(utf8 bytes: ByteView) -> UUID? {
        var start = 0
        var end = bytes.count
        if end >= 2, bytes[0] == UInt8(ascii: "{"), bytes[end - 1] == UInt8(ascii: "}") {
            start = 1
            end -= 1
        }
        let hyphenated = end - start == hyphenatedLength
        guard hyphenated || end - start == 32 else { return nil }
        var halves: (high: UInt64, low: UInt64) = (0, 0)
        var position = start
        for index in 0..<16 {
            if hyphenated && isHyphenatedBefore(index) {
                guard bytes[position] == UInt8(ascii: "-") else { return nil }
                position += 1
            }
            guard let high = hexValue(bytes[position]), let low = hexValue(bytes[position + 1]) else { return nil }
            let byte = UInt64(high << 4 | low)
            if index < 8 {
                halves.high = halves.high << 8 | byte
            } else {
                halves.low = halves.low << 8 | byte
            }
            position += 2
        }
        return uuid(halves.high, halves.low)
    }

    /// Writes the lowercase hyphenated form of `uuid` at the start of `buffer`, which holds at least 36 bytes;
    /// returns the count written, 36.
    private static func write(_ uuid: UUID, into buffer: MutableByteView) -> Int {
        let (high, low) = halves(uuid)
        var position = 0
        for index in 0..<16 {
            if isHyphenatedBefore(index) {
                buffer[position] = UInt8(ascii: "-")
                position += 1
            }
            let byte = UInt8(truncatingIfNeeded: index < 8 ? high >> (56 - 8 * index) : low >> (56 - 8 * (index - 8)))
            buffer[position] = hexDigit(byte >> 4)
            buffer[position + 1] = hexDigit(byte & 0x0F)
            position += 2
        }
        return position
    }

    /// The UUID's bytes 0...7 and 8...15, each half read most significant byte first.
    @inline(__always)
    private static func halves(_ uuid: UUID) -> (UInt64, UInt64) {
        let b = uuid.uuid
        let high = word(b.0, b.1, b.2, b.3, b.4, b.5, b.6, b.7)
        let low = word(b.8, b.9, b.10, b.11, b.12, b.13, b.14, b.15)
        return (high, low)
    }

    /// Eight bytes as one word, the first most significant.
    @inline(__always)
    private static func word(
        _ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8, _ b4: UInt8, _ b5: UInt8, _ b6: UInt8, _ b7: UInt8
    ) -> UInt64 {
        var word = UInt64(b0) << 56
        word |= UInt64(b1) << 48
        word |= UInt64(b2) << 40
        word |= UInt64(b3) << 32
        word |= UInt64(b4) << 24
        word |= UInt64(b5) << 16
        word |= UInt64(b6) << 8
        return word | UInt64(b7)
    }

    /// The UUID whose bytes 0...7 are `high` and 8...15 are `low`, most significant byte first.
    @inline(__always)
    private static func uuid(_ high: UInt64, _ low: UInt64) -> UUID {
        func byte(_ half: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: half >> (56 - 8 * index)) }
        return UUID(
            uuid: (
                byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5),
                byte(high, 6), byte(high, 7), byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3), byte(low, 4),
                byte(low, 5), byte(low, 6), byte(low, 7)
            ))
    }

    /// True when the hyphenated form has a hyphen before byte `index` of the UUID (8-4-4-4-12 digits).
    @inline(__always)
    private static func isHyphenatedBefore(_ index: Int) -> Bool {
        index == 4 || index == 6 || index == 8 || index == 10
    }

    /// The lowercase hex digit of `value`, 0...15.
    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// The value of the hex digit `byte` in either case; nil for any other byte.
    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
