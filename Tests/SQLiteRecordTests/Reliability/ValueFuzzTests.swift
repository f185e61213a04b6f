import Foundation
import SQLiteRecord
import XCTest

/// Seeded fuzzing of the value table (DESIGN.md): every Swift type the table lists, read from every storage
/// class holding edge and random values, through the single-value path (`db.fetchOne(T.self, sql:)`) and
/// the keyed path (a struct with one property), plain and Optional. Each case decodes to exactly the value
/// the table gives, or throws a `DecodingError` (`valueNotFound` for NULL into a non-optional); nothing
/// else is thrown and nothing traps. A second test binds random values of each type and reads them back.
///
/// Seeded: `SQLITE_RECORD_FUZZ_SEED` replays a run; `SQLITE_RECORD_FUZZ_VALUES` changes how many random
/// stored values join the edge values (each value is read as 29 types × 4 paths).
final class ValueFuzzTests: XCTestCase {
    // MARK: The stored values

    /// A stored value as SQLite holds it, read back byte for byte (TEXT as its raw bytes, valid UTF-8 or not).
    enum Stored: CustomStringConvertible {
        case null
        case integer(Int64)
        case real(Double)
        case text([UInt8])
        case blob([UInt8])

        var description: String {
            switch self {
            case .null: return "NULL"
            case .integer(let value): return "INTEGER \(value)"
            case .real(let value): return "REAL \(value)"
            case .text(let bytes):
                let text = String(decoding: bytes.prefix(40), as: UTF8.self)
                return "TEXT '\(text)'\(bytes.count > 40 ? "... (\(bytes.count) bytes)" : "")"
            case .blob(let bytes):
                return "BLOB of \(bytes.count) bytes \(bytes.prefix(16).map { String($0, radix: 16) })"
            }
        }

        /// The text when it is valid UTF-8.
        var validText: String? {
            guard case .text(let bytes) = self else { return nil }
            return String(validating: bytes, as: UTF8.self)
        }
    }

    /// SQL expressions for the edge values the issue lists, evaluated by SQLite itself.
    static let edgeExpressions: [String] = {
        var list = ["NULL", "0.0/0.0", "9e999 - 9e999"]  // the last two are NaN, which SQLite turns into NULL
        let integers: [Int64] = [
            0, 1, -1, 2, 127, 128, -128, -129, 255, 256, 32_767, 32_768, -32_768, -32_769, 65_535, 65_536,
            2_147_483_647, 2_147_483_648, -2_147_483_648, -2_147_483_649, 4_294_967_295, 4_294_967_296,
            9_007_199_254_740_992, 9_007_199_254_740_993, 16_777_217, Int64.max - 1,
            // 2^60 + 2^36 + 1: Float rounds it up, but through a Double first it becomes a tie rounded down.
            1_152_921_573_326_323_713, Int64.max, Int64.min + 1,
        ]
        list += integers.map { "\($0)" } + ["-9223372036854775807 - 1"]  // Int64.min has no literal
        list += [
            "0.0", "-0.0", "1.0", "-1.0", "0.5", "-0.5", "1.5", "19.99", "0.1", "127.0", "128.0", "-129.0", "255.0",
            "256.0", "65536.0", "1e15", "9007199254740993.0", "9.223372036854775807e18", "-9.223372036854775808e18",
            "1.8446744073709552e19", "1e300", "-1e300", "5e-324", "2.2250738585072014e-308", "1.7976931348623157e308",
            "9e999", "-9e999", "3.4028235e38", "3.5e38", "1e-50", "16777217.0", "253402300800.0", "-62135596800.0",
        ]
        return list
    }()

