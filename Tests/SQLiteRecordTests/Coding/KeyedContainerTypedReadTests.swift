import Foundation
import XCTest

@testable import SQLiteRecord

/// A row of one column `v`, decoded by the synthesized `init(from:)` of a non-generic struct, so that each read
/// goes through the keyed container's own overload for the type (`decode(Int.self, forKey:)`), not its generic
/// `decode(_:forKey:)`.
private protocol OneColumn: Decodable {
    associatedtype Value
    var v: Value { get }
}

/// One column `v` through the keyed container's generic `decode(_:forKey:)`, which reads through the column
/// reader's own `Decodable` path: the reference the typed overloads are held to.
private struct Box<Value: Decodable>: Decodable {
    var v: Value
}

private struct PlainBool: OneColumn { var v: Bool }
private struct MaybeBool: OneColumn { var v: Bool? }
private struct PlainString: OneColumn { var v: String }
private struct MaybeString: OneColumn { var v: String? }
private struct PlainDouble: OneColumn { var v: Double }
private struct MaybeDouble: OneColumn { var v: Double? }
private struct PlainFloat: OneColumn { var v: Float }
private struct MaybeFloat: OneColumn { var v: Float? }
private struct PlainInt: OneColumn { var v: Int }
private struct MaybeInt: OneColumn { var v: Int? }
private struct PlainInt8: OneColumn { var v: Int8 }
private struct MaybeInt8: OneColumn { var v: Int8? }
private struct PlainInt16: OneColumn { var v: Int16 }
private struct MaybeInt16: OneColumn { var v: Int16? }
private struct PlainInt32: OneColumn { var v: Int32 }
private struct MaybeInt32: OneColumn { var v: Int32? }
private struct PlainInt64: OneColumn { var v: Int64 }
private struct MaybeInt64: OneColumn { var v: Int64? }
private struct PlainUInt: OneColumn { var v: UInt }
private struct MaybeUInt: OneColumn { var v: UInt? }
private struct PlainUInt8: OneColumn { var v: UInt8 }
private struct MaybeUInt8: OneColumn { var v: UInt8? }
private struct PlainUInt16: OneColumn { var v: UInt16 }
private struct MaybeUInt16: OneColumn { var v: UInt16? }
private struct PlainUInt32: OneColumn { var v: UInt32 }
private struct MaybeUInt32: OneColumn { var v: UInt32? }
private struct PlainUInt64: OneColumn { var v: UInt64 }
private struct MaybeUInt64: OneColumn { var v: UInt64? }

/// The keyed container's typed reads, held to the value table: each typed read answers its common case from the
/// column alone, so every stored type is read into every Swift type the container has an overload for, and the
/// answer (value, or error kind, message and coding path) is held to the generic read, the single-value
/// read and, for Optional, the rule that only NULL is nil.
final class KeyedContainerTypedReadTests: XCTestCase {
    /// Every storage class, at and around the edges of each Swift type's range and of each conversion.
    private static let storedValues: [String] = [
        "NULL",
        "0", "1", "-1", "2", "127", "128", "-128", "-129", "255", "256", "32767", "32768", "-32768", "-32769",
        "65535", "65536", "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
        "16777216", "16777217", "9007199254740992", "9007199254740993", "9223372036854775807",
        "-9223372036854775808",
        "0.0", "-0.0", "1.0", "0.5", "1.5", "-1.0", "175.0", "127.0", "128.0", "255.0", "256.0", "-129.0",
        "1e300", "-1e300", "9e999", "-9e999", "3.4028234663852886e38", "3.5e38", "1e-50",
        "9223372036854775807.0", "-9223372036854775808.0", "18446744073709551615.0", "18446744073709551616.0",
        "''", "'0'", "'1'", "'12'", "' 12'", "'12.0'", "'true'", "'TRUE'", "'Yes'", "'n'", "'maybe'", "'2'",
        "'abc'", "char(97, 0, 98)", "CAST(x'ff61' AS TEXT)", "CAST(x'c3' AS TEXT)", "CAST(x'eda080' AS TEXT)",
        "'2024-02-29 12:00:00'", "'2024-02-30 25:61:00'",
        "x''", "x'00'", "x'01'", "x'3132'", "x'ff'",
    ]

    /// What reading `sql`'s single column `v` gives, as text: `value <v>` or the error's kind, type, message
    /// and coding path.
    private static func outcome<Row: Decodable, Value>(
        _ type: Row.Type, _ sql: String, in db: Database, _ value: (Row) -> Value
    ) -> String {
        do {
            guard let row = try db.fetchOne(type, sql: "SELECT \(sql) AS v") else { return "no row" }
            return "value \(String(reflecting: value(row)))"
        } catch {
            return describe(error)
        }
    }

