import Foundation
import SQLiteRecord
import XCTest

/// One row initializer on every engine: a `FetchableRecord`'s `init(row: borrowing FetchedRow)` is what every
/// fetch calls, on SQLite and on PostgreSQL alike, and its reads give the decoder's values and errors.
final class RowInitializerContractTests: RecordContractTestCase {
    /// Marks how it was made: `via` is "row" from `init(row:)`, "codable" from `init(from:)`.
    struct Country: Record, FetchableRecord, Equatable, Sendable {
        var id: Int64?
        var name: String
        var via = "codable"
        static let tableName = "row_countries"
        static let towns = hasMany(Town.self, using: "country_id")
        enum CodingKeys: String, CodingKey { case id, name }

        init(id: Int64?, name: String) {
            self.id = id
            self.name = name
        }

        init(row: borrowing FetchedRow) throws {
            id = try row["id", as: Int64?.self]
            name = try row["name", as: String.self]
            via = "row"
        }
    }

    struct Town: Record, FetchableRecord, Equatable, Sendable {
        var id: Int64?
        var countryId: Int64?
        var name: String
        var population: Int
        var via = "codable"
        static let tableName = "row_towns"
        static let country = belongsTo(Country.self, using: "country_id")
        enum CodingKeys: String, CodingKey {
            case id, name, population
            case countryId = "country_id"
        }

        init(id: Int64?, countryId: Int64?, name: String, population: Int, via: String = "codable") {
            self.id = id
            self.countryId = countryId
            self.name = name
            self.population = population
            self.via = via
        }

        init(row: borrowing FetchedRow) throws {
            id = try row["id", as: Int64?.self]
            countryId = try row["country_id", as: Int64?.self]
            name = try row["name", as: String.self]
            population = try row["population", as: Int.self]
            via = "row"
        }
    }

    struct TownWithCountry: Decodable, Sendable {
        var town: Town
        var country: Country
    }

    /// France with Lyon and Nice, Italy with Turin.
    private func makeTowns(_ engine: any ContractEngine) throws {
        try engine.createTable(Country.self)
        try engine.createTable(Town.self)
        try engine.write { db in
            var france = Country(id: nil, name: "France")
            var italy = Country(id: nil, name: "Italy")
            try france.insert(db)
            try italy.insert(db)
            var towns = [
                Town(id: nil, countryId: france.id, name: "Lyon", population: 500_000),
                Town(id: nil, countryId: france.id, name: "Nice", population: 340_000),
                Town(id: nil, countryId: italy.id, name: "Turin", population: 870_000),
            ]
            for index in towns.indices { try towns[index].insert(db) }
        }
    }

    private func via(_ towns: [Town]) -> [String] { towns.map(\.via) }

    // MARK: The check of both initializers

    /// Reads alike through `init(row:)` and `init(from:)`.
    struct Moon: Record, FetchableRecord, Equatable, Sendable {
        var id: Int64?
        var name: String
        var radius: Double?
        static let tableName = "row_moons"

        init(id: Int64?, name: String, radius: Double?) {
            self.id = id
            self.name = name
            self.radius = radius
        }

        init(row: borrowing FetchedRow) throws {
            id = try row["id", as: Int64?.self]
            name = try row["name", as: String.self]
            radius = try row["radius", as: Double?.self]
        }
    }

    /// Reads a NULL radius as 0 by hand where `init(from:)` gives nil: the drift the check is for.
    struct DriftedMoon: Record, FetchableRecord, Equatable, Sendable {
        var id: Int64?
        var name: String
        var radius: Double?
        static let tableName = "row_moons"

        init(row: borrowing FetchedRow) throws {
            id = try row["id", as: Int64?.self]
            name = try row["name", as: String.self]
            radius = try row["radius", as: Double?.self] ?? 0
        }
    }