    /// Edge texts, bound as arguments (SQL text cannot hold a NUL).
    static let edgeTexts: [String] = [
        "", "0", "1", "-1", "2", "true", "FALSE", "True", "t", "F", "yes", "NO", "y", "N", "maybe", " 1", "1 ",
        "00120", "12abc", "19.99", "-0.0", "1e5", "1E-5", "1e999999", "-1e-999999", ".5", "5.", "+7", "NaN", "inf",
        "-Infinity", "0x10", "2024-05-01", "2024-05-01 12:30", "2024-05-01 12:30:00", "2024-05-01T12:30:00Z",
        "2024-05-01 12:30:00.123+02:00", "2024-05-01T12:30:00.5-05:30", "2024-13-45 25:61:61", "2024-02-30",
        "0000-01-01 00:00:00", "9999-12-31 23:59:59.999", "10000-01-01", "now",
        "123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000",
        "123e4567e89b12d3a456426614174000", "{123e4567-e89b-12d3-a456-426614174000}",
        "123e4567-e89b-12d3-a456-42661417400", "{}", "{", "}", "https://example.com/a?b=c#d", "file:///tmp/x",
        "relative/path", "a b c", "http://[::1", "red", "RED", "green", "{\"x\":1,\"y\":2.5}", "{\"x\":1}",
        "{\"x\":1.5}", "{\"x\":\"1\"}", "[1,2,3]", "[]", "[1,", "{\"a\":1,\"b\":2}", "null", "é", "🦆", "\u{FEFF}1",
        "\u{0}", "a\u{0}b", "1\u{0}", "ＴＲＵＥ", "١",
    ]

    /// Text that is not UTF-8, as other tools store it, blobs, and 1 MB values.
    static let edgeByteExpressions: [String] = {
        var list: [String] = []
        // Text that is not UTF-8, as other tools store it, and blobs.
        list += [
            "CAST(x'FF' AS TEXT)", "CAST(x'C328' AS TEXT)", "CAST(x'31FF' AS TEXT)", "CAST(x'00' AS TEXT)",
            "CAST(x'ED9FBF' AS TEXT)", "CAST(x'EDA080' AS TEXT)", "CAST(x'F4908080' AS TEXT)", "CAST(x'C0AF' AS TEXT)",
        ]
        list += [
            "x''", "x'00'", "x'FF'", "x'31'", "x'7B7D'", "x'5B315D'", "x'123E4567E89B12D3A456426614174000'",
            "x'123E4567E89B12D3A4564266141740'", "x'123E4567E89B12D3A45642661417400000'", "zeroblob(16)",
        ]
        // Huge values: 1 MB of text and of bytes.
        list += [
            "replace(hex(zeroblob(500000)), '0', 'a')", "replace(hex(zeroblob(500000)), '0', '1')",
            "'2024-05-01' || hex(zeroblob(500000))", "zeroblob(1000000)", "CAST(zeroblob(1000000) AS TEXT)",
        ]
        return list
    }()

    /// `count` random values, drawn towards the edges: integers of every width, doubles from random bit
    /// patterns, text of random scalars, random bytes stored as TEXT (mostly invalid UTF-8) and as BLOB.
    static func randomArguments(_ count: Int, using random: inout SeededGenerator) -> [StatementArguments] {
        (0..<count).map { _ -> StatementArguments in
            switch Int.random(in: 0..<7, using: &random) {
            case 0:
                let bits = Int.random(in: 1...64, using: &random)
                let magnitude = UInt64.random(in: 0...UInt64.max, using: &random) >> UInt64(64 - bits)
                return [Int64(bitPattern: magnitude) * (Bool.random(using: &random) ? 1 : -1)]
            case 1:
                let bits = UInt64.random(in: 0...UInt64.max, using: &random)
                let value = Double(bitPattern: bits)
                return [value.isNaN ? Double.infinity : value]
            case 2:
                let value = Double(Int64.random(in: -1_000_000...1_000_000, using: &random))
                return [Bool.random(using: &random) ? value : value + 0.5]
            case 3:
                let scalars = (0..<Int.random(in: 0...12, using: &random)).compactMap { _ in
                    Unicode.Scalar(UInt32.random(in: 0...0x10FFFF, using: &random))
                }
                return [String(String.UnicodeScalarView(scalars))]
            case 4:
                let words = [
                    "1", "0", "true", "no", "-", ".", "e", "9", "2024-", "05-01", " ", "T", "Z", "{", "\"x\":", "}",
                ]
                return [
                    (0..<Int.random(in: 1...5, using: &random)).map { _ in words.randomElement(using: &random) ?? "" }
                        .joined()
                ]
            case 5:
                return [
                    Data(
                        (0..<Int.random(in: 0...20, using: &random)).map { _ in
                            UInt8.random(in: 0...255, using: &random)
                        })
                ]
            default:
                return [
                    Data(
                        (0..<Int.random(in: 1...20, using: &random)).map { _ in
                            UInt8.random(in: 0...255, using: &random)
                        })
                ]
            }
        }
    }

