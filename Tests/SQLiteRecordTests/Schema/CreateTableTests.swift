import Foundation
import SQLiteRecord
import XCTest

/// Twelve properties, one of each kind the value table knows, with snake_case columns.
private struct Gadget: Record, Equatable {
    enum Status: String, Codable, CaseIterable {
        case draft, published
    }
    struct Dimensions: Codable, Equatable {
        var width: Double
        var height: Double
        var tags: [String]
    }

    var id: Int64?
    var name: String
    var stockCount: Int
    var price: Double?
    var isActive: Bool
    var createdAt: Date
    var token: UUID?
    var homepage: URL?
    var amount: Decimal
    var thumbnail: Data?
    var status: Status
    var dimensions: Dimensions

    static let tableName = "gadgets"
    static let recordEncoder = {
        var encoder = RecordEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }()
    static let rowDecoder = {
        var decoder = RowDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()
}

final class CreateTableTests: XCTestCase {
    func testTwelvePropertiesGiveTheirColumnsTypesAndNotNulls() throws {
        let db = try Database()
        try Gadget.createTable(in: db)
        let columns = try db.fetchAll(sql: "PRAGMA table_info(\"gadgets\")").map(\.values)
        // cid, name, type, notnull, dflt_value, pk
        XCTAssertEqual(
            columns,
            [
                [0, "id", "INTEGER", 0, nil, 1],
                [1, "name", "TEXT", 1, nil, 0],
                [2, "stock_count", "INTEGER", 1, nil, 0],
                [3, "price", "REAL", 0, nil, 0],
                [4, "is_active", "INTEGER", 1, nil, 0],
                [5, "created_at", "TEXT", 1, nil, 0],
                [6, "token", "TEXT", 0, nil, 0],
                [7, "homepage", "TEXT", 0, nil, 0],
                // Decimal: no declared type, so each value keeps the storage class the encoder chose.
                [8, "amount", "", 1, nil, 0],
                [9, "thumbnail", "BLOB", 0, nil, 0],
                [10, "status", "TEXT", 1, nil, 0],
                [11, "dimensions", "TEXT", 1, nil, 0],
            ])
        XCTAssertEqual(
            try Gadget.createTableSQL(),
            "CREATE TABLE \"gadgets\" (\"id\" INTEGER PRIMARY KEY, \"name\" TEXT NOT NULL, \"stock_count\" INTEGER "
                + "NOT NULL, \"price\" REAL, \"is_active\" INTEGER NOT NULL, \"created_at\" TEXT NOT NULL, \"token\" "
                + "TEXT, \"homepage\" TEXT, \"amount\" NOT NULL, \"thumbnail\" BLOB, \"status\" TEXT NOT NULL, "
                + "\"dimensions\" TEXT NOT NULL)")

        // The table holds what the type saves, and gives it back.
        var gadget = Gadget(
            id: nil, name: "Widget", stockCount: 3, price: 9.5, isActive: true,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000), token: UUID(),
            homepage: URL(string: "https://example.com"),
            amount: Decimal(string: "19.99") ?? 0, thumbnail: Data([1, 2, 3]), status: .published,
            dimensions: .init(width: 2, height: 3, tags: ["a"]))
        try gadget.insert(db)
        XCTAssertEqual(try Gadget.fetchOne(db, id: gadget.id ?? 0), gadget)
        XCTAssertNoThrow(try Gadget.validateSchema(in: db))
    }

    func testTheContractsCityAndIfNotExists() throws {
        XCTAssertEqual(
            try City.createTableSQL(),
            "CREATE TABLE \"cities\" (\"id\" INTEGER PRIMARY KEY, \"name\" TEXT NOT NULL, \"population\" INTEGER "
                + "NOT NULL, \"country_id\" INTEGER, \"founded_at\" TEXT)",
            "columns in the order of CodingKeys, which the synthesized init(from:) follows")
        XCTAssertEqual(
            try Country.createTableSQL(ifNotExists: true),
            "CREATE TABLE IF NOT EXISTS \"countries\" (\"id\" INTEGER PRIMARY KEY, \"name\" TEXT NOT NULL, "
                + "\"iso\" TEXT NOT NULL, \"population\" INTEGER NOT NULL)")
        let db = try Database()
        try City.createTable(in: db)
        XCTAssertNoThrow(try City.createTable(in: db, ifNotExists: true))
        XCTAssertThrowsError(try City.createTable(in: db)) { error in
            XCTAssertEqual((error as? DatabaseError)?.message, "table \"cities\" already exists")
        }
    }

