#if PostgreSQL
import Foundation
@testable import PostgresRecord
import SQLiteRecord
import XCTest

/// The opt-in row initializer on PostgreSQL: every fetch path takes `init(row:)`, each value type reads the
/// value the decoder reads, and the errors are the decoder's, naming the column.
final class PostgresFetchableRecordTests: PostgresTestCase {
    /// Marks how it was made: `via` is "row" from `init(row:)`, "codable" from `init(from:)`.
    struct Country: Record, Equatable, Sendable {
        var id: Int64?
        var name: String
        var via = "codable"
        static let tableName = "countries"
        static let towns = hasMany(Town.self)
        enum CodingKeys: String, CodingKey { case id, name }
    }

    struct Town: Record, Equatable, Sendable {
        var id: Int64?
        var countryId: Int64?
        var name: String
        var population: Int
        var via = "codable"
        static let tableName = "towns"
        static let country = belongsTo(Country.self)
        enum CodingKeys: String, CodingKey {
            case id, name, population
            case countryId = "country_id"
        }
    }

    struct TownWithCountry: Decodable {
        var town: Town
        var country: Country
    }

    /// Every type of the value table, read by name and by index.
    struct Sample: Decodable, Equatable {
        enum Mood: String, Codable { case calm, loud }
        struct Nested: Codable, Equatable {
            var a: Int
            var b: [String]
        }
        var small: Int16
        var int32: Int32
        var big: Int64
        var int: Int
        var float: Float
        var double: Double
        var decimal: Decimal
        var flag: Bool
        var text: String
        var varchar: String
        var bytes: Data
        var at: Date
        var plain: Date
        var day: Date
        var uuid: UUID
        var url: URL
        var nested: Nested
        var mood: Mood
        var missingText: String?
        var missingInt: Int64?
        var missingDate: Date?
        var uint8: UInt8
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try connection.execute(
            """
            CREATE TABLE countries (id bigserial PRIMARY KEY, name text NOT NULL);
            CREATE TABLE towns (id bigserial PRIMARY KEY, country_id bigint REFERENCES countries,
                name text NOT NULL, population bigint NOT NULL);
            INSERT INTO countries (name) VALUES ('France'), ('Italy');
            INSERT INTO towns (country_id, name, population) VALUES (1, 'Lyon', 500000), (1, 'Nice', 340000),
                (2, 'Turin', 870000);
            """)
    }

    private let sampleSQL = """
        SELECT (-32768)::smallint AS small, 2147483647::integer AS int32, (-9223372036854775808)::bigint AS big,
            42::integer AS int, 1.5::real AS float, 0.1::double precision AS double, 19.99::numeric AS decimal,
            true AS flag, 'héllo'::text AS text, 'v'::varchar(4) AS varchar, '\\x00ff10'::bytea AS bytes,
            '2001-09-09 01:46:40.25+00'::timestamptz AS at, '2001-09-09 01:46:40.5'::timestamp AS plain,
            '2001-09-09'::date AS day, 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'::uuid AS uuid,
            'https://example.com/a?b=1'::text AS url, '{"a": 7, "b": ["x", "y"]}'::jsonb AS nested,
            'loud'::text AS mood, NULL::text AS missing_text, NULL::bigint AS missing_int,
            NULL::timestamptz AS missing_date, 255::integer AS uint8
        """

    private var expectedSample: Sample {
        Sample(
            small: -32768, int32: 2_147_483_647, big: .min, int: 42, float: 1.5, double: 0.1,
            decimal: Decimal(string: "19.99")!, flag: true, text: "héllo", varchar: "v",
            bytes: Data([0, 255, 16]), at: Date(timeIntervalSince1970: 1_000_000_000.25),
            plain: Date(timeIntervalSince1970: 1_000_000_000.5), day: Date(timeIntervalSince1970: 999_993_600),
            uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
            url: URL(string: "https://example.com/a?b=1")!,
            nested: .init(a: 7, b: ["x", "y"]), mood: .loud, missingText: nil, missingInt: nil, missingDate: nil,
            uint8: 255)
    }