    // MARK: What the table says

    /// The table's answer for one stored value.
    enum Expectation<T> {
        /// Decodes to exactly this value.
        case value(T)
        /// Throws a DecodingError.
        case error
        /// Either decodes to this value or throws: where the table leaves it to Foundation (a URL, JSON).
        case valueOrError(T)
        /// Throws, or decodes to any value (Foundation's parsers decide): only the absence of a trap counts.
        case anything
    }

    /// One Swift type: its name, what the table says it reads from each stored value, and its equality.
    struct Probe {
        let name: String
        /// Runs the four paths on stored value `id` and returns the failures.
        let run: (Database, Int64, Stored) throws -> [String]
    }

    struct Box<T: Decodable>: Decodable { var v: T }

    enum Color: String, Codable, Equatable {
        case red, green
        case one = "1"
        case empty = ""
    }
    enum Priority: Int64, Codable, Equatable {
        case low = 0
        case high = 1
        case top = 9_223_372_036_854_775_807
    }
    struct Point: Codable, Equatable {
        var x: Int
        var y: Double?
    }

    static let selectValue = "SELECT v FROM vals WHERE id = ?"

    /// The probe for `T`: `oracle` gives the table's answer for a non-NULL stored value.
    ///
    /// `keyed` marks types that ask for a container (structs, arrays, dictionaries): as the whole row they
    /// decode from columns, not from JSON in the one column, so only their property path follows the table.
    static func probe<T: Decodable>(
        _ type: T.Type, keyed: Bool = false, _ oracle: @escaping (Stored) -> Expectation<T>,
        equal: @escaping (T, T) -> Bool
    ) -> Probe {
        Probe(name: "\(T.self)") { db, id, stored in
            var failures: [String] = []
            let arguments: StatementArguments = [id]
            let plain: Expectation<T> =
                if case .null = stored { .error } else { oracle(stored) }
            let optional: Expectation<T?> =
                switch plain {
                case _ where { if case .null = stored { return true } else { return false } }(): .value(nil)
                case .value(let value): .value(value)
                case .error: .error
                case .valueOrError(let value): .valueOrError(value)
                case .anything: .anything
                }
            func check<V>(_ path: String, _ expected: Expectation<V>, equal: (V, V) -> Bool, _ decode: () throws -> V) {
                do {
                    let value = try decode()
                    switch expected {
                    case .value(let wanted), .valueOrError(let wanted):
                        if !equal(value, wanted) {
                            failures.append("\(path) from \(stored): got \(value), the table says \(wanted)")
                        }
                    case .error:
                        failures.append("\(path) from \(stored): got \(value), the table says it is an error")
                    case .anything: break
                    }
                } catch let error as DecodingError {
                    if case .value(let wanted) = expected {
                        failures.append("\(path) from \(stored): threw \(error), the table says \(wanted)")
                    } else if case .null = stored, case .error = expected {
                        guard case .valueNotFound = error else {
                            return failures.append("\(path) from NULL: \(error) is not valueNotFound")
                        }
                    }
                } catch {
                    failures.append(
                        "\(path) from \(stored): threw \(Swift.type(of: error)) \(error), not a DecodingError")
                }
            }
            let equalOptional = { (a: T?, b: T?) -> Bool in
                switch (a, b) {
                case (nil, nil): return true
                case (let a?, let b?): return equal(a, b)
                default: return false
                }
            }
            check("\(T.self) single value", keyed ? .anything : plain, equal: equal) {
                guard let value = try db.fetchOne(T.self, sql: selectValue, arguments: arguments) else {
                    throw DatabaseError(resultCode: .error, message: "no row")
                }
                return value
            }
            check("\(T.self)? single value", keyed ? .anything : optional, equal: equalOptional) {
                guard let value = try db.fetchOne(T?.self, sql: selectValue, arguments: arguments) else {
                    throw DatabaseError(resultCode: .error, message: "no row")
                }
                return value
            }
            check("\(T.self) property", plain, equal: equal) {
                guard let box = try db.fetchOne(Box<T>.self, sql: selectValue, arguments: arguments) else {
                    throw DatabaseError(resultCode: .error, message: "no row")
                }
                return box.v
            }
            check("\(T.self)? property", optional, equal: equalOptional) {
                guard let box = try db.fetchOne(Box<T?>.self, sql: selectValue, arguments: arguments) else {
                    throw DatabaseError(resultCode: .error, message: "no row")
                }
                return box.v
            }
            return failures
        }
    }

