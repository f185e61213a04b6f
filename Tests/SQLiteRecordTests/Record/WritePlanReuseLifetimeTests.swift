import CSQLiteRecord
import Foundation
import XCTest

@testable import SQLiteRecord

/// Kept write plans across threads and connections, when their database goes, and under key strategies.
final class WritePlanReuseLifetimeTests: XCTestCase {
    private struct Note: Record, Equatable {
        var id: Int64?
        var title: String
        var body: Data
        static let tableName = "notes"
    }

    private struct Code: Record {
        var id: Int64?
        var code: String
        static let tableName = "codes"
    }

    // MARK: - Concurrency

    private struct Alpha: Record {
        var id: Int64?
        var worker: Int
        var n: Int
        static let tableName = "alpha"
    }
    private struct Beta: Record {
        var id: Int64?
        var worker: Int
        var label: String
        static let tableName = "beta"
    }
    private struct Gamma: Record {
        var id: Int64?
        var worker: Int
        var at: Date
        static let tableName = "gamma"
    }

    func testManyThreadsThroughOneQueueInsertingSeveralTypes() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE alpha(id INTEGER PRIMARY KEY, worker INTEGER, n INTEGER);
                    CREATE TABLE beta(id INTEGER PRIMARY KEY, worker INTEGER, label TEXT);
                    CREATE TABLE gamma(id INTEGER PRIMARY KEY, worker INTEGER, at TEXT);
                    """)
        }
        let workers = 8
        let perWorker = 60
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for n in 0..<perWorker {
                try? queue.write { db in
                    var alpha = Alpha(id: nil, worker: worker, n: n)
                    try alpha.insert(db)
                    var beta = Beta(id: nil, worker: worker, label: "w\(worker)-\(n)")
                    try beta.insert(db)
                    var gamma = Gamma(
                        id: nil, worker: worker, at: Date(timeIntervalSince1970: Double(worker * 1000 + n)))
                    try gamma.insert(db)
                    if n.isMultiple(of: 7) {
                        alpha.n = -n
                        try alpha.update(db)
                    }
                }
            }
        }
        try queue.read { db in
            XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM alpha"), workers * perWorker)
            XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM beta"), workers * perWorker)
            XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM gamma"), workers * perWorker)
            XCTAssertEqual(
                try db.fetchOne(
                    Int.self, sql: "SELECT count(DISTINCT label) FROM beta WHERE label LIKE 'w' || worker || '-%'"),
                workers * perWorker)
            let expectedSum = (0..<perWorker).reduce(0) { $0 + ($1.isMultiple(of: 7) ? -$1 : $1) } * workers
            XCTAssertEqual(try db.fetchOne(Int.self, sql: "SELECT sum(n) FROM alpha"), expectedSum)
            XCTAssertEqual(
                try db.fetchOne(
                    Int.self,
                    sql:
                        "SELECT count(DISTINCT at) FROM gamma WHERE CAST(strftime('%s', at) AS INTEGER) / 1000 = worker AND at LIKE '%.000'"
                ),
                workers * perWorker, "each gamma row has its own worker's date")
        }
    }

    func testTwoConnectionsOnOneFileSeeEachOthersSchemaChanges() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("two.sqlite").path
        let a = try DatabaseQueue(path: path)
        let b = try DatabaseQueue(path: path)
        try a.write { db in try db.execute(sql: "CREATE TABLE codes(id INTEGER PRIMARY KEY, code TEXT)") }
        try a.write { db in
            for code in ["A1", "A2"] {
                var record = Code(id: nil, code: code)
                try record.insert(db)
            }
        }
        try b.write { db in
            var record = Code(id: nil, code: "B1")
            try record.insert(db)
            try db.execute(
                sql: """
                    CREATE TABLE new_codes(id INTEGER PRIMARY KEY, code NUMERIC);
                    INSERT INTO new_codes SELECT * FROM codes; DROP TABLE codes; ALTER TABLE new_codes RENAME TO codes;
                    """)
        }
        try a.write { db in
            var padded = Code(id: nil, code: "00120")
            XCTAssertThrowsError(try padded.insert(db), "connection A must see B's NUMERIC column")
            var fine = Code(id: nil, code: "120")
            try fine.insert(db)
        }
        try b.write { db in
            var padded = Code(id: nil, code: "00121")
            XCTAssertThrowsError(try padded.insert(db))
            try db.execute(sql: "ALTER TABLE codes ADD COLUMN extra TEXT DEFAULT 'e'")
        }
        try a.write { db in
            var next = Code(id: nil, code: "x")
            try next.insert(db)
            try Code(id: 1, code: "A1-updated").update(db)
        }
        try a.read { db in
            XCTAssertEqual(
                try WritePlanOracle.rows(db, "codes"),
                ["1|'A1-updated'|'e'", "2|'A2'|'e'", "3|'B1'|'e'", "4|120|'e'", "5|'x'|'e'"])
        }
    }

    // MARK: - Lifetime

    func testADatabaseReleasedWithPlansFreesThemAndTheirStatements() throws {
        weak var weakPlan: RecordWritePlan?
        weak var weakEncoder: ColumnsEncoder?
        weak var weakBinding: StatementBinding?
        weak var weakStatement: Statement?
        weak var weakDatabase: Database?
        weak var replacedEncoder: ColumnsEncoder?
        try {
            let db = try Database()
            weakDatabase = db
            try db.execute(sql: "CREATE TABLE codes(id INTEGER PRIMARY KEY, code TEXT)")
            for code in ["a", "b", "c"] {
                var record = Code(id: nil, code: code)
                try record.insert(db)
            }
            replacedEncoder = keptPlan(Code.self, .insertWithoutID, in: db)?.encoder
            XCTAssertNotNil(replacedEncoder)
            try db.execute(sql: "ALTER TABLE codes ADD COLUMN extra TEXT")
            for code in ["d", "e"] {
                var record = Code(id: nil, code: code)
                try record.insert(db)
            }
            XCTAssertNil(replacedEncoder, "a plan dropped for a schema change is freed, encoder included")
            let current = keptPlan(Code.self, .insertWithoutID, in: db)
            weakPlan = current
            weakEncoder = current?.encoder
            weakBinding = current?.binding
            weakStatement = current?.statement
            XCTAssertNotNil(weakPlan)
        }()
        XCTAssertNil(weakDatabase)
        XCTAssertNil(weakPlan)
        XCTAssertNil(weakEncoder, "the encoder's kept container does not keep it alive")
        XCTAssertNil(weakBinding)
        XCTAssertNil(weakStatement)
    }

    func testAStatementFromThePlanOutlivingItsDatabaseDoesNotCrash() throws {
        var kept: Statement?
        try {
            let db = try Database()
            try db.execute(sql: "CREATE TABLE codes(id INTEGER PRIMARY KEY, code TEXT)")
            for code in ["a", "b"] {
                var record = Code(id: nil, code: code)
                try record.insert(db)
            }
            kept = keptPlan(Code.self, .insertWithoutID, in: db)?.statement
        }()
        XCTAssertEqual(kept?.sql, "INSERT INTO \"codes\" (\"code\") VALUES (?)")
        kept = nil
    }

    // MARK: - Key strategies

    private struct Snake: Record {
        var id: Int64?
        var fooBar: String
        var imageURL: String
        var userID: Int
        var already_snake: Int
        static let tableName = "snakes"
        static var recordEncoder: RecordEncoder {
            var encoder = RecordEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            return encoder
        }
    }

    func testSnakeCaseKeysThroughThePlan() throws {
        let schema =
            "CREATE TABLE snakes(id INTEGER PRIMARY KEY, foo_bar TEXT, image_url TEXT, user_id INTEGER, already_snake INTEGER)"
        let writes = (0..<5).map {
            Snake(id: $0 == 3 ? 40 : nil, fooBar: "f\($0)", imageURL: "u\($0)", userID: $0, already_snake: -$0)
        }
        let result = try assertKeptPlanMatchesFreshPlans(schema, table: "snakes", writes)
        XCTAssertEqual(
            result.rows,
            ["1|'f0'|'u0'|0|0", "2|'f1'|'u1'|1|-1", "3|'f2'|'u2'|2|-2", "40|'f3'|'u3'|3|-3", "41|'f4'|'u4'|4|-4"])
    }

    /// Two properties that snake-case to one column.
    private struct Colliding: Record {
        var id: Int64?
        var fooBar: String
        var foo_bar: String
        static let tableName = "colliding"
        static var recordEncoder: RecordEncoder {
            var encoder = RecordEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            return encoder
        }
    }

    func testTwoKeysNamingOneColumnThroughThePlan() throws {
        try assertKeptPlanMatchesFreshPlans(
            "CREATE TABLE colliding(id INTEGER PRIMARY KEY, foo_bar TEXT)", table: "colliding",
            (0..<3).map { Colliding(id: nil, fooBar: "camel\($0)", foo_bar: "snake\($0)") })
    }

    private struct Renamed: Record {
        var id: Int64?
        var countryId: Int64?
        var name: String
        var seenAt: Date?
        static let tableName = "renamed"
        enum CodingKeys: String, CodingKey {
            case id
            case countryId = "country_id"
            case name = "Name"
            case seenAt = "seen at"
        }
    }

    func testCustomCodingKeyRawValuesThroughThePlan() throws {
        let schema = "CREATE TABLE renamed(id INTEGER PRIMARY KEY, country_id INTEGER, name TEXT, \"seen at\" TEXT)"
        let writes: [Renamed] = (0..<4).map { (index: Int) -> Renamed in
            let country: Int64? = index == 2 ? nil : Int64(index)
            let seen: Date? = index == 1 ? nil : Date(timeIntervalSince1970: Double(index))
            return Renamed(id: nil, countryId: country, name: "n\(index)", seenAt: seen)
        }
        let result = try assertKeptPlanMatchesFreshPlans(schema, table: "renamed", writes)
        XCTAssertEqual(
            result.rows,
            [
                "1|0|'n0'|'1970-01-01 00:00:00.000'", "2|1|'n1'|NULL", "3|NULL|'n2'|'1970-01-01 00:00:02.000'",
                "4|3|'n3'|'1970-01-01 00:00:03.000'",
            ])
    }

    nonisolated(unsafe) private static var strategyFlip = false

    /// Once a defect, now fixed (same cause as testAConstraintErrorReportsTheValuesActuallyBound): `recordEncoder` computed, flipping its date strategy on every read. Documented: it is read when a
    /// connection first writes the type; what the plan path must still do is report in errors the values it
    /// bound.
    private struct Flipping: Record {
        var id: Int64?
        var key: String
        var at: Date
        static let tableName = "flipping"
        static var recordEncoder: RecordEncoder {
            strategyFlip.toggle()
            var encoder = RecordEncoder()
            encoder.dateEncodingStrategy = strategyFlip ? .unixSeconds : .sqliteText
            return encoder
        }
    }

    func testAComputedRecordEncoderErrorsReportTheBoundValues() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE flipping(id INTEGER PRIMARY KEY, key TEXT UNIQUE, at)")
        Self.strategyFlip = false
        var first = Flipping(id: nil, key: "a", at: Date(timeIntervalSince1970: 1))
        try first.insert(db)  // read once: unixSeconds
        for key in ["b", "c"] {
            var next = Flipping(id: nil, key: key, at: Date(timeIntervalSince1970: 2))
            try next.insert(db)
        }
        XCTAssertEqual(
            try db.fetchAll(String.self, sql: "SELECT quote(at) FROM flipping ORDER BY id"), ["1.0", "2.0", "2.0"])
        var duplicate = Flipping(id: nil, key: "a", at: Date(timeIntervalSince1970: 3))
        XCTAssertThrowsError(try duplicate.insert(db)) { error in
            XCTAssertEqual((error as? DatabaseError)?.arguments?.values, [.text("a"), .real(3)], "what was bound")
        }
    }
}
