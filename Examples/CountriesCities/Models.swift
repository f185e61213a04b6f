import SQLiteRecord

/// A row of the `countries` table: one GeoNames country.
struct Country: Record, Equatable {
    var id: Int64?
    var geonameId: Int64
    var iso: String
    var iso3: String
    var isoNumeric: Int
    var fips: String?
    var name: String
    var capital: String?
    /// Area in square kilometres.
    var areaKm2: Double
    var population: Int64
    /// AF, AN, AS, EU, NA, OC or SA: `NA` is North America, not a missing value.
    var continentCode: String
    var tld: String?
    var currencyCode: String?
    var currencyName: String?
    var phone: String?
    var postalCodeRegex: String?
    /// Comma-separated language tags, as GeoNames lists them: "ca" or "ar-AE,fa,en,hi,ur".
    var languages: String?
    /// Comma-separated ISO codes of bordering countries.
    var neighbours: String?

    static let tableName = "countries"

    /// Columns as well as keys (``ColumnExpression``): requests name them, `Country.CodingKeys.iso == "FR"`.
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, iso, iso3, fips, name, capital, population, tld, phone, languages, neighbours
        case geonameId = "geoname_id"
        case isoNumeric = "iso_numeric"
        case areaKm2 = "area_km2"
        case continentCode = "continent_code"
        case currencyCode = "currency_code"
        case currencyName = "currency_name"
        case postalCodeRegex = "postal_code_regex"
    }
}

/// A row of the `cities` table: one GeoNames city, belonging to a country.
struct City: Record, Equatable {
    var id: Int64?
    /// The country's `id`; set from the declared ``country`` association when the country saves its cities.
    var countryId: Int64?
    var geonameId: Int64
    var name: String
    /// Degrees north, WGS84.
    var latitude: Double
    /// Degrees east, WGS84.
    var longitude: Double
    var countryCode: String
    var admin1Code: String?
    var population: Int64
    /// IANA time zone name, such as "Asia/Tokyo".
    var timezone: String

    static let tableName = "cities"

    /// Columns as well as keys: `City.CodingKeys.population > 1_000_000`.
    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, name, latitude, longitude, population, timezone
        case countryId = "country_id"
        case geonameId = "geoname_id"
        case countryCode = "country_code"
        case admin1Code = "admin1_code"
    }
}

/// City names are searched by their words (`--search` when no name holds the text).
extension City: FullTextSearchable {
    static let fullTextIndex = FullTextIndex(columns: ["name"])
}
