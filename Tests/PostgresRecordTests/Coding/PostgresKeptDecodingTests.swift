#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// The decoding a SQL text's layout keeps from one result for the next (a `decodeAll` moved off its rows, a
/// `fetchOne` on its row), met by what a user does between two results of one text: other types and keys,
/// raw SQL and library SQL, nested fetches of the same text from `init(from:)`, a throw midway, a row
/// initializer, and a large row whose memory a user expects back once the value is gone.
final class PostgresKeptDecodingTests: PostgresTestCase {
    typealias Town = PostgresTown

    /// Other keys, one of them an Optional the table lacks.
    struct Nicknamed: Decodable, Equatable {
        var population: Int64
        var name: String
        var nickname: String?
    }

    /// The same, as a record of the table: the library wrote the SELECT, so the missing key throws.
    struct NicknamedTown: Record, Equatable {
        var id: Int64?
        var name: String
        var nickname: String?
        static let tableName = "towns"
    }

    /// A row initializer on the same columns.
    struct RowTown: FetchableRecord, Decodable, Equatable {
        var name: String
        var population: Int64
        init(name: String, population: Int64) {
            self.name = name
            self.population = population
        }
        init(row: borrowing FetchedRow) throws {
            name = try row["name", as: String.self]
            population = try row["population", as: Int64.self]
        }
    }

    /// Throws on the row named ``failOn`` while it is set.
    struct Fussy: Decodable, Equatable {
        static let failOn = TestLocked<String?>(nil)
        struct Refused: Error {}
        var name: String
        var population: Int64
        init(name: String, population: Int64) {
            self.name = name
            self.population = population
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            if Self.failOn.withLock({ $0 }) == name { throw Refused() }
            population = try container.decode(Int64.self, forKey: .population)
        }
        enum CodingKeys: String, CodingKey { case name, population }
    }

    /// The library's text of `Town.fetch(connection, where: ["region": ...])`.
    private let byRegion = "SELECT * FROM \"towns\" WHERE \"region\" = $1"

    override func setUpWithError() throws {
        try super.setUpWithError()
        try Town.createTable(in: connection)
        let towns: [(String, String?, Int64)] = [
            ("Lyon", "ARA", 522_969), ("Grenoble", "ARA", 158_198), ("Brest", "BRE", 139_926),
        ]
        for (name, region, population) in towns {
            var town = Town(id: nil, name: name, region: region, population: population)
            try town.insert(connection)
        }
    }

    private func region(_ code: String) throws -> [PostgresValue] { [try PostgresValue(text: code)] }

    /// Library SQL and raw SQL of one text, decoded as three types of other keys, alternating: each result
    /// as its own type, the missing Optional nil in raw SQL and refused where the library wrote the SELECT.
    func testTypesOfOtherKeysAlternateOnOneSQLText() throws {
        for _ in 0..<3 {
            XCTAssertEqual(
                try Town.fetch(connection, where: ["region": "ARA"]).map(\.name).sorted(), ["Grenoble", "Lyon"])
            XCTAssertEqual(
                try connection.query(byRegion, region("BRE")).decode(Nicknamed.self),
                [Nicknamed(population: 139_926, name: "Brest", nickname: nil)])
            XCTAssertThrowsError(try NicknamedTown.fetch(connection, where: ["region": "ARA"])) { error in
                guard case DecodingError.keyNotFound(let key, _) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(key.stringValue, "nickname")
            }
            XCTAssertEqual(
                try NicknamedTown.fetch(connection, sql: byRegion, arguments: region("BRE")),
                [NicknamedTown(id: 3, name: "Brest", nickname: nil)])
            XCTAssertEqual(
                try connection.query(byRegion, region("ARA")).decode(RowTown.self).map(\.name).sorted(),
                ["Grenoble", "Lyon"])
            XCTAssertEqual(
                try connection.query(byRegion, region("BRE"))[0].decode(RowTown.self),
                RowTown(name: "Brest", population: 139_926))
            XCTAssertEqual(try Town.fetchOne(connection, id: 3)?.name, "Brest")
            XCTAssertEqual(try connection.query(byRegion, region("BRE"))[0].decode(Nicknamed.self).name, "Brest")
        }
    }

    /// A type that throws on one row, then the same text decoded again: every row, in its own values.
    func testAThrowMidwayThenTheNextResultOfTheText() throws {
        let sql = "SELECT * FROM \"towns\" ORDER BY \"population\" DESC"
        Fussy.failOn.withLock { $0 = "Grenoble" }
        XCTAssertThrowsError(try connection.query(sql).decode(Fussy.self)) { XCTAssertTrue($0 is Fussy.Refused) }
        Fussy.failOn.withLock { $0 = nil }
        XCTAssertEqual(
            try connection.query(sql).decode(Fussy.self),
            [Fussy(name: "Lyon", population: 522_969), Fussy(name: "Grenoble", population: 158_198),
             Fussy(name: "Brest", population: 139_926)])
        Fussy.failOn.withLock { $0 = "Brest" }
        XCTAssertThrowsError(try connection.query(sql).decode(Fussy.self))
        Fussy.failOn.withLock { $0 = nil }
        XCTAssertEqual(try connection.query(sql).decode(Fussy.self).map(\.name), ["Lyon", "Grenoble", "Brest"])
    }

