import Foundation
import SQLiteRecord

/// W3-uuid's record: a ``BenchCity`` keyed by a UUID the app chose (stored as lowercase text, the encoder's
/// default), with its GeoNames id beside it as an ordinary column.
struct BenchUUIDCity: Record, Equatable, Sendable {
    var id: UUID
    var geonamesId: Int64
    var name: String
    var latitude: Double
    var longitude: Double
    var countryCode: String
    var admin1Code: String?
    var population: Int64
    var timezone: String
    var createdAt: Date
    var isCapital: Bool

    static let tableName = "cities_uuid"

    enum CodingKeys: String, CodingKey {
        case id, name, latitude, longitude, population, timezone
        case geonamesId = "geonames_id"
        case countryCode = "country_code"
        case admin1Code = "admin1_code"
        case createdAt = "created_at"
        case isCapital = "is_capital"
    }

    /// The city as the checksum reads it (keyed by its GeoNames id).
    var city: BenchCity {
        BenchCity(
            id: geonamesId, name: name, latitude: latitude, longitude: longitude, countryCode: countryCode,
            admin1Code: admin1Code, population: population, timezone: timezone, createdAt: createdAt,
            isCapital: isCapital)
    }

    /// The UUID both sides give the city with GeoNames id `id`: version 4 bits over 122 bits drawn from the
    /// id with SplitMix64, so every run and both sides agree.
    static func uuid(for id: Int64) -> UUID {
        var generator = SplitMix64(seed: UInt64(bitPattern: id))
        var bytes = [UInt8](repeating: 0, count: 16)
        for half in 0..<2 {
            let word = generator.next()
            for index in 0..<8 { bytes[half * 8 + index] = UInt8(truncatingIfNeeded: word >> (8 * index)) }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
