#if PostgreSQL
import Foundation

/// One column of a binary `COPY ... FROM STDIN`, and how a parameter value becomes its field.
///
/// In binary COPY every field is in the *column's* binary form (its type's `typreceive` reads it, see
/// <https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.4>): unlike an INSERT's parameter,
/// nothing casts it. So the value a record's encoder wrote (a Swift `Int64` as `bigint`, a `String` as text
/// of no type) is written as it is when its form is the column's, converted when the server's INSERT would
/// convert it exactly (an integer into a narrower or wider integer column, checked against its range; an
/// integer into `double precision`, `real` or `numeric`; `double precision` into `real`; text into `varchar`,
/// `char(n)`, `name`, `citext`, an enum, `json`, `jsonb`, `uuid` or `numeric`; `timestamptz` into
/// `timestamp`, the session's zone being UTC; an array into an array column of its element type, or of one of
/// the same binary form), and refused otherwise, naming the table, the column, both
/// types and the row: COPY would fail on it, or worse, read its bytes as another value.
struct PostgresCopyColumn: Sendable {
    /// How a column's type is written.
    enum Form: Sendable, Equatable {
        /// Text as its UTF-8 bytes: `text`, `varchar`, `char(n)`, `name`, `citext`, an enum.
        case text
        case json
        /// `jsonb`: a version byte (1), then the text.
        case jsonb
        case int2, int4, int8, float4, float8, numeric, bool, bytea, timestamptz, timestamp, uuid
        /// An array of the element type given (`text[]`, `bigint[]`...), in `array_send`'s form.
        case array(element: UInt32)
        /// A type the library writes no value into.
        case other
    }

    let name: String
    /// True for an array column of an element type the library writes: a record's array of scalars goes
    /// there as a PostgreSQL array, and into any other column as JSON.
    var isArray: Bool {
        if case .array = form { return true }
        return false
    }
    /// The type's name for messages (`format_type`), such as `smallint` or `character varying(20)`.
    let typeName: String
    let form: Form

    /// The column `name` of type OID `type` (a domain's base type), whose `pg_type` row has `typtype` and
    /// `typname` as given, described as `typeName`.
    init(name: String, type: UInt32, typtype: String, typname: String, typeName: String) {
        self.name = name
        self.typeName = typeName
        switch type {
        case PostgresType.text, PostgresType.varchar, PostgresType.bpchar, PostgresType.identifier: form = .text
        case PostgresType.json: form = .json
        case PostgresType.jsonb: form = .jsonb
        case PostgresType.int2: form = .int2
        case PostgresType.int4: form = .int4
        case PostgresType.int8: form = .int8
        case PostgresType.float4: form = .float4
        case PostgresType.float8: form = .float8
        case PostgresType.numeric: form = .numeric
        case PostgresType.bool: form = .bool
        case PostgresType.bytea: form = .bytea
        case PostgresType.timestamptz: form = .timestamptz
        case PostgresType.timestamp: form = .timestamp
        case PostgresType.uuid: form = .uuid
        default:
            if let element = PostgresType.elementType(ofArray: type) {
                form = .array(element: element)
                return
            }
            // An enum's and citext's binary form is their label's text (`enum_recv`, `citextrecv`).
            form = typtype == "e" || typname == "citext" ? .text : .other
        }
    }

    /// The form of a value written as it is into this column (a binary type, or text of no type), which
    /// ``PostgresParameters/appendCopyFields(of:from:forms:to:)`` copies without a call per value; nil for a
    /// column whose every value needs converting.
    var unchangedForm: (type: UInt32, isBinary: Bool)? {
        switch form {
        case .text, .json: return (0, false)
        default: return binaryType.map { ($0, true) }
        }
    }

    /// The type OID of a binary value written as it is into this column; nil for text forms and `other`.
    private var binaryType: UInt32? {
        switch form {
        case .int2: return PostgresType.int2
        case .int4: return PostgresType.int4
        case .int8: return PostgresType.int8
        case .float4: return PostgresType.float4
        case .float8: return PostgresType.float8
        case .bool: return PostgresType.bool
        case .bytea: return PostgresType.bytea
        case .timestamptz, .timestamp: return PostgresType.timestamptz
        case .uuid: return PostgresType.uuid
        case .array(let element): return PostgresType.arrayType(of: element)
        case .numeric, .text, .json, .jsonb, .other: return nil
        }
    }

