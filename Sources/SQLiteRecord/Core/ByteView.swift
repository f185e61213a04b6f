import CSQLiteRecord
import Foundation

/// A read-only view of bytes the library does not own: a column's TEXT or BLOB as SQLite returned it, a
/// `String`'s UTF-8, the rest of a SQL text after a prepared statement, a stack buffer holding a date or a
/// UUID text. Every raw byte the library reads goes through this type.
///
/// Invariants:
/// - A view does not own or retain its bytes. It is valid only inside the closure that receives it
///   (`withUTF8(of:_:)`, ``StatementRow/withUTF8(at:_:)``, ...), or, for a view made from SQLite's text
///   (``init(sqliteText:count:)``), until the statement leaves its current row or the value changes type.
///   It is never stored in a property, never returned from the closure, never captured by an escaping one.
/// - Every read is inside `0..<count`: the subscripts and ``extracting(_:)-(Range<Int>)`` trap on an index
///   outside it (a programming error, never a data error: every caller checks the length first), and the
///   word-at-a-time reads of the UTF-8 checks stay inside by construction.
/// - ``isFollowedByNUL`` is true only when a NUL byte stands right after the last byte (SQLite's text,
///   which SQLite always terminates, a C string): ``validatedString`` then reads `count + 1` bytes.
/// - The C calls that take a pointer to the bytes (binding, preparing) are made in this file, and SQLite
///   copies or finishes reading the bytes before they return (`SQLITE_TRANSIENT`).
///
/// The model is swift-foundation's JSON decoding, which keeps its raw bytes inside one buffer type with
/// safe methods. Not a `Collection`: a view made by ``extracting(_:)-(Range<Int>)`` is indexed from 0, as
/// the standard library's `Span` is.
struct ByteView {
    /// The bytes; read only by this file.
    fileprivate let buffer: UnsafeBufferPointer<UInt8>
    /// True when a NUL byte follows the last byte (see the invariants).
    let isFollowedByNUL: Bool

    @inline(__always)
    fileprivate init(_ buffer: UnsafeBufferPointer<UInt8>, isFollowedByNUL: Bool = false) {
        self.buffer = buffer
        self.isFollowedByNUL = isFollowedByNUL
    }

    /// A view of `count` bytes of text that SQLite returned (`sqlite3_column_text`, `sqlite3_value_text`),
    /// which SQLite follows with a NUL; empty when `text` is nil (NULL, or an out-of-memory error).
    @inline(__always)
    init(sqliteText text: UnsafePointer<UInt8>?, count: Int) {
        guard let text else {
            self.init(UnsafeBufferPointer(start: nil, count: 0))
            return
        }
        self.init(UnsafeBufferPointer(start: text, count: count), isFollowedByNUL: true)
    }

    /// Calls `body` with a view of the UTF-8 of `string`, in place for a native string, copied for a
    /// bridged one (Apple platforms).
    @inline(__always)
    static func withUTF8<Result>(of string: String, _ body: (ByteView) throws -> Result) rethrows -> Result {
        if let result = try string.utf8.withContiguousStorageIfAvailable({ try body(ByteView($0)) }) {
            return result
        }
        var string = string
        return try string.withUTF8 { try body(ByteView($0)) }
    }

    /// Calls `body` with a view of `bytes`.
    static func withBytes<Result>(of bytes: [UInt8], _ body: (ByteView) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBufferPointer { try body(ByteView($0)) }
    }

    /// Calls `body` with a view of the bytes of `data`.
    static func withBytes<Result>(of data: Data, _ body: (ByteView) throws -> Result) rethrows -> Result {
        try data.withUnsafeBytes { raw in try body(ByteView(raw.bindMemory(to: UInt8.self))) }
    }

    /// Calls `body` with a view of `string`'s UTF-8 up to its end or its first NUL, followed by a NUL: the
    /// text that SQLite's C calls read.
    static func withCString<Result>(_ string: String, _ body: (ByteView) throws -> Result) rethrows -> Result {
        try string.withCString { text in
            let count = strlen(text)
            return try text.withMemoryRebound(to: UInt8.self, capacity: count + 1) {
                try body(ByteView(UnsafeBufferPointer(start: $0, count: count), isFollowedByNUL: true))
            }
        }
    }