    func testCheckRowInitializerReadsEveryRowBothWaysOnEachEngine() {
        onEachEngine { engine in
            try engine.createTable(Moon.self)
            try engine.write { db in
                for (name, radius) in [("Io", 1_821.6), ("Europa", 1_560.8)] as [(String, Double?)] + [("Nix", nil)] {
                    var moon = Moon(id: nil, name: name, radius: radius)
                    try moon.insert(db)
                }
            }
            XCTAssertEqual(try engine.write { db in try Moon.checkRowInitializer(db) }, 3)
            XCTAssertThrowsError(try engine.write { db in try DriftedMoon.checkRowInitializer(db) }) { error in
                let mismatch = error as? RowInitializerMismatch
                XCTAssertEqual(mismatch?.rowIndex, 2)
                XCTAssertEqual(mismatch?.row.columnNames, ["id", "name", "radius"])
                XCTAssertEqual(mismatch?.row.values, [.integer(3), .text("Nix"), .null])
                XCTAssertEqual(
                    mismatch?.rowInitializerResult, "DriftedMoon(id: Optional(3), name: \"Nix\", radius: Optional(0.0))")
                XCTAssertEqual(mismatch?.decodableResult, "DriftedMoon(id: Optional(3), name: \"Nix\", radius: nil)")
            }
        }
    }

    // MARK: Every fetch path

    func testEveryFetchOnAConnectionTakesTheRowInitializer() {
        onEachEngine { engine in
            try makeTowns(engine)
            try engine.write { db in
                XCTAssertEqual(via(try Town.fetch(db)), ["row", "row", "row"])
                XCTAssertEqual(
                    via(try Town.fetch(db, where: ["country_id": Int64(1)], orderBy: [.ascending("name")])),
                    ["row", "row"])
                XCTAssertEqual(try Town.fetchOne(db, id: 2)?.via, "row")
                XCTAssertEqual(try Town.fetchOne(db, id: 2)?.name, "Nice")  // a kept statement or decoding, again
                XCTAssertEqual(try Town.fetchOne(db, where: ["name": "Turin"])?.via, "row")
                XCTAssertEqual(via(try Town.filter(Column("population") > 400_000).fetch(db)), ["row", "row"])
                XCTAssertEqual(try Town.order(Column("name").descending).fetchOne(db)?.name, "Turin")
                XCTAssertEqual(try Town.order(Column("name").descending).fetchOne(db)?.via, "row")
                XCTAssertEqual(via(try Town.all().fetch(db, as: Town.self)), ["row", "row", "row"])
                XCTAssertEqual(try Town.all().fetchOne(db, as: Town.self)?.via, "row")
                let pairs = try Town.order(Column("id").ascending).including(required: Town.country).fetchPairs(db)
                XCTAssertEqual(pairs.map { $0.0.via + "/" + ($0.1?.via ?? "-") }, ["row/row", "row/row", "row/row"])
                let joined = try Town.order(Column("id").ascending).including(required: Town.country)
                    .fetch(db, as: TownWithCountry.self)
                XCTAssertEqual(joined.map { $0.town.via + "/" + $0.country.via }, ["row/row", "row/row", "row/row"])
                let groups = try Country.order(Column("id").ascending).including(all: Country.towns).fetchGroups(db)
                XCTAssertEqual(groups.map { $0.0.via }, ["row", "row"])
                XCTAssertEqual(groups.map { $0.1.map(\.via) }, [["row", "row"], ["row"]])
            }
            XCTAssertEqual(
                via(try engine.fetch(Town.self, sql: "SELECT * FROM row_towns WHERE population > 400000 ORDER BY id")),
                ["row", "row"])
            XCTAssertEqual(
                via(try engine.decodeRows(Town.self, sql: "SELECT * FROM row_towns ORDER BY id")),
                ["row", "row", "row"])
            // Writes still encode through Encodable, and the row reads back what was written.
            var town = Town(id: nil, countryId: 2, name: "Rome", population: 2_800_000)
            try engine.write { db in try town.insert(db) }
            XCTAssertEqual(
                try engine.write { db in try Town.fetchOne(db, id: 4) },
                Town(id: 4, countryId: 2, name: "Rome", population: 2_800_000, via: "row"))
        }
    }

