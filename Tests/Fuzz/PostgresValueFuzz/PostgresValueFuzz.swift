import Foundation
import SQLiteRecord

@testable import PostgresRecord

// PostgreSQL value decoding from arbitrary binary cells, with no server: each input makes one row of 12
// columns whose type OIDs it picks (every type the value table reads: int2/4/8, oid, float4/8, numeric,
// bool, text, varchar, char(n), name, bytea, uuid, date, timestamp(tz), json, jsonb; arrays and unknown OIDs,
// which it reads as no value of its own) and whose bytes it writes: a well-formed binary value with fuzzed
// fields (numeric's digit count, weight, sign, scale and digits), raw bytes of any length, the text format, or
// NULL. libpq holds the row as a server's result would (PostgresResult.row, PQmakeEmptyPGresult), and the row
// is decoded as records with every kind of property (the keyed decoder and its in-place fast paths), as a
// FetchableRecord (the fetched row's subscripts), and column by column as every type the value table
// reads. Every outcome must be values or a thrown error: a trap, a sanitizer report or a leak is a fault.

enum Genre: String, Codable { case mystery, poetry }
struct Nested: Codable {
    var name: String
    var values: [Int]
}

/// The properties the keyed decoder reads in place (String, Int64, Int, Double, Bool, Date), then the rest.
struct FastPaths: Decodable {
    var c1: Int64
    var c2: Int
    var c3: Double
    var c4: Bool
    var c5: String
    var c6: Date
    var c7: Int64?
    var c8: Int?
    var c9: Double?
    var c10: Bool?
    var c11: String?
    var c12: Date?
}

struct Values: Decodable {
    var c1: Int8
    var c2: UInt16
    var c3: Int32
    var c4: UInt64
    var c5: Float
    var c6: Decimal
    var c7: UUID
    var c8: Data
    var c9: URL
    var c10: Genre
    var c11: Nested
    var c12: [String: Double]
}

struct Optionals: Decodable {
    var c1: Decimal?
    var c2: UUID?
    var c3: Data?
    var c4: Float?
    var c5: UInt8?
    var c6: Int16?
    var c7: Nested?
    var c8: [Int]?
    var c9: Genre?
    var c10: URL?
    var c11: UInt?
    var c12: Set<String>?
}

/// The fetched row's subscripts, by index and by name.
struct Fetched: FetchableRecord {
    var values: [String] = []

    init(row: borrowing FetchedRow) throws {
        values.append(String(describing: try? row[0, as: Int64.self]))
        values.append(String(describing: try? row[1, as: Int?.self]))
        values.append(String(describing: try? row[2, as: Double.self]))
        values.append(String(describing: try? row[3, as: Bool?.self]))
        values.append(String(describing: try? row[4, as: String.self]))
        values.append(String(describing: try? row[5, as: Date?.self]))
        values.append(String(describing: try? row["c7", as: Decimal.self]))
        values.append(String(describing: try? row["c8", as: UUID?.self]))
        values.append(String(describing: try? row["c9", as: Int64?.self]))
        values.append(String(describing: try? row["c10", as: Date.self]))
        values.append(String(describing: try? row["c11", as: String?.self]))
        values.append(String(describing: try? row[11, as: Nested.self]))
        values.append(String(describing: try? row[12, as: Int64.self]))
    }

    init(from decoder: any Decoder) throws { values = [] }
}

let types: [UInt32] = [
    PostgresType.int2, PostgresType.int4, PostgresType.int8, PostgresType.oid, PostgresType.float4,
    PostgresType.float8, PostgresType.numeric, PostgresType.bool, PostgresType.text, PostgresType.varchar,
    PostgresType.bpchar, PostgresType.identifier, PostgresType.bytea, PostgresType.uuid, PostgresType.date,
    PostgresType.timestamp, PostgresType.timestamptz, PostgresType.json, PostgresType.jsonb,
    1007,  // int4[]
    1009,  // text[]
    PostgresType.char, 0,
]

/// The length of a type's binary form; nil for types of any length.
func fixedLength(_ type: UInt32) -> Int? {
    switch type {
    case PostgresType.int2: return 2
    case PostgresType.int4, PostgresType.oid, PostgresType.float4, PostgresType.date: return 4
    case PostgresType.int8, PostgresType.float8, PostgresType.timestamp, PostgresType.timestamptz: return 8
    case PostgresType.bool: return 1
    case PostgresType.uuid: return 16
    default: return nil
    }
}

let texts = [
    "1", "-0", "12.3400", "1e400", "NaN", "Infinity", "true", "mystery", "Poetry", "",
    "{\"name\":\"x\",\"values\":[1]}",
    "{\"a\":1e999}", "[1,2]", "[\"a\",\"a\"]", "4a3f1e2c-0000-4000-8000-00000000abcd", "http://example.com/a b",
    "18446744073709551616", "340282366920938463463374607431768211456", "0.000000000000000000000000000000000000001",
]