    // MARK: Reading

    /// The number of bytes.
    @inline(__always)
    var count: Int { buffer.count }

    /// True when the view holds no byte.
    @inline(__always)
    var isEmpty: Bool { buffer.isEmpty }

    /// The byte at `index`, which must be in `0..<count`.
    @inline(__always)
    subscript(index: Int) -> UInt8 {
        precondition(index >= 0 && index < buffer.count, "ByteView index out of range")
        return buffer[index]
    }

    /// The bytes in `bounds`, which must lie in `0...count`, as a view of their own indexed from 0.
    @inline(__always)
    func extracting(_ bounds: Range<Int>) -> ByteView {
        precondition(bounds.lowerBound >= 0 && bounds.upperBound <= buffer.count, "ByteView range out of bounds")
        return ByteView(
            UnsafeBufferPointer(rebasing: buffer[bounds]),
            isFollowedByNUL: isFollowedByNUL && bounds.upperBound == buffer.count)
    }

    /// The bytes from `bounds.lowerBound` to the end, as a view of their own indexed from 0.
    @inline(__always)
    func extracting(_ bounds: PartialRangeFrom<Int>) -> ByteView {
        extracting(bounds.lowerBound..<buffer.count)
    }

    /// The `count` decimal digits from `start` as a number; negative when one of the bytes is no digit. The
    /// range must lie inside the view.
    @inline(__always)
    func digits(at start: Int, count: Int) -> Int {
        precondition(start >= 0 && count >= 0 && start + count <= buffer.count, "ByteView range out of bounds")
        var value = 0
        var notDigit = false
        for index in start..<start + count {
            let digit = buffer[index] &- 48  // wraps below "0", so one compare catches both sides
            notDigit = notDigit || digit > 9
            value = value &* 10 &+ Int(digit)
        }
        return notDigit ? -1 : value
    }

