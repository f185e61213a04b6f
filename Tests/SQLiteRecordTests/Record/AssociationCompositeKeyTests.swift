import CSQLiteRecord
import Foundation
import XCTest

@testable import SQLiteRecord

/// A first-level administrative division (a state, a canton, a région), keyed as GeoNames keys it: by its
/// country's ISO code and its admin1 code, which is unique only within the country ("08" is a parish of
/// Andorra and a region of other countries).
private struct Region: Record, Equatable {
    struct Key: Codable, Hashable, Sendable {
        var countryCode: String
        var admin1Code: String
        enum CodingKeys: String, CodingKey {
            case countryCode = "country_code"
            case admin1Code = "admin1_code"
        }
    }
    var countryCode: String
    var admin1Code: String
    var cityCount: Int
    static let tableName = "regions"
    static let withoutRowID = true
    enum CodingKeys: String, CodingKey {
        case countryCode = "country_code"
        case admin1Code = "admin1_code"
        case cityCount = "city_count"
    }
    var id: Key {
        get { Key(countryCode: countryCode, admin1Code: admin1Code) }
        set {
            countryCode = newValue.countryCode
            admin1Code = newValue.admin1Code
        }
    }
    static let cities = hasMany(GeoCity.self, using: ["country_code", "admin1_code"])
    static let seat = hasOne(RegionSeat.self, using: ["country_code", "admin1_code"])
}

/// A GeoNames city of more than 15,000 people, in the region of its country code and admin1 code.
private struct GeoCity: Record, Equatable {
    var id: Int64?
    var name: String
    var countryCode: String
    var admin1Code: String?
    var population: Int
    static let tableName = "cities"
    enum CodingKeys: String, CodingKey {
        case id, name, population
        case countryCode = "country_code"
        case admin1Code = "admin1_code"
    }
    static let region = belongsTo(Region.self, using: ["country_code", "admin1_code"])
    static let parentAssociations: [any ParentAssociation] = [region]
}

/// The city that is the seat of a region, at most one per region (its foreign key is UNIQUE).
private struct RegionSeat: Record, Equatable {
    var id: Int64?
    var countryCode: String
    var admin1Code: String
    var cityName: String
    static let tableName = "region_seats"
    enum CodingKeys: String, CodingKey {
        case id
        case countryCode = "country_code"
        case admin1Code = "admin1_code"
        case cityName = "city_name"
    }
}

/// A GeoNames country, whose cities name it by its ISO code, a UNIQUE column that is not its key.
private struct GeoCountry: Record, Equatable {
    var id: Int64?
    var iso: String
    var name: String
    static let tableName = "countries"
    static let cities = hasMany(GeoCity.self, using: ["country_code"], to: ["iso"])
}

private struct RegionWithCities: Decodable, Equatable {
    var region: Region
    var cities: [GeoCity]
}

private struct RegionWithCitiesAndSeats: Decodable, Equatable {
    var region: Region
    var cities: [GeoCity]
    var seats: [RegionSeat]
}

private struct CityWithRegion: Decodable, Equatable {
    var geoCity: GeoCity
    var region: Region
}

private struct RegionWithSeat: Decodable, Equatable {
    var region: Region
    var regionSeat: RegionSeat?
}

private struct CountryWithCities: Decodable, Equatable {
    var geoCountry: GeoCountry
    var cities: [GeoCity]
}

/// A unit of measure keyed by two columns, as the EPSG registry keys them (see RecordKeyTests).
private struct MeasureUnit: Record, Equatable {
    struct Key: Codable, Hashable, Sendable {
        var authName: String
        var code: String
        enum CodingKeys: String, CodingKey {
            case authName = "auth_name"
            case code
        }
    }
    var authName: String
    var code: String
    var name: String
    static let tableName = "measure_units"
    static let withoutRowID = true
    enum CodingKeys: String, CodingKey {
        case authName = "auth_name"
        case code, name
    }
    var id: Key {
        get { Key(authName: authName, code: code) }
        set {
            authName = newValue.authName
            code = newValue.code
        }
    }
}