    func testEveryFetchThroughTheWriterTakesTheRowInitializer() async {
        await onEachEngine { engine in
            try makeTowns(engine)
            let one = try await Town.fetchOne(engine.writer, id: 3)
            XCTAssertEqual(one?.via, "row")
            let filtered = try await Town.fetch(engine.writer, where: ["name": "Lyon"])
            XCTAssertEqual(via(filtered), ["row"])
            let requested = try await Town.order(Column("id").ascending).fetch(engine.writer)
            XCTAssertEqual(via(requested), ["row", "row", "row"])
            let pairs = try await Town.order(Column("id").ascending).including(required: Town.country)
                .fetchPairs(engine.writer)
            XCTAssertEqual(pairs.map { $0.0.via + "/" + ($0.1?.via ?? "-") }, ["row/row", "row/row", "row/row"])
            let groups = try await Country.order(Column("id").ascending).including(all: Country.towns)
                .fetchGroups(engine.writer)
            XCTAssertEqual(groups.map { $0.1.map(\.via) }, [["row", "row"], ["row"]])
        }
    }

    // MARK: Values

    /// Every readable type, and two that read through the decoder's rules (an enum by its raw value, a nested
    /// value from its JSON), written by the record's `Encodable` conformance.
    struct Sample: Record, Equatable {
        enum Mood: String, Codable, CaseIterable { case calm, loud }
        struct Nested: Codable, Equatable {
            var a: Int
            var b: [String]
        }
        var id: Int64?
        var small: Int16
        var int32: Int32
        var big: Int64
        var int: Int
        var uint8: UInt8
        var float: Float
        var double: Double
        var decimal: Decimal
        var flag: Bool
        var text: String
        var bytes: Data
        var at: Date
        var uuid: UUID
        var url: URL
        var nested: Nested
        var mood: Mood
        var missingText: String?
        var missingInt: Int64?
        var missingDate: Date?
        static let tableName = "samples"
        enum CodingKeys: String, CodingKey {
            case id, small, int32, big, int, uint8, float, double, decimal, flag, text, bytes, at, uuid, url, nested,
                mood
            case missingText = "missing_text"
            case missingInt = "missing_int"
            case missingDate = "missing_date"
        }

        static let stored = Sample(
            id: nil, small: -32768, int32: 2_147_483_647, big: .min, int: 42, uint8: 255, float: 1.5, double: 0.1,
            decimal: Decimal(string: "19.99")!, flag: true, text: "héllo", bytes: Data([0, 255, 16]),
            at: Date(timeIntervalSince1970: 1_000_000_000.25),
            uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
            url: URL(string: "https://example.com/a?b=1")!,
            nested: Nested(a: 7, b: ["x", "y"]), mood: .loud, missingText: nil, missingInt: nil, missingDate: nil)

        /// The columns in the order ``ByIndex`` reads them.
        static let columns =
            "id, small, int32, big, int, uint8, float, double, decimal, flag, text, bytes, at, uuid, url, nested, mood, "
            + "missing_text, missing_int, missing_date"
    }

