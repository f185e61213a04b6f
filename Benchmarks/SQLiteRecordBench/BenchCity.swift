import Foundation
import SQLiteRecord

/// The one record type every workload reads and writes: a GeoNames city with ten columns, among them an
/// optional text, a date and a flag, so the decoder's less common paths are measured too.
struct BenchCity: Record, Equatable, Sendable {
    /// The GeoNames id: records carry it when they are inserted.
    var id: Int64?
    var name: String
    /// Degrees north, WGS84.
    var latitude: Double
    /// Degrees east, WGS84.
    var longitude: Double
    var countryCode: String
    /// nil where GeoNames leaves the field empty.
    var admin1Code: String?
    var population: Int64
    /// IANA time zone name, such as "Asia/Tokyo".
    var timezone: String
    /// Not in GeoNames: derived from the row's position (whole milliseconds), so every run stores the same
    /// text.
    var createdAt: Date
    /// Not in GeoNames: a stand-in flag (population above one million), so a Bool column is measured.
    var isCapital: Bool

    static let tableName = "cities"

    enum CodingKeys: String, CodingKey {
        case id, name, latitude, longitude, population, timezone
        case countryCode = "country_code"
        case admin1Code = "admin1_code"
        case createdAt = "created_at"
        case isCapital = "is_capital"
    }
}

extension BenchCity {
    /// The date given to the city on line `index` of the data: half a second apart, from 2020-09-13.
    static func createdAt(forIndex index: Int) -> Date {
        Date(timeIntervalSince1970: 1_600_000_000 + Double(index) * 0.5)
    }

    /// The flag given to a city of `population`.
    static func isCapital(population: Int64) -> Bool {
        population > 1_000_000
    }
}