    struct ByName: PostgresFetchableRecord {
        var sample: Sample
        init(from decoder: any Decoder) throws { sample = try Sample(from: decoder) }
        init(row: borrowing PostgresFetchedRow) throws {
            sample = Sample(
                small: try row["small", as: Int16.self], int32: try row["int32", as: Int32.self],
                big: try row["big", as: Int64.self], int: try row["int", as: Int.self],
                float: try row["float", as: Float.self], double: try row["double", as: Double.self],
                decimal: try row["decimal", as: Decimal.self], flag: try row["flag", as: Bool.self],
                text: try row["text", as: String.self], varchar: try row["VARCHAR", as: String.self],
                bytes: try row["bytes", as: Data.self], at: try row["at", as: Date.self],
                plain: try row["plain", as: Date.self], day: try row["day", as: Date.self],
                uuid: try row["uuid", as: UUID.self], url: try row["url", as: URL.self],
                nested: try row["nested", as: Sample.Nested.self], mood: try row["mood", as: Sample.Mood.self],
                missingText: try row["missing_text", as: String?.self],
                missingInt: try row["missing_int", as: Int64?.self],
                missingDate: try row["missing_date", as: Date?.self], uint8: try row["uint8", as: UInt8.self])
        }
    }

    struct ByIndex: PostgresFetchableRecord {
        var sample: Sample
        init(from decoder: any Decoder) throws { sample = try Sample(from: decoder) }
        init(row: borrowing PostgresFetchedRow) throws {
            sample = Sample(
                small: try row[0, as: Int16.self], int32: try row[1, as: Int32.self],
                big: try row[2, as: Int64.self],
                int: try row[3, as: Int.self], float: try row[4, as: Float.self],
                double: try row[5, as: Double.self],
                decimal: try row[6, as: Decimal.self], flag: try row[7, as: Bool.self],
                text: try row[8, as: String.self], varchar: try row[9, as: String.self],
                bytes: try row[10, as: Data.self], at: try row[11, as: Date.self],
                plain: try row[12, as: Date.self],
                day: try row[13, as: Date.self], uuid: try row[14, as: UUID.self], url: try row[15, as: URL.self],
                nested: try row[16, as: Sample.Nested.self], mood: try row[17, as: Sample.Mood.self],
                missingText: try row[18, as: String?.self], missingInt: try row[19, as: Int64?.self],
                missingDate: try row[20, as: Date?.self], uint8: try row[21, as: UInt8.self])
        }
    }

    /// Reads one column of `T` named "v", as the row initializer's generic read.
    struct One<T: Decodable>: PostgresFetchableRecord {
        var value: T
        init(from decoder: any Decoder) throws {
            value = try decoder.container(keyedBy: PostgresColumnKey.self).decode(
                T.self, forKey: PostgresColumnKey("v"))
        }
        init(row: borrowing PostgresFetchedRow) throws { value = try row["v", as: T.self] }
    }

    struct OneString: PostgresFetchableRecord {
        var value: String
        init(row: borrowing PostgresFetchedRow) throws { value = try row["v", as: String.self] }
    }

    struct OneInt: PostgresFetchableRecord {
        var value: Int
        init(row: borrowing PostgresFetchedRow) throws { value = try row[0, as: Int.self] }
    }

    struct Absent: PostgresFetchableRecord {
        var optional: String?
        var required: String
        init(row: borrowing PostgresFetchedRow) throws {
            optional = try row["nope", as: String?.self]
            required = try row["gone", as: String.self]
        }
    }

    struct PastTheEnd: PostgresFetchableRecord {
        var value: Int64
        init(row: borrowing PostgresFetchedRow) throws { value = try row[row.count, as: Int64.self] }
    }

    // MARK: Fetch paths