    /// A `DecodingError` as kind, type, coding path and message; any other error as itself.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "other \(error)" }
        let (kind, context): (String, DecodingError.Context)
        switch error {
        case .typeMismatch(let type, let found): (kind, context) = ("typeMismatch(\(type))", found)
        case .valueNotFound(let type, let found): (kind, context) = ("valueNotFound(\(type))", found)
        case .keyNotFound(let key, let found): (kind, context) = ("keyNotFound(\(key.stringValue))", found)
        case .dataCorrupted(let found): (kind, context) = ("dataCorrupted", found)
        @unknown default: return "unknown \(error)"
        }
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return "\(kind) at [\(path)]: \(context.debugDescription)"
    }

    /// The stored value of `sql`, as the SQLite core reports it, apart from the decoder: its storage class, its
    /// integer and real values, and its bytes as text.
    private struct Stored {
        let storageClass: String
        let integer: Int64
        let real: Double
        let bytes: [UInt8]

        init(_ sql: String, in db: Database) throws {
            let row = try db.fetchOne(sql: "SELECT typeof(v), v, hex(v) FROM (SELECT \(sql) AS v)")
            guard let row, case .text(let storageClass) = row[0], case .text(let hex) = row[2] else {
                throw DecodingError.valueNotFound(Stored.self, .init(codingPath: [], debugDescription: sql))
            }
            self.storageClass = storageClass
            switch row[1] {
            case .integer(let value): (integer, real) = (value, Double(value))
            case .real(let value): (integer, real) = (0, value)
            default: (integer, real) = (0, 0)
            }
            let digits = Array(hex.utf8)
            bytes = stride(from: 0, to: digits.count, by: 2).compactMap {
                UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)
            }
        }

        /// The text, when its bytes are valid UTF-8.
        var text: String? {
            let text = String(decoding: bytes, as: UTF8.self)
            return Array(text.utf8) == bytes ? text : nil
        }
    }

    /// What the value table says reading `stored` as a Swift type gives: the value, or the error's kind.
    private enum Expected<Value> {
        case value(Value)
        case error(String)

        /// Foundation's kinds: NULL is `valueNotFound`, a storage class the type never reads `typeMismatch`.
        static func otherwise(_ stored: Stored) -> Self {
            stored.storageClass == "null"
                ? .error("valueNotFound(\(Value.self))") : .error("typeMismatch(\(Value.self))")
        }

        static var corrupted: Self { .error("dataCorrupted") }
    }

    private static func expectedInteger<T: FixedWidthInteger>(_ stored: Stored) -> Expected<T> {
        switch stored.storageClass {
        case "integer": return T(exactly: stored.integer).map { .value($0) } ?? .corrupted
        case "real":
            guard stored.real.isFinite, stored.real.rounded(.towardZero) == stored.real else { return .corrupted }
            return T(exactly: stored.real).map { .value($0) } ?? .corrupted
        default: return .otherwise(stored)
        }
    }

    private static func expectedDouble(_ stored: Stored) -> Expected<Double> {
        switch stored.storageClass {
        case "integer": return Double(exactly: stored.integer).map { .value($0) } ?? .corrupted
        case "real": return .value(stored.real)
        default: return .otherwise(stored)
        }
    }

    private static func expectedFloat(_ stored: Stored) -> Expected<Float> {
        switch stored.storageClass {
        case "integer": return Float(exactly: stored.integer).map { .value($0) } ?? .corrupted
        case "real":
            let value = Float(stored.real)
            return stored.real.isFinite && value.isInfinite ? .corrupted : .value(value)
        default: return .otherwise(stored)
        }
    }

    private static func expectedBool(_ stored: Stored) -> Expected<Bool> {
        switch stored.storageClass {
        case "integer", "real":
            return stored.real == 0 ? .value(false) : stored.real == 1 ? .value(true) : .corrupted
        case "text":
            switch stored.text?.lowercased() {
            case "1", "true", "t", "yes", "y": return .value(true)
            case "0", "false", "f", "no", "n": return .value(false)
            default: return .corrupted
            }
        default: return .otherwise(stored)
        }
    }

    private static func expectedString(_ stored: Stored) -> Expected<String> {
        switch stored.storageClass {
        case "text": return stored.text.map { .value($0) } ?? .corrupted
        case "integer": return .value(String(stored.integer))
        case "real": return .value(String(stored.real))
        default: return .otherwise(stored)
        }
    }

    /// The outcomes of reading `sql` as `Value` through the typed overload, its Optional, the generic read and
    /// the single-value read, checked against each other and against `expected`, the table's answer worked
    /// out here from the stored value alone.
    private func compare<Plain: OneColumn, Maybe: OneColumn, Value: Decodable>(
        _ plain: Plain.Type, _ maybe: Maybe.Type, _ value: Value.Type, _ sql: String, in db: Database,
        expected: (Stored) -> Expected<Value>, file: StaticString = #filePath, line: UInt = #line
    ) throws where Plain.Value == Value, Maybe.Value == Value? {
        let typed = Self.outcome(plain, sql, in: db) { $0.v }
        switch expected(try Stored(sql, in: db)) {
        case .value(let wanted):
            XCTAssertEqual(
                typed, "value \(String(reflecting: wanted))", "\(Value.self) from \(sql)", file: file, line: line)
        case .error(let kind):
            XCTAssertTrue(
                typed.hasPrefix("\(kind) at [v]: "), "\(Value.self) from \(sql): \(typed)", file: file, line: line)
        }
        let optional = Self.outcome(maybe, sql, in: db) { $0.v }
        let generic = Self.outcome(Box<Value>.self, sql, in: db) { $0.v }
        let single = Self.outcome(value, sql, in: db) { $0 }
        let label = "\(Value.self) from \(sql)"
        // The typed overload answers exactly what the generic read answers, message and path included.
        XCTAssertEqual(typed, generic, label, file: file, line: line)
        // And what the single-value read answers, but for the coding path, which names the key.
        XCTAssertEqual(
            typed.replacingOccurrences(of: " at [v]:", with: " at []:"), single, label, file: file, line: line)
        if typed.hasPrefix("value ") {
            XCTAssertEqual(
                optional, "value Optional(\(typed.dropFirst("value ".count)))", label, file: file, line: line)
        } else if sql == "NULL" {
            XCTAssertEqual(optional, "value nil", label, file: file, line: line)
            XCTAssertTrue(typed.hasPrefix("valueNotFound(\(Value.self)) at [v]: "), "\(label): \(typed)")
        } else {
            // Only NULL is nil: every other error of the plain read is the Optional's error too.
            XCTAssertEqual(optional, typed, label, file: file, line: line)
            XCTAssertTrue(typed.contains(" at [v]: "), "\(label): \(typed)", file: file, line: line)
        }
    }

    func testEveryStoredTypeIntoEveryTypedOverloadAsTheTableSaysAndAsTheGenericAndSingleValueReads() throws {
        let db = try Database()
        for sql in Self.storedValues {
            try compare(PlainBool.self, MaybeBool.self, Bool.self, sql, in: db, expected: Self.expectedBool)
            try compare(PlainString.self, MaybeString.self, String.self, sql, in: db, expected: Self.expectedString)
            try compare(PlainDouble.self, MaybeDouble.self, Double.self, sql, in: db, expected: Self.expectedDouble)
            try compare(PlainFloat.self, MaybeFloat.self, Float.self, sql, in: db, expected: Self.expectedFloat)
            try compare(PlainInt.self, MaybeInt.self, Int.self, sql, in: db, expected: Self.expectedInteger)
            try compare(PlainInt8.self, MaybeInt8.self, Int8.self, sql, in: db, expected: Self.expectedInteger)
            try compare(PlainInt16.self, MaybeInt16.self, Int16.self, sql, in: db, expected: Self.expectedInteger)
            try compare(PlainInt32.self, MaybeInt32.self, Int32.self, sql, in: db, expected: Self.expectedInteger)
            try compare(PlainInt64.self, MaybeInt64.self, Int64.self, sql, in: db, expected: Self.expectedInteger)
            try compare(PlainUInt.self, MaybeUInt.self, UInt.self, sql, in: db, expected: Self.expectedInteger)
            try compare(PlainUInt8.self, MaybeUInt8.self, UInt8.self, sql, in: db, expected: Self.expectedInteger)
            try compare(PlainUInt16.self, MaybeUInt16.self, UInt16.self, sql, in: db, expected: Self.expectedInteger)
            try compare(PlainUInt32.self, MaybeUInt32.self, UInt32.self, sql, in: db, expected: Self.expectedInteger)
            try compare(PlainUInt64.self, MaybeUInt64.self, UInt64.self, sql, in: db, expected: Self.expectedInteger)
        }
    }
}

