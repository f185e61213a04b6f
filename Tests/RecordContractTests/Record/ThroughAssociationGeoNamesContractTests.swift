import Foundation
import SQLiteRecord
import XCTest

/// Through associations on GeoNames' real countries and cities: each country's neighbours (a many-to-many
/// of the countries table with itself, through a pivot of borders keyed by ISO code, in the order GeoNames
/// lists them) and each large city's continent (through its country), checked against answers worked out
/// from the CSV files alone, on every engine.
final class ThroughAssociationGeoNamesContractTests: RecordContractTestCase {
    struct Continent: Record, Equatable, Sendable {
        var id: String
        var name: String
        static let tableName = "continents"
    }

    struct Country: Record, Equatable, Sendable {
        var id: Int64?
        var iso: String
        var name: String
        var continentCode: String?
        static let tableName = "countries"
        static let tableDefinition = TableDefinition().unique(CodingKeys.iso)
        enum CodingKeys: String, CodingKey {
            case id, iso, name
            case continentCode = "continent_code"
        }
        static let continent = belongsTo(Continent.self, using: "continent_code")
        static let borders = hasMany(Border.self, using: ["country_iso"], to: ["iso"]).order(Column("position"))
        static let neighbours = hasMany(Country.self, key: "neighbours", through: borders, using: Border.neighbour)
    }

    /// The pivot: one of a country's neighbours, at its place in GeoNames' list.
    struct Border: Record, Equatable, Sendable {
        var id: Int64?
        var countryIso: String
        var neighbourIso: String
        var position: Int
        static let tableName = "borders"
        enum CodingKeys: String, CodingKey {
            case id, position
            case countryIso = "country_iso"
            case neighbourIso = "neighbour_iso"
        }
        static let neighbour = belongsTo(Country.self, key: "neighbour", using: ["neighbour_iso"], to: ["iso"])
    }

    struct City: Record, Equatable, Sendable {
        var id: Int64?
        var name: String
        var countryCode: String
        var population: Int64
        static let tableName = "cities"
        enum CodingKeys: String, CodingKey {
            case id, name, population
            case countryCode = "country_code"
        }
        static let country = belongsTo(Country.self, using: ["country_code"], to: ["iso"])
        static let continent = hasOne(Continent.self, through: country, using: Country.continent)
    }

    struct CountryWithNeighbours: Decodable, Sendable {
        var country: Country
        var neighbours: [Country]
    }

    struct CityWithContinent: Decodable, Sendable {
        var city: City
        var continent: Continent?
    }

    struct CityWithRequiredContinent: Decodable, Sendable {
        var city: City
        var continent: Continent
    }

    private static let continentNames = [
        "AF": "Africa", "AN": "Antarctica", "AS": "Asia", "EU": "Europe", "NA": "North America", "OC": "Oceania",
        "SA": "South America",
    ]

    /// The CSV rows of the countries and of the cities of more than ten million people, read once.
    private static func rows() throws -> (countries: [[String: String]], cities: [[String: String]]) {
        try parsedRows.get()
    }