    /// True when the bytes are the UTF-8 of `string`.
    func elementsEqual(utf8Of string: String) -> Bool {
        guard string.utf8.count == buffer.count else { return false }
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return true }
        let equal = string.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.baseAddress.map { memcmp($0, base, bytes.count) == 0 } ?? false
        }
        return equal ?? string.utf8.elementsEqual(buffer)
    }

    // MARK: Text

    /// The bytes as text, with U+FFFD in place of bytes that are not valid UTF-8.
    @inline(__always)
    var string: String { String(decoding: buffer, as: UTF8.self) }

    /// The bytes as text when they are valid UTF-8; nil when they are not.
    ///
    /// Followed by a NUL, the standard library validates and copies the text in one pass, where checking
    /// first and then `String(decoding:)` (which checks again, to repair) takes two. Text that holds a NUL
    /// of its own stops short there, and is read the two-pass way.
    var validatedString: String? {
        if isFollowedByNUL, let base = buffer.baseAddress {
            let string = base.withMemoryRebound(to: CChar.self, capacity: buffer.count + 1) {
                String(validatingCString: $0)
            }
            if let string, string.utf8.count == buffer.count { return string }
        }
        guard isValidUTF8 else { return nil }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// True when the bytes are well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above
    /// U+10FFFF). A plain loop rather than the standard library's generic validation, which looks up
    /// generic metadata on every call: this runs for every text column of every row.
    var isValidUTF8: Bool { isASCII || isValidNonASCIIUTF8 }

    /// True when every byte is below 0x80: most text in most databases. Whole words, the last one read
    /// overlapping the one before, or for texts under 8 bytes one read of each of 4, 2 and 1 bytes, rather
    /// than a byte at a time: country codes and names are a few bytes long.
    @inline(__always)
    var isASCII: Bool {
        let raw = UnsafeRawBufferPointer(buffer)
        let count = raw.count
        let highBits: UInt64 = 0x8080_8080_8080_8080
        if count >= 8 {
            var offset = 0
            while offset + 8 < count {
                guard raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & highBits == 0 else { return false }
                offset += 8
            }
            return raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) & highBits == 0
        }
        var word: UInt64 = 0
        var offset = 0
        if count & 4 != 0 {
            word |= UInt64(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            offset += 4
        }
        if count & 2 != 0 {
            word |= UInt64(raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
            offset += 2
        }
        if count & 1 != 0 { word |= UInt64(raw[offset]) }
        return word & highBits == 0
    }

    /// The general check, for text that holds a byte at or above 0x80.
    private var isValidNonASCIIUTF8: Bool {
        let bytes = buffer
        var index = 0
        let count = bytes.count
        @inline(__always) func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            index + offset < count && bytes[index + offset] >= low && bytes[index + offset] <= high
        }
        let raw = UnsafeRawBufferPointer(bytes)
        while index < count {
            // Eight ASCII bytes at a time: most text in most databases is ASCII.
            while index + 8 <= count,
                raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
            }
            guard index < count else { break }
            let lead = bytes[index]
            switch lead {
            case 0x00...0x7F:
                index += 1
            case 0xC2...0xDF:
                guard continuation(1) else { return false }
                index += 2
            case 0xE0:
                guard continuation(1, 0xA0), continuation(2) else { return false }
                index += 3
            case 0xE1...0xEC, 0xEE...0xEF:
                guard continuation(1), continuation(2) else { return false }
                index += 3
            case 0xED:
                guard continuation(1, 0x80, 0x9F), continuation(2) else { return false }
                index += 3
            case 0xF0:
                guard continuation(1, 0x90), continuation(2), continuation(3) else { return false }
                index += 4
            case 0xF1...0xF3:
                guard continuation(1), continuation(2), continuation(3) else { return false }
                index += 4
            case 0xF4:
                guard continuation(1, 0x80, 0x8F), continuation(2), continuation(3) else { return false }
                index += 4
            default:
                return false
            }
        }
        return true
    }

    // MARK: C calls that read the bytes

    /// Binds the bytes as TEXT to parameter `index` of `statement`, copied by SQLite before the call
    /// returns (`sqlite3_bind_text64` with `SQLITE_TRANSIENT`); returns SQLite's result code.
    @inline(__always)
    func bindText(to statement: OpaquePointer, at index: Int32) -> Int32 {
        // An empty buffer may have no base address, and a NULL pointer would bind NULL, not ''.
        guard let base = buffer.baseAddress, !buffer.isEmpty else {
            return sqlite3_bind_text(statement, index, "", 0, sqliteTransient)
        }
        return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
            sqlite3_bind_text64(statement, index, $0, UInt64(buffer.count), sqliteTransient, UInt8(SQLITE_UTF8))
        }
    }

    /// Binds the bytes as a BLOB to parameter `index` of `statement`, copied by SQLite (`sqlite3_bind_blob64`
    /// with `SQLITE_TRANSIENT`; an empty view binds a zero-length blob, not NULL); returns SQLite's result code.
    func bindBlob(to statement: OpaquePointer, at index: Int32) -> Int32 {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return sqlite3_bind_zeroblob(statement, index, 0) }
        return sqlite3_bind_blob64(statement, index, base, UInt64(buffer.count), sqliteTransient)
    }

    /// Prepares the first statement of the SQL text from byte `start` on `connection` (`sqlite3_prepare_v3`).
    /// - Returns: SQLite's result code, the statement (nil when the text from `start` holds only whitespace
    ///   or comments), and the offset where the text after it begins. After an error the offset is where
    ///   SQLite stopped parsing, or `count` when it did not say.
    func prepare(from start: Int, on connection: OpaquePointer) -> (code: Int32, statement: OpaquePointer?, end: Int) {
        precondition(start >= 0 && start <= buffer.count, "ByteView offset out of bounds")
        guard let base = buffer.baseAddress else { return (SQLITE_OK, nil, 0) }
        return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { text in
            var statement: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            // With the NUL counted, SQLite need not copy the text to terminate it.
            let length = Int32(clamping: buffer.count - start + (isFollowedByNUL ? 1 : 0))
            let code = sqlite3_prepare_v3(connection, text + start, length, 0, &statement, &tail)
            let end = tail.map { Swift.min($0 - text, buffer.count) } ?? buffer.count
            return (code, statement, end)
        }
    }

    /// True when the SQL text from byte `start` holds another statement: SQLite itself skips whitespace,
    /// semicolons and comments, so preparing such a rest yields no statement.
    func holdsStatement(from start: Int, on connection: OpaquePointer) -> Bool {
        guard start < buffer.count else { return false }
        let (code, statement, _) = prepare(from: start, on: connection)
        sqlite3_finalize(statement)
        return code != SQLITE_OK || statement != nil
    }
}