/// Three columns whose keys share a first byte ("a", "ab"); its CodingKeys are one byte each, and case 0 here is
/// not case 0 of ``Backward``.
private struct Forward: Decodable, Equatable {
    var a: Int
    var b: String
    var ab: Double
}

/// The same columns with its cases in the other order: case 0 is `ab` here, `a` in ``Forward``.
private struct Backward: Decodable, Equatable {
    var ab: Double
    var b: String
    var a: Int
}

/// Columns renamed by raw values, one of them to another type's key name.
private struct Renamed: Decodable, Equatable {
    var first: String
    var second: Int
    enum CodingKeys: String, CodingKey {
        case first = "b"
        case second = "a"
    }
}

/// A key of one byte that is not an enum: its byte picks its column, in the opposite order to ``Forward``.
private struct ByteKey: CodingKey {
    let byte: UInt8
    static let names = ["ab", "b", "a"]
    init(_ byte: UInt8) { self.byte = byte }
    init?(stringValue: String) {
        guard let index = Self.names.firstIndex(of: stringValue) else { return nil }
        byte = UInt8(index)
    }
    init?(intValue: Int) { nil }
    var stringValue: String { Self.names[Int(byte)] }
    var intValue: Int? { nil }
}

/// A key of eight bytes with an integer value.
private struct NumberKey: CodingKey {
    let number: Int
    static let names = ["a", "b", "ab"]
    init(_ number: Int) { self.number = number }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { number = intValue }
    var stringValue: String { Self.names[number] }
    var intValue: Int? { number }
}

/// A key that holds its name (not plain data: compared by its string).
private struct NameKey: CodingKey {
    let stringValue: String
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    var intValue: Int? { nil }
}

/// Reads `a`, `b` and `ab` through three key types, in an order that depends on the row, one key twice, and
/// skips `ab` on rows where `a` is odd.
private struct Shuffled: Decodable, Equatable {
    var a: Int
    var b: String
    var ab: Double?

    init(a: Int, b: String, ab: Double?) {
        self.a = a
        self.b = b
        self.ab = ab
    }

    init(from decoder: any Decoder) throws {
        let bytes = try decoder.container(keyedBy: ByteKey.self)
        let numbers = try decoder.container(keyedBy: NumberKey.self)
        let names = try decoder.container(keyedBy: NameKey.self)
        a = try bytes.decode(Int.self, forKey: ByteKey(2))
        if a.isMultiple(of: 2) {
            ab = try numbers.decode(Double.self, forKey: NumberKey(2))
            b = try names.decode(String.self, forKey: NameKey("b"))
        } else {
            b = try numbers.decode(String.self, forKey: NumberKey(1))
            ab = nil
        }
        // The same key again, through another key type.
        XCTAssertEqual(try names.decode(Int.self, forKey: NameKey("a")), a)
    }
}

/// Reads `n` as an Int, and on a failure reads it as a String and goes on to `b`.
private struct Forgiving: Decodable, Equatable {
    var n: Int?
    var text: String?
    var b: String
    var failure: String?

