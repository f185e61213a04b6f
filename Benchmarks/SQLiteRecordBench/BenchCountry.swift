import SQLiteRecord

/// W6's parent: one row per country code of the cities, keyed by that code (a text key), with the cities
/// as its children through `cities.country_code`.
struct BenchCountry: Record, Equatable, Sendable {
    /// The two-letter code, stored in `code`.
    var id: String
    var name: String

    static let tableName = "countries"
    static let primaryKeyColumn = "code"
    static let withoutRowID = true

    enum CodingKeys: String, CodingKey {
        case id = "code"
        case name
    }

    /// A country's cities, by the code they store.
    static let cities = hasMany(BenchCity.self, using: "country_code")
}

/// A country with every one of its cities, as W6's eager load decodes it.
struct BenchCountryWithCities: Decodable, Sendable {
    var benchCountry: BenchCountry
    var cities: [BenchCity]
}
