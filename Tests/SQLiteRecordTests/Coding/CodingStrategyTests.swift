import Foundation
import SQLiteRecord
import XCTest

/// Strategies (dates, UUIDs, snake_case keys), single-value fetches, and a mixed record round trip, all
/// through the public API.
final class CodingStrategyTests: XCTestCase {
    private struct Event: Codable, Equatable {
        var at: Date
    }

    private func stored<T: Encodable>(_ value: T, _ configure: (inout RecordEncoder) -> Void) throws -> SQLiteValue? {
        var encoder = RecordEncoder()
        configure(&encoder)
        return try encoder.encode(value).values.first
    }

    private func decoded<T: Decodable>(
        _ type: T.Type, sql: String, _ configure: (inout RowDecoder) -> Void = { _ in }
    ) throws -> T? {
        let db = try Database()
        var decoder = RowDecoder()
        configure(&decoder)
        return try db.fetchOne(type, sql: sql, decoder: decoder)
    }

    func testDateEncodingStrategies() throws {
        let event = Event(at: Date(timeIntervalSince1970: 1_714_566_600.25))  // 2024-05-01 12:30:00.250 UTC
        XCTAssertEqual(try stored(event) { _ in }, .text("2024-05-01 12:30:00.250"))
        XCTAssertEqual(try stored(event) { $0.dateEncodingStrategy = .unixSeconds }, .real(1_714_566_600.25))
        XCTAssertEqual(try stored(event) { $0.dateEncodingStrategy = .unixMilliseconds }, .integer(1_714_566_600_250))
        XCTAssertEqual(try stored(event) { $0.dateEncodingStrategy = .iso8601 }, .text("2024-05-01T12:30:00.250Z"))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "dd/MM/yyyy"
        XCTAssertEqual(try stored(event) { $0.dateEncodingStrategy = .formatted(formatter) }, .text("01/05/2024"))
        XCTAssertEqual(
            try stored(event) { $0.dateEncodingStrategy = .custom({ .integer(Int64($0.timeIntervalSince1970)) }) },
            .integer(1_714_566_600))
    }

    func testDateDecodingStrategies() throws {
        let instant = Date(timeIntervalSince1970: 1_714_566_600.25)
        XCTAssertEqual(
            try decoded(Event.self, sql: "SELECT 1714566600250 AS at") { $0.dateDecodingStrategy = .unixMilliseconds },
            Event(at: instant))
        XCTAssertEqual(
            try decoded(Event.self, sql: "SELECT 1714566600.25 AS at") { $0.dateDecodingStrategy = .unixSeconds },
            Event(at: instant))
        XCTAssertEqual(
            try decoded(Event.self, sql: "SELECT '2024-05-01T12:30:00.250Z' AS at") {
                $0.dateDecodingStrategy = .iso8601
            },
            Event(at: instant))
        XCTAssertEqual(
            try decoded(Event.self, sql: "SELECT '2024-05-01T14:30:00+02:00' AS at") {
                $0.dateDecodingStrategy = .iso8601
            }?.at.timeIntervalSince1970, 1_714_566_600)
        XCTAssertThrowsError(
            try decoded(Event.self, sql: "SELECT 'soon' AS at") { $0.dateDecodingStrategy = .iso8601 }
        ) { error in
            // TEXT is what the strategy reads; this text is no date: dataCorrupted, as JSONDecoder throws.
            guard case .dataCorrupted(let context)? = error as? DecodingError else { return XCTFail("\(error)") }
            XCTAssertEqual(
                context.debugDescription,
                "Expected Date but column \"at\" holds TEXT 'soon', which is not an ISO 8601 date")
        }
        XCTAssertEqual(
            try decoded(Event.self, sql: "SELECT 'day 7' AS at") {
                $0.dateDecodingStrategy = .custom({ value in
                    guard case .text(let text) = value, let day = Double(text.dropFirst(4)) else {
                        throw CocoaError(.coderInvalidValue)
                    }
                    return Date(timeIntervalSince1970: day * 86_400)
                })
            }, Event(at: Date(timeIntervalSince1970: 7 * 86_400)))
    }