    static func integerProbe<T: FixedWidthInteger & Decodable>(_ type: T.Type) -> Probe {
        probe(
            type,
            { stored in
                switch stored {
                case .integer(let value): return T(exactly: value).map { .value($0) } ?? .error
                case .real(let value):
                    guard value.isFinite, value.rounded(.towardZero) == value, let exact = T(exactly: value) else {
                        return .error
                    }
                    return .value(exact)
                default: return .error
                }
            }, equal: ==)
    }

    static let booleanWords: [String: Bool] = [
        "1": true, "true": true, "t": true, "yes": true, "y": true,
        "0": false, "false": false, "f": false, "no": false, "n": false,
    ]

    /// `[+-]digits[.digits][e[+-]digits]`, the only text a Decimal reads.
    static func isDecimalText(_ text: String) -> Bool {
        text.range(of: #"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$"#, options: .regularExpression) != nil
    }

    static func makeProbes() -> [Probe] {
        [
            integerProbe(Int8.self), integerProbe(Int16.self), integerProbe(Int32.self), integerProbe(Int64.self),
            integerProbe(Int.self), integerProbe(UInt8.self), integerProbe(UInt16.self), integerProbe(UInt32.self),
            integerProbe(UInt64.self), integerProbe(UInt.self),
            probe(
                Double.self,
                { stored in
                    switch stored {
                    // Exactly, or an error: beyond 2^53 not every integer has a Double.
                    case .integer(let value): return Double(exactly: value).map { .value($0) } ?? .error
                    case .real(let value): return .value(value)
                    default: return .error
                    }
                }, equal: { $0.bitPattern == $1.bitPattern }),
            probe(
                Float.self,
                { stored in
                    switch stored {
                    case .integer(let value): return Float(exactly: value).map { .value($0) } ?? .error
                    // Rounded as Float rounds, but a finite value beyond Float's range is an error.
                    case .real(let value):
                        return Float(value).isInfinite && value.isFinite ? .error : .value(Float(value))
                    default: return .error
                    }
                }, equal: { $0.bitPattern == $1.bitPattern }),
            probe(
                Bool.self,
                { stored in
                    switch stored {
                    case .integer(let value): return value == 0 ? .value(false) : value == 1 ? .value(true) : .error
                    case .real(let value): return value == 0 ? .value(false) : value == 1 ? .value(true) : .error
                    case .text:
                        return stored.validText.flatMap { booleanWords[$0.lowercased()] }.map { .value($0) } ?? .error
                    default: return .error
                    }
                }, equal: ==),
            probe(
                String.self,
                { stored in
                    switch stored {
                    case .integer(let value): return .value(String(value))
                    case .real(let value): return value.isFinite ? .value(String(value)) : .valueOrError(String(value))
                    case .text: return stored.validText.map { .value($0) } ?? .error
                    default: return .error
                    }
                }, equal: ==),
            probe(
                Data.self,
                { stored in
                    switch stored {
                    case .text(let bytes), .blob(let bytes): return .value(Data(bytes))
                    default: return .error
                    }
                }, equal: ==),
            probe(
                Date.self,
                { stored in
                    switch stored {
                    case .integer(let value): return .value(Date(timeIntervalSince1970: Double(value)))
                    case .real(let value): return value.isFinite ? .value(Date(timeIntervalSince1970: value)) : .error
                    case .text(let bytes):
                        return bytes.withUnsafeBufferPointer(SQLiteDateFormat.date(fromUTF8:)).map { .value($0) }
                            ?? .error
                    default: return .error
                    }
                }, equal: ==),
            probe(
                UUID.self,
                { stored in
                    switch stored {
                    case .blob(let bytes) where bytes.count == 16:
                        return .value(
                            UUID(
                                uuid: (
                                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                                )))
                    case .text:
                        guard var text = stored.validText else { return .error }
                        if text.hasPrefix("{") && text.hasSuffix("}") && text.count >= 2 {
                            text = String(text.dropFirst().dropLast())
                        }
                        if text.range(of: "^[0-9A-Fa-f]{32}$", options: .regularExpression) != nil {
                            let c = Array(text)
                            text = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(c[$0]) }.joined(
                                separator: "-")
                        }
                        return UUID(uuidString: text).map { .value($0) } ?? .error
                    default: return .error
                    }
                }, equal: ==),
            probe(
                URL.self,
                { stored in
                    guard case .text = stored else { return .error }
                    // Invalid UTF-8 must not become a URL of replacement characters.
                    guard let text = stored.validText else { return .error }
                    return URL(string: text).map { .valueOrError($0) } ?? .error
                }, equal: ==),
            probe(
                Decimal.self,
                { stored in
                    let posix = Locale(identifier: "en_US_POSIX")
                    switch stored {
                    case .integer(let value): return .value(Decimal(value))
                    case .real(let value):
                        guard value.isFinite, let decimal = Decimal(string: String(value), locale: posix) else {
                            return .error
                        }
                        return decimal.isNaN ? .error : .valueOrError(decimal)
                    case .text:
                        guard let text = stored.validText, isDecimalText(text) else { return .error }
                        guard let decimal = Decimal(string: text, locale: posix), !decimal.isNaN else { return .error }
                        return .valueOrError(decimal)
                    default: return .error
                    }
                }, equal: ==),
            probe(
                Color.self,
                { stored in
                    switch stored {
                    case .integer(let value): return Color(rawValue: String(value)).map { .value($0) } ?? .error
                    case .real(let value): return Color(rawValue: String(value)).map { .value($0) } ?? .error
                    case .text: return stored.validText.flatMap(Color.init(rawValue:)).map { .value($0) } ?? .error
                    default: return .error
                    }
                }, equal: ==),
            probe(
                Priority.self,
                { stored in
                    switch stored {
                    case .integer(let value): return Priority(rawValue: value).map { .value($0) } ?? .error
                    case .real(let value):
                        guard value.isFinite, value.rounded(.towardZero) == value, let exact = Int64(exactly: value)
                        else { return .error }
                        return Priority(rawValue: exact).map { .value($0) } ?? .error
                    default: return .error
                    }
                }, equal: ==),
            probe(
                Point.self, keyed: true,
                { stored in
                    switch stored {
                    case .text(let bytes), .blob(let bytes):
                        return (try? JSONDecoder().decode(Point.self, from: Data(bytes))).map { .valueOrError($0) }
                            ?? .error
                    default: return .error
                    }
                }, equal: ==),
            probe(
                [Int].self, keyed: true,
                { stored in
                    switch stored {
                    case .text(let bytes), .blob(let bytes):
                        return (try? JSONDecoder().decode([Int].self, from: Data(bytes))).map { .valueOrError($0) }
                            ?? .error
                    default: return .error
                    }
                }, equal: ==),
            probe(
                [String: Int].self, keyed: true,
                { stored in
                    switch stored {
                    case .text(let bytes), .blob(let bytes):
                        return (try? JSONDecoder().decode([String: Int].self, from: Data(bytes))).map {
                            .valueOrError($0)
                        } ?? .error
                    default: return .error
                    }
                }, equal: ==),
        ]
    }