    private static let parsedRows = Result { () throws -> ([[String: String]], [[String: String]]) in
        let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "Examples/CountriesCities/Resources")
        let countries = try csvRows(resources.appendingPathComponent("countries.csv")) { _ in true }
        // Population is the seventh field; a line of fewer than eight digits there (under ten million) is left unparsed.
        let cities = try csvRows(resources.appendingPathComponent("cities15000.csv")) { line in
            line.contains("\"")
                || line.split(separator: ",", omittingEmptySubsequences: false).dropFirst(6).first.map { $0.count >= 8 }
                    ?? true
        }.filter { Int64($0["population"] ?? "") ?? 0 > 10_000_000 }
        return (countries, cities)
    }

    /// Every continent, country, border and city of more than ten million people, as GeoNames lists them;
    /// Antarctica's countries keep their continent, and a border to a code no country has stays in the pivot.
    private func load(
        _ engine: any ContractEngine
    ) throws -> (countries: [[String: String]], cities: [[String: String]]) {
        let (countries, cities) = try Self.rows()
        for type in [Continent.self, Country.self, Border.self, City.self] as [any Record.Type] {
            try engine.createTable(type)
        }
        try engine.write { db in
            for (code, name) in Self.continentNames.sorted(by: { $0.key < $1.key }) {
                var continent = Continent(id: code, name: name)
                try continent.insert(db)
            }
            for row in countries {
                var country = Country(
                    id: Int64(row["geonameid"]!), iso: row["iso"]!, name: row["name"]!,
                    continentCode: row["continentcode"]!.isEmpty ? nil : row["continentcode"])
                try country.insert(db)
                for (position, neighbour) in Self.neighbourCodes(row).enumerated() {
                    var border = Border(id: nil, countryIso: row["iso"]!, neighbourIso: neighbour, position: position)
                    try border.insert(db)
                }
            }
            for row in cities {
                var city = City(
                    id: Int64(row["geonameid"]!), name: row["name"]!, countryCode: row["countrycode"]!,
                    population: Int64(row["population"]!)!)
                try city.insert(db)
            }
        }
        return (countries, cities)
    }

    private static func neighbourCodes(_ row: [String: String]) -> [String] {
        (row["neighbours"] ?? "").split(separator: ",").map(String.init)
    }

    func testEveryCountrysNeighboursInGeoNamesOrder() {
        onEachEngine { engine in
            let (countries, _) = try load(engine)
            let nameByISO = Dictionary(uniqueKeysWithValues: countries.map { ($0["iso"]!, $0["name"]!) })
            let tables = ["countries", "borders"]
            _ = try engine.countingSelects(on: tables) { db in
                try Country.including(all: Country.neighbours).fetchGroups(db)
            }
            let (loaded, selects) = try engine.countingSelects(on: tables) { db in
                try Country.order(Column("iso").ascending).including(all: Country.neighbours)
                    .fetch(db, as: CountryWithNeighbours.self)
            }
            XCTAssertEqual(selects, 3)
            XCTAssertEqual(loaded.count, 252)
            let expected = countries.sorted { $0["iso"]! < $1["iso"]! }.map { row in
                Self.neighbourCodes(row).compactMap { nameByISO[$0] }
            }
            XCTAssertEqual(loaded.map { $0.neighbours.map(\.name) }, expected)
            let france = loaded.first { $0.country.iso == "FR" }
            XCTAssertEqual(
                france?.neighbours.map(\.iso), ["CH", "DE", "BE", "LU", "IT", "AD", "MC", "ES"])
            // Namibia's ISO code is "NA", North America's continent code too.
            XCTAssertEqual(
                loaded.first { $0.country.iso == "NA" }?.neighbours.map(\.name),
                ["South Africa", "Botswana", "Zambia", "Angola"])
            XCTAssertEqual(loaded.first { $0.country.iso == "IS" }?.neighbours, [])
        }
    }

    func testCountriesBorderingFranceAndLargeCitiesContinents() {
        onEachEngine { engine in
            let (countries, cities) = try load(engine)
            let bordersFrance = try engine.write { db in
                try Country.filter(Country.neighbours.filter(Column("iso") == "FR").exists)
                    .order(Column("name").ascending).fetch(db)
            }
            XCTAssertEqual(
                bordersFrance.map(\.name),
                countries.filter { Self.neighbourCodes($0).contains("FR") }.map { $0["name"]! }.sorted())
            XCTAssertEqual(bordersFrance.count, 8)

            let continentByISO = Dictionary(uniqueKeysWithValues: countries.map { ($0["iso"]!, $0["continentcode"]!) })
            let expected = cities.sorted { Int64($0["population"]!)! > Int64($1["population"]!)! }.map { row in
                "\(row["name"]!): \(Self.continentNames[continentByISO[row["countrycode"]!] ?? ""] ?? "none")"
            }
            let loaded = try engine.write { db in
                try City.order(Column("population").descending).including(optional: City.continent)
                    .fetch(db, as: CityWithContinent.self)
            }
            XCTAssertEqual(loaded.map { "\($0.city.name): \($0.continent?.name ?? "none")" }, expected)
            XCTAssertEqual(loaded.first.map { "\($0.city.name): \($0.continent?.name ?? "none")" }, "Shanghai: Asia")
            let american = try engine.write { db in
                try City.filter(City.continent.filter(Column("name") == "North America").exists)
                    .order(Column("name").ascending).fetch(db)
            }
            XCTAssertEqual(
                american.map(\.name),
                cities.filter { continentByISO[$0["countrycode"]!] == "NA" }.map { $0["name"]! }.sorted())
        }
    }

    func testACityWhoseCountryIsMissingHasNoContinent() async {
        await onEachEngine { engine in
            _ = try load(engine)
            try engine.write { db in
                var atlantis = City(id: 1, name: "Atlantis", countryCode: "XX", population: 20_000_000)
                try atlantis.insert(db)
            }
            let optional = try await City.filter(Column("population") > 18_000_000).order(Column("name").ascending)
                .including(optional: City.continent).fetch(engine.writer, as: CityWithContinent.self)
            XCTAssertEqual(
                optional.map { "\($0.city.name): \($0.continent?.name ?? "none")" },
                ["Atlantis: none", "Beijing: Asia", "Shanghai: Asia"])
            let required = try await City.filter(Column("population") > 18_000_000).order(Column("name").ascending)
                .including(required: City.continent).fetch(engine.writer, as: CityWithRequiredContinent.self)
            XCTAssertEqual(
                required.map { "\($0.city.name): \($0.continent.name)" }, ["Beijing: Asia", "Shanghai: Asia"])
        }
    }

    /// The rows of a GeoNames CSV file (quoted fields may hold commas; lines end in CRLF), by header.
    private static func csvRows(_ url: URL, keeping wanted: (Substring) -> Bool) throws -> [[String: String]] {
        let text = try String(contentsOf: url, encoding: .utf8)
        var lines = text.split(whereSeparator: \.isNewline)
        let header = fields(String(lines.removeFirst()))
        return lines.filter(wanted).map { Dictionary(uniqueKeysWithValues: zip(header, fields(String($0)))) }
    }

    private static func fields(_ line: String) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        for character in line {
            if character == "\"" {
                quoted.toggle()
            } else if character == "," && !quoted {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }
}
