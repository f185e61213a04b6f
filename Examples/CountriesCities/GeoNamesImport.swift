import Foundation
import SQLiteRecord

/// Builds the sample database from GeoNames' CSV files: the schema, then every country with its cities
/// through `save(children:)`.
enum GeoNamesImport {
    /// The tables the sample uses. `cities.country_id` references `countries.id`, and foreign keys are on,
    /// so a city cannot point at a country that does not exist.
    static let schema = """
        CREATE TABLE countries (
            id INTEGER PRIMARY KEY,
            geoname_id INTEGER NOT NULL UNIQUE,
            iso TEXT NOT NULL UNIQUE,
            iso3 TEXT NOT NULL,
            iso_numeric INTEGER NOT NULL,
            fips TEXT,
            name TEXT NOT NULL,
            capital TEXT,
            area_km2 REAL NOT NULL,
            population INTEGER NOT NULL,
            continent_code TEXT NOT NULL,
            tld TEXT,
            currency_code TEXT,
            currency_name TEXT,
            phone TEXT,
            postal_code_regex TEXT,
            languages TEXT,
            neighbours TEXT
        );
        CREATE TABLE cities (
            id INTEGER PRIMARY KEY,
            country_id INTEGER NOT NULL REFERENCES countries(id),
            geoname_id INTEGER NOT NULL UNIQUE,
            name TEXT NOT NULL,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            country_code TEXT NOT NULL,
            admin1_code TEXT,
            population INTEGER NOT NULL,
            timezone TEXT NOT NULL
        );
        CREATE INDEX cities_country_id ON cities(country_id);
        CREATE INDEX cities_population ON cities(population);
        """

    /// How many rows an import wrote.
    struct Summary: Equatable {
        var countries: Int
        var cities: Int
    }

    /// Reads both files, then creates the tables and saves every country with its cities, in one
    /// transaction (a savepoint when `db` is already in one): a failure leaves the database as it was.
    /// - Throws: ``CSVError`` for malformed CSV or a field that is not the number it must be, naming file
    ///   and line (before the database is touched); `DatabaseError` when a table exists already or a row
    ///   violates a constraint.
    static func run(_ db: Database, countriesFile: URL, citiesFile: URL) throws -> Summary {
        let countryTable = try CSVReader.read(contentsOf: countriesFile)
        let cityTable = try CSVReader.read(contentsOf: citiesFile)
        let countries = try parseCountries(countryTable)
        var citiesByCountry = try Dictionary(grouping: parseCities(cityTable), by: \.city.countryCode)

        let knownCodes = Set(countries.map(\.iso))
        if let orphan = citiesByCountry.values.joined().first(where: { !knownCodes.contains($0.city.countryCode) }) {
            throw CSVError(
                fileName: cityTable.fileName, line: orphan.line,
                message: "country code \"\(orphan.city.countryCode)\" is not in \(countryTable.fileName)")
        }

        return try db.transaction(.immediate) {
            try db.execute(sql: schema)
            var summary = Summary(countries: 0, cities: 0)
            for var country in countries {
                var cities = (citiesByCountry.removeValue(forKey: country.iso) ?? []).map(\.city)
                try country.save(db, children: &cities)
                summary.countries += 1
                summary.cities += cities.count
            }
            return summary
        }
    }

    static func parseCountries(_ table: CSVTable) throws -> [Country] {
        let columns = try [
            "geonameid", "iso", "iso3", "isonumeric", "fips", "name", "capital", "areakm2", "population",
            "continentcode", "tld", "currencycode", "currencyname", "phone", "postalcoderegex", "languages",
            "neighbours",
        ].map(table.index(of:))
        return try table.records.map { record in
            let field = FieldReader(table: table, record: record)
            return Country(
                id: nil, geonameId: try field.integer(columns[0]), iso: field.text(columns[1]),
                iso3: field.text(columns[2]), isoNumeric: Int(try field.integer(columns[3])),
                fips: field.optionalText(columns[4]), name: field.text(columns[5]),
                capital: field.optionalText(columns[6]), areaKm2: try field.real(columns[7]),
                population: try field.integer(columns[8]), continentCode: field.text(columns[9]),
                tld: field.optionalText(columns[10]), currencyCode: field.optionalText(columns[11]),
                currencyName: field.optionalText(columns[12]), phone: field.optionalText(columns[13]),
                postalCodeRegex: field.optionalText(columns[14]), languages: field.optionalText(columns[15]),
                neighbours: field.optionalText(columns[16]))
        }
    }

    static func parseCities(_ table: CSVTable) throws -> [(city: City, line: Int)] {
        let columns = try [
            "geonameid", "name", "latitude", "longitude", "countrycode", "admin1code", "population", "timezone",
        ].map(table.index(of:))
        return try table.records.map { record in
            let field = FieldReader(table: table, record: record)
            let city = City(
                id: nil, countryId: nil, geonameId: try field.integer(columns[0]), name: field.text(columns[1]),
                latitude: try field.real(columns[2]), longitude: try field.real(columns[3]),
                countryCode: field.text(columns[4]), admin1Code: field.optionalText(columns[5]),
                population: try field.integer(columns[6]), timezone: field.text(columns[7]))
            return (city, record.line)
        }
    }
}

/// Typed reads of one record's fields; errors name the file, line and column.
private struct FieldReader {
    let table: CSVTable
    let record: CSVRecord

    /// The field exactly as written: text is kept whole, trailing spaces included, and `NA` is a code.
    func text(_ index: Int) -> String { record.fields[index] }

    /// nil for an empty field.
    func optionalText(_ index: Int) -> String? { record.fields[index].isEmpty ? nil : record.fields[index] }

    func integer(_ index: Int) throws -> Int64 {
        guard let value = Int64(record.fields[index]) else { throw invalid(index, "an integer") }
        return value
    }

    func real(_ index: Int) throws -> Double {
        guard let value = Double(record.fields[index]), value.isFinite else { throw invalid(index, "a number") }
        return value
    }

    private func invalid(_ index: Int, _ expected: String) -> CSVError {
        CSVError(
            fileName: table.fileName, line: record.line,
            message: "column \"\(table.header[index])\" holds \"\(record.fields[index])\", expected \(expected)")
    }
}