    func testStrategiesDecideDateAndUUIDColumnsAndNamesAreQuoted() throws {
        struct Entry: Record {
            var id: Int64?
            var group: String
            var seconds: Date
            var key: UUID
            static let tableName = "order"
            static let recordEncoder = {
                var encoder = RecordEncoder()
                encoder.dateEncodingStrategy = .unixSeconds
                encoder.uuidEncodingStrategy = .blob
                return encoder
            }()
        }
        XCTAssertEqual(
            try Entry.createTableSQL(),
            "CREATE TABLE \"order\" (\"id\" INTEGER PRIMARY KEY, \"group\" TEXT NOT NULL, \"seconds\" REAL NOT NULL, "
                + "\"key\" BLOB NOT NULL)")

        struct Stamp: Record {
            var id: Int64?
            var at: Date?
            static let recordEncoder = {
                var encoder = RecordEncoder()
                encoder.dateEncodingStrategy = .custom { .integer(Int64($0.timeIntervalSince1970)) }
                return encoder
            }()
        }
        XCTAssertEqual(
            try Stamp.createTableSQL(), "CREATE TABLE \"stamp\" (\"id\" INTEGER PRIMARY KEY, \"at\" INTEGER)")
    }

    func testEnumsWrappersAndCustomInitsAreProbed() throws {
        enum Level: Int, Codable { case low, high }  // 0 is a case: the placeholder fits
        struct Meters: Codable {
            var value: Double
            init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Double.self) }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(value)
            }
        }
        struct Reading: Record {
            var id: Int64?
            var level: Level
            var depth: Meters
            var note: String?
            var history: [Int]
            var memo: String?
            enum CodingKeys: String, CodingKey { case id, level, depth, note, history, memo }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                id = try container.decodeIfPresent(Int64.self, forKey: .id)
                level = try container.decode(Level.self, forKey: .level)
                depth = try container.decode(Meters.self, forKey: .depth)
                // A nullable column read the long way.
                note = try container.decodeNil(forKey: .note) ? nil : try container.decode(String.self, forKey: .note)
                history = try container.decode([Int].self, forKey: .history)
                // An Optional asked for with decode rather than decodeIfPresent.
                memo = try container.decode(String?.self, forKey: .memo)
            }
        }
        XCTAssertEqual(
            try Reading.createTableSQL(),
            "CREATE TABLE \"reading\" (\"id\" INTEGER PRIMARY KEY, \"level\" INTEGER NOT NULL, "
                + "\"depth\" REAL NOT NULL, \"note\" TEXT, \"history\" TEXT NOT NULL, \"memo\" TEXT)")
    }

    func testAnEnumThePlaceholderCannotMakeIsAClearError() throws {
        enum Planet: String, Codable { case mercury, venus }
        struct Probe: Record {
            var id: Int64?
            var name: String
            var target: Planet
            var backup: Planet?
        }
        XCTAssertThrowsError(try Probe.createTableSQL()) { error in
            let probeError = error as? SchemaProbeError
            XCTAssertEqual(probeError?.key, "target")
            XCTAssertEqual(probeError?.valueType, "Planet")
            XCTAssertEqual(
                "\(error)",
                "Cannot derive the columns of table \"probe\" from Probe at key \"target\" (Planet): the probe could "
                    + "not make a Planet from placeholder values: Cannot initialize Planet from invalid String "
                    + "value . Make Planet CaseIterable (the probe then uses its first case) or give it a value for "
                    + "the probe's placeholder (0, false or \"\"), or declare the table by hand: try "
                    + "db.execute(sql: \"CREATE TABLE "
                    + "...\") in a DatabaseMigrator migration")
        }
    }

    func testAnInitThatValidatesIsAClearError() throws {
        struct Invalid: Error {}
        struct Account: Record {
            var id: Int64?
            var email: String
            enum CodingKeys: String, CodingKey { case id, email }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                id = try container.decodeIfPresent(Int64.self, forKey: .id)
                email = try container.decode(String.self, forKey: .email)
                guard email.contains("@") else { throw Invalid() }
            }
        }
        XCTAssertThrowsError(try Account.createTableSQL()) { error in
            XCTAssertEqual(
                error as? SchemaProbeError,
                SchemaProbeError(
                    recordType: "Account", table: "account", key: "email", valueType: nil,
                    reason: "its init(from:) threw on the placeholder values read up to this key: Invalid()"))
            XCTAssertTrue(
                "\(error)".hasSuffix(
                    "Declare the table by hand: try db.execute(sql: \"CREATE TABLE ...\") "
                        + "in a DatabaseMigrator migration"), "\(error)")
        }
    }

    func testAPrimaryKeyColumnTheTypeDoesNotWriteIsAnError() throws {
        struct Keyless: Record {
            var id: Int64?
            var name: String
            enum CodingKeys: String, CodingKey {
                case id = "keyless_id"
                case name
            }
        }
        XCTAssertThrowsError(try Keyless.createTableSQL()) { error in
            XCTAssertEqual(error as? RecordError, .missingPrimaryKey(table: "keyless", column: "id"))
        }
    }
}
