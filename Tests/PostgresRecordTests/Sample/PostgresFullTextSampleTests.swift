#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

@testable import CountriesCities

/// The same GeoNames names in an FTS5 index and in a PostgreSQL `tsvector` index: the searches of the
/// SQLite full-text tests, and others, find the same cities on both engines.
final class PostgresFullTextSampleTests: PostgresTestCase {
    struct SampleCity: Record, FullTextSearchable, Equatable, Sendable {
        var id: Int64?
        var name: String
        var countryCode: String
        static let tableName = "cities"
        static let fullTextIndex = FullTextIndex(columns: ["name"])
        enum CodingKeys: String, CodingKey {
            case id, name
            case countryCode = "country_code"
        }
    }

    /// The countries whose cities are loaded: 5,604 of the sample's 34,006, names with accents, umlauts,
    /// hyphens and apostrophes.
    static let countries: Set<String> = ["AR", "BR", "CH", "CO", "DE", "ES", "MX"]

    static func cities() throws -> [SampleCity] {
        let table = try CSVReader.read(
            contentsOf: PostgresSampleTests.resources.appendingPathComponent("cities15000.csv"))
        let id = try table.index(of: "geonameid")
        let name = try table.index(of: "name")
        let code = try table.index(of: "countrycode")
        return table.records.compactMap { record in
            guard countries.contains(record.fields[code]), let geonameID = Int64(record.fields[id]) else { return nil }
            return SampleCity(id: geonameID, name: record.fields[name], countryCode: record.fields[code])
        }
    }

    private var sqlite: DatabaseQueue!

    override func setUpWithError() throws {
        try super.setUpWithError()
        var cities = try Self.cities()
        XCTAssertEqual(cities.count, 5_604)
        var migrator = DatabaseMigrator<PostgresConnection>()
        migrator.registerMigration("cities") { connection in try SampleCity.createTable(in: connection) }
        migrator.registerFullTextIndex("index cities", for: SampleCity.self)
        try migrator.migrate(connection)
        try SampleCity.insertAll(connection, &cities)
        sqlite = try DatabaseQueue()
        var sqliteMigrator = DatabaseMigrator()
        sqliteMigrator.registerMigration("cities") { db in try SampleCity.createTable(in: db) }
        sqliteMigrator.registerFullTextIndex("index cities", for: SampleCity.self)
        try sqliteMigrator.migrate(sqlite)
        try sqlite.write { db in for var city in cities { try city.insert(db) } }
    }

    private func both(_ request: QueryInterfaceRequest<SampleCity>) throws -> (sqlite: [String], postgres: [String]) {
        let label = { (city: SampleCity) in city.name + " " + city.countryCode }
        return (try sqlite.read { db in try request.fetch(db) }.map(label), try request.fetch(connection).map(label))
    }

    /// Ordered by rank, then id (ties are in no set order on either engine).
    private func ranked(_ request: QueryInterfaceRequest<SampleCity>) -> QueryInterfaceRequest<SampleCity> {
        request.order(SQLExpression.fullTextRank, Column("id"))
    }

    func testTheSQLiteTestsSearchesFindTheSameCitiesInTheSameOrder() throws {
        // The words of SQLiteRecord's FullTextSearchRequestTests and HostileSearchTextTests, and names whose
        // accents, umlauts and cedillas fold, or whose words repeat little: one word, or words each once in
        // a name, ranked alike by bm25 and ts_rank (shorter names first).
        let queries = [
            "sao paulo", "Sao Paulo", "São Paulo", "BOGOTA", "cordoba", "lima", "\"São", "paulo\"", "near", "NEAR(",
            "priego", "AND", "zurich", "ZÜRICH", "munchen", "münchen", "frankfurt am main", "santa cruz", "sankt",
            "villa", "rio", "santa", "jose", "maria", "joao", "sao jose", "leon", "zaragoza", "iguacu",
            "espirito santo", "araçatuba", "araca", "koln", "dusseldorf", "nurnberg", "medellin", "cucuta", "coruna",
        ]
        for text in queries {
            let found = try both(ranked(SampleCity.search(text)))
            XCTAssertEqual(found.postgres, found.sqlite, text)
        }
        XCTAssertEqual(try both(ranked(SampleCity.search("Sao Paulo"))).postgres.first, "São Paulo BR")
        XCTAssertEqual(try both(ranked(SampleCity.search("zurich"))).postgres.first, "Zürich CH")
        XCTAssertEqual(try both(SampleCity.search("cordoba")).postgres.count, 4)
        XCTAssertEqual(try both(SampleCity.search("sao paulo")).postgres.count, 3)
    }

    func testPrefixAndAnyWordPatternsFindTheSameCities() throws {
        let queries = [
            "sao paulo", "zur", "bogo", "cord", "prieg cord", "san jo", "la", "de", "bad", "st", "mün", "nue", "l",
            "hospitalet", "villa", "rio", "santa cruz", "foz do iguacu", "campina grande",
        ]
        for text in queries {
            let prefixes = try both(SampleCity.matching(FTS5Pattern(matchingAllPrefixesIn: text)))
            XCTAssertEqual(prefixes.postgres.sorted(), prefixes.sqlite.sorted(), text)
            let any = try both(SampleCity.matching(FTS5Pattern(matchingAnyTokenIn: text)))
            XCTAssertEqual(any.postgres.sorted(), any.sqlite.sorted(), text)
        }
        XCTAssertEqual(try both(SampleCity.matching(FTS5Pattern(matchingAnyTokenIn: "foz do iguacu"))).postgres.count, 211)
    }

    /// Where the two orders differ: bm25 counts a repeated word with saturation, against the average name
    /// length, where ts_rank divides by 1 + the log of the name's positions (a hyphenated word is three
    /// positions to PostgreSQL's parser, two tokens to FTS5's). The cities found are the same.
    func testWordsRepeatedInNamesFindTheSameCitiesRankedOtherwise() throws {
        for text in ["de", "la", "san", "san jose", "bad"] {
            let found = try both(ranked(SampleCity.search(text)))
            XCTAssertEqual(found.postgres.sorted(), found.sqlite.sorted(), text)
        }
        let de = try both(ranked(SampleCity.search("de")))
        XCTAssertEqual(de.sqlite.count, 369)
        XCTAssertEqual(de.sqlite.first, "Ciudad de Huajuapan de León MX")
        XCTAssertEqual(de.postgres.first, "Sanlúcar de Barrameda ES")
    }

    /// Where the two tokenizers split a name otherwise: PostgreSQL's parser reads `Biel/Bienne` as one
    /// file-path token, and, in a database of the C locale, `’` (U+2019) as a letter inside a word; FTS5's
    /// unicode61 splits at both.
    func testNamesThePostgreSQLParserReadsAsOneTokenDiffer() throws {
        let biel = try both(SampleCity.search("biel"))
        XCTAssertEqual(biel.sqlite, ["Biel/Bienne CH"])
        XCTAssertEqual(biel.postgres, [])
        XCTAssertEqual(try both(SampleCity.search("biel/bienne")).postgres, ["Biel/Bienne CH"])
        let neustadt = try both(SampleCity.search("neustadt"))
        XCTAssertEqual(
            Set(neustadt.sqlite).subtracting(neustadt.postgres).sorted(), ["Neustadt/Nord DE", "Neustadt/Süd DE"])
        XCTAssertEqual(Set(neustadt.postgres).subtracting(neustadt.sqlite), [])
        let agua = try both(SampleCity.search("d"))
        XCTAssertEqual(Set(agua.sqlite).subtracting(agua.postgres).sorted(), ["Olho d’Água das Cunhãs BR"])
    }
}
#endif