    init(n: Int?, text: String?, b: String, failure: String?) {
        self.n = n
        self.text = text
        self.b = b
        self.failure = failure
    }

    enum CodingKeys: String, CodingKey { case n, b }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        do {
            n = try container.decode(Int.self, forKey: .n)
            text = nil
            failure = nil
        } catch let DecodingError.dataCorrupted(context) {
            n = nil
            text = try container.decode(String.self, forKey: .n)
            failure = context.codingPath.map(\.stringValue).joined(separator: ".")
        } catch let DecodingError.typeMismatch(_, context) {
            n = nil
            text = try container.decode(String.self, forKey: .n)
            failure = context.codingPath.map(\.stringValue).joined(separator: ".")
        }
        b = try container.decode(String.self, forKey: .b)
    }
}

/// Two keys whose columns differ only in case.
private struct CaseTwins: Decodable {
    var name: String
    var shout: String
    enum CodingKeys: String, CodingKey {
        case name
        case shout = "Name"
    }
}

/// The key trail, attacked through the typed overloads: keys recognized by their type and byte.
final class KeyedContainerKeyTests: XCTestCase {
    private func makeTable() throws -> Database {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(a, b, ab)")
        for index in 0..<6 {
            try db.execute(
                sql: "INSERT INTO t VALUES (?, ?, ?)", arguments: [index, "b\(index)", Double(index) + 0.5])
        }
        return db
    }

    func testTypesWhoseKeysShareBytesAlternateOnOneStatement() throws {
        let db = try makeTable()
        let sql = "SELECT a, b, ab FROM t ORDER BY a"
        let forward = (0..<6).map { Forward(a: $0, b: "b\($0)", ab: Double($0) + 0.5) }
        let backward = (0..<6).map { Backward(ab: Double($0) + 0.5, b: "b\($0)", a: $0) }
        let renamed = (0..<6).map { Renamed(first: "b\($0)", second: $0) }
        for _ in 0..<3 {
            XCTAssertEqual(try db.fetchAll(Forward.self, sql: sql), forward)
            XCTAssertEqual(try db.fetchAll(Backward.self, sql: sql), backward)
            XCTAssertEqual(try db.fetchAll(Renamed.self, sql: sql), renamed)
        }
        // Row by row on one statement: each row's types take turns.
        let statement = try db.makeStatement(sql: sql)
        let context = RowDecodingContext(statement: statement, tableName: nil, missingOptionalColumnIsNil: true)
        var row = 0
        while try statement.step() {
            if row.isMultiple(of: 2) {
                XCTAssertEqual(try context.decodeRow(Forward.self), forward[row])
                XCTAssertEqual(try context.decodeRow(Backward.self), backward[row])
            } else {
                XCTAssertEqual(try context.decodeRow(Renamed.self), renamed[row])
                XCTAssertEqual(try context.decodeRow(Forward.self), forward[row])
            }
            row += 1
        }
        XCTAssertEqual(row, 6)
    }

    func testKeysOfThreeTypesInAnOrderThatChangesByRow() throws {
        let db = try makeTable()
        let expected = (0..<6).map {
            Shuffled(a: $0, b: "b\($0)", ab: $0.isMultiple(of: 2) ? Double($0) + 0.5 : nil)
        }
        for _ in 0..<2 {
            XCTAssertEqual(try db.fetchAll(Shuffled.self, sql: "SELECT * FROM t ORDER BY a"), expected)
            XCTAssertEqual(try db.fetchAll(Shuffled.self, sql: "SELECT * FROM t ORDER BY a DESC"), expected.reversed())
        }
    }

    func testAnErrorCaughtInsideInitFromNamesItsKeyAndTheReadsGoOn() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(n, b)")
        try db.execute(
            sql: "INSERT INTO t VALUES (1, 'x'), ('12', 'y'), (2.5, 'z'), (3, 'w'), (99999999999999999999, 'v')")
        let rows = try db.fetchAll(Forgiving.self, sql: "SELECT n, b FROM t ORDER BY rowid")
        XCTAssertEqual(
            rows,
            [
                Forgiving(n: 1, text: nil, b: "x", failure: nil),
                Forgiving(n: nil, text: "12", b: "y", failure: "n"),
                Forgiving(n: nil, text: "2.5", b: "z", failure: "n"),
                Forgiving(n: 3, text: nil, b: "w", failure: nil),
                Forgiving(n: nil, text: "1e+20", b: "v", failure: "n"),
            ])
    }

    func testKeysThatDifferOnlyInCaseAreAnErrorOnEveryRow() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(name)")
        try db.execute(sql: "INSERT INTO t VALUES ('x'), ('y')")
        for _ in 0..<2 {
            XCTAssertThrowsError(try db.fetchAll(CaseTwins.self, sql: "SELECT name FROM t")) { error in
                guard case DecodingError.dataCorrupted(let context) = error else {
                    return XCTFail("\(error)")
                }
                XCTAssertTrue(context.debugDescription.contains("\"name\""), context.debugDescription)
                XCTAssertTrue(context.debugDescription.contains("\"Name\""), context.debugDescription)
            }
        }
    }
}

private struct PlainDate: Decodable { var v: Date }
private struct MaybeDate: Decodable { var v: Date? }

