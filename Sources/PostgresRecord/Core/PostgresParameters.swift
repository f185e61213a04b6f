#if PostgreSQL
import Foundation

/// The `$n` parameters of one statement, or of every statement of a pipelined batch, as libpq takes them:
/// every value's bytes in one contiguous buffer, and per parameter its offset, length, format (0 text, 1
/// binary) and type OID (0 lets the server infer it).
///
/// Values are written straight into the buffer (a record's columns by ``PostgresRecordEncoder``), so that
/// no value has an allocation of its own and nothing is copied again before libpq's send buffer. A batch
/// writes its statements one after the other; each statement names its parameters by a range of indexes.
///
/// Invariants: text is followed by a NUL byte in the buffer (libpq measures a text parameter with
/// `strlen`) and holds none itself; a NULL has offset -1. Pointers into the buffer exist only inside
/// ``withArrays(_:)``, while the buffer cannot change.
struct PostgresParameters {
    private var bytes: [UInt8] = []
    /// Each parameter's first byte in ``bytes``; -1 for NULL.
    private var offsets: [Int] = []
    private var lengths: [Int32] = []
    private var formats: [Int32] = []
    /// Each parameter's type OID; 0 for text and NULL, which take the type the statement gives them.
    private(set) var types: [UInt32] = []

    /// No parameters.
    init() {}

    /// `values`, in order.
    init(_ values: [PostgresValue]) {
        reserve(values.count)
        for value in values { append(value) }
    }

    /// The number of parameters.
    var count: Int { offsets.count }

    /// The bytes the value buffer has room for.
    var byteCapacity: Int { bytes.capacity }

    /// Room for `count` more parameters of about 16 bytes each, so that a batch does not regrow its arrays.
    mutating func reserve(_ count: Int) {
        offsets.reserveCapacity(offsets.count + count)
        lengths.reserveCapacity(lengths.count + count)
        formats.reserveCapacity(formats.count + count)
        types.reserveCapacity(types.count + count)
        bytes.reserveCapacity(bytes.count + count * 16)
    }

