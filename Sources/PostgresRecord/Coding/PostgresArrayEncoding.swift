#if PostgreSQL
import Foundation
import SQLiteRecord

/// A Swift type whose values are the elements of a PostgreSQL array the library writes: the scalar types of
/// the value table (`String` TEXT, `Int64` and `Int` BIGINT, `Int32` INTEGER, `Int16` SMALLINT, `Double`
/// DOUBLE PRECISION, `Float` REAL, `Bool` BOOLEAN, `Data` BYTEA, `Date` TIMESTAMPTZ, `UUID` UUID, `Decimal`
/// NUMERIC), and their Optionals, whose nil is a NULL element.
///
/// The same list as `SQLDialect.postgresArrayElement(ofValueType:)`, which gives `createTable` its
/// `TEXT[]`, `BIGINT[]`...: a `[T]` of another element type (a struct, an enum, `UInt8`) is a nested value,
/// written as JSONB as before.
protocol PostgresArrayElement {
    /// The element type's OID, which the array's header names.
    static var postgresElementType: UInt32 { get }
    /// Appends the element as `array_recv` reads it: its length as a big-endian int32 (-1 for NULL), then its
    /// binary form.
    /// - Returns: false for NULL.
    /// - Throws: `EncodingError.invalidValue` at `codingPath` for a value PostgreSQL cannot store (text
    ///   holding U+0000, NaN, a date beyond TIMESTAMPTZ's range).
    func appendPostgresElement(to buffer: inout [UInt8], codingPath: [any CodingKey]) throws -> Bool
}

/// A Swift array written as a PostgreSQL array parameter: `Array` where its elements are
/// ``PostgresArrayElement``s.
protocol PostgresArrayValue {
    /// The array's value in PostgreSQL's binary form, of the array type of its element type (`text[]`...).
    /// - Throws: as ``PostgresArrayElement/appendPostgresElement(to:codingPath:)``, at the element's path.
    func postgresArray(codingPath: [any CodingKey]) throws -> PostgresValue
}

extension Array: PostgresArrayValue where Element: PostgresArrayElement {
    func postgresArray(codingPath: [any CodingKey]) throws -> PostgresValue {
        // `array_send`'s form: dimensions (none for an empty array, as PostgreSQL writes '{}'), a flag for a
        // NULL element, the element type, the dimension's length and lower bound (1), then the elements.
        let element = Element.postgresElementType
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20 + count * 12)
        PostgresArrayBytes.append(Int32(isEmpty ? 0 : 1), to: &bytes)
        PostgresArrayBytes.append(Int32(0), to: &bytes)
        PostgresArrayBytes.append(element, to: &bytes)
        if !isEmpty {
            PostgresArrayBytes.append(Int32(count), to: &bytes)
            PostgresArrayBytes.append(Int32(1), to: &bytes)
        }
        var hasNull = false
        for (index, value) in enumerated() {
            let path = codingPath + [PostgresIndexKey(index)]
            if try !value.appendPostgresElement(to: &bytes, codingPath: path) { hasNull = true }
        }
        if hasNull { bytes[7] = 1 }
        guard let arrayType = PostgresType.arrayType(of: element) else {
            // Every element type above has its array type in the table; this is no stored data's fault.
            throw EncodingError.invalidValue(
                self,
                EncodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "PostgresRecord writes no array of \(PostgresType.name(element))"))
        }
        return PostgresValue(typeOID: arrayType, isBinary: true, bytes: bytes)
    }
}

/// Big-endian integers and length-prefixed fields appended to an array's bytes, with no array of their own.
enum PostgresArrayBytes {
    static func append<I: FixedWidthInteger>(_ value: I, to bytes: inout [UInt8]) {
        var shift = (MemoryLayout<I>.size - 1) * 8
        while shift >= 0 {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
            shift -= 8
        }
    }

    /// A field of `value`'s big-endian bytes, its length first.
    static func appendField<I: FixedWidthInteger>(_ value: I, to bytes: inout [UInt8]) {
        append(Int32(MemoryLayout<I>.size), to: &bytes)
        append(value, to: &bytes)
    }

    /// Throws for a NaN element, as ``PostgresValueWriter/refuseNaN(_:codingPath:)`` does for a column's value.
    /// - Throws: `EncodingError.invalidValue` naming the element and its column (the first key of
    ///   `codingPath`, whose last is the element's index).
    static func refuseNaN(_ value: Double, codingPath: [any CodingKey]) throws {
        guard value.isNaN else { return }
        let column = codingPath.first.map { "column \"\($0.stringValue)\"" } ?? "a column"
        let element = codingPath.last?.intValue.map { "element \($0) of " } ?? ""
        throw EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: codingPath,
                debugDescription: "Cannot store Double NaN in \(element)\(column): " + RecordError.nanRefusal))
    }

    /// A field of `field`'s bytes, its length first.
    static func appendField(_ field: some Collection<UInt8>, to bytes: inout [UInt8]) {
        append(Int32(field.count), to: &bytes)
        bytes.append(contentsOf: field)
    }
}

