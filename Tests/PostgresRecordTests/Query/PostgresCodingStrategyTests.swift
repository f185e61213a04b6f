#if PostgreSQL
import Foundation
@testable import PostgresRecord
import SQLiteRecord
import XCTest

/// A record's coding strategies on PostgreSQL: key strategies rename columns in writes, reads and requests;
/// date and UUID strategies, which choose SQLite's storage, give way to the typed column (TIMESTAMPTZ, UUID),
/// and requests compare with what was stored; nested values are written by the record's JSON encoder.
final class PostgresCodingStrategyTests: PostgresTestCase {
    struct Place: Codable, Equatable, Sendable {
        var lat: Double
        var lon: Double
    }

    struct Event: Record, Equatable, Sendable {
        var id: Int64?
        var eventName: String
        var startsAt: Date
        var token: UUID
        var place: Place
        static let tableName = "events"
        enum CodingKeys: String, CodingKey, ColumnExpression { case id, eventName, startsAt, token, place }
        static let recordEncoder = {
            var encoder = RecordEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.dateEncodingStrategy = .unixSeconds
            encoder.uuidEncodingStrategy = .blob
            return encoder
        }()
        static let rowDecoder = {
            var decoder = RowDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            decoder.dateDecodingStrategy = .unixSeconds
            return decoder
        }()
    }

    let start = Date(timeIntervalSince1970: 1_700_000_000.25)
    let token = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    override func setUpWithError() throws {
        try super.setUpWithError()
        try Event.createTable(in: connection)
    }

    func testKeyStrategyNamesColumnsAndTypedColumnsTakeDatesUUIDsAndJSONAsThemselves() throws {
        var event = Event(
            id: nil, eventName: "Launch", startsAt: start, token: token, place: Place(lat: 48.85, lon: 2.35))
        try event.save(connection)
        XCTAssertEqual(
            try text(
                "SELECT string_agg(column_name || ' ' || data_type, ', ' ORDER BY ordinal_position) "
                    + "FROM information_schema.columns WHERE table_name = 'events' AND table_schema = current_schema()"),
            "id bigint, event_name text, starts_at timestamp with time zone, token uuid, place jsonb")
        XCTAssertEqual(
            try text("SELECT starts_at::text || ' ' || token::text || ' ' || place::text FROM events"),
            #"2023-11-14 22:13:20.25+00 e621e1f8-c36c-495a-93fc-0c247a3e6e5f {"lat": 48.85, "lon": 2.35}"#)
        let request = Event.filter(Event.CodingKeys.startsAt == start)
            .filter(Event.CodingKeys.token == token).order(Event.CodingKeys.eventName.ascending)
        XCTAssertEqual(
            try request.postgresSQL(connection, .select).sql,
            #"SELECT * FROM "events" WHERE "starts_at" = $1 AND "token" = $2 ORDER BY "event_name" ASC NULLS FIRST"#)
        XCTAssertEqual(try request.fetch(connection), [event])
        XCTAssertEqual(try Event.filter(Event.CodingKeys.startsAt > start).count(connection), 0)
    }

    struct Trip: Codable, Equatable, Sendable {
        var topSpeed: Double
        var departedAt: Date
    }

    /// A record whose nested value is written with snake-case keys and ISO 8601 dates.
    struct Journey: Record, Equatable, Sendable {
        var id: Int64?
        var trip: Trip
        static let tableName = "journeys"
        static let recordEncoder = {
            var encoder = RecordEncoder()
            let json = JSONEncoder()
            json.keyEncodingStrategy = .convertToSnakeCase
            json.dateEncodingStrategy = .iso8601
            encoder.jsonEncoder = json
            return encoder
        }()
        static let rowDecoder = {
            var decoder = RowDecoder()
            let json = JSONDecoder()
            json.keyDecodingStrategy = .convertFromSnakeCase
            json.dateDecodingStrategy = .iso8601
            decoder.jsonDecoder = json
            return decoder
        }()
    }

    func testNestedValuesAreWrittenByTheRecordsJSONEncoder() throws {
        try Journey.createTable(in: connection)
        let departure = Date(timeIntervalSince1970: 1_700_000_000)
        var first = Journey(id: nil, trip: Trip(topSpeed: 88.5, departedAt: departure))
        try first.insert(connection)
        var batch = [Journey(id: nil, trip: Trip(topSpeed: 12, departedAt: departure.addingTimeInterval(60)))]
        try Journey.insertAll(connection, &batch)
        first.trip.topSpeed = 90
        try first.update(connection)
        XCTAssertEqual(
            try text("SELECT string_agg(trip::text, ' | ' ORDER BY id) FROM journeys"),
            #"{"top_speed": 90, "departed_at": "2023-11-14T22:13:20Z"} | "#
                + #"{"top_speed": 12, "departed_at": "2023-11-14T22:14:20Z"}"#)
        let stored = try XCTUnwrap(text("SELECT trip::text FROM journeys WHERE id = 1"))
        XCTAssertEqual(try Journey.rowDecoder.jsonDecoder.decode(Trip.self, from: Data(stored.utf8)), first.trip)
    }

    func testNestedValuesAreReadAndFilteredWithTheRecordsJSONCoders() throws {
        try Journey.createTable(in: connection)
        let departure = Date(timeIntervalSince1970: 1_700_000_000)
        var first = Journey(id: nil, trip: Trip(topSpeed: 88.5, departedAt: departure))
        var second = Journey(id: nil, trip: Trip(topSpeed: 12, departedAt: departure.addingTimeInterval(60)))
        try first.insert(connection)
        try second.insert(connection)
        XCTAssertEqual(try Journey.fetch(connection, orderBy: [.ascending("id")]), [first, second])
        XCTAssertEqual(try Journey.fetchOne(connection, id: 2), second)
        XCTAssertEqual(try Journey.fetch(connection, where: ["trip": second.trip]), [second])
        XCTAssertEqual(try Journey.count(connection, where: ["trip": first.trip]), 1)
        let request = Journey.filter(Column("trip") == first.trip)
        XCTAssertEqual(try request.fetch(connection), [first])
        XCTAssertEqual(try request.fetchOne(connection), first)
        XCTAssertEqual(try Journey.filter(Column("trip").in([first.trip, second.trip])).count(connection), 2)
        XCTAssertEqual(
            try Journey.order(Column("id").descending).select(Column("trip")).fetch(connection, as: TripOnly.self),
            [TripOnly(trip: second.trip), TripOnly(trip: first.trip)])
    }

    struct TripOnly: Decodable, Equatable {
        var trip: Trip
    }
}
#endif
