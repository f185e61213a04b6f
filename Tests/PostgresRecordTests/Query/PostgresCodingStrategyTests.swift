#if PostgreSQL
import Foundation
@testable import PostgresRecord
import SQLiteRecord
import XCTest

/// A record's coding strategies on PostgreSQL: key strategies rename columns in writes, reads and requests;
/// date, UUID and nested-JSON strategies, which choose SQLite's storage, give way to the typed column
/// (TIMESTAMPTZ, UUID, JSONB), and requests compare with what was stored.
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
            #"SELECT * FROM "events" WHERE "starts_at" = $1 AND "token" = $2 ORDER BY "event_name" ASC"#)
        XCTAssertEqual(try request.fetch(connection), [event])
        XCTAssertEqual(try Event.filter(Event.CodingKeys.startsAt > start).count(connection), 0)
    }
}
#endif