extension Optional: PostgresArrayElement where Wrapped: PostgresArrayElement {
    static var postgresElementType: UInt32 { Wrapped.postgresElementType }
    func appendPostgresElement(to buffer: inout [UInt8], codingPath: [any CodingKey]) throws -> Bool {
        guard let self else {
            PostgresArrayBytes.append(Int32(-1), to: &buffer)
            return false
        }
        return try self.appendPostgresElement(to: &buffer, codingPath: codingPath)
    }
}

extension String: PostgresArrayElement {
    static var postgresElementType: UInt32 { PostgresType.text }
    func appendPostgresElement(to buffer: inout [UInt8], codingPath: [any CodingKey]) throws -> Bool {
        if utf8.contains(0) { throw PostgresValue.nulInText(self, codingPath: codingPath) }
        PostgresArrayBytes.appendField(utf8, to: &buffer)
        return true
    }
}

extension Int64: PostgresArrayElement {
    static var postgresElementType: UInt32 { PostgresType.int8 }
    func appendPostgresElement(to buffer: inout [UInt8], codingPath: [any CodingKey]) throws -> Bool {
        PostgresArrayBytes.appendField(self, to: &buffer)
        return true
    }
}

extension Int: PostgresArrayElement {
    static var postgresElementType: UInt32 { PostgresType.int8 }
    func appendPostgresElement(to buffer: inout [UInt8], codingPath: [any CodingKey]) throws -> Bool {
        PostgresArrayBytes.appendField(Int64(self), to: &buffer)
        return true
    }
}

extension Int32: PostgresArrayElement {
    static var postgresElementType: UInt32 { PostgresType.int4 }
    func appendPostgresElement(to buffer: inout [UInt8], codingPath: [any CodingKey]) throws -> Bool {
        PostgresArrayBytes.appendField(self, to: &buffer)
        return true
    }
}

extension Int16: PostgresArrayElement {
    static var postgresElementType: UInt32 { PostgresType.int2 }
    func appendPostgresElement(to buffer: inout [UInt8], codingPath: [any CodingKey]) throws -> Bool {
        PostgresArrayBytes.appendField(self, to: &buffer)
        return true
    }
}

extension Double: PostgresArrayElement {
    static var postgresElementType: UInt32 { PostgresType.float8 }
    /// - Throws: for NaN, as a scalar `Double` (see ``PostgresValueWriter/refuseNaN(_:codingPath:)``).
    func appendPostgresElement(to buffer: inout [UInt8], codingPath: [any CodingKey]) throws -> Bool {
        try PostgresArrayBytes.refuseNaN(self, codingPath: codingPath)
        PostgresArrayBytes.appendField(bitPattern, to: &buffer)
        return true
    }
}

extension Float: PostgresArrayElement {
    static var postgresElementType: UInt32 { PostgresType.float4 }
    func appendPostgresElement(to buffer: inout [UInt8], codingPath: [any CodingKey]) throws -> Bool {
        try PostgresArrayBytes.refuseNaN(Double(self), codingPath: codingPath)
        PostgresArrayBytes.appendField(bitPattern, to: &buffer)
        return true
    }
}

extension Bool: PostgresArrayElement {
    static var postgresElementType: UInt32 { PostgresType.bool }
    func appendPostgresElement(to buffer: inout [UInt8], codingPath: [any CodingKey]) throws -> Bool {
        PostgresArrayBytes.appendField(UInt8(self ? 1 : 0), to: &buffer)
        return true
    }
}

extension Data: PostgresArrayElement {
    static var postgresElementType: UInt32 { PostgresType.bytea }
    func appendPostgresElement(to buffer: inout [UInt8], codingPath: [any CodingKey]) throws -> Bool {
        PostgresArrayBytes.appendField(self, to: &buffer)
        return true
    }
}

extension Date: PostgresArrayElement {
    static var postgresElementType: UInt32 { PostgresType.timestamptz }
    /// - Throws: for a date beyond TIMESTAMPTZ's range (see ``PostgresType/microseconds(_:)``).
    func appendPostgresElement(to buffer: inout [UInt8], codingPath: [any CodingKey]) throws -> Bool {
        let micros = try PostgresValueWriter.at(codingPath) { try PostgresType.microseconds(self) }
        PostgresArrayBytes.appendField(micros, to: &buffer)
        return true
    }
}

extension UUID: PostgresArrayElement {
    static var postgresElementType: UInt32 { PostgresType.uuid }
    func appendPostgresElement(to buffer: inout [UInt8], codingPath: [any CodingKey]) throws -> Bool {
        let u = uuid
        PostgresArrayBytes.append(Int32(16), to: &buffer)
        buffer += [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
        return true
    }
}

extension Decimal: PostgresArrayElement {
    static var postgresElementType: UInt32 { PostgresType.numeric }
    /// `numeric_send`'s form of the decimal's every digit.
    /// - Throws: for a NaN Decimal, as a scalar one.
    func appendPostgresElement(to buffer: inout [UInt8], codingPath: [any CodingKey]) throws -> Bool {
        guard isFinite, let numeric = PostgresNumericBinary.bytes(decimalText: Array(description.utf8)[...]) else {
            throw EncodingError.invalidValue(
                self, EncodingError.Context(codingPath: codingPath, debugDescription: "a NaN Decimal"))
        }
        PostgresArrayBytes.appendField(numeric, to: &buffer)
        return true
    }
}
#endif