    // MARK: The tests

    func testEveryTypeFromEveryStoredValueDecodesExactlyOrThrows() throws {
        let seed = ReliabilitySeed.make("SQLITE_RECORD_FUZZ_SEED", suite: "ValueFuzzTests")
        var random = SeededGenerator(seed: seed)
        let randomCount = ProcessInfo.processInfo.environment["SQLITE_RECORD_FUZZ_VALUES"].flatMap { Int($0) } ?? 1_000
        let started = Date()
        let db = try Database()
        // No declared type: BLOB affinity, every value stays in the storage class it was given.
        try db.execute(sql: "CREATE TABLE vals(id INTEGER PRIMARY KEY, v)")
        for expression in Self.edgeExpressions + Self.edgeByteExpressions {
            try db.execute(sql: "INSERT INTO vals(v) VALUES (\(expression))")
        }
        for text in Self.edgeTexts {
            try db.execute(sql: "INSERT INTO vals(v) VALUES (?)", arguments: [text])
        }
        let arguments = Self.randomArguments(randomCount, using: &random)
        for (offset, argument) in arguments.enumerated() {
            // Every other random blob is stored as TEXT: bytes that are mostly not UTF-8.
            let asText =
                offset % 2 == 0 && argument.values.first.map { if case .blob = $0 { true } else { false } } == true
            try db.execute(
                sql: asText ? "INSERT INTO vals(v) VALUES (CAST(? AS TEXT))" : "INSERT INTO vals(v) VALUES (?)",
                arguments: argument)
        }
        let stored = try storedValues(db)
        XCTAssertTrue(
            stored.contains {
                if case .text(let b) = $0.1 { return String(validating: b, as: UTF8.self) == nil } else { return false }
            })

        let probes = Self.makeProbes()
        var cases = 0
        var failures: [String] = []
        var storageClasses: [String: Int] = [:]
        for (id, value) in stored {
            storageClasses[String(describing: value).components(separatedBy: " ").first ?? "", default: 0] += 1
            for probe in probes {
                failures += try probe.run(db, id, value)
                cases += 4
            }
        }
        for failure in failures.prefix(40) { XCTFail(failure) }
        XCTAssertEqual(failures.count, 0, "\(failures.count) cases went against the value table; seed \(seed)")
        XCTAssertGreaterThanOrEqual(cases, 100_000)
        let seconds = Date().timeIntervalSince(started)
        print(
            "ValueFuzzTests: \(cases) decode cases (\(stored.count) stored values \(storageClasses.sorted { $0.key < $1.key }) "
                + "× \(probes.count) types × 4 paths), \(failures.count) failures, seed \(seed), "
                + String(format: "%.1f s", seconds))
    }

