import Foundation
import SQLiteRecord
import SQLiteRecordGen

// The generator over arbitrary schemas and names: each input makes up to four tables (and sometimes a view)
// whose names, column names and declared types are the input's own text (any characters but U+0000, quoted
// as SQL identifiers), with primary keys of its choosing and a few rows of values of every storage class,
// then generates the Swift file for them. Every outcome must be a file or a thrown error: a trap, a sanitizer
// report or a leak is a fault; and the file must name one type per table or view it read.

let declaredTypes = [
    "", "INTEGER", "TEXT", "REAL", "BLOB", "NUMERIC", "BOOLEAN", "DATETIME", "VARCHAR(255)", "UUID", "JSON", "DECIMAL",
]

/// `text` as a quoted SQL identifier.
func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// A name from the input: its bytes as UTF-8 (invalid sequences replaced), U+0000 left out, or a plain one.
func name(_ input: inout FuzzBytes, _ fallback: String) -> String {
    let text = String(decoding: input.chunk(upTo: 24).filter { $0 != 0 }, as: UTF8.self)
    return text.isEmpty ? fallback : text
}

func literal(_ input: inout FuzzBytes) -> String {
    switch input.below(6) {
    case 0: return "NULL"
    case 1: return String(Int64(bitPattern: input.word()))
    case 2:
        let real = Double(bitPattern: input.word())
        return real.isFinite ? "\(real)" : "NULL"
    case 3: return "CAST(X'" + hexDigits(input.chunk(upTo: 16)) + "' AS TEXT)"
    case 4: return "X'" + hexDigits(input.chunk(upTo: 16)) + "'"
    default:
        return input.pick([
            "'2024-01-01 00:00:00'", "'true'", "'{\"a\":1}'", "'4a3f1e2c-0000-4000-8000-00000000abcd'", "1", "0",
        ])
    }
}

func run(_ bytes: [UInt8]) {
    var input = FuzzBytes(bytes)
    guard let db = try? Database() else { return }
    let tables = 1 + input.below(4)
    for index in 0..<tables {
        let table = name(&input, "t\(index)")
        let count = 1 + input.below(6)
        var columns: [String] = []
        for column in 0..<count {
            var definition = quoted(name(&input, "c\(column)"))
            // A declared type is words, or a string literal: `"c" 'any text'`.
            if input.below(4) == 0 {
                definition += " '" + name(&input, "").replacingOccurrences(of: "'", with: "''") + "'"
            } else {
                definition += " " + input.pick(declaredTypes)
            }
            columns.append(definition)
        }
        var sql = "CREATE TABLE " + quoted(table) + " (" + columns.joined(separator: ", ")
        switch input.below(4) {
        case 0: sql += ", PRIMARY KEY (" + quoted(name(&input, "c0")) + "))"
        case 1: sql += ") WITHOUT ROWID"
        default: sql += ")"
        }
        // Refused (a repeated column, a bad key, a reserved name, a type that is no words): that table is left out.
        guard (try? db.execute(sql: sql)) != nil else { continue }
        for _ in 0..<input.below(4) {
            let values = (0..<count).map { _ in literal(&input) }
            try? db.execute(sql: "INSERT INTO " + quoted(table) + " VALUES (" + values.joined(separator: ", ") + ")")
        }
        if input.below(4) == 0 {
            try? db.execute(
                sql: "CREATE VIEW " + quoted(name(&input, "v\(index)")) + " AS SELECT * FROM " + quoted(table))
        }
    }
    guard
        let expected = try? db.fetchOne(
            Int.self, sql: "SELECT count(*) FROM sqlite_schema WHERE type IN ('table', 'view')"),
        let file = try? ModelGenerator.generate(db, sourceName: "fuzz.sqlite")
    else { return }
    if file.types.count != expected {
        fatalError("\(expected) tables and views, \(file.types.count) types:\n\(file.source)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