    /// A node whose `init(from:)` fetches its parents by the same `where:` form (the same SQL text) on the
    /// same connection, while the outer fetch's rows are still being decoded.
    struct Node: Record, Equatable {
        static let tableName = "nodes"
        static let connection = TestLocked<PostgresConnection?>(nil)
        var id: Int64?
        var name: String
        var grp: String
        var parentGrp: String?
        var parents: [String] = []

        enum CodingKeys: String, CodingKey { case id, name, grp, parentGrp = "parent_grp" }

        init(id: Int64? = nil, name: String, grp: String, parentGrp: String?) {
            self.id = id
            self.name = name
            self.grp = grp
            self.parentGrp = parentGrp
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int64?.self, forKey: .id)
            name = try container.decode(String.self, forKey: .name)
            grp = try container.decode(String.self, forKey: .grp)
            parentGrp = try container.decodeIfPresent(String.self, forKey: .parentGrp)
            if let parentGrp, let connection = Self.connection.withLock({ $0 }) {
                parents = try Node.fetch(connection, where: ["grp": parentGrp], orderBy: [.ascending("name")]).map {
                    $0.name + "(" + $0.parents.joined(separator: ",") + ")"
                }
            }
            // Read after the nested fetch: the outer row's container still reads the outer row.
            _ = try container.decode(String.self, forKey: .name)
            XCTAssertEqual(try container.decode(String.self, forKey: .grp), grp)
        }
    }

    func testAnInitFromThatFetchesTheSameFormNested() throws {
        try connection.execute(
            "CREATE TABLE nodes (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, grp TEXT NOT NULL, parent_grp TEXT)")
        try connection.execute(
            """
            INSERT INTO nodes (name, grp, parent_grp) VALUES
            ('x', 'leaf', 'mid'), ('y', 'leaf', 'mid'), ('m1', 'mid', 'root'), ('m2', 'mid', 'root'),
            ('r', 'root', NULL)
            """)
        Node.connection.withLock { $0 = connection }
        defer { Node.connection.withLock { $0 = nil } }
        for _ in 0..<2 {
            let leaves = try Node.fetch(connection, where: ["grp": "leaf"], orderBy: [.ascending("name")])
            XCTAssertEqual(leaves.map(\.name), ["x", "y"])
            XCTAssertEqual(leaves.map(\.parents), [["m1(r())", "m2(r())"], ["m1(r())", "m2(r())"]])
            let one = try Node.fetchOne(connection, id: 3)
            XCTAssertEqual(one?.name, "m1")
            XCTAssertEqual(one?.parents, ["r()"])
        }
    }

    /// Raw decoding as one type of the library's text of another type's fetch, interleaved with that fetch's
    /// loop: the raw decode does not pick up the record's renaming.
    func testRenamedKeysAndRawKeysOnOneText() throws {
        try connection.execute(
            "CREATE TABLE nodes (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, grp TEXT NOT NULL, parent_grp TEXT)")
        try connection.execute("INSERT INTO nodes (name, grp, parent_grp) VALUES ('x', 'leaf', 'mid')")
        struct Raw: Decodable, Equatable {
            var name: String
            var parentGrp: String?
        }
        let sql = "SELECT * FROM \"nodes\" WHERE \"grp\" = $1"
        for _ in 0..<3 {
            XCTAssertEqual(try Node.fetch(connection, where: ["grp": "leaf"]).map(\.parentGrp), ["mid"])
            // No column "parentGrp": nil in raw SQL, whatever the record's decoding renamed.
            XCTAssertEqual(try connection.query(sql, region("leaf")).decode(Raw.self), [Raw(name: "x", parentGrp: nil)])
        }
    }

    struct Payload: Codable, Equatable {
        var at: Date
    }

    /// Snake-case keys and nested dates in seconds.
    struct SecondsEvent: Record, Equatable {
        static let tableName = "events"
        var id: Int64?
        var eventName: String
        var payload: Payload
        static var rowDecoder: RowDecoder {
            var decoder = RowDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            decoder.jsonDecoder.dateDecodingStrategy = .secondsSince1970
            return decoder
        }
        static var recordEncoder: RecordEncoder {
            var encoder = RecordEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            return encoder
        }
    }

    /// The same table through a `CodingKeys` enum, nested dates in ISO 8601.
    struct ISOEvent: Record, Equatable {
        static let tableName = "events"
        var id: Int64?
        var eventName: String
        var payload: Payload
        enum CodingKeys: String, CodingKey { case id, eventName = "event_name", payload }
        static var rowDecoder: RowDecoder {
            let decoder = RowDecoder()
            decoder.jsonDecoder.dateDecodingStrategy = .iso8601
            return decoder
        }
    }

    /// Two record types of one table, one renaming keys by strategy and reading nested dates in seconds, the
    /// other by `CodingKeys` and in ISO 8601, alternating on one form (one SQL text): each reads with its own.
    func testRecordTypesOfOtherKeyAndJSONStrategiesAlternateOnOneText() throws {
        try connection.execute(
            "CREATE TABLE events (id BIGSERIAL PRIMARY KEY, event_name TEXT NOT NULL, payload JSONB)")
        try connection.execute(
            """
            INSERT INTO events (event_name, payload) VALUES
            ('seconds', '{"at": 86400}'), ('iso', '{"at": "1970-01-02T00:00:00Z"}')
            """)
        let day = Payload(at: Date(timeIntervalSince1970: 86_400))
        for _ in 0..<3 {
            XCTAssertEqual(
                try SecondsEvent.fetch(connection, where: ["id": 1]),
                [SecondsEvent(id: 1, eventName: "seconds", payload: day)])
            XCTAssertEqual(
                try ISOEvent.fetch(connection, where: ["id": 2]), [ISOEvent(id: 2, eventName: "iso", payload: day)])
            XCTAssertThrowsError(try ISOEvent.fetch(connection, where: ["id": 1]))
            XCTAssertThrowsError(try SecondsEvent.fetch(connection, where: ["id": 2]))
            XCTAssertEqual(try SecondsEvent.fetchOne(connection, id: 1)?.payload, day)
            XCTAssertEqual(try ISOEvent.fetchOne(connection, id: 2)?.eventName, "iso")
        }
    }

    /// A record of the table read through its row initializer.
    struct RowRecordTown: Record, FetchableRecord, Equatable {
        static let tableName = "towns"
        var id: Int64?
        var name: String
        var population: Int64
        init(id: Int64?, name: String, population: Int64) {
            self.id = id
            self.name = name
            self.population = population
        }
        init(row: borrowing FetchedRow) throws {
            id = try row["id", as: Int64?.self]
            name = try row["name", as: String.self] + "!"
            population = try row["population", as: Int64.self]
        }
    }

    /// A record read through its row initializer and one read through Codable, alternating on one `where:`
    /// form and on `fetchOne(id:)` (one SQL text each): each through its own.
    func testARowInitializerRecordAndACodableRecordAlternateOnOneForm() throws {
        for _ in 0..<3 {
            XCTAssertEqual(
                try RowRecordTown.fetch(connection, where: ["region": "BRE"]),
                [RowRecordTown(id: 3, name: "Brest!", population: 139_926)])
            XCTAssertEqual(try Town.fetch(connection, where: ["region": "BRE"]).map(\.name), ["Brest"])
            XCTAssertEqual(try RowRecordTown.fetchOne(connection, id: 1)?.name, "Lyon!")
            XCTAssertEqual(try Town.fetchOne(connection, id: 1)?.name, "Lyon")
            XCTAssertEqual(try RowRecordTown.fetchOne(connection, id: 2)?.name, "Grenoble!")
        }
    }

    #if os(Linux)
        /// This process's resident memory in bytes (`/proc/self/statm`).
        private func residentBytes() -> Int {
            guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
            let fields = statm.split(separator: " ")
            return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
        }

        struct Blob: Record {
            var id: Int64?
            var body: String
            static let tableName = "blobs"
        }

        /// A row of 50 MB fetched by id and let go: the connection keeps no copy of it until its next fetch by
        /// id. Measured as the memory the next fetch by id (a small row) gives back: a result kept for that
        /// next fetch would be freed only then.
        func testALargeRowFetchedByIdIsNotKeptByTheConnection() throws {
            try Blob.createTable(in: connection)
            try connection.execute("INSERT INTO blobs (body) VALUES (repeat('x', 50000000)), ('small')")
            for _ in 0..<2 {
                var large = try Blob.fetchOne(connection, id: 1)
                XCTAssertEqual(large?.body.utf8.count, 50_000_000)
                large = nil
                let before = residentBytes()
                XCTAssertEqual(try Blob.fetchOne(connection, id: 2)?.body, "small")
                let freed = before - residentBytes()
                XCTAssertLessThan(freed, 20_000_000, "the 50 MB result was kept by the connection past its fetch")
            }
        }

        /// The same through a `where:` fetch, whose decoding is kept moved off its rows.
        func testALargeRowFetchedByWhereIsNotKeptByTheConnection() throws {
            try Blob.createTable(in: connection)
            try connection.execute("INSERT INTO blobs (body) VALUES (repeat('x', 50000000)), ('small')")
            for _ in 0..<2 {
                var large = try Blob.fetch(connection, where: ["id": 1])
                XCTAssertEqual(large.first?.body.utf8.count, 50_000_000)
                large = []
                let before = residentBytes()
                XCTAssertEqual(try Blob.fetch(connection, where: ["id": 2]).map(\.body), ["small"])
                let freed = before - residentBytes()
                XCTAssertLessThan(freed, 20_000_000, "the 50 MB result was kept by the connection past its fetch")
            }
        }
    #endif
}
#endif
