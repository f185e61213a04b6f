import Foundation
import SQLiteRecord

/// Builds the sample database from GeoNames' CSV files: the schema (``SampleSchema/migrator``), then every
/// country with its cities through `save(children:)`.
enum GeoNamesImport {
    /// How many rows an import wrote.
    struct Summary: Equatable {
        var countries: Int
        var cities: Int
    }

    /// Reads both files, then migrates the database (creating the tables), checks the models against them
    /// and saves every country with its cities, all in one transaction (a savepoint when `db` is already in
    /// one): a failure leaves the database as it was, without the tables it did not have.
    /// - Throws: ``CSVError`` for malformed CSV or a field that is not the number it must be, naming file
    ///   and line (before the database is touched); `MigrationError` for a database a newer version
    ///   migrated; `SchemaValidationError` when the models do not match the tables; `DatabaseError` when a
    ///   row violates a constraint (a country or city imported already).
    static func run(_ db: Database, countriesFile: URL, citiesFile: URL) throws -> Summary {
        let countries = try read(countriesFile: countriesFile, citiesFile: citiesFile)
        return try db.transaction(.immediate) {
            // Inside this transaction the migrations run in savepoints: the tables and the rows commit together.
            try SampleSchema.migrator.migrate(db)
            try SampleSchema.validateModels(db)
            var summary = Summary(countries: 0, cities: 0)
            for (var country, var cities) in countries {
                try country.save(db, children: &cities)
                summary.countries += 1
                summary.cities += cities.count
            }
            return summary
        }
    }

    /// Reads and checks both files: every country, in the file's order, with its cities in theirs.
    /// - Throws: ``CSVError`` for malformed CSV, a field that is not the number it must be, or a city whose
    ///   country code is not in the countries file, naming file and line.
    static func read(countriesFile: URL, citiesFile: URL) throws -> [(country: Country, cities: [City])] {
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
        return countries.map { country in
            (country, (citiesByCountry.removeValue(forKey: country.iso) ?? []).map(\.city))
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
