import Foundation
import SQLiteRecord

/// ``BenchCity`` with a row initializer: what W2-row, W3-row and W5-row read, and the PostgreSQL run's W2-row,
/// W3-row and W4-row through the same initializer. The same table and columns;
/// `init(row:)` reads them by index, in the table's column order, as a hand-written `init(row:)` does, and
/// its `Decodable` conformance is BenchCity's (checked against it in BenchmarkAgreementTests).
struct BenchRowCity: Record, FetchableRecord, Equatable, Sendable {
    var city: BenchCity

    var id: Int64? {
        get { city.id }
        set { city.id = newValue }
    }

    static let tableName = BenchCity.tableName

    init(city: BenchCity) { self.city = city }

    init(from decoder: any Decoder) throws { city = try BenchCity(from: decoder) }

    func encode(to encoder: any Encoder) throws { try city.encode(to: encoder) }

    init(row: borrowing FetchedRow) throws {
        city = BenchCity(
            id: try row[0, as: Int64?.self],
            name: try row[1, as: String.self],
            latitude: try row[2, as: Double.self],
            longitude: try row[3, as: Double.self],
            countryCode: try row[4, as: String.self],
            admin1Code: try row[5, as: String?.self],
            population: try row[6, as: Int64.self],
            timezone: try row[7, as: String.self],
            createdAt: try row[8, as: Date.self],
            isCapital: try row[9, as: Bool.self])
    }
}