/// The value table's answers for hostile stored values, exact: what a user gets from the typed reads.
final class KeyedContainerValueTests: XCTestCase {
    /// `value <v>` or the error's kind, coding path and message, for `sql` stored in column `v` of table `t` and
    /// read back by raw SQL (whose messages name the column, not the table).
    private func read<Row: Decodable, Value>(
        _ type: Row.Type, _ sql: String, decoder: RowDecoder = RowDecoder(), _ value: (Row) -> Value
    ) throws -> String {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(v)")
        try db.execute(sql: "INSERT INTO t VALUES (\(sql))")
        do {
            guard let row = try db.fetchOne(type, sql: "SELECT v FROM t", decoder: decoder) else { return "no row" }
            return "value \(String(reflecting: value(row)))"
        } catch let DecodingError.typeMismatch(type, context) {
            return "typeMismatch(\(type)) at \(context.codingPath.map(\.stringValue)): \(context.debugDescription)"
        } catch let DecodingError.dataCorrupted(context) {
            return "dataCorrupted at \(context.codingPath.map(\.stringValue)): \(context.debugDescription)"
        } catch let DecodingError.valueNotFound(type, context) {
            return "valueNotFound(\(type)) at \(context.codingPath.map(\.stringValue)): \(context.debugDescription)"
        }
    }

    func testNumbersAtTheEdgesOfTheirTypes() throws {
        XCTAssertEqual(try read(PlainInt.self, "175.0") { $0.v }, "value 175")
        XCTAssertEqual(
            try read(PlainInt.self, "1.5") { $0.v },
            "dataCorrupted at [\"v\"]: Expected Int but column \"v\" holds REAL 1.5, which is not a whole number")
        XCTAssertEqual(
            try read(PlainInt8.self, "128") { $0.v },
            "dataCorrupted at [\"v\"]: Expected Int8 but column \"v\" holds INTEGER 128, out of range")
        XCTAssertEqual(try read(PlainInt8.self, "-128") { $0.v }, "value -128")
        XCTAssertEqual(try read(PlainUInt8.self, "255.0") { $0.v }, "value 255")
        XCTAssertEqual(
            try read(PlainUInt64.self, "-1") { $0.v },
            "dataCorrupted at [\"v\"]: Expected UInt64 but column \"v\" holds INTEGER -1, out of range")
        // Beyond Int64.max only a REAL holds it: 2^63 is in UInt64's range, not in Int64's.
        XCTAssertEqual(try read(PlainUInt64.self, "9223372036854775808.0") { $0.v }, "value 9223372036854775808")
        XCTAssertEqual(
            try read(PlainInt64.self, "9223372036854775808.0") { $0.v },
            "dataCorrupted at [\"v\"]: Expected Int64 but column \"v\" holds REAL 9.223372036854776e+18, out of range")
        XCTAssertEqual(try read(PlainInt64.self, "-9223372036854775808") { $0.v }, "value -9223372036854775808")
        XCTAssertEqual(try read(MaybeInt.self, "NULL") { $0.v }, "value nil")
        XCTAssertEqual(
            try read(PlainInt.self, "NULL") { $0.v },
            "valueNotFound(Int) at [\"v\"]: Expected Int but column \"v\" holds NULL")
        // The table reads Int from INTEGER and REAL only: text that looks like a number is not one.
        XCTAssertEqual(
            try read(PlainInt.self, "'12'") { $0.v },
            "typeMismatch(Int) at [\"v\"]: Expected Int but column \"v\" holds TEXT '12'")
        XCTAssertEqual(
            try read(MaybeInt.self, "x'3132'") { $0.v },
            "typeMismatch(Int) at [\"v\"]: Expected Int but column \"v\" holds BLOB <2 bytes>")

        XCTAssertEqual(try read(PlainDouble.self, "9007199254740992") { $0.v }, "value 9007199254740992.0")
        XCTAssertEqual(
            try read(PlainDouble.self, "9007199254740993") { $0.v },
            "dataCorrupted at [\"v\"]: Expected Double but column \"v\" holds INTEGER 9007199254740993, which a "
                + "Double cannot hold exactly")
        XCTAssertEqual(try read(PlainDouble.self, "9e999") { $0.v }, "value inf")
        XCTAssertEqual(try read(MaybeDouble.self, "-9e999") { $0.v }, "value Optional(-inf)")
        XCTAssertEqual(try read(PlainDouble.self, "-0.0") { $0.v.sign }, "value Swift.FloatingPointSign.minus")
        XCTAssertEqual(
            try read(PlainFloat.self, "16777217") { $0.v },
            "dataCorrupted at [\"v\"]: Expected Float but column \"v\" holds INTEGER 16777217, which a Float "
                + "cannot hold exactly")
        XCTAssertEqual(
            try read(PlainFloat.self, "3.5e38") { $0.v },
            "dataCorrupted at [\"v\"]: Expected Float but column \"v\" holds REAL 3.5e+38, beyond Float's range")
    }

