import Foundation
import SQLiteRecord

// The schema diff over arbitrary table SQL: each input is the inside of a `CREATE TABLE items (...)` (and,
// after a byte 0x01, the column list of an index on it); when SQLite accepts it, a row or two go in, then
// `schemaChanges(in:)` compares two record types with the table and its plan is applied, and the table is
// validated and read. Every outcome must be a plan, an applied change or a thrown error: a trap, a sanitizer
// report or a leak is a fault. Text with `;` is left out, so that an input runs one statement of each kind
// (no ATTACH of a file, no PRAGMA).

struct Item: Record {
    var id: Int64?
    var name: String
    var price: Double?
    var count: Int
    var tags: [String]
    var createdAt: Date?
    var flag: Bool
    static let tableName = "items"
}

struct KeyedItem: Record {
    var id: UUID
    var name: String?
    var amount: Decimal
    static let tableName = "items"
    static let primaryKeyColumn = "code"
    static let withoutRowID = true
    enum CodingKeys: String, CodingKey {
        case id = "code"
        case name, amount
    }
}

func run(_ bytes: [UInt8]) {
    guard let mode = bytes.first, !bytes.contains(UInt8(ascii: ";")) else { return }
    let parts = bytes.dropFirst().split(separator: 1, maxSplits: 1, omittingEmptySubsequences: false)
    let table = String(decoding: parts.first ?? [], as: UTF8.self)
    guard let db = try? Database() else { return }
    guard (try? db.execute(sql: "CREATE TABLE items (" + table + ")")) != nil else { return }
    if parts.count > 1 {
        try? db.execute(sql: "CREATE INDEX items_fuzz ON items (" + String(decoding: parts[1], as: UTF8.self) + ")")
    }
    try? db.execute(sql: "INSERT INTO items DEFAULT VALUES")
    var item = Item(
        id: nil, name: "a", price: 1.5, count: 2, tags: ["x"], createdAt: Date(timeIntervalSince1970: 0), flag: true)
    try? item.insert(db)
    var options = SchemaChangeOptions()
    options.dropsColumns = mode & 1 != 0
    if mode & 2 != 0 { options.renamedColumns = ["name": "title"] }
    if mode & 4 != 0 { options.defaults = ["count": .integer(0), "flag": .integer(0), "tags": .text("[]")] }
    if mode & 8 != 0 { options.uniqueKeys = [["name"]] }
    if mode & 16 == 0 {
        if let plan = try? Item.schemaChanges(in: db, options: options) {
            _ = plan.sql
            _ = plan.description
            try? plan.apply(db)
        }
        try? Item.validateSchema(in: db)
        _ = try? Item.fetch(db)
    } else {
        if let plan = try? KeyedItem.schemaChanges(in: db, options: options) {
            _ = plan.sql
            try? plan.apply(db)
        }
        try? KeyedItem.validateSchema(in: db)
        _ = try? KeyedItem.fetch(db)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