    func testEveryFetchPathTakesTheRowInitializer() async throws {
        func via(_ towns: [Town]) -> [String] { towns.map(\.via) }
        XCTAssertEqual(via(try Town.fetch(connection)), ["row", "row", "row"])
        XCTAssertEqual(
            via(try Town.fetch(connection, where: ["country_id": Int64(1)], orderBy: [.ascending("name")])),
            ["row", "row"])
        XCTAssertEqual(try Town.fetchOne(connection, id: 2)?.via, "row")
        XCTAssertEqual(try Town.fetchOne(connection, id: 2)?.name, "Nice")  // the kept decoding, again
        XCTAssertEqual(try Town.fetchOne(connection, where: ["name": "Turin"])?.via, "row")
        XCTAssertEqual(
            via(
                try Town.fetch(
                    connection, sql: "SELECT * FROM towns WHERE population > $1",
                    arguments: [PostgresValue(Int64(400_000))])), ["row", "row"])
        XCTAssertEqual(via(try Town.filter(Column("population") > 400_000).fetch(connection)), ["row", "row"])
        XCTAssertEqual(try Town.order(Column("name").descending).fetchOne(connection)?.name, "Turin")
        XCTAssertEqual(try Town.order(Column("name").descending).fetchOne(connection)?.via, "row")
        XCTAssertEqual(via(try Town.all().fetch(connection, as: Town.self)), ["row", "row", "row"])
        XCTAssertEqual(try Town.all().fetchOne(connection, as: Town.self)?.via, "row")
        XCTAssertEqual(via(try connection.query("SELECT * FROM towns").decode(Town.self)), ["row", "row", "row"])
        XCTAssertEqual(try connection.query("SELECT * FROM towns")[1].decode(Town.self).via, "row")
        let pairs = try Town.including(required: Town.country).fetchPairs(connection)
        XCTAssertEqual(pairs.map { $0.0.via + "/" + ($0.1?.via ?? "-") }, ["row/row", "row/row", "row/row"])
        let joined = try Town.including(required: Town.country).fetch(connection, as: TownWithCountry.self)
        XCTAssertEqual(joined.map { $0.town.via + "/" + $0.country.via }, ["row/row", "row/row", "row/row"])
        let groups = try Country.order(Column("id").ascending).including(all: Country.towns).fetchGroups(connection)
        XCTAssertEqual(groups.map { $0.0.via }, ["row", "row"])
        XCTAssertEqual(groups.map { $0.1.map(\.via) }, [["row", "row"], ["row"]])
        let pooledOne = try await Town.fetchOne(pool, id: 3)
        XCTAssertEqual(pooledOne?.via, "row")
        let pooledSQL = try await Town.fetch(pool, sql: "SELECT * FROM towns")
        XCTAssertEqual(pooledSQL.map(\.via), ["row", "row", "row"])
        let pooledWhere = try await Town.fetch(pool, where: ["name": "Lyon"])
        XCTAssertEqual(pooledWhere.map(\.via), ["row"])
        // Writes still encode through Encodable, and the row reads back what was written.
        var town = Town(id: nil, countryId: 2, name: "Rome", population: 2_800_000)
        try town.insert(connection)
        XCTAssertEqual(
            try Town.fetchOne(connection, id: town.id!),
            Town(id: 4, countryId: 2, name: "Rome", population: 2_800_000, via: "row"))
    }

    /// One type with both engines' row initializers: each engine calls its own.
    struct Both: Record, FetchableRecord, Equatable {
        var id: Int64?
        var name: String
        var via = "codable"
        static let tableName = "pairs"
        enum CodingKeys: String, CodingKey { case id, name }

        init(id: Int64?, name: String) {
            self.id = id
            self.name = name
        }

        init(row: borrowing FetchedRow) throws {
            id = try row["id", as: Int64?.self]
            name = try row["name", as: String.self]
            via = "sqlite row"
        }
    }

    func testATypeWithBothRowInitializersTakesEachEnginesOwn() throws {
        var record = Both(id: nil, name: "Lyon")
        try connection.execute("CREATE TABLE pairs (id bigserial PRIMARY KEY, name text NOT NULL)")
        try record.insert(connection)
        XCTAssertEqual(try Both.fetch(connection).map(\.via), ["postgres row"])
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE pairs (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            var sqliteRecord = Both(id: nil, name: "Nice")
            try sqliteRecord.insert(db)
        }
        try queue.read { db in XCTAssertEqual(try Both.fetch(db).map(\.via), ["sqlite row"]) }
    }

    // MARK: Values

    func testEveryValueTypeReadsTheDecodersExactValue() throws {
        let rows = try connection.query(sampleSQL)
        struct Decoded: Decodable {
            var sample: Sample
            init(from decoder: any Decoder) throws { sample = try Sample(from: decoder) }
        }
        let decoded = try rows[0].decode(Decoded.self).sample
        XCTAssertEqual(decoded, expectedSample)
        XCTAssertEqual(try rows.decode(ByName.self).map(\.sample), [expectedSample])
        XCTAssertEqual(try rows.decode(ByIndex.self).map(\.sample), [expectedSample])
        XCTAssertEqual(try rows[0].decode(ByIndex.self).sample.double.bitPattern, (0.1 as Double).bitPattern)
        XCTAssertEqual(try rows[0].decode(ByName.self).sample.decimal.description, "19.99")
        // Text columns where the in-place reads want binary ones go through the value table.
        let text = try connection.query("SELECT '12'::text AS v")
        XCTAssertEqual(try text.decode(OneString.self).map(\.value), ["12"])
        XCTAssertEqual(try connection.query("SELECT 12::numeric AS v").decode(OneInt.self).map(\.value), [12])
        XCTAssertEqual(try connection.query("SELECT 7::smallint AS v").decode(OneInt.self).map(\.value), [7])
    }