    func testBoolsAndTexts() throws {
        XCTAssertEqual(try read(PlainBool.self, "1.0") { $0.v }, "value true")
        XCTAssertEqual(try read(PlainBool.self, "'Yes'") { $0.v }, "value true")
        XCTAssertEqual(try read(MaybeBool.self, "'f'") { $0.v }, "value Optional(false)")
        XCTAssertTrue(try read(PlainBool.self, "2") { $0.v }.hasPrefix("dataCorrupted at [\"v\"]: Expected Bool"))
        XCTAssertTrue(try read(MaybeBool.self, "'maybe'") { $0.v }.hasPrefix("dataCorrupted at [\"v\"]: Expected Bool"))

        XCTAssertEqual(try read(PlainString.self, "char(97, 0, 98)") { Array($0.v.utf8) }, "value [97, 0, 98]")
        XCTAssertEqual(try read(PlainString.self, "12") { $0.v }, "value \"12\"")
        XCTAssertEqual(try read(PlainString.self, "0.5") { $0.v }, "value \"0.5\"")
        // Invalid UTF-8 is an error, never U+FFFD that a save would write back.
        for stored in ["CAST(x'ff61' AS TEXT)", "CAST(x'c3' AS TEXT)", "CAST(x'eda080' AS TEXT)"] {
            let expected =
                "dataCorrupted at [\"v\"]: Expected String but column \"v\" holds TEXT"
            XCTAssertTrue(try read(PlainString.self, stored) { $0.v }.hasPrefix(expected), stored)
            XCTAssertTrue(try read(MaybeString.self, stored) { $0.v }.hasSuffix("which is not valid UTF-8"), stored)
        }
        XCTAssertEqual(
            try read(PlainString.self, "x'61'") { $0.v },
            "typeMismatch(String) at [\"v\"]: Expected String but column \"v\" holds BLOB <1 bytes>")
        let long = String(repeating: "é0", count: 500_000)
        XCTAssertEqual(try read(PlainString.self, "'\(long)'") { $0.v == long }, "value true")
    }

    func testDatesInEachStoredFormAndNearMisses() throws {
        let leapNoon = Date(timeIntervalSince1970: 1_709_208_000)
        XCTAssertEqual(
            try read(PlainDate.self, "'2024-02-29 12:00:00'") { $0.v }, "value \(String(reflecting: leapNoon))")
        XCTAssertEqual(
            try read(PlainDate.self, "'2024-02-29T12:00:00Z'") { $0.v }, "value \(String(reflecting: leapNoon))")
        XCTAssertEqual(
            try read(MaybeDate.self, "'2024-02-29 13:00:00+01:00'") { $0.v },
            "value Optional(\(String(reflecting: leapNoon)))")
        XCTAssertEqual(try read(PlainDate.self, "1709208000") { $0.v }, "value \(String(reflecting: leapNoon))")
        XCTAssertEqual(try read(PlainDate.self, "1709208000.0") { $0.v }, "value \(String(reflecting: leapNoon))")
        XCTAssertEqual(try read(MaybeDate.self, "NULL") { $0.v }, "value nil")
        let unparsable = ", which is not a date text SQLite reads (YYYY-MM-DD[ HH:MM[:SS[.SSS]]][Z|±HH:MM|±HHMM|±HH])"
        for text in ["2024-02-29 25:61:00", "2024-02-29 12:00:0", "2024-2-29", "", " 2024-02-29", "2024-02-29 12"] {
            for type in [PlainDate.self, MaybeDate.self] as [any Decodable.Type] {
                let outcome =
                    try type == PlainDate.self
                    ? read(PlainDate.self, "'\(text)'") { $0.v } : read(MaybeDate.self, "'\(text)'") { $0.v }
                XCTAssertEqual(
                    outcome,
                    "dataCorrupted at [\"v\"]: Expected Date but column \"v\" holds TEXT '\(text)'\(unparsable)",
                    "\(type) from '\(text)'")
            }
        }
        XCTAssertEqual(
            try read(PlainDate.self, "x'00'") { $0.v },
            "typeMismatch(Date) at [\"v\"]: Expected Date but column \"v\" holds BLOB <1 bytes>")
        // Another strategy: date text is not read by the automatic parser.
        var unix = RowDecoder()
        unix.dateDecodingStrategy = .unixSeconds
        XCTAssertEqual(
            try read(PlainDate.self, "1709208000", decoder: unix) { $0.v }, "value \(String(reflecting: leapNoon))")
        XCTAssertTrue(
            try read(PlainDate.self, "'2024-02-29 12:00:00'", decoder: unix) { $0.v }.hasPrefix(
                "typeMismatch(Date) at [\"v\"]"))
    }
}

/// A record with an Optional property the table has no column for, read through the typed overloads.
private struct Gauge: Record, Equatable {
    var id: Int64?
    var reading: Double
    var note: Int?
    static let tableName = "gauges"
}

/// A record on the same table that reads `reading` as an integer.
private struct WholeGauge: Record, Equatable {
    var id: Int64?
    var reading: Int
    static let tableName = "gauges"
}

/// Keyed by a CodingKeys enum of one case (a key of no bytes), twice, on one column each.
private struct OnlyA: Decodable, Equatable {
    var a: Int
}

private struct OnlyB: Decodable, Equatable {
    var b: String
}

/// A row read through two key types: its own keys, and a super decoder of the whole row for ``Inner``.
private struct Layered: Decodable, Equatable {
    var a: Int
    var inner: Inner
    var b: String

    struct Inner: Decodable, Equatable {
        var ab: Double
        var a: Int8
    }

    enum CodingKeys: String, CodingKey { case a, b }

    init(a: Int, inner: Inner, b: String) {
        self.a = a
        self.inner = inner
        self.b = b
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        a = try container.decode(Int.self, forKey: .a)
        inner = try Inner(from: container.superDecoder())
        b = try container.superDecoder(forKey: .b).singleValueContainer().decode(String.self)
        XCTAssertThrowsError(try container.nestedContainer(keyedBy: CodingKeys.self, forKey: .a)) { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["a"])
        }
    }
}

private enum Level: Int, Codable {
    case low = 1
    case high = 2
}