    func testUUIDStrategies() throws {
        struct Tagged: Codable, Equatable {
            var tag: UUID
        }
        let uuid = try XCTUnwrap(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        XCTAssertEqual(try stored(Tagged(tag: uuid)) { _ in }, .text("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"))
        let blob = try stored(Tagged(tag: uuid)) { $0.uuidEncodingStrategy = .blob }
        XCTAssertEqual(
            blob,
            .blob(
                Data([0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F])))
        XCTAssertEqual(
            try decoded(Tagged.self, sql: "SELECT x'E621E1F8C36C495A93FC0C247A3E6E5F' AS tag"), Tagged(tag: uuid))
    }

    func testSnakeCaseKeysBothWaysWithoutCodingKeys() throws {
        struct Place: Record, Equatable {
            var id: Int64?
            var countryId: Int64
            var imageURL: URL?
            var foundedAt: Date
            static let tableName = "places"
            static var rowDecoder: RowDecoder {
                var decoder = RowDecoder()
                decoder.keyDecodingStrategy = .convertFromSnakeCase
                return decoder
            }
            static var recordEncoder: RecordEncoder {
                var encoder = RecordEncoder()
                encoder.keyEncodingStrategy = .convertToSnakeCase
                return encoder
            }
        }
        let db = try Database()
        try db.execute(
            sql: "CREATE TABLE places(id INTEGER PRIMARY KEY, country_id INTEGER, image_url TEXT, founded_at TEXT)")
        var place = Place(
            id: nil, countryId: 7, imageURL: URL(string: "https://example.org/a.png"),
            foundedAt: Date(timeIntervalSince1970: 0))
        try place.save(db)
        XCTAssertEqual(
            try db.fetchAll(String.self, sql: "SELECT image_url FROM places"), ["https://example.org/a.png"])
        XCTAssertEqual(try Place.fetchOne(db, id: 1), place)
        XCTAssertEqual(try Place.fetch(db, where: ["country_id": 7]), [place])
    }

    func testSingleValueFetches() throws {
        let db = try WorldFixtures.makeDatabase()
        var japan = Country(id: nil, name: "Japan", iso: "JP", population: 126_529_100)
        try japan.save(db)
        XCTAssertEqual(try db.fetchAll(String.self, sql: "SELECT name FROM countries"), ["Japan"])
        XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM countries"), 1)
        XCTAssertNil(try db.fetchOne(Int.self, sql: "SELECT id FROM countries WHERE iso = ?", arguments: ["FR"]))
        XCTAssertEqual(try db.fetchOne(Int?.self, sql: "SELECT NULL"), .some(nil))
        XCTAssertThrowsError(try db.fetchOne(Int.self, sql: "SELECT NULL AS n")) { error in
            guard case .valueNotFound? = error as? DecodingError else { return XCTFail("\(error)") }
        }
    }

    func testNULTextAndATenMegabyteBlobRoundTrip() throws {
        struct Payload: Record, Equatable {
            var id: Int64?
            var text: String
            var bytes: Data
            static let tableName = "payloads"
        }
        let db = try Database()
        try db.execute(sql: "CREATE TABLE payloads(id INTEGER PRIMARY KEY, text TEXT, bytes BLOB)")
        let bytes = Data((0..<10_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var payload = Payload(id: nil, text: "before\u{0}after", bytes: bytes)
        try payload.save(db)
        let read = try XCTUnwrap(Payload.fetchOne(db, id: 1))
        XCTAssertEqual(read.text, "before\u{0}after")
        XCTAssertEqual(read.text.utf8.count, 12)
        XCTAssertEqual(read.bytes.count, 10_000_000)
        XCTAssertEqual(read, payload)
    }

    func testARecordOfTwelveMixedPropertiesRoundTrips() throws {
        enum Status: String, Codable { case active, retired }
        enum Level: Int, Codable {
            case low = 1
            case high = 2
        }
        struct Location: Codable, Equatable {
            var latitude: Double
            var longitude: Double
        }
        struct Sample: Record, Equatable {
            var id: Int64?
            var name: String
            var count: Int16
            var ratio: Float
            var price: Decimal
            var isActive: Bool
            var takenAt: Date
            var tag: UUID
            var link: URL
            var status: Status
            var level: Level?
            var location: Location
            var aliases: [String]
            static let tableName = "samples"
        }
        let db = try Database()
        try db.execute(
            sql: """
                CREATE TABLE samples(id INTEGER PRIMARY KEY, name TEXT, count INTEGER, ratio REAL, price TEXT,
                isActive INTEGER, takenAt TEXT, tag TEXT, link TEXT, status TEXT, level INTEGER, location TEXT,
                aliases TEXT)
                """)
        var sample = Sample(
            id: nil, name: "Zürich \"HB\"", count: -32_768, ratio: 0.1, price: try XCTUnwrap(Decimal(string: "19.99")),
            isActive: true,
            takenAt: Date(timeIntervalSince1970: 1_700_000_000.123), tag: UUID(),
            link: try XCTUnwrap(URL(string: "https://geonames.org/?q=a%20b")), status: .retired, level: nil,
            location: Location(latitude: 47.37, longitude: 8.54), aliases: ["Zurich", "Zuerich"])
        try sample.save(db)
        XCTAssertEqual(try Sample.fetchOne(db, id: 1), sample)
        sample.level = .high
        sample.aliases = []
        try sample.save(db)
        XCTAssertEqual(try Sample.fetchOne(db, id: 1), sample)
        XCTAssertEqual(
            try db.fetchOne(String.self, sql: "SELECT location FROM samples"), "{\"latitude\":47.37,\"longitude\":8.54}"
        )
        XCTAssertEqual(try db.fetchOne(String.self, sql: "SELECT price FROM samples"), "19.99")
    }
}