/// A conversion to a unit, named by the unit's two key columns.
private struct Conversion: Record, Equatable {
    var id: Int64?
    var unitAuthName: String?
    var unitCode: String?
    var factor: Double
    static let tableName = "conversions"
    enum CodingKeys: String, CodingKey {
        case id, factor
        case unitAuthName = "unit_auth_name"
        case unitCode = "unit_code"
    }
    /// One column for a key of two.
    static let unitByOneColumn = belongsTo(MeasureUnit.self, using: "unit_code")
    static let unit = belongsTo(MeasureUnit.self, using: ["unit_auth_name", "unit_code"])
    /// Columns of the parent that are not a key of it.
    static let unitByName = belongsTo(
        MeasureUnit.self, using: ["unit_auth_name", "unit_code"], to: ["auth_name", "name"])
    /// A foreign key column the table lacks.
    static let unitByMisspelledColumn = belongsTo(MeasureUnit.self, using: ["unit_auth_name", "unit_cod"])
}

/// A weather station keyed by its network and its code within the network, as WMO and national networks
/// key them, with its daily readings.
private struct Station: Record, Equatable {
    struct Key: Codable, Hashable, Sendable {
        var network: String
        var code: Int
    }
    var network: String
    var code: Int
    var name: String
    static let tableName = "stations"
    static let withoutRowID = true
    var id: Key {
        get { Key(network: network, code: code) }
        set {
            network = newValue.network
            code = newValue.code
        }
    }
    static let readings = hasMany(Reading.self, using: ["network", "station_code"])
}

private struct Reading: Record, Equatable {
    var id: Int64?
    var network: String
    var stationCode: Int
    var day: String
    var celsius: Double
    static let tableName = "readings"
    enum CodingKeys: String, CodingKey {
        case id, network, day, celsius
        case stationCode = "station_code"
    }
}

/// A reading of a tool that stores the station code as text.
private struct TextCodedReading: Record, Equatable {
    var id: Int64?
    var network: String
    var stationCode: String
    var celsius: Double
    static let tableName = "readings"
    enum CodingKeys: String, CodingKey {
        case id, network, celsius
        case stationCode = "station_code"
    }
}

private struct StationWithReadings: Decodable, Equatable {
    var station: Station
    var readings: [Reading]
}

/// Associations whose foreign key is several columns (a parent with a composite key) or refers to a UNIQUE
/// key: eager loads, joins, requests and saves, on GeoNames' cities and their admin1 regions, and errors
/// that name both tables and their columns when the columns do not match the parent's key.
final class AssociationCompositeKeyTests: XCTestCase {
    private var queue: DatabaseQueue!