    /// Appends parameter `index` of `parameters` as this column's field.
    /// - Throws: ``PostgresCopyColumn/Refusal`` for a value of a type this column cannot take, or out of its
    ///   range.
    func appendField(_ parameters: PostgresParameters, at index: Int, to buffer: inout [UInt8]) throws {
        try appendField(parameters.field(at: index), to: &buffer)
    }

    /// Appends a value of the type OID and form given (its bytes, text without a closing NUL; nil for NULL)
    /// as this column's field.
    /// - Throws: as ``appendField(_:at:to:)``.
    func appendField(
        _ field: (type: UInt32, isBinary: Bool, bytes: ArraySlice<UInt8>?), to buffer: inout [UInt8]
    ) throws {
        guard let bytes = field.bytes else { return Self.appendLength(-1, to: &buffer) }
        if field.isBinary {
            if field.type == binaryType { return Self.append(bytes, to: &buffer) }
            return try appendConverted(binary: bytes, type: field.type, to: &buffer)
        }
        switch form {
        case .text, .json:
            // Text of no type (a String, JSON) goes in as it is. NUMERIC's text (a Decimal) is refused: an
            // INSERT would turn the number into text through numeric's output function, which COPY runs none of.
            guard field.type == 0 else { throw Refusal(valueType: PostgresType.name(field.type), column: self) }
            Self.append(bytes, to: &buffer)
        case .jsonb:
            guard field.type == 0 else { throw Refusal(valueType: PostgresType.name(field.type), column: self) }
            Self.appendLength(Int32(bytes.count + 1), to: &buffer)
            buffer.append(1)
            buffer.append(contentsOf: bytes)
        case .numeric:
            guard let numeric = PostgresNumericBinary.bytes(decimalText: bytes) else {
                throw Refusal(valueType: "text that is not a decimal number", column: self)
            }
            Self.append(numeric, to: &buffer)
        case .uuid:
            guard let uuid = Self.uuidBytes(bytes) else {
                throw Refusal(valueType: "text that is not a UUID", column: self)
            }
            Self.append(uuid, to: &buffer)
        default:
            throw Refusal(valueType: field.type == 0 ? "text" : PostgresType.name(field.type), column: self)
        }
    }

    /// A binary value of another type than the column's, converted as INSERT's assignment casts would.
    private func appendConverted(binary bytes: ArraySlice<UInt8>, type: UInt32, to buffer: inout [UInt8]) throws {
        let refusal = Refusal(valueType: PostgresType.name(type), column: self)
        switch type {
        case PostgresType.int8, PostgresType.int4, PostgresType.int2:
            guard let integer = Self.bigEndianInteger(bytes) else { throw refusal }
            try appendInteger(integer, refusal, to: &buffer)
        case PostgresType.float8 where form == .float4:
            guard let bits = Self.bigEndianInteger(bytes) else { throw refusal }
            let double = Double(bitPattern: UInt64(bitPattern: bits))
            let float = Float(double)
            // PostgreSQL's float8 to float4 cast refuses a finite value beyond real's range.
            if float.isInfinite, double.isFinite { throw Refusal(outOfRange: "\(double)", column: self) }
            Self.append(PostgresValue.bigEndian(float.bitPattern), to: &buffer)
        case PostgresType.float4 where form == .float8:
            guard let bits = Self.bigEndianInteger(bytes) else { throw refusal }
            let float = Float(bitPattern: UInt32(truncatingIfNeeded: bits))
            Self.append(PostgresValue.bigEndian(Double(float).bitPattern), to: &buffer)
        default:
            try appendConvertedArray(bytes, type: type, refusal, to: &buffer)
        }
    }