    /// Every stored value with its storage class and exact bytes, read with SQLite's own functions.
    private func storedValues(_ db: Database) throws -> [(Int64, Stored)] {
        let statement = try db.makeStatement(sql: "SELECT id, typeof(v), v, CAST(v AS BLOB) FROM vals ORDER BY id")
        var values: [(Int64, Stored)] = []
        while try statement.step() {
            let stored: Stored
            switch statement.string(at: 1) {
            case "integer": stored = .integer(statement.int64(at: 2))
            case "real": stored = .real(statement.double(at: 2))
            case "text": stored = .text([UInt8](statement.data(at: 3)))
            case "blob": stored = .blob([UInt8](statement.data(at: 3)))
            default: stored = .null
            }
            values.append((statement.int64(at: 0), stored))
        }
        return values
    }

    // MARK: Binding

    /// A record holding every type of the table, Optional or not.
    struct Everything: Record, Equatable {
        var id: Int64?
        var int8: Int8
        var int16: Int16?
        var int32: Int32
        var int64: Int64
        var uint8: UInt8?
        var uint16: UInt16
        var uint32: UInt32
        var uint64: UInt64
        var double: Double
        var float: Float?
        var bool: Bool
        var text: String
        var data: Data?
        var date: Date
        var uuid: UUID
        var url: URL?
        var decimal: Decimal
        var color: Color
        var priority: Priority?
        var point: Point
        var list: [Int]?
        static let tableName = "everything"