    // MARK: Errors

    private func decodingError<T: PostgresFetchableRecord>(_ sql: String, _ type: T.Type) throws -> DecodingError {
        do {
            _ = try connection.query(sql).decode(T.self)
        } catch let error as DecodingError {
            return error
        }
        throw XCTSkip("\(sql) decoded as \(T.self) without an error")
    }

    func testNullIntoANonOptionalIsValueNotFoundNamingTheColumn() throws {
        let error = try decodingError("SELECT NULL::text AS v", OneString.self)
        guard case .valueNotFound(let type, let context) = error else { return XCTFail("\(error)") }
        XCTAssert(type == String.self)
        XCTAssertEqual(context.codingPath.map(\.stringValue), ["v"])
        XCTAssertEqual(context.debugDescription, "Expected String but column \"v\" is NULL")
        let int = try decodingError("SELECT NULL::bigint AS v", One<Int64>.self)
        guard case .valueNotFound(_, let intContext) = int else { return XCTFail("\(int)") }
        XCTAssertEqual(intContext.debugDescription, "Expected Int64 but column \"v\" is NULL")
    }

    func testATypeMismatchAndAnOutOfRangeValueNameTheColumn() throws {
        let error = try decodingError("SELECT '\\x01'::bytea AS v", OneString.self)
        guard case .typeMismatch(let type, let context) = error else { return XCTFail("\(error)") }
        XCTAssert(type == String.self)
        XCTAssertEqual(context.codingPath.map(\.stringValue), ["v"])
        XCTAssertTrue(
            context.debugDescription.hasPrefix("Expected String but column \"v\" holds"), context.debugDescription)
        let range = try decodingError("SELECT 70000::integer AS v", One<Int16>.self)
        guard case .dataCorrupted(let rangeContext) = range else { return XCTFail("\(range)") }
        XCTAssertEqual(rangeContext.codingPath.map(\.stringValue), ["v"])
        XCTAssertTrue(rangeContext.debugDescription.hasSuffix("out of range"), rangeContext.debugDescription)
        let fraction = try decodingError("SELECT 1.5::double precision AS v", OneInt.self)
        guard case .dataCorrupted(let fractionContext) = fraction else { return XCTFail("\(fraction)") }
        XCTAssertTrue(fractionContext.debugDescription.hasSuffix("which has a fractional part"))
    }

    func testAMissingColumnIsKeyNotFoundAndAMissingOptionalIsNil() throws {
        let error = try decodingError("SELECT 1::bigint AS a, 'x'::text AS b", Absent.self)
        guard case .keyNotFound(let key, let context) = error else { return XCTFail("\(error)") }
        XCTAssertEqual(key.stringValue, "gone")
        XCTAssertEqual(context.debugDescription, "No column \"gone\" in the row; it has \"a\", \"b\"")
        let past = try decodingError("SELECT 1::bigint AS a", PastTheEnd.self)
        guard case .keyNotFound(let pastKey, let pastContext) = past else { return XCTFail("\(past)") }
        XCTAssertEqual(pastKey.stringValue, "1")
        XCTAssertEqual(pastContext.debugDescription, "No column 1 in the row; it has 1 column(s): \"a\"")
        XCTAssertEqual(
            try connection.query("SELECT 'x'::text AS gone").decode(Absent.self).map(\.optional), [nil])
    }
}

extension PostgresFetchableRecordTests.Both: PostgresFetchableRecord {
    init(row: borrowing PostgresFetchedRow) throws {
        id = try row["id", as: Int64?.self]
        name = try row["name", as: String.self]
        via = "postgres row"
    }
}

extension PostgresFetchableRecordTests.Country: PostgresFetchableRecord {
    init(row: borrowing PostgresFetchedRow) throws {
        id = try row["id", as: Int64?.self]
        name = try row["name", as: String.self]
        via = "row"
    }
}

extension PostgresFetchableRecordTests.Town: PostgresFetchableRecord {
    init(row: borrowing PostgresFetchedRow) throws {
        id = try row["id", as: Int64?.self]
        countryId = try row["country_id", as: Int64?.self]
        name = try row["name", as: String.self]
        population = try row["population", as: Int.self]
        via = "row"
    }
}
#endif
