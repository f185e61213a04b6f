/// A fuzzer's input read front to back: each read takes what it needs and yields zeros, empty text or its
/// default once the input runs out, so that any input, of any length, is one test case.
struct FuzzBytes {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A value below `bound` (greater than 0).
    mutating func below(_ bound: Int) -> Int {
        Int(byte()) % bound
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }

    /// Eight bytes, little-endian.
    mutating func word() -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(byte()) << UInt64(shift) }
        return value
    }

    /// A length byte, then that many bytes (fewer at the input's end): raw, not necessarily UTF-8.
    mutating func chunk(upTo limit: Int = 255) -> [UInt8] {
        let count = min(below(limit + 1), bytes.count - min(offset, bytes.count))
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    /// The rest of the input.
    mutating func rest() -> [UInt8] {
        guard offset < bytes.count else { return [] }
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }
}

/// `bytes` as an SQL hex literal body: `X'...'` without the `X'` and `'`.
func hexDigits(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789ABCDEF")
    var text = ""
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0xF)])
    }
    return text
}