        static func random(using random: inout SeededGenerator) -> Everything {
            let scalars = (0..<Int.random(in: 0...40, using: &random)).compactMap { _ in
                Unicode.Scalar(UInt32.random(in: 0...0x10FFFF, using: &random))
            }
            func maybe<T>(_ value: T) -> T? { Bool.random(using: &random) ? value : nil }
            var double = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &random))
            if double.isNaN { double = -0.0 }
            let mantissa = Int64.random(in: -999_999_999_999...999_999_999_999, using: &random)
            return Everything(
                id: nil, int8: .random(in: .min ... .max, using: &random),
                int16: maybe(.random(in: .min ... .max, using: &random)),
                int32: .random(in: .min ... .max, using: &random),
                int64: .random(in: .min ... .max, using: &random),
                uint8: maybe(.random(in: .min ... .max, using: &random)),
                uint16: .random(in: .min ... .max, using: &random), uint32: .random(in: .min ... .max, using: &random),
                uint64: .random(in: 0...UInt64(Int64.max), using: &random), double: double,
                float: maybe(Float(bitPattern: UInt32.random(in: 0...0x7F7F_FFFF, using: &random))),
                bool: .random(using: &random), text: String(String.UnicodeScalarView(scalars)),
                data: maybe(
                    Data(
                        (0..<Int.random(in: 0...64, using: &random)).map { _ in
                            UInt8.random(in: 0...255, using: &random)
                        })),
                // Whole milliseconds between years 0001 and 9999, which the default text keeps exactly.
                date: Date(
                    timeIntervalSince1970: Double(
                        Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &random)) / 1000),
                uuid: UUID(), url: maybe(URL(fileURLWithPath: "/tmp/\(Int.random(in: 0...9999, using: &random)) é")),
                decimal: Decimal(
                    sign: mantissa < 0 ? .minus : .plus, exponent: Int.random(in: -20...20, using: &random),
                    significand: Decimal(mantissa.magnitude)),
                color: [.red, .green, .one, .empty].randomElement(using: &random) ?? .red,
                priority: maybe([.low, .high, .top].randomElement(using: &random) ?? .low),
                point: Point(
                    x: .random(in: .min ... .max, using: &random),
                    y: maybe(Double(Int32.random(in: .min ... .max, using: &random)) / 8)),
                list: maybe(
                    (0..<Int.random(in: 0...5, using: &random)).map { _ in Int.random(in: -9...9, using: &random) }))
        }
    }

    func testRandomValuesOfEveryTypeSaveAndFetchBackExactly() throws {
        let seed = ReliabilitySeed.make("SQLITE_RECORD_FUZZ_SEED", suite: "ValueFuzzTests (binding)")
        var random = SeededGenerator(seed: seed)
        let db = try Database()
        try db.execute(
            sql: """
                CREATE TABLE everything (id INTEGER PRIMARY KEY, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
                    double, float, bool, text, data, date, uuid, url, decimal, color, priority, point, list)
                """)
        var records = (0..<2_000).map { _ in Everything.random(using: &random) }
        try Everything.save(db, &records)
        let fetched = try Everything.fetch(db, orderBy: [.ascending("id")])
        XCTAssertEqual(fetched.count, records.count)
        var mismatches = 0
        for (saved, read) in zip(records, fetched) where saved != read {
            mismatches += 1
            if mismatches <= 5 { XCTFail("saved \(saved)\nread  \(read)") }
        }
        // Values with no exact SQLite form are refused when bound, never stored as something else.
        for value in [UInt64(Int64.max) + 1, UInt64.max] {
            XCTAssertThrowsError(try db.execute(sql: "SELECT ?", arguments: [value])) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .mismatch, "\(error)")
            }
        }
        for value in [Double.nan, -Double.nan, Double(bitPattern: 0x7FF0_0000_0000_0001)] {
            XCTAssertThrowsError(try db.execute(sql: "SELECT ?", arguments: [value])) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .mismatch, "\(error)")
            }
        }
        for value in [
            Double.infinity, -Double.infinity, -0.0, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude,
        ] {
            XCTAssertEqual(
                try db.scalar(Double.self, sql: "SELECT ?", arguments: [value])?.bitPattern, value.bitPattern)
        }
        print(
            "ValueFuzzTests: \(records.count) records of \(21) typed columns saved and read back, \(mismatches) mismatches"
        )
    }
}