    struct ByName: FetchableRecord, Equatable {
        var sample: Sample
        init(from decoder: any Decoder) throws { sample = try Sample(from: decoder) }
        init(row: borrowing FetchedRow) throws {
            sample = Sample(
                id: try row["id", as: Int64?.self], small: try row["small", as: Int16.self],
                int32: try row["int32", as: Int32.self], big: try row["big", as: Int64.self],
                int: try row["int", as: Int.self], uint8: try row["uint8", as: UInt8.self],
                float: try row["float", as: Float.self], double: try row["double", as: Double.self],
                decimal: try row["decimal", as: Decimal.self], flag: try row["flag", as: Bool.self],
                text: try row["text", as: String.self], bytes: try row["bytes", as: Data.self],
                at: try row["at", as: Date.self], uuid: try row["uuid", as: UUID.self],
                url: try row["url", as: URL.self], nested: try row["nested", as: Sample.Nested.self],
                mood: try row["mood", as: Sample.Mood.self], missingText: try row["missing_text", as: String?.self],
                missingInt: try row["missing_int", as: Int64?.self],
                missingDate: try row["missing_date", as: Date?.self])
        }
    }

    struct ByIndex: FetchableRecord, Equatable {
        var sample: Sample
        init(from decoder: any Decoder) throws { sample = try Sample(from: decoder) }
        init(row: borrowing FetchedRow) throws {
            sample = Sample(
                id: try row[0, as: Int64?.self], small: try row[1, as: Int16.self], int32: try row[2, as: Int32.self],
                big: try row[3, as: Int64.self], int: try row[4, as: Int.self], uint8: try row[5, as: UInt8.self],
                float: try row[6, as: Float.self], double: try row[7, as: Double.self],
                decimal: try row[8, as: Decimal.self], flag: try row[9, as: Bool.self],
                text: try row[10, as: String.self], bytes: try row[11, as: Data.self], at: try row[12, as: Date.self],
                uuid: try row[13, as: UUID.self], url: try row[14, as: URL.self],
                nested: try row[15, as: Sample.Nested.self], mood: try row[16, as: Sample.Mood.self],
                missingText: try row[17, as: String?.self], missingInt: try row[18, as: Int64?.self],
                missingDate: try row[19, as: Date?.self])
        }
    }

    /// The Optional forms of the readable types, over NULLs and over values.
    struct Optionals: FetchableRecord, Equatable {
        var values: [String]
        init(from decoder: any Decoder) throws { values = [] }
        init(row: borrowing FetchedRow) throws {
            values = [
                try row["small", as: Int16?.self].map { "\($0)" }, try row["int32", as: Int32?.self].map { "\($0)" },
                try row["uint8", as: UInt8?.self].map { "\($0)" }, try row["float", as: Float?.self].map { "\($0)" },
                try row["decimal", as: Decimal?.self].map { "\($0)" }, try row["flag", as: Bool?.self].map { "\($0)" },
                try row["bytes", as: Data?.self].map { "\($0.count)" }, try row["uuid", as: UUID?.self].map { "\($0)" },
                try row["url", as: URL?.self].map { "\($0)" }, try row["mood", as: Sample.Mood?.self].map { "\($0)" },
                try row[2, as: Int32?.self].map { "\($0)" },
            ].map { $0 ?? "nil" }
        }
    }

    func testEveryReadableTypeReadsTheDecodersValueByNameAndByIndex() {
        onEachEngine { engine in
            try engine.createTable(Sample.self)
            var sample = Sample.stored
            try engine.write { db in try sample.insert(db) }
            let sql = "SELECT \(Sample.columns) FROM samples"
            let decoded = try engine.fetch(Sample.self, sql: sql)
            XCTAssertEqual(decoded, [sample])
            XCTAssertEqual(try engine.decodeRows(ByName.self, sql: sql).map(\.sample), decoded)
            XCTAssertEqual(try engine.decodeRows(ByIndex.self, sql: sql).map(\.sample), decoded)
            XCTAssertEqual(
                try engine.decodeRows(ByIndex.self, sql: sql).first?.sample.double.bitPattern,
                (0.1 as Double).bitPattern)
            XCTAssertEqual(
                try engine.decodeRows(Optionals.self, sql: sql).first?.values,
                [
                    "-32768", "2147483647", "255", "1.5", "19.99", "true", "3", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
                    "https://example.com/a?b=1", "loud", "2147483647",
                ])
            let nulls =
                "SELECT NULL AS small, NULL AS int32, NULL AS uint8, NULL AS float, NULL AS decimal, NULL AS flag, "
                + "NULL AS bytes, NULL AS uuid, NULL AS url, NULL AS mood"
            XCTAssertEqual(
                try engine.decodeRows(Optionals.self, sql: nulls).first?.values,
                Array(repeating: "nil", count: 11))
        }
    }