extension ByteView: Sequence {
    /// The bytes in order.
    struct Iterator: IteratorProtocol {
        fileprivate var base: UnsafeBufferPointer<UInt8>.Iterator
        mutating func next() -> UInt8? { base.next() }
    }

    func makeIterator() -> Iterator { Iterator(base: buffer.makeIterator()) }

    var underestimatedCount: Int { buffer.count }
}

/// A writable view of bytes the library does not own, for printing a date or a UUID into a stack buffer
/// or a new string's storage. The same invariants as ``ByteView``: valid only inside the closure that
/// receives it, every write inside `0..<count`.
struct MutableByteView {
    fileprivate let buffer: UnsafeMutableBufferPointer<UInt8>

    @inline(__always)
    fileprivate init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    /// Calls `body` with `count` uninitialized bytes on the stack (or the heap, when large).
    @inline(__always)
    static func withTemporaryBytes<Result>(
        count: Int, _ body: (MutableByteView) throws -> Result
    ) rethrows
        -> Result
    {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { try body(MutableByteView($0)) }
    }

    /// A string of at most `capacity` bytes that `body` writes as UTF-8 and whose length it returns. What
    /// `body` writes must be valid UTF-8 (it is checked and repaired otherwise).
    @inline(__always)
    static func makeString(capacity: Int, _ body: (MutableByteView) -> Int) -> String {
        String(unsafeUninitializedCapacity: capacity) { body(MutableByteView($0)) }
    }

    /// The number of bytes.
    @inline(__always)
    var count: Int { buffer.count }

    /// The byte at `index`, which must be in `0..<count`.
    @inline(__always)
    subscript(index: Int) -> UInt8 {
        get {
            precondition(index >= 0 && index < buffer.count, "MutableByteView index out of range")
            return buffer[index]
        }
        nonmutating set {
            precondition(index >= 0 && index < buffer.count, "MutableByteView index out of range")
            buffer[index] = newValue
        }
    }

    /// The first `count` bytes, which must have been written, as a read-only view.
    @inline(__always)
    func prefix(_ count: Int) -> ByteView {
        precondition(count >= 0 && count <= buffer.count, "MutableByteView count out of bounds")
        return ByteView(UnsafeBufferPointer(rebasing: buffer[..<count]))
    }
}

// MARK: Raw-buffer forms kept for callers outside Core

extension SQLiteDateFormat {
    /// Parses UTF-8 bytes as ``date(from:)`` does, without making a `String` first.
    public static func date(fromUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        date(fromUTF8: ByteView(bytes))
    }

    /// Prints `date` as ``string(from:)`` does into the first ``textLength`` bytes of `buffer`, which must
    /// hold at least that many; false when the date has no text form.
    static func write(_ date: Date, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        write(date, into: MutableByteView(buffer))
    }
}

extension Statement {
    /// Calls `body` with the bytes of column `index` read as text, without copying them into a `String`.
    /// The buffer is valid only during the call.
    public func withUTF8<T>(at index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try row.withUTF8(at: index) { try body($0.buffer) }
    }

    /// Binds the UTF-8 `bytes` as TEXT to parameter `index`, as ``bind(utf8:at:)-(ByteView,_)`` does.
    /// - Throws: as ``bind(text:at:)``.
    func bind(utf8 bytes: UnsafeBufferPointer<UInt8>, at index: Int32) throws {
        try bind(utf8: ByteView(bytes), at: index)
    }
}

extension UUID {
    /// The UUID's 16 bytes in order (RFC 9562's byte order): the BLOB form the library stores and matches.
    var sqliteBlob: Data { withUnsafeBytes(of: uuid) { Data($0) } }
}
