import Foundation
import SQLiteRecord

// The row decoder over arbitrary stored values and declared types: each input builds a table `t` of 12
// columns whose declared types it picks (or writes itself), fills up to 4 rows with values of every storage
// class (INTEGER, REAL, TEXT, BLOB, NULL; text holding U+0000, text that is not UTF-8, numbers as text),
// then fetches them into records with every kind of property, through fetch, fetchOne(id:), a cursor and
// a SQL fetch. Every outcome must be records or a thrown error: a trap, a sanitizer report or a leak is a
// fault.

enum Genre: String, Codable { case mystery, poetry }
enum Level: Int, Codable {
    case low = 1
    case high = 2
}
struct Nested: Codable {
    var name: String
    var values: [Int]
    var inner: [String: Double]?
}

struct Integers: Record {
    var id: Int64?
    var c1: Int8
    var c2: Int16
    var c3: Int32
    var c4: Int64
    var c5: UInt8
    var c6: UInt16
    var c7: UInt32
    var c8: UInt64
    var c9: Int
    var c10: UInt
    var c11: Int8?
    var c12: UInt64?
    static let tableName = "t"
}

struct Values: Record {
    var id: Int64?
    var c1: Double
    var c2: Float
    var c3: Bool
    var c4: Date
    var c5: UUID
    var c6: Decimal
    var c7: URL
    var c8: Data
    var c9: Genre
    var c10: Level
    var c11: Nested
    var c12: String
    static let tableName = "t"
}

struct Optionals: Record {
    var id: Int64?
    var c1: Double?
    var c2: Float?
    var c3: Bool?
    var c4: Date?
    var c5: UUID?
    var c6: Decimal?
    var c7: URL?
    var c8: Data?
    var c9: Genre?
    var c10: Level?
    var c11: Nested?
    var c12: [String]?
    static let tableName = "t"
}

/// Other strategies: dates as unix seconds, UUIDs as BLOBs, keys in snake case (`c_1` is no column, so
/// decoding must say which is missing).
struct Strategies: Record {
    var id: Int64?
    var c1: Date
    var c2: UUID?
    var c3: [Int: String]?
    var c4: Set<Double>?
    var c5: Int16?
    var c6: Bool?
    static let tableName = "t"
    static var recordEncoder: RecordEncoder {
        var encoder = RecordEncoder()
        encoder.dateEncodingStrategy = .unixSeconds
        encoder.uuidEncodingStrategy = .blob
        return encoder
    }
    static var rowDecoder: RowDecoder {
        var decoder = RowDecoder()
        decoder.dateDecodingStrategy = .unixSeconds
        return decoder
    }
}

let declaredTypes = [
    "", "INTEGER", "INT", "REAL", "TEXT", "BLOB", "NUMERIC", "BOOLEAN", "DATE", "DATETIME", "VARCHAR(10)", "DOUBLE",
    "FLOAT", "JSON", "UUID", "DECIMAL(10,2)", "ANY", "CHARINT", "TIMESTAMP", "BIGINT UNSIGNED",
]

let integers: [Int64] = [
    0, 1, -1, 127, 128, -129, 255, 256, 32_767, 32_768, 65_535, 65_536, 2_147_483_647, 2_147_483_648, 4_294_967_295,
    4_294_967_296, .max, .min, 1_700_000_000, 253_402_300_800,
]

let texts = [
    "1", "1.5", "-0", "1e400", "-1e400", "true", "false", "yes", "2024-01-01", "2024-01-01 12:00:00.000",
    "2024-01-01T12:00:00Z", "2024-02-30 25:61:61", "4A3F1E2C-0000-4000-8000-00000000ABCD",
    "4a3f1e2c-0000-4000-8000-00000000abcd", "{\"name\":\"x\",\"values\":[1,2]}", "{\"name\":1}", "[\"a\",null]",
    "[1,2,3]", "{\"1\":\"a\"}", "http://example.com/a b", "", " 12 ", "0x10", "NaN", "mystery", "poetry", "Mystery",
    "18446744073709551615", "18446744073709551616", "9223372036854775808", "1e-400", "[",
    "{\"name\":\"x\",\"values\":[1e999]}",
]

/// An SQL literal for one stored value the input describes.
func literal(_ input: inout FuzzBytes) -> String {
    switch input.below(9) {
    case 0: return "NULL"
    case 1: return String(Int64(bitPattern: input.word()))
    case 2: return String(input.pick(integers))
    case 3:
        let real = Double(bitPattern: input.word())
        // A literal SQLite reads back as this REAL (17 digits), or as infinity (NaN is stored as NULL).
        if real.isNaN { return "NULL" }
        if real.isInfinite { return real < 0 ? "-9e999" : "9e999" }
        return "\(real)"
    case 4: return "CAST(X'" + hexDigits(input.chunk(upTo: 64)) + "' AS TEXT)"
    case 5: return "X'" + hexDigits(input.chunk(upTo: 64)) + "'"
    case 6: return "CAST(X'" + hexDigits(Array(input.pick(texts).utf8)) + "' AS TEXT)"
    case 7: return "X'" + hexDigits(Array(input.pick(texts).utf8)) + "'"
    default:
        // Text with U+0000 inside a value the decoder might otherwise read.
        var bytes = Array(input.pick(texts).utf8)
        bytes.insert(0, at: input.below(bytes.count + 1))
        return "CAST(X'" + hexDigits(bytes) + "' AS TEXT)"
    }
}

func run(_ bytes: [UInt8]) {
    var input = FuzzBytes(bytes)
    guard let db = try? Database() else { return }
    var columns: [String] = []
    for index in 1...12 {
        // Mostly a known type; sometimes letters of the input's own (a declared type is any words).
        let type: String
        if input.below(8) == 0 {
            type = String(input.chunk(upTo: 12).map { Character(Unicode.Scalar(65 + $0 % 26)) })
        } else {
            type = input.pick(declaredTypes)
        }
        columns.append("c\(index) \(type)")
    }
    let strict = input.below(4) == 0 ? " STRICT" : ""
    let create = "CREATE TABLE t (id INTEGER PRIMARY KEY, " + columns.joined(separator: ", ") + ")" + strict
    guard (try? db.execute(sql: create)) != nil else { return }
    let rows = 1 + input.below(4)
    for _ in 0..<rows {
        let values = (1...12).map { _ in literal(&input) }
        // A STRICT table refuses values of other types: that row is then not stored.
        try? db.execute(sql: "INSERT INTO t VALUES (NULL, " + values.joined(separator: ", ") + ")")
    }
    _ = try? Integers.fetch(db)
    _ = try? Values.fetch(db)
    _ = try? Optionals.fetch(db)
    _ = try? Strategies.fetch(db)
    _ = try? Values.fetchOne(db, id: 1)
    _ = try? Optionals.fetchOne(db, id: Int64(rows))
    _ = try? db.fetchAll(Optionals.self, sql: "SELECT * FROM t")
    _ = try? db.fetchAll(Int8.self, sql: "SELECT c1 FROM t")
    _ = try? db.fetchAll(Date.self, sql: "SELECT c4 FROM t")
    if let cursor = try? Integers.all().fetchCursor(db) {
        while (try? cursor.next()) != nil {}
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