private struct Settings: Codable, Equatable {
    var limits: [String: Int]
}

/// Values read through the generic `decode(_:forKey:)`: raw-value enums and nested JSON.
private struct Profile: Decodable, Equatable {
    var level: Level
    var settings: Settings?
}

/// Table-backed and cursor fetches, super decoders and keys of no bytes, through the typed overloads.
final class KeyedContainerFetchTests: XCTestCase {
    private func makeGauges() throws -> Database {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE gauges(id INTEGER PRIMARY KEY, reading REAL NOT NULL)")
        try db.execute(sql: "INSERT INTO gauges VALUES (1, 2.0), (2, 3.0), (3, 4.5)")
        return db
    }

    func testAnOptionalKeyWithNoColumnIsAnErrorForATableAndNilForRawSQL() throws {
        let db = try makeGauges()
        XCTAssertThrowsError(try Gauge.fetch(db)) { error in
            guard case DecodingError.keyNotFound(let key, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(key.stringValue, "note")
            XCTAssertEqual(
                context.debugDescription,
                "No column \"note\" in table \"gauges\"; the row has columns: \"id\", \"reading\" (row id 1)")
        }
        XCTAssertEqual(
            try db.fetchAll(Gauge.self, sql: "SELECT id, reading FROM gauges ORDER BY id"),
            [
                Gauge(id: 1, reading: 2, note: nil), Gauge(id: 2, reading: 3, note: nil),
                Gauge(id: 3, reading: 4.5, note: nil),
            ])
    }

    func testTwoRecordTypesTakeTurnsOnOneTableAndTheErrorNamesTheRow() throws {
        let db = try makeGauges()
        XCTAssertThrowsError(try WholeGauge.fetch(db, orderBy: [.ascending("id")])) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["reading"])
            XCTAssertEqual(
                context.debugDescription,
                "Expected Int but column \"reading\" of table \"gauges\" holds REAL 4.5, which is not a whole number "
                    + "(row id 3)")
        }
        try db.execute(sql: "UPDATE gauges SET reading = 5.0 WHERE id = 3")
        for _ in 0..<2 {
            XCTAssertEqual(
                try WholeGauge.fetch(db, orderBy: [.ascending("id")]),
                [WholeGauge(id: 1, reading: 2), WholeGauge(id: 2, reading: 3), WholeGauge(id: 3, reading: 5)])
            XCTAssertEqual(
                try db.fetchAll(Gauge.self, sql: "SELECT *, NULL AS note FROM gauges ORDER BY id").map(\.reading),
                [2, 3, 5])
        }
        let cursor = try WholeGauge.all().fetchCursor(db)
        var ids: [Int64?] = []
        while let gauge = try cursor.next() {
            ids.append(gauge.id)
            // Another type's fetch between two rows of the cursor.
            XCTAssertEqual(try db.fetchOne(Gauge.self, sql: "SELECT 7 AS id, 0.5 AS reading")?.reading, 0.5)
        }
        XCTAssertEqual(ids, [1, 2, 3])
    }

    func testKeysOfNoBytesOfTwoTypesAtOnePosition() throws {
        let db = try Database()
        let sql = "SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, 'y'"
        for _ in 0..<2 {
            XCTAssertEqual(try db.fetchAll(OnlyA.self, sql: sql), [OnlyA(a: 1), OnlyA(a: 2)])
            XCTAssertEqual(try db.fetchAll(OnlyB.self, sql: sql), [OnlyB(b: "x"), OnlyB(b: "y")])
        }
        let statement = try db.makeStatement(sql: sql)
        let context = RowDecodingContext(statement: statement, tableName: nil, missingOptionalColumnIsNil: true)
        var rows: [String] = []
        while try statement.step() {
            rows.append(try "\(context.decodeRow(OnlyB.self).b)\(context.decodeRow(OnlyA.self).a)")
        }
        XCTAssertEqual(rows, ["x1", "y2"])
    }

    func testASuperDecoderOfTheRowWithItsOwnKeysBetweenTypedReads() throws {
        let db = try Database()
        let sql = "SELECT 1 AS a, 'x' AS b, 1.5 AS ab UNION ALL SELECT 2, 'y', 2.5"
        let expected = [
            Layered(a: 1, inner: .init(ab: 1.5, a: 1), b: "x"), Layered(a: 2, inner: .init(ab: 2.5, a: 2), b: "y"),
        ]
        for _ in 0..<2 {
            XCTAssertEqual(try db.fetchAll(Layered.self, sql: sql), expected)
        }
        XCTAssertThrowsError(try db.fetchAll(Layered.self, sql: "SELECT 300 AS a, 'x' AS b, 1.5 AS ab")) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["a"])
            XCTAssertEqual(context.debugDescription, "Expected Int8 but column \"a\" holds INTEGER 300, out of range")
        }
    }

    func testRawValuesAndNestedJSON() throws {
        let db = try Database()
        XCTAssertEqual(
            try db.fetchAll(Profile.self, sql: "SELECT 2 AS level, '{\"limits\":{\"x\":1}}' AS settings"),
            [Profile(level: .high, settings: Settings(limits: ["x": 1]))])
        XCTAssertEqual(
            try db.fetchAll(Profile.self, sql: "SELECT 1.0 AS level, NULL AS settings"),
            [Profile(level: .low, settings: nil)])
        XCTAssertThrowsError(try db.fetchAll(Profile.self, sql: "SELECT 3 AS level, NULL AS settings")) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["level"])
            XCTAssertTrue(
                context.debugDescription.hasPrefix("Cannot decode Level from column \"level\", which holds INTEGER 3"),
                context.debugDescription)
        }
        XCTAssertThrowsError(
            try db.fetchAll(Profile.self, sql: "SELECT 1 AS level, '{\"limits\":{\"x\":\"1\"}}' AS settings")
        ) { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["settings", "limits", "x"])
        }
    }
}