    /// Removes every parameter, keeping the room reserved: a buffer used again for the next statement
    /// allocates nothing.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        offsets.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        formats.removeAll(keepingCapacity: true)
        types.removeAll(keepingCapacity: true)
    }

    /// Appends `count` NULL parameters, to be set by ``set(_:at:)`` and the typed setters; returns the index
    /// of the first.
    mutating func appendNulls(_ count: Int) -> Int {
        let first = offsets.count
        offsets.append(contentsOf: repeatElement(-1, count: count))
        lengths.append(contentsOf: repeatElement(0, count: count))
        formats.append(contentsOf: repeatElement(0, count: count))
        types.append(contentsOf: repeatElement(0, count: count))
        return first
    }

    /// Appends `value`.
    mutating func append(_ value: PostgresValue) {
        set(value, at: appendNulls(1))
    }

    /// Parameter `index` as a ``PostgresValue`` (for messages and tests).
    func value(at index: Int) -> PostgresValue {
        guard offsets[index] >= 0 else { return .null }
        let start = offsets[index]
        return PostgresValue(
            typeOID: types[index], isBinary: formats[index] == 1,
            bytes: Array(bytes[start..<start + Int(lengths[index])]))
    }

    /// Parameter `index`'s type OID, whether it is in binary form, and its bytes (text without its closing
    /// NUL); nil bytes for NULL.
    func field(at index: Int) -> (type: UInt32, isBinary: Bool, bytes: ArraySlice<UInt8>?) {
        let start = offsets[index]
        guard start >= 0 else { return (types[index], false, nil) }
        return (types[index], formats[index] == 1, bytes[start..<start + Int(lengths[index])])
    }

    /// Appends parameters `base + position`, `base + position + 1`... as fields of PostgreSQL's binary COPY
    /// format (each its length as a big-endian 32-bit integer, -1 for NULL, then its bytes as they are, text
    /// without its closing NUL), while its form is the one `forms` holds for its place (`forms[position]` for
    /// parameter `base + position`: a type OID and whether it is binary) or it is NULL; a nil form stops at its
    /// place whatever the value.
    /// - Returns: the place of the first parameter not appended, for the caller to convert; `forms.count`
    ///   when every one was.
    func appendCopyFields(
        of base: Int, from position: Int, forms: [(type: UInt32, isBinary: Bool)?], to buffer: inout [UInt8]
    ) -> Int {
        // How far the run of fields copied as they are goes, and its size in bytes: the buffer then grows once
        // for the run, and each field is stored in place.
        var end = position
        var size = 0
        while end < forms.count, let form = forms[end] {
            let index = base + end
            if offsets[index] >= 0 {
                guard types[index] == form.type, (formats[index] == 1) == form.isBinary else { break }
                size += Int(lengths[index])
            }
            size += 4
            end += 1
        }
        guard end > position else { return end }
        var at = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: size))
        bytes.withUnsafeBytes { source in
            buffer.withUnsafeMutableBytes { target in
                for place in position..<end {
                    let index = base + place
                    let start = offsets[index]
                    let length = start < 0 ? -1 : lengths[index]
                    // An unaligned store, which `storeBytes` allows.
                    target.storeBytes(of: length.bigEndian, toByteOffset: at, as: Int32.self)
                    at += 4
                    guard start >= 0 else { continue }
                    let count = Int(length)
                    UnsafeMutableRawBufferPointer(rebasing: target[at..<at + count]).copyMemory(
                        from: UnsafeRawBufferPointer(rebasing: source[start..<start + count]))
                    at += count
                }
            }
        }
        return end
    }

    // MARK: Setting parameter `index` (one appendNulls made); its bytes go at the buffer's end.

    /// SQL NULL.
    mutating func setNull(at index: Int) {
        offsets[index] = -1
        lengths[index] = 0
        formats[index] = 0
        types[index] = 0
    }

    /// `value`'s bytes and type.
    mutating func set(_ value: PostgresValue, at index: Int) {
        guard let valueBytes = value.bytes else { return setNull(at: index) }
        begin(index, type: value.typeOID, isBinary: value.isBinary)
        bytes.append(contentsOf: valueBytes)
        if !value.isBinary { bytes.append(0) }
        lengths[index] = Int32(valueBytes.count)
    }

    /// A `bigint` (`int8`), big-endian.
    mutating func set(_ value: Int64, at index: Int) {
        begin(index, type: PostgresType.int8, isBinary: true)
        appendBigEndian(UInt64(bitPattern: value))
        lengths[index] = 8
    }

    /// A `double precision` (`float8`), every bit kept.
    mutating func set(_ value: Double, at index: Int) {
        begin(index, type: PostgresType.float8, isBinary: true)
        appendBigEndian(value.bitPattern)
        lengths[index] = 8
    }

    /// A `boolean`.
    mutating func set(_ value: Bool, at index: Int) {
        begin(index, type: PostgresType.bool, isBinary: true)
        bytes.append(value ? 1 : 0)
        lengths[index] = 1
    }

    /// A `timestamptz`, as ``PostgresValue/init(_:)-(Date)`` writes it.
    /// - Throws: `EncodingError.invalidValue` for a date PostgreSQL cannot store.
    mutating func set(_ value: Date, at index: Int) throws {
        let micros = try PostgresType.microseconds(value)
        begin(index, type: PostgresType.timestamptz, isBinary: true)
        appendBigEndian(UInt64(bitPattern: micros))
        lengths[index] = 8
    }

    /// Text, of the type the statement gives the parameter.
    /// - Throws: `EncodingError.invalidValue` at `codingPath` for text with a NUL character, which
    ///   PostgreSQL's text types cannot hold; the parameter is then left as it was.
    mutating func set(text: String, at index: Int, codingPath: @autoclosure () -> [any CodingKey]) throws {
        let start = bytes.count
        bytes.append(contentsOf: text.utf8)
        if bytes[start...].contains(0) {
            bytes.removeSubrange(start...)
            throw PostgresValue.nulInText(text, codingPath: codingPath())
        }
        bytes.append(0)
        offsets[index] = start
        lengths[index] = Int32(bytes.count - 1 - start)
        formats[index] = 0
        types[index] = 0
    }

    private mutating func begin(_ index: Int, type: UInt32, isBinary: Bool) {
        offsets[index] = bytes.count
        formats[index] = isBinary ? 1 : 0
        types[index] = type
    }

    private mutating func appendBigEndian(_ value: UInt64) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// Hands libpq every parameter as the four arrays `PQexecParams`, `PQexecPrepared` and
    /// `PQsendQueryPrepared` take: values (pointers into the buffer, nil for NULL), lengths, formats, and
    /// type OIDs. A statement of a batch passes each array from its first parameter's index on.
    func withArrays<R>(
        _ body: (
            _ values: UnsafePointer<UnsafePointer<CChar>?>?, _ lengths: UnsafePointer<Int32>?,
            _ formats: UnsafePointer<Int32>?, _ types: UnsafePointer<UInt32>?
        ) throws -> R
    ) rethrows -> R {
        try bytes.withUnsafeBytes { buffer in
            let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self)
            return try withUnsafeTemporaryAllocation(of: UnsafePointer<CChar>?.self, capacity: offsets.count) {
                values in
                for (index, offset) in offsets.enumerated() {
                    values[index] = offset < 0 ? nil : base.map { $0 + offset }
                }
                return try lengths.withUnsafeBufferPointer { lengthBuffer in
                    try formats.withUnsafeBufferPointer { formatBuffer in
                        try types.withUnsafeBufferPointer { typeBuffer in
                            try body(
                                UnsafePointer(values.baseAddress), lengthBuffer.baseAddress, formatBuffer.baseAddress,
                                typeBuffer.baseAddress)
                        }
                    }
                }
            }
        }
    }
}
#endif