    // MARK: Errors

    /// One column "v" read as `T`, by name.
    struct One<T: Decodable>: FetchableRecord {
        var value: T
        init(from decoder: any Decoder) throws { throw CancellationError() }
        init(row: borrowing FetchedRow) throws { value = try row["v", as: T.self] }
    }

    struct Absent: FetchableRecord {
        var optional: String?
        var required: String
        init(from decoder: any Decoder) throws { throw CancellationError() }
        init(row: borrowing FetchedRow) throws {
            optional = try row["nope", as: String?.self]
            required = try row["gone", as: String.self]
        }
    }

    struct PastTheEnd: FetchableRecord {
        var value: Int64
        init(from decoder: any Decoder) throws { throw CancellationError() }
        init(row: borrowing FetchedRow) throws { value = try row[row.count, as: Int64.self] }
    }

    /// Reads a name no column has, as an Optional: nil in raw SQL, `keyNotFound` where the library wrote the
    /// SELECT.
    struct Misspelt: Record, FetchableRecord {
        var id: Int64?
        var name: String?
        static let tableName = "row_towns"
        init(row: borrowing FetchedRow) throws {
            id = try row["id", as: Int64?.self]
            name = try row["nmae", as: String?.self]
        }
    }

    func testTheErrorsAreTheDecodersNamingTheColumn() {
        onEachEngine { engine in
            let null = error { _ = try engine.decodeRows(One<String>.self, sql: "SELECT NULL AS v") }
            guard case .valueNotFound(let type, let context)? = null as? DecodingError else {
                return XCTFail("\(String(describing: null))")
            }
            XCTAssert(type == String.self)
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["v"])
            let range = error { _ = try engine.decodeRows(One<Int16>.self, sql: "SELECT 70000 AS v") }
            guard case .dataCorrupted(let rangeContext)? = range as? DecodingError else {
                return XCTFail("\(String(describing: range))")
            }
            XCTAssertEqual(rangeContext.codingPath.map(\.stringValue), ["v"])
            let missing = error { _ = try engine.decodeRows(Absent.self, sql: "SELECT 1 AS a, 'x' AS b") }
            guard case .keyNotFound(let key, _)? = missing as? DecodingError else {
                return XCTFail("\(String(describing: missing))")
            }
            XCTAssertEqual(key.stringValue, "gone")
            XCTAssertEqual(try engine.decodeRows(Absent.self, sql: "SELECT 'x' AS gone").map(\.optional), [nil])
            let past = error { _ = try engine.decodeRows(PastTheEnd.self, sql: "SELECT 1 AS a") }
            guard case .keyNotFound(let pastKey, _)? = past as? DecodingError else {
                return XCTFail("\(String(describing: past))")
            }
            XCTAssertEqual(pastKey.intValue ?? Int(pastKey.stringValue), 1)
        }
    }

    func testAMissingOptionalColumnIsNilInRawSQLAndAnErrorWhereTheLibraryWroteTheSelect() {
        onEachEngine { engine in
            try makeTowns(engine)
            XCTAssertEqual(
                try engine.fetch(Misspelt.self, sql: "SELECT id FROM row_towns ORDER BY id").map(\.name),
                [nil, nil, nil])
            let thrown = error { _ = try engine.write { db in try Misspelt.fetch(db) } }
            guard case .keyNotFound(let key, _)? = thrown as? DecodingError else {
                return XCTFail("\(String(describing: thrown))")
            }
            XCTAssertEqual(key.stringValue, "nmae")
        }
    }
}
