import Foundation

/// A UUID's text forms, printed and parsed by hand, digits in and digits out.
///
/// On Linux, Foundation's `uuidString` prints through `snprintf` and `UUID(uuidString:)` parses through
/// `sscanf`: about 6,700 and 8,900 instructions a call (callgrind, W3-uuid), where a whole lookup by key
/// costs about 10,000. Dates are read and written by hand for the same reason (``SQLiteDateFormat``).
///
/// The forms read are the ones ``UUID/init(sqliteValue:)`` documents: 36 characters hyphenated as 8-4-4-4-12,
/// or 32 hex digits, in any case, either optionally in braces.
///
/// Invariant (the buffers this type indexes): the stack buffer it writes holds 36 bytes, exactly what the
/// hyphenated form needs; parsing checks that the bytes between the braces number 32 or 36 before it reads
/// any, then reads 32 digits and, for 36, the four hyphens: every index stays inside the bytes it was given.
enum UUIDText {
    /// The length of the hyphenated form.
    static let hyphenatedLength = 36

    /// The lowercase hyphenated form, `e621e1f8-c36c-495a-93fc-0c247a3e6e5f` (RFC 9562).
    static func lowercase(_ uuid: UUID) -> String {
        String(unsafeUninitializedCapacity: hyphenatedLength) { buffer in write(uuid, into: buffer) }
    }

    /// Runs `body` with the 36 UTF-8 bytes of the lowercase hyphenated form, made on the stack: no string.
    static func withLowercaseUTF8<Result>(
        _ uuid: UUID, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: hyphenatedLength) { buffer in
            let count = write(uuid, into: buffer)
            return try body(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// The UUID `text` spells, or nil when it is not one of the forms read.
    static func parse(_ text: String) -> UUID? {
        if let parsed = text.utf8.withContiguousStorageIfAvailable({ parse(utf8: $0) }) { return parsed }
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// The UUID the UTF-8 `bytes` spell, or nil when they are not one of the forms read.
    static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
        var start = 0
        var end = bytes.count
        if end >= 2, bytes[0] == UInt8(ascii: "{"), bytes[end - 1] == UInt8(ascii: "}") {
            start = 1
            end -= 1
        }
        let hyphenated = end - start == hyphenatedLength
        guard hyphenated || end - start == 32 else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &uuid) { output -> Bool in
            var position = start
            for index in 0..<16 {
                if hyphenated && isHyphenatedBefore(index) {
                    guard bytes[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = hexValue(bytes[position]), let low = hexValue(bytes[position + 1]) else {
                    return false
                }
                output[index] = high << 4 | low
                position += 2
            }
            return true
        }
        return parsed ? UUID(uuid: uuid) : nil
    }

    /// Writes the lowercase hyphenated form of `uuid` at the start of `buffer`, which holds at least 36 bytes;
    /// returns the count written, 36.
    private static func write(_ uuid: UUID, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            var position = 0
            for index in 0..<16 {
                if isHyphenatedBefore(index) {
                    buffer[position] = UInt8(ascii: "-")
                    position += 1
                }
                buffer[position] = hexDigit(bytes[index] >> 4)
                buffer[position + 1] = hexDigit(bytes[index] & 0x0F)
                position += 2
            }
            return position
        }
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