/// Every Optional typed overload, on a raw-SQL row that lacks its column: nil, each time.
private struct Absent: Decodable, Equatable {
    var id: Int
    var flag: Bool?
    var text: String?
    var real: Double?
    var small: Int8?
    var wide: UInt64?
    var when: Date?
}

/// An Optional key whose column name differs only in case from a key read before it.
private struct AbsentTwin: Decodable {
    var name: String
    var shout: Int?
    enum CodingKeys: String, CodingKey {
        case name
        case shout = "NAME"
    }
}

/// The Optional reads of the typed overloads where no column answers, and a date strategy over them.
final class KeyedContainerOptionalKeyTests: XCTestCase {
    func testOptionalKeysWithNoColumnInRawSQLAreNilOnEveryRow() throws {
        let db = try Database()
        let sql = "SELECT 1 AS id UNION ALL SELECT 2"
        let expected = [1, 2].map {
            Absent(id: $0, flag: nil, text: nil, real: nil, small: nil, wide: nil, when: nil)
        }
        for _ in 0..<2 {
            XCTAssertEqual(try db.fetchAll(Absent.self, sql: sql), expected)
        }
        // The same keys with columns, NULL on one row.
        let present = try db.fetchAll(
            Absent.self,
            sql: "SELECT 1 AS id, 1 AS flag, 'x' AS text, 0.5 AS real, -8 AS small, 8 AS wide, 0 AS \"when\" "
                + "UNION ALL SELECT 2, NULL, NULL, NULL, NULL, NULL, NULL")
        XCTAssertEqual(
            present,
            [
                Absent(
                    id: 1, flag: true, text: "x", real: 0.5, small: -8, wide: 8,
                    when: Date(timeIntervalSince1970: 0)),
                expected[1],
            ])
    }

    func testAnAbsentOptionalKeyThatDiffersInCaseFromAnotherIsAnError() throws {
        let db = try Database()
        for _ in 0..<2 {
            XCTAssertThrowsError(try db.fetchAll(AbsentTwin.self, sql: "SELECT 'x' AS name")) { error in
                guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(context.debugDescription.contains("\"NAME\""), context.debugDescription)
            }
        }
    }

    func testOptionalDatesUnderEachStrategy() throws {
        let db = try Database()
        let sql = "SELECT 1 AS id, 1000 AS \"when\" UNION ALL SELECT 2, '1970-01-01 00:16:40' UNION ALL SELECT 3, NULL"
        var unix = RowDecoder()
        unix.dateDecodingStrategy = .unixMilliseconds
        XCTAssertThrowsError(try db.fetchAll(Absent.self, sql: sql, decoder: unix)) { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["when"])
        }
        XCTAssertEqual(
            try db.fetchAll(Absent.self, sql: "SELECT 1 AS id, 1000 AS \"when\"", decoder: unix).map(\.when),
            [Date(timeIntervalSince1970: 1)])
        XCTAssertEqual(
            try db.fetchAll(Absent.self, sql: sql).map(\.when),
            [Date(timeIntervalSince1970: 1000), Date(timeIntervalSince1970: 1000), nil])
    }
}

/// Reads `a`, then fetches ``Backward`` with the same SQL on the same connection from inside its own
/// `init(from:)`, then reads `b` and `ab`: the inner fetch runs on another statement, with its own key trail.
private struct Reentrant: Decodable, Equatable {
    var a: Int
    var inner: [Backward]
    var b: String
    var ab: Double

    nonisolated(unsafe) static var database: Database?
    static let sql = "SELECT a, b, ab FROM t ORDER BY a"

    init(a: Int, inner: [Backward], b: String, ab: Double) {
        self.a = a
        self.inner = inner
        self.b = b
        self.ab = ab
    }

    enum CodingKeys: String, CodingKey { case a, b, ab }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        a = try container.decode(Int.self, forKey: .a)
        inner = try Self.database.map { try $0.fetchAll(Backward.self, sql: Self.sql) } ?? []
        b = try container.decode(String.self, forKey: .b)
        ab = try container.decode(Double.self, forKey: .ab)
    }
}

/// A fetch inside a row's own `init(from:)`, of the same SQL and another type.
final class KeyedContainerReentrancyTests: XCTestCase {
    func testAFetchOfTheSameSQLInsideInitFromLeavesTheOuterRowsKeysAlone() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(a, b, ab)")
        try db.execute(sql: "INSERT INTO t VALUES (0, 'b0', 0.5), (1, 'b1', 1.5)")
        Reentrant.database = db
        defer { Reentrant.database = nil }
        let inner = [Backward(ab: 0.5, b: "b0", a: 0), Backward(ab: 1.5, b: "b1", a: 1)]
        for _ in 0..<2 {
            XCTAssertEqual(
                try db.fetchAll(Reentrant.self, sql: Reentrant.sql),
                [
                    Reentrant(a: 0, inner: inner, b: "b0", ab: 0.5),
                    Reentrant(a: 1, inner: inner, b: "b1", ab: 1.5),
                ])
            XCTAssertEqual(try db.fetchAll(Backward.self, sql: Reentrant.sql), inner)
        }
    }
}