    override func setUpWithError() throws {
        queue = try DatabaseQueue()
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/CountriesCities/Resources")
        let cities = try Self.csvRows(url.appendingPathComponent("cities15000.csv"))
        let countries = try Self.csvRows(url.appendingPathComponent("countries.csv"))
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE countries (id INTEGER PRIMARY KEY, iso TEXT NOT NULL UNIQUE, name TEXT NOT NULL);
                    CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country_code TEXT NOT NULL,
                        admin1_code TEXT, population INTEGER NOT NULL);
                    CREATE INDEX cities_region ON cities (country_code, admin1_code);
                    CREATE TABLE regions (country_code TEXT NOT NULL, admin1_code TEXT NOT NULL,
                        city_count INTEGER NOT NULL, PRIMARY KEY (country_code, admin1_code)) WITHOUT ROWID;
                    CREATE TABLE region_seats (id INTEGER PRIMARY KEY, country_code TEXT NOT NULL,
                        admin1_code TEXT NOT NULL, city_name TEXT NOT NULL, UNIQUE (country_code, admin1_code));
                    """)
            for row in countries {
                try db.execute(
                    sql: "INSERT INTO countries (id, iso, name) VALUES (?, ?, ?)",
                    arguments: [Int64(row["geonameid"]!)!, row["iso"]!, row["name"]!])
            }
            for row in cities {
                let admin1 = row["admin1code"]!
                try db.execute(
                    sql: "INSERT INTO cities VALUES (?, ?, ?, ?, ?)",
                    arguments: [
                        Int64(row["geonameid"]!)!, row["name"]!, row["countrycode"]!, admin1.isEmpty ? nil : admin1,
                        Int64(row["population"]!)!,
                    ])
            }
            // Every region that has a city, and its largest city as its seat (ties by the smaller id).
            try db.execute(
                sql: """
                    INSERT INTO regions SELECT country_code, admin1_code, count(*) FROM cities
                        WHERE admin1_code IS NOT NULL GROUP BY country_code, admin1_code;
                    INSERT INTO region_seats (country_code, admin1_code, city_name)
                        SELECT country_code, admin1_code, name FROM (SELECT *, row_number() OVER (PARTITION BY
                        country_code, admin1_code ORDER BY population DESC, id) AS rank FROM cities
                        WHERE admin1_code IS NOT NULL) WHERE rank = 1 AND country_code IN ('CH', 'AD');
                    """)
        }
    }

    override func tearDown() {
        queue = nil
    }

    /// The rows of a GeoNames CSV file (quoted fields may hold commas; lines end in CRLF), by header.
    private static func csvRows(_ url: URL) throws -> [[String: String]] {
        let text = try String(contentsOf: url, encoding: .utf8)
        var lines = text.split(whereSeparator: \.isNewline).map(String.init)
        let header = fields(lines.removeFirst())
        return lines.map { Dictionary(uniqueKeysWithValues: zip(header, fields($0))) }
    }

    private static func fields(_ line: String) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var previous: Character?
        for character in line {
            if character == "\"" {
                if quoted && previous == "\"" { field.append("\"") }
                quoted.toggle()
            } else if character == "," && !quoted {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
            previous = character
        }
        fields.append(field)
        return fields
    }

    /// What `body` returns, with the SELECT statements its second run made: the first reads the schema, so
    /// the log holds the request's own statements.
    private static func selects<T>(_ db: Database, _ body: () throws -> T) throws -> (T, [String]) {
        _ = try body()
        return try SelectLog.logging(db, body)
    }

    // MARK: Eager loads

    func testEagerLoadOfEveryRegionWithItsLargestCitiesMatchesPlainSQL() throws {
        let request = Region.order(Column("country_code").ascending, Column("admin1_code").ascending)
            .including(all: Region.cities.order(Column("population").descending, Column("id").ascending).limit(3))
        let (loaded, statements) = try queue.read { db in
            try Self.selects(db) { try request.fetch(db, as: RegionWithCities.self) }
        }
        XCTAssertEqual(loaded.count, 2_788)
        XCTAssertEqual(statements.count, 2, "one query for the regions, one for all their cities")
        XCTAssertEqual(statements[0], #"SELECT * FROM "regions" ORDER BY "country_code" ASC, "admin1_code" ASC"#)
        let rows = repeatElement("(?, ?)", count: 2_788).joined(separator: ", ")
        let expectedSQL =
            #"SELECT * FROM "cities" WHERE (("country_code", "admin1_code") IN (VALUES "# + rows
            + #")) ORDER BY "population" DESC, "id" ASC"#
        XCTAssertTrue(statements[1] == expectedSQL, "…" + String(statements[1].suffix(80)))
        let california = try XCTUnwrap(loaded.first { $0.region.countryCode == "US" && $0.region.admin1Code == "CA" })
        XCTAssertEqual(california.region.cityCount, 452)
        XCTAssertEqual(california.cities.map(\.name), ["Los Angeles", "San Diego", "San Jose"])
        XCTAssertEqual(california.cities.map(\.population), [3_820_914, 1_404_452, 997_368])
        // Every region's three largest cities, as plain SQL ranks them.
        let expected = try queue.read { db in
            try db.fetchAll(
                sql: """
                    SELECT country_code, admin1_code, group_concat(id, ',') FROM (SELECT *, row_number() OVER
                        (PARTITION BY country_code, admin1_code ORDER BY population DESC, id) AS rank FROM cities
                        WHERE admin1_code IS NOT NULL ORDER BY country_code, admin1_code, rank)
                    WHERE rank <= 3 GROUP BY country_code, admin1_code ORDER BY country_code, admin1_code
                    """
            ).map { row in try "\(row[0, as: String.self]) \(row[1, as: String.self]) \(row[2, as: String.self])" }
        }
        XCTAssertEqual(
            loaded.map {
                "\($0.region.countryCode) \($0.region.admin1Code) "
                    + $0.cities.map { "\($0.id!)" }.joined(separator: ",")
            },
            expected)
    }

    func testEagerLoadOfTwoCompositeAssociationsRunsOneQueryMore() throws {
        let request = Region.filter(Column("country_code") == "AD").order(Column("admin1_code").ascending)
            .including(all: Region.cities.order(Column("name").ascending))
            .including(all: Region.hasMany(RegionSeat.self, key: "seats", using: ["country_code", "admin1_code"]))
        let (loaded, statements) = try queue.read { db in
            try Self.selects(db) { try request.fetch(db, as: RegionWithCitiesAndSeats.self) }
        }
        XCTAssertEqual(statements.count, 3)
        XCTAssertEqual(
            statements[2],
            #"SELECT * FROM "region_seats" WHERE (("country_code", "admin1_code") IN (VALUES (?, ?), (?, ?)))"#)
        XCTAssertEqual(loaded.map(\.region.admin1Code), ["07", "08"])
        XCTAssertEqual(loaded.map { $0.cities.map(\.name) }, [["Andorra la Vella"], ["les Escaldes"]])
        XCTAssertEqual(loaded.map { $0.seats.map(\.cityName) }, [["Andorra la Vella"], ["les Escaldes"]])
    }

    /// 40,000 stations of 4 networks, station i with i % 3 readings: 39,999 readings in all.
    private static func makeStations() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE stations (network TEXT NOT NULL, code INTEGER NOT NULL, name TEXT NOT NULL,
                        PRIMARY KEY (network, code)) WITHOUT ROWID;
                    CREATE TABLE readings (id INTEGER PRIMARY KEY, network TEXT NOT NULL,
                        station_code INTEGER NOT NULL, day TEXT NOT NULL, celsius REAL NOT NULL);
                    CREATE INDEX readings_station ON readings (network, station_code);
                    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 39999)
                    INSERT INTO stations SELECT 'net' || (i % 4), i / 4, 'station ' || i FROM n;
                    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 39999),
                        d(k) AS (VALUES (1), (2))
                    INSERT INTO readings (network, station_code, day, celsius)
                        SELECT 'net' || (i % 4), i / 4, '2024-01-0' || k, i / 10.0 + k FROM n, d WHERE k <= i % 3;
                    """)
        }
        return queue
    }

    /// Loads every station with its readings under a bound-value limit of `limit` (nil: the connection's
    /// own), and checks the statements (`rowsPerStatement` stations each) and the readings of a few stations.
    private func checkLoadOfFortyThousandStations(limit: Int32?, rowsPerStatement: Int) throws {
        let queue = try Self.makeStations()
        let (loaded, statements) = try queue.read { db in
            let original = limit.map { sqlite3_limit(db.handle, SQLITE_LIMIT_VARIABLE_NUMBER, $0) }
            defer { original.map { _ = sqlite3_limit(db.handle, SQLITE_LIMIT_VARIABLE_NUMBER, $0) } }
            return try Self.selects(db) {
                try Station.order(Column("network").ascending, Column("code").ascending)
                    .including(all: Station.readings.order(Column("day").ascending))
                    .fetch(db, as: StationWithReadings.self)
            }
        }
        XCTAssertEqual(loaded.count, 40_000)
        XCTAssertEqual(loaded.reduce(0) { $0 + $1.readings.count }, 39_999)
        let chunks = (40_000 + rowsPerStatement - 1) / rowsPerStatement
        XCTAssertEqual(statements.count, 1 + chunks)
        for (index, sql) in statements.dropFirst().enumerated() {
            let rows = index < chunks - 1 ? rowsPerStatement : 40_000 - rowsPerStatement * (chunks - 1)
            let expectedSQL =
                #"SELECT * FROM "readings" WHERE (("network", "station_code") IN (VALUES "#
                + repeatElement("(?, ?)", count: rows).joined(separator: ", ") + #")) ORDER BY "day" ASC"#
            XCTAssertTrue(sql == expectedSQL, "statement \(index + 1) of \(chunks): …" + String(sql.suffix(80)))
        }
        // i = 4997 is net1 1249, with 4997 % 3 = 2 readings; i = 4998 is net2 1249, with none.
        let net1 = try XCTUnwrap(loaded.first { $0.station.network == "net1" && $0.station.code == 1249 })
        XCTAssertEqual(net1.station.name, "station 4997")
        XCTAssertEqual(net1.readings.map(\.day), ["2024-01-01", "2024-01-02"])
        XCTAssertEqual(net1.readings.map(\.celsius), [500.7, 501.7])
        XCTAssertEqual(loaded.first { $0.station.network == "net2" && $0.station.code == 1249 }?.readings, [])
        // The last chunk: i = 39998 is net2 9999 with 2 readings.
        let last = try XCTUnwrap(loaded.first { $0.station.network == "net2" && $0.station.code == 9999 })
        XCTAssertEqual(last.readings.map(\.celsius), [4000.8, 4001.8])
        // Every station's readings, as plain SQL counts them.
        let counts = try queue.read { db in
            try db.fetchAll(
                sql:
                    "SELECT count(*) FROM stations s JOIN readings r ON r.network = s.network AND r.station_code = s.code GROUP BY s.network, s.code HAVING count(*) = 2"
            )
        }
        XCTAssertEqual(loaded.filter { $0.readings.count == 2 }.count, counts.count)
    }

    func testEagerLoadOfFortyThousandParentsStaysWithinTheBoundValueLimit() throws {
        // Two values a station, at most 32,766 values a statement (SQLite 3.40's default limit).
        try checkLoadOfFortyThousandStations(limit: nil, rowsPerStatement: 16_383)
    }

    func testEagerLoadFollowsTheConnectionsLowerBoundValueLimit() throws {
        // 999, the default of SQLite builds before 3.32.
        try checkLoadOfFortyThousandStations(limit: 999, rowsPerStatement: 499)
    }

    func testChildrenWhoseForeignKeyColumnStoresTheKeyAsTextAreUnderTheirParent() throws {
        // A readings table of another tool that declares the station code TEXT: SQLite stores and matches the
        // integer code 12 as '12' there, and the readings come under station 12.
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE stations (network TEXT NOT NULL, code INTEGER NOT NULL, name TEXT NOT NULL,
                        PRIMARY KEY (network, code)) WITHOUT ROWID;
                    CREATE TABLE readings (id INTEGER PRIMARY KEY, network TEXT NOT NULL, station_code TEXT NOT NULL,
                        day TEXT NOT NULL, celsius REAL NOT NULL);
                    INSERT INTO stations VALUES ('wmo', 12, 'Zürich-Fluntern'), ('wmo', 120, 'Basel-Binningen');
                    INSERT INTO readings VALUES (1, 'wmo', '12', '2024-01-01', 1.5), (2, 'wmo', 120, '2024-01-01', 2.5),
                        (3, 'wmo', '012', '2024-01-02', 9.5);
                    """)
        }
        let loaded = try queue.read { db in
            try Station.order(Column("code").ascending)
                .including(all: Station.hasMany(TextCodedReading.self, using: ["network", "station_code"]))
                .fetchGroups(db)
        }
        XCTAssertEqual(loaded.map(\.0.name), ["Zürich-Fluntern", "Basel-Binningen"])
        // '012' is not the text SQLite makes of the bound 12, so it matches no station, as a request for one
        // station's readings with the key bound finds them.
        XCTAssertEqual(loaded.map { $0.1.map(\.celsius) }, [[1.5], [2.5]])
        let plain = try queue.read { db in
            try [12, 120].map { code in
                try db.fetchAll(
                    sql: "SELECT id FROM readings WHERE network = ? AND station_code = ? ORDER BY id",
                    arguments: ["wmo", code]
                ).map { try $0[0, as: Int.self] }
            }
        }
        XCTAssertEqual(plain, [[1], [2]])
    }

    // MARK: Joins

    func testJoinedFetchMatchesEveryColumnOfTheKey() throws {
        let request = GeoCity.filter(Column("country_code") == "CH" && Column("population") > 100_000)
            .order(Column("population").descending).including(required: GeoCity.region)
        let (rows, statements) = try queue.read { db in
            try Self.selects(db) { try request.fetch(db, as: CityWithRegion.self) }
        }
        XCTAssertEqual(
            statements,
            [
                ##"SELECT "cities".*, "regions"."country_code" AS "#region", "regions".* FROM "cities" LEFT JOIN "##
                    + #""regions" ON "cities"."country_code" = "regions"."country_code" AND "cities"."admin1_code" = "#
                    + #""regions"."admin1_code" WHERE "cities"."country_code" = ? AND "cities"."population" > ? "#
                    + #"ORDER BY "cities"."population" DESC"#
            ])
        XCTAssertEqual(
            rows.map { "\($0.geoCity.name) \($0.region.admin1Code) \($0.region.cityCount)" },
            ["Zürich ZH 34", "Geneva GE 6", "Basel BS 2", "Lausanne VD 8", "Bern BE 6", "Winterthur ZH 34"])
    }

    func testARequiredRegionThatNoRowHoldsIsAnErrorNamingBothColumns() throws {
        try queue.write { db in
            try db.execute(sql: "INSERT INTO cities VALUES (1, 'Atlantis', 'CH', 'ZZ', 20000)")
        }
        XCTAssertThrowsError(
            try queue.read { db in
                try GeoCity.filter(Column("id") == 1).including(required: GeoCity.region).fetchPairs(db)
            }
        ) { error in
            XCTAssertEqual(
                "\(error)",
                #"A row of table "cities" has "country_code, admin1_code" = (TEXT 'CH', TEXT 'ZZ'), which matches "#
                    + #"no row of table "regions": the parent is missing (use including(optional:) to fetch it as nil)"#
            )
        }
        let optional = try queue.read { db in
            try GeoCity.filter(Column("id") == 1).including(optional: GeoCity.region).fetchPairs(db)
        }
        XCTAssertEqual(optional.map(\.1), [nil])
    }

    func testHasOneOverACompositeKey() throws {
        let request = Region.filter(Column("country_code") == "AD" || Column("admin1_code") == "ZH")
            .order(Column("country_code").ascending, Column("admin1_code").ascending)
            .including(optional: Region.seat)
        let (rows, statements) = try queue.read { db in
            try Self.selects(db) { try request.fetch(db, as: RegionWithSeat.self) }
        }
        XCTAssertEqual(
            statements.first,
            ##"SELECT "regions".*, "region_seats"."country_code" AS "#regionSeat", "region_seats".* FROM "regions" "##
                + #"LEFT JOIN "region_seats" ON "region_seats"."country_code" = "regions"."country_code" AND "#
                + #""region_seats"."admin1_code" = "regions"."admin1_code" WHERE "regions"."country_code" = ? OR "#
                + #""regions"."admin1_code" = ? ORDER BY "regions"."country_code" ASC, "regions"."admin1_code" ASC"#)
        XCTAssertEqual(
            rows.map { "\($0.region.countryCode) \($0.region.admin1Code) \($0.regionSeat?.cityName ?? "-")" },
            ["AD 07 Andorra la Vella", "AD 08 les Escaldes", "CH ZH Zürich"])
        let withSeat = try queue.read { db in
            try Region.filter(Region.seat.exists).order(
                Column("country_code").ascending, Column("admin1_code").ascending
            )
            .fetch(db).map { "\($0.countryCode) \($0.admin1Code)" }
        }
        let cantons = try queue.read { db in try Region.count(db, where: ["country_code": "CH"]) }
        XCTAssertEqual(withSeat.count, 2 + cantons)
        XCTAssertEqual(withSeat.prefix(3), ["AD 07", "AD 08", "CH AG"])
    }

    // MARK: Requests

    func testARegionsCitiesAndACitysRegionAsRequests() throws {
        let zurich = Region(countryCode: "CH", admin1Code: "ZH", cityCount: 34)
        let (names, statements) = try queue.read { db in
            try Self.selects(db) {
                try zurich.request(for: Region.cities).order(Column("population").descending).limit(3).fetch(db)
                    .map(\.name)
            }
        }
        XCTAssertEqual(names, ["Zürich", "Winterthur", "Zürich (Kreis 11)"])
        XCTAssertEqual(
            statements,
            [
                #"SELECT * FROM "cities" WHERE "country_code" = ? AND "admin1_code" = ? "#
                    + #"ORDER BY "population" DESC LIMIT ?"#
            ])
        let city = try XCTUnwrap(try queue.read { db in try GeoCity.fetchOne(db, id: 2_657_896) })
        XCTAssertEqual(city.name, "Zürich")
        let (region, regionStatements) = try queue.read { db in
            try Self.selects(db) { try city.request(for: GeoCity.region).fetchOne(db) }
        }
        XCTAssertEqual(region, zurich)
        XCTAssertEqual(
            regionStatements,
            [#"SELECT * FROM "regions" WHERE "country_code" = ? AND "admin1_code" = ? LIMIT ?"#])
        // A city with no admin1 code belongs to no region.
        var loose = city
        loose.admin1Code = nil
        XCTAssertNil(try queue.read { db in try loose.request(for: GeoCity.region).fetchOne(db) })
        XCTAssertEqual(try queue.read { db in try zurich.request(for: Region.seat).fetchOne(db)?.cityName }, "Zürich")
    }

    func testAUniqueKeyThatIsNotThePrimaryKey() throws {
        let request = GeoCountry.filter(Column("iso") == "AD" || Column("iso") == "LI").order(Column("iso").ascending)
            .including(all: GeoCountry.cities.order(Column("name").ascending))
        let (loaded, statements) = try queue.read { db in
            try Self.selects(db) { try request.fetch(db, as: CountryWithCities.self) }
        }
        XCTAssertEqual(statements.last, #"SELECT * FROM "cities" WHERE "country_code" IN (?, ?) ORDER BY "name" ASC"#)
        XCTAssertEqual(loaded.map(\.geoCountry.name), ["Andorra", "Liechtenstein"])
        XCTAssertEqual(loaded.map { $0.cities.map(\.name) }, [["Andorra la Vella", "les Escaldes"], ["Vaduz"]])
        let andorra = loaded[0].geoCountry
        XCTAssertEqual(
            try queue.read { db in try andorra.request(for: GeoCountry.cities).count(db) }, 2)
    }

    // MARK: Saves

    func testSavingARegionWithItsCitiesSetsBothForeignKeyColumns() throws {
        // The Pitcairn Islands, whose one settlement GeoNames' cities15000 leaves out.
        var region = Region(countryCode: "PN", admin1Code: "00", cityCount: 1)
        var cities = [
            GeoCity(id: 4_030_723, name: "Adamstown", countryCode: "", admin1Code: nil, population: 46),
            GeoCity(id: nil, name: "Bounty Bay", countryCode: "", admin1Code: nil, population: 0),
        ]
        try queue.write { db in try region.save(db, children: &cities) }
        XCTAssertEqual(cities.map(\.countryCode), ["PN", "PN"])
        XCTAssertEqual(cities.map(\.admin1Code), ["00", "00"])
        let stored = try queue.read { db in
            try db.fetchAll(
                sql: "SELECT name, country_code, admin1_code FROM cities WHERE country_code = 'PN' ORDER BY name"
            ).map { try "\($0[0, as: String.self]) \($0[1, as: String.self]) \($0[2, as: String.self])" }
        }
        XCTAssertEqual(stored, ["Adamstown PN 00", "Bounty Bay PN 00"])
        let reloaded = try queue.read { db in
            try Region.filter(Column("country_code") == "PN").including(
                all: Region.cities.order(Column("name").ascending)
            )
            .fetchGroups(db)
        }
        XCTAssertEqual(reloaded.map(\.0), [region])
        XCTAssertEqual(reloaded.map { $0.1 }, [cities])
    }

    func testCreateTableWritesTheCompositeForeignKeyAndValidateSchemaChecksIt() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try Region.createTable(in: db)
            try GeoCity.createTable(in: db)
        }
        let schema = try queue.read { db in
            try db.fetchAll(sql: "SELECT sql FROM sqlite_master WHERE tbl_name = 'cities' ORDER BY type DESC, name")
                .map { try $0[0, as: String.self] }
        }
        XCTAssertEqual(
            schema,
            [
                #"CREATE TABLE "cities" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "population" INTEGER NOT NULL, "#
                    + #""country_code" TEXT NOT NULL, "admin1_code" TEXT, FOREIGN KEY ("country_code", "admin1_code") "#
                    + #"REFERENCES "regions" ("country_code", "admin1_code"))"#,
                #"CREATE INDEX "cities_country_code_admin1_code" ON "cities" ("country_code", "admin1_code")"#,
            ])
        try queue.read { db in try GeoCity.validateSchema(in: db) }
        // SQLite enforces it: a city of a region no row holds is refused, and nothing is written.
        XCTAssertThrowsError(
            try queue.write { db in
                var city = GeoCity(id: nil, name: "Atlantis", countryCode: "CH", admin1Code: "ZZ", population: 20_000)
                try city.save(db)
            })
        XCTAssertEqual(try queue.read { db in try GeoCity.count(db) }, 0)
        // A table whose foreign key covers one of the two columns does not match the declaration.
        try queue.write { db in
            try db.execute(
                sql: """
                    DROP TABLE cities;
                    CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country_code TEXT NOT NULL
                        REFERENCES regions (country_code), admin1_code TEXT, population INTEGER NOT NULL);
                    """)
        }
        XCTAssertThrowsError(try queue.read { db in try GeoCity.validateSchema(in: db) }) { error in
            XCTAssertTrue(
                "\(error)".contains(#"REFERENCES "regions"("country_code", "admin1_code")"#), "\(error)")
        }
    }

    // MARK: Columns that do not match the parent's key

    private func makeUnits() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE measure_units (auth_name TEXT NOT NULL, code TEXT NOT NULL, name TEXT NOT NULL,
                        PRIMARY KEY (auth_name, code)) WITHOUT ROWID;
                    CREATE TABLE conversions (id INTEGER PRIMARY KEY, unit_auth_name TEXT, unit_code TEXT,
                        factor REAL NOT NULL);
                    INSERT INTO measure_units VALUES ('EPSG', '9001', 'metre'), ('EPSG', '9002', 'foot');
                    INSERT INTO conversions VALUES (1, 'EPSG', '9001', 1.0), (2, 'EPSG', '9002', 0.3048);
                    """)
        }
        return queue
    }

    func testOneForeignKeyColumnForAKeyOfTwoIsAnErrorNamingBothTablesAndTheirColumns() throws {
        let queue = try makeUnits()
        let (result, statements) = try queue.read { db in
            SelectLog.logging(db) {
                Result { try Conversion.all().including(required: Conversion.unitByOneColumn).fetchPairs(db) }
            }
        }
        XCTAssertThrowsError(try result.get()) { error in
            XCTAssertEqual(
                "\(error)",
                #"Association Conversion.belongsTo(MeasureUnit) "measureUnit": "conversions" ("unit_code") -> "#
                    + #""measure_units" ("auth_name", "code"): the foreign key has 1 column ("unit_code") of table "#
                    + #""conversions" and the key of table "measure_units" has 2 columns ("auth_name", "code"): name "#
                    + "one foreign key column for each key column, in key order, with `using: [...]`")
        }
        XCTAssertEqual(statements, [], "nothing runs before the association is checked")
        let units = MeasureUnit.hasMany(Conversion.self, using: "unit_code")
        XCTAssertThrowsError(try queue.read { db in try MeasureUnit.including(all: units).fetchGroups(db) }) { error in
            XCTAssertEqual(
                "\(error)",
                #"Association MeasureUnit.hasMany(Conversion) "conversions": "conversions" ("unit_code") -> "#
                    + #""measure_units" ("auth_name", "code"): the foreign key has 1 column ("unit_code") of table "#
                    + #""conversions" and the key of table "measure_units" has 2 columns ("auth_name", "code"): name "#
                    + "one foreign key column for each key column, in key order, with `using: [...]`")
        }
    }

    func testParentColumnsThatAreNotAKeyAreAnErrorNamingThem() throws {
        let queue = try makeUnits()
        XCTAssertThrowsError(
            try queue.read { db in try Conversion.all().including(required: Conversion.unitByName).fetchPairs(db) }
        ) { error in
            XCTAssertEqual(
                "\(error)",
                #"Association Conversion.belongsTo(MeasureUnit) "measureUnit": "conversions" ("unit_auth_name", "#
                    + #""unit_code") -> "measure_units" ("auth_name", "name"): the columns ("auth_name", "name") of "#
                    + #"table "measure_units" are neither its primary key (("auth_name", "code")) nor a UNIQUE "#
                    + "constraint, so a foreign key cannot refer to them: name the parent's key columns with "
                    + "`to: [...]`, or declare them UNIQUE")
        }
        XCTAssertThrowsError(
            try queue.read { db in
                try Conversion.all().including(required: Conversion.unitByMisspelledColumn).fetchPairs(db)
            }
        ) { error in
            XCTAssertEqual(
                "\(error)",
                #"Association Conversion.belongsTo(MeasureUnit) "measureUnit": "conversions" ("unit_auth_name", "#
                    + #""unit_cod") -> "measure_units" ("auth_name", "code"): table "conversions" has no column "#
                    + #""unit_cod"; its columns are: "id", "unit_auth_name", "unit_code", "factor" (name the foreign "#
                    + "key with `using:`)")
        }
        // The declaration that matches works.
        let pairs = try queue.read { db in
            try Conversion.order(Column("id").ascending).including(required: Conversion.unit).fetchPairs(db)
        }
        XCTAssertEqual(pairs.map { $0.1?.name }, ["metre", "foot"])
    }
}