/// numeric's binary form with fields the input chooses: digit count, weight, sign, display scale and digits
/// (each a base-10000 digit, or any 16 bits).
func numeric(_ input: inout FuzzBytes) -> [UInt8] {
    let count = input.below(12)
    let weight = Int16(bitPattern: UInt16(input.byte()) << 8 | UInt16(input.byte()))
    let sign = input.pick([0x0000, 0x4000, 0xC000, 0xD000, 0xF000, UInt16(input.byte()) << 8] as [UInt16])
    let scale =
        input.below(4) == 0
        ? Int16(bitPattern: UInt16(input.byte()) << 8 | UInt16(input.byte())) : Int16(input.below(40))
    func int16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    var bytes =
        int16(UInt16(count)) + int16(UInt16(bitPattern: weight)) + int16(sign) + int16(UInt16(bitPattern: scale))
    for _ in 0..<count {
        let digit =
            input.below(8) == 0
            ? UInt16(input.byte()) << 8 | UInt16(input.byte()) : UInt16(input.word() % 10_000)
        bytes += int16(digit)
    }
    return bytes
}

/// One column's value: its type and bytes.
func value(_ input: inout FuzzBytes) -> PostgresValue {
    let type = input.pick(types)
    switch input.below(8) {
    case 0: return .null
    case 1:
        // Raw bytes of any length: what a type's binary form must never be read past.
        return PostgresValue(typeOID: type, isBinary: true, bytes: input.chunk(upTo: 40))
    case 2:
        // The text format of the type.
        return PostgresValue(typeOID: type, isBinary: false, bytes: Array(input.pick(texts).utf8))
    case 3 where type == PostgresType.jsonb:
        return PostgresValue(typeOID: type, isBinary: true, bytes: [1] + Array(input.pick(texts).utf8))
    default:
        if type == PostgresType.numeric { return PostgresValue(typeOID: type, isBinary: true, bytes: numeric(&input)) }
        if let length = fixedLength(type) {
            // A well-formed length; the extreme values (infinity dates, Int64.min) often.
            var bytes: [UInt8]
            switch input.below(4) {
            case 0: bytes = [0x7F] + Array(repeating: 0xFF, count: length - 1)
            case 1: bytes = [0x80] + Array(repeating: 0x00, count: length - 1)
            default: bytes = (0..<length).map { _ in input.byte() }
            }
            return PostgresValue(typeOID: type, isBinary: true, bytes: bytes)
        }
        var text = Array(input.pick(texts).utf8)
        if input.below(3) == 0 { text.insert(input.byte(), at: input.below(text.count + 1)) }
        return PostgresValue(typeOID: type, isBinary: true, bytes: text)
    }
}

func run(_ bytes: [UInt8]) {
    var input = FuzzBytes(bytes)
    let names = (1...12).map { "c\($0)" }
    let layout = PostgresColumnLayout(names: names)
    let parameters = PostgresParameters((1...12).map { _ in value(&input) })
    guard let result = try? PostgresResult.row(nameBytes: layout.nameBytes, parameters) else { return }
    let rows = PostgresRows(result: result, sql: "SELECT fuzz", layout: layout)
    _ = try? rows.decode(FastPaths.self)
    _ = try? rows.decode(Values.self)
    _ = try? rows.decode(Optionals.self)
    _ = try? rows.decode(Fetched.self)
    _ = try? rows[0].decode(Optionals.self)
    for column in 0..<12 {
        let row = rows[0]
        _ = try? row.decode(String.self, at: column)
        _ = try? row.decode(Int64.self, at: column)
        _ = try? row.decode(Int.self, at: column)
        _ = try? row.decode(Int32.self, at: column)
        _ = try? row.decode(Int16.self, at: column)
        _ = try? row.decode(Int8.self, at: column)
        _ = try? row.decode(UInt64.self, at: column)
        _ = try? row.decode(UInt8.self, at: column)
        _ = try? row.decode(Double.self, at: column)
        _ = try? row.decode(Float.self, at: column)
        _ = try? row.decode(Bool.self, at: column)
        _ = try? row.decode(Date.self, at: column)
        _ = try? row.decode(Data.self, at: column)
        _ = try? row.decode(UUID.self, at: column)
        _ = try? row.decode(Decimal.self, at: column)
        _ = try? row.decode(URL.self, at: column)
        _ = try? row.decode(Genre?.self, at: column)
        _ = try? row.decode([String]?.self, at: column)
        _ = result.cell(row: 0, column: column).summary
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