    /// An array of another element type than the column's, written when the two element types share their
    /// binary form, as INSERT's assignment cast would convert it: text into `varchar[]` or `char(n)[]`,
    /// `timestamptz` into `timestamp[]` (the session's zone being UTC). Only the header's element type is
    /// changed; `array_recv` then reads each element with the column's element type. Other arrays are
    /// refused: COPY would fail on them.
    private func appendConvertedArray(
        _ bytes: ArraySlice<UInt8>, type: UInt32, _ refusal: Refusal, to buffer: inout [UInt8]
    ) throws {
        let texts: Set<UInt32> = [PostgresType.text, PostgresType.varchar, PostgresType.bpchar]
        let times: Set<UInt32> = [PostgresType.timestamptz, PostgresType.timestamp]
        guard case .array(let columnElement) = form, let valueElement = PostgresType.elementType(ofArray: type),
            (texts.contains(valueElement) && texts.contains(columnElement))
                || (times.contains(valueElement) && times.contains(columnElement)),
            bytes.count >= 12
        else { throw refusal }
        Self.appendLength(Int32(bytes.count), to: &buffer)
        let start = bytes.startIndex
        buffer.append(contentsOf: bytes[start..<start + 8])
        buffer.append(contentsOf: PostgresValue.bigEndian(columnElement))
        buffer.append(contentsOf: bytes[(start + 12)...])
    }

    /// An integer into this column: an integer column within its range, a floating-point or numeric one.
    private func appendInteger(_ value: Int64, _ refusal: Refusal, to buffer: inout [UInt8]) throws {
        switch form {
        case .int2:
            guard let narrow = Int16(exactly: value) else { throw Refusal(outOfRange: "\(value)", column: self) }
            Self.append(PostgresValue.bigEndian(narrow), to: &buffer)
        case .int4:
            guard let narrow = Int32(exactly: value) else { throw Refusal(outOfRange: "\(value)", column: self) }
            Self.append(PostgresValue.bigEndian(narrow), to: &buffer)
        case .int8: Self.append(PostgresValue.bigEndian(value), to: &buffer)
        case .float8: Self.append(PostgresValue.bigEndian(Double(value).bitPattern), to: &buffer)
        case .float4: Self.append(PostgresValue.bigEndian(Float(value).bitPattern), to: &buffer)
        case .numeric:
            // Every integer's decimal text is a numeric.
            guard let numeric = PostgresNumericBinary.bytes(decimalText: Array(String(value).utf8)[...]) else {
                throw refusal
            }
            Self.append(numeric, to: &buffer)
        default: throw refusal
        }
    }

    /// A big-endian two's complement integer of 2, 4 or 8 bytes, sign-extended; nil for another length.
    private static func bigEndianInteger(_ bytes: ArraySlice<UInt8>) -> Int64? {
        guard [2, 4, 8].contains(bytes.count) else { return nil }
        var value: UInt64 = 0
        for byte in bytes { value = value << 8 | UInt64(byte) }
        let shift = UInt64(64 - bytes.count * 8)
        return Int64(bitPattern: value << shift) >> shift
    }

