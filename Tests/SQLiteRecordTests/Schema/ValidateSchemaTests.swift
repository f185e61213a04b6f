import Foundation
import SQLiteRecord
import XCTest

private struct Sensor: Record {
    var id: Int64?
    var name: String
    var serial: Int
    var firmware: String?
    var reading: Double
    var installedAt: Date?
    static let tableName = "sensors"
    enum CodingKeys: String, CodingKey {
        case id, name, serial, firmware, reading
        case installedAt = "installed_at"
    }
}

final class ValidateSchemaTests: XCTestCase {
    func testThreeSeededMismatchesAreReportedAtOnce() throws {
        let db = try Database()
        // serial is declared VARCHAR (TEXT affinity), reading and firmware are missing.
        try db.execute(
            sql: "CREATE TABLE sensors (id INTEGER PRIMARY KEY, name TEXT NOT NULL, serial VARCHAR(20), "
                + "installed_at TEXT)")
        XCTAssertThrowsError(try Sensor.validateSchema(in: db)) { error in
            let validation = error as? SchemaValidationError
            XCTAssertEqual(
                validation?.mismatches,
                [
                    .incompatibleColumn(
                        "serial", declaredType: "VARCHAR(20)", valueType: "Int",
                        reason: "SQLite stores every number put in a column with TEXT affinity as text, and Int reads "
                            + "only INTEGER and REAL values"),
                    .missingColumn("firmware", key: "firmware", valueType: "String", isOptional: true),
                    .missingColumn("reading", key: "reading", valueType: "Double", isOptional: false),
                ])
            XCTAssertEqual(
                "\(error)",
                """
                Sensor does not match table "sensors" (3 mismatches):
                - column "serial" declared VARCHAR(20) cannot hold Int: SQLite stores every number put in a column \
                with TEXT affinity as text, and Int reads only INTEGER and REAL values
                - no column "firmware" for Optional String
                - no column "reading" for Double
                """)
        }
    }

    func testAMissingTableIsTheOneMismatch() throws {
        let db = try Database()
        XCTAssertThrowsError(try Sensor.validateSchema(in: db)) { error in
            XCTAssertEqual(
                error as? SchemaValidationError,
                SchemaValidationError(recordType: "Sensor", table: "sensors", mismatches: [.missingTable("sensors")]))
            XCTAssertEqual("\(error)", "Sensor does not match table \"sensors\" (1 mismatch):\n- no table \"sensors\"")
        }
    }

    func testTablesThatCanHoldTheValuesPass() throws {
        let db = try Database()
        try db.execute(sql: WorldFixtures.schema)
        try Country.validateSchema(in: db)
        try City.validateSchema(in: db)
        try Sensor.createTable(in: db)
        try Sensor.validateSchema(in: db)

        // Declared types that look wrong but hold every value the type writes: String and Data in INTEGER
        // columns, Bool and Data in TEXT ones, Double in INTEGER, Decimal in DECIMAL (NUMERIC), a view, and
        // extra columns the type ignores.
        struct Loose: Record, Equatable {
            var id: Int64?
            var code: String
            var flag: Bool
            var blob: Data
            var bytes: Data
            var ratio: Double
            var price: Decimal
            static let tableName = "loose"
        }
        try db.execute(
            sql: """
                CREATE TABLE loose_table (id INTEGER PRIMARY KEY, code INTEGER, flag TEXT, blob INT, bytes CLOB,
                    ratio INTEGER, price DECIMAL(10,2), extra TEXT NOT NULL DEFAULT 'x');
                CREATE VIEW loose AS SELECT * FROM loose_table;
                """)
        try Loose.validateSchema(in: db)
        try db.execute(
            sql: "INSERT INTO loose_table (code, flag, blob, bytes, ratio, price) "
                + "VALUES ('A1', 1, x'00', x'01', 2.5, '19.99')")
        XCTAssertEqual(
            try Loose.fetch(db, sql: "SELECT * FROM loose"),
            [
                Loose(
                    id: 1, code: "A1", flag: true, blob: Data([0]), bytes: Data([1]), ratio: 2.5,
                    price: Decimal(string: "19.99") ?? 0)
            ])
    }

    func testNamesAreComparedAsTheDecoderAndEncoderCompareThem() throws {
        let db = try Database()
        try db.execute(
            sql:
                "CREATE TABLE sensors (id INTEGER PRIMARY KEY, Name TEXT, serial INTEGER, reading REAL, firmware TEXT, "
                + "installedAt TEXT)")
        XCTAssertThrowsError(try Sensor.validateSchema(in: db)) { error in
            XCTAssertEqual(
                (error as? SchemaValidationError)?.mismatches,
                // "Name" is the column "name" as SQLite and the decoder match names.
                [.missingColumn("installed_at", key: "installed_at", valueType: "Date", isOptional: true)])
        }

        struct Snake: Record {
            var id: Int64?
            var countryId: Int64
            static let recordEncoder = {
                var encoder = RecordEncoder()
                encoder.keyEncodingStrategy = .convertToSnakeCase
                return encoder
            }()
        }
        // The encoder writes country_id; the decoder, left with default keys, reads countryId.
        try db.execute(sql: "CREATE TABLE snake (id INTEGER PRIMARY KEY, country_id INTEGER)")
        XCTAssertThrowsError(try Snake.validateSchema(in: db)) { error in
            XCTAssertEqual(
                (error as? SchemaValidationError)?.mismatches,
                [.missingColumn("countryId", key: "countryId", valueType: "Int64", isOptional: false)])
        }
    }

    func testWhatIsReportedReallyFails() throws {
        struct Part: Record, Equatable {
            var id: Int64?
            var serial: Int
        }
        let db = try Database()
        try db.execute(sql: "CREATE TABLE part (id INTEGER PRIMARY KEY, serial VARCHAR(20))")
        XCTAssertThrowsError(try Part.validateSchema(in: db))
        var part = Part(id: nil, serial: 42)
        try part.insert(db)
        XCTAssertEqual(try db.scalar(String.self, sql: "SELECT typeof(serial) FROM part"), "text")
        XCTAssertThrowsError(try Part.fetch(db)) { error in
            guard case DecodingError.typeMismatch = error else { return XCTFail("\(error)") }
        }
    }

    func testDatesStoredAsNumbersCannotLiveInTextColumns() throws {
        struct Event: Record {
            var id: Int64?
            var at: Date
            var label: String
            static let recordEncoder = {
                var encoder = RecordEncoder()
                encoder.dateEncodingStrategy = .unixSeconds
                return encoder
            }()
        }
        let db = try Database()
        try db.execute(sql: "CREATE TABLE event (id INTEGER PRIMARY KEY, at TEXT, label INTEGER)")
        XCTAssertThrowsError(try Event.validateSchema(in: db)) { error in
            XCTAssertEqual(
                (error as? SchemaValidationError)?.mismatches,
                [
                    .incompatibleColumn(
                        "at", declaredType: "TEXT", valueType: "Date",
                        reason: "SQLite stores every number put in a column with TEXT affinity as text, and a date "
                            + "stored as a number reads back as text that is not a date")
                ])
        }
        // Stored as text (the default), the same column is right.
        struct TextEvent: Record {
            var id: Int64?
            var at: Date
            static let tableName = "event"
        }
        try TextEvent.validateSchema(in: db)
    }
}