    /// The 16 bytes of a UUID's text as PostgreSQL's `uuid` reads it: 32 hex digits, hyphens between groups
    /// of four allowed, the whole optionally in braces; nil for other text.
    private static func uuidBytes(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        var digits = text
        if digits.first == UInt8(ascii: "{") {
            guard digits.last == UInt8(ascii: "}") else { return nil }
            digits = digits.dropFirst().dropLast()
        }
        var result: [UInt8] = []
        result.reserveCapacity(16)
        var high: UInt8?
        var sinceHyphen = 0
        for byte in digits {
            if byte == UInt8(ascii: "-") {
                guard sinceHyphen > 0, sinceHyphen.isMultiple(of: 4), high == nil else { return nil }
                sinceHyphen = 0
                continue
            }
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            sinceHyphen += 1
            if let first = high {
                result.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return result.count == 16 && high == nil && sinceHyphen > 0 ? result : nil
    }

    private static func appendLength(_ length: Int32, to buffer: inout [UInt8]) {
        buffer.appendBigEndian(length)
    }

    /// `bytes` as a field: its length, then the bytes.
    private static func append(_ bytes: some Collection<UInt8>, to buffer: inout [UInt8]) {
        appendLength(Int32(bytes.count), to: &buffer)
        buffer.append(contentsOf: bytes)
    }

    /// Why a value cannot be written into a column: COPY casts nothing, and the library converts only what
    /// an INSERT's assignment would convert exactly. The COPY statement's caller adds the table and the row.
    struct Refusal: Error {
        let message: String
        let column: String
        /// 42804 (`datatype_mismatch`) for a value of another type, 22003 (`numeric_value_out_of_range`) for
        /// one beyond the column's range: the codes the server gives an INSERT of such a value.
        let sqlState: String

        init(valueType: String, column: PostgresCopyColumn) {
            self.column = column.name
            sqlState = "42804"
            message =
                "COPY cannot write a value sent as \(valueType) into column \"\(column.name)\" of type "
                + "\(column.typeName) (binary COPY casts nothing; insertAll(_:_:) lets the server cast it)"
        }

        init(outOfRange value: String, column: PostgresCopyColumn) {
            self.column = column.name
            sqlState = "22003"
            message = "\(value) is out of range for column \"\(column.name)\" of type \(column.typeName)"
        }
    }
}

/// PostgreSQL's binary `numeric` (`numeric_send`'s form): the count of base-10000 digits, the weight of the
/// first, the sign, the display scale, then the digits, each a big-endian 16-bit integer.
enum PostgresNumericBinary {
    /// The binary form of decimal text (`-12.5`, `1E+3`, `0.0010`), its display scale the count of digits
    /// after the point; nil for text that is not a finite decimal number.
    static func bytes(decimalText text: ArraySlice<UInt8>) -> [UInt8]? {
        var rest = text
        var negative = false
        if let sign = rest.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            rest = rest.dropFirst()
        }
        var digits: [UInt8] = []
        var fractionDigits = 0
        var seenPoint = false
        var exponent = 0
        while let byte = rest.first {
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digits.append(byte - UInt8(ascii: "0"))
                if seenPoint { fractionDigits += 1 }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                guard let value = Int(String(decoding: rest.dropFirst(), as: UTF8.self)), abs(value) <= 1_000 else {
                    return nil
                }
                exponent = value
                rest = []
                break
            } else {
                return nil
            }
            rest = rest.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        // value = digits × 10^(exponent - fractionDigits): the point sits `pointIndex` digits from the left.
        let scale = max(0, fractionDigits - exponent)
        var pointIndex = digits.count - fractionDigits + exponent
        if pointIndex < 0 {
            digits.insert(contentsOf: repeatElement(0, count: -pointIndex), at: 0)
            pointIndex = 0
        }
        if pointIndex > digits.count { digits.append(contentsOf: repeatElement(0, count: pointIndex - digits.count)) }
        // Groups of four aligned on the point.
        let leadingPad = (4 - pointIndex % 4) % 4
        digits.insert(contentsOf: repeatElement(0, count: leadingPad), at: 0)
        digits.append(contentsOf: repeatElement(0, count: (4 - digits.count % 4) % 4))
        var groups: [Int16] = []
        groups.reserveCapacity(digits.count / 4)
        for start in stride(from: 0, to: digits.count, by: 4) {
            var group: Int16 = 0
            for digit in digits[start..<start + 4] { group = group * 10 + Int16(digit) }
            groups.append(group)
        }
        var weight = (pointIndex + leadingPad) / 4 - 1
        while groups.first == 0 {
            groups.removeFirst()
            weight -= 1
        }
        while groups.last == 0 { groups.removeLast() }
        if groups.isEmpty { weight = 0 }
        guard let weight16 = Int16(exactly: weight), let scale16 = Int16(exactly: scale), scale <= 1000 else {
            return nil
        }
        var result: [UInt8] = []
        result.reserveCapacity(8 + groups.count * 2)
        let sign: Int16 = negative && !groups.isEmpty ? 0x4000 : 0
        let head: [Int16] = [Int16(groups.count), weight16, sign, scale16]
        for value in head + groups { result.append(contentsOf: PostgresValue.bigEndian(value)) }
        return result
    }
}
#endif
