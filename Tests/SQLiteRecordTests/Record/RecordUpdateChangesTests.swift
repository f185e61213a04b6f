import Foundation
import XCTest

@testable import SQLiteRecord

/// Updates that write only what changed, or only the columns named.
final class RecordUpdateChangesTests: XCTestCase {
    struct Person: Record, Equatable {
        var id: Int64?
        var name: String
        var email: String
        var age: Int
        static let tableName = "person"
    }

    private func makeQueue() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, age INTEGER NOT NULL);
                    CREATE TABLE writes (n INTEGER NOT NULL);
                    INSERT INTO writes VALUES (0);
                    CREATE TRIGGER person_writes AFTER UPDATE ON person BEGIN UPDATE writes SET n = n + 1; END;
                    INSERT INTO person VALUES (1, 'Ann', 'ann@example.com', 30);
                    """)
        }
        return queue
    }

    func testThePartialUpdateStatement() {
        XCTAssertEqual(
            RecordWritePlan.Kind.updateColumns(["age"]).sql(
                table: "person", columns: ["age"], keyColumns: ["id"], keyCounts: [1]),
            "UPDATE \"person\" SET \"age\" = ? WHERE \"id\" = ?")
        XCTAssertTrue(RecordWritePlan.Kind.updateColumns(["age"]).leavesOut("name", keyColumns: ["id"]))
        XCTAssertTrue(RecordWritePlan.Kind.updateColumns(["age"]).leavesOut("id", keyColumns: ["id"]))
        XCTAssertFalse(RecordWritePlan.Kind.updateColumns(["age"]).leavesOut("age", keyColumns: ["id"]))
    }

    func testTwoWritersChangingDifferentColumnsKeepBothChanges() throws {
        let queue = try makeQueue()
        try queue.write { db in
            guard let fetched = try Person.fetchOne(db, id: 1) else { return XCTFail("no row") }
            var first = fetched
            var second = fetched
            first.email = "ann@new.example.com"
            second.age = 31
            XCTAssertTrue(try first.updateChanges(db, from: fetched))
            XCTAssertTrue(try second.updateChanges(db, from: fetched))
            XCTAssertEqual(
                try Person.fetchOne(db, id: 1), Person(id: 1, name: "Ann", email: "ann@new.example.com", age: 31))
            XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT n FROM writes"), 2)
        }
    }

    func testNothingChangedRunsNoStatement() throws {
        let queue = try makeQueue()
        try queue.write { db in
            guard var ann = try Person.fetchOne(db, id: 1) else { return XCTFail("no row") }
            XCTAssertFalse(try ann.updateChanges(db) { $0.age = 30 })
            try db.execute(sql: "DELETE FROM person")
            // No statement ran, so no row was needed.
            XCTAssertFalse(try ann.updateChanges(db) { $0.name = "Ann" })
            XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT n FROM writes"), 0)
            XCTAssertThrowsError(try ann.updateChanges(db) { $0.age = 40 }) { error in
                XCTAssertEqual(error as? RecordError, .recordNotFound(table: "person", id: "1"))
            }
            XCTAssertEqual(ann.age, 30, "put back when the update throws")
        }
    }

    struct Stop: Error {}

    func testModifyThrowingPutsTheRecordBack() throws {
        let queue = try makeQueue()
        try queue.write { db in
            guard var ann = try Person.fetchOne(db, id: 1) else { return XCTFail("no row") }
            XCTAssertThrowsError(
                try ann.updateChanges(db) {
                    $0.age = 99
                    throw Stop()
                })
            XCTAssertEqual(ann.age, 30)
            XCTAssertTrue(try ann.updateChanges(db) { $0.age = 32 })
            XCTAssertEqual(ann.age, 32)
            XCTAssertEqual(try Person.fetchOne(db, id: 1)?.age, 32)
        }
    }

    func testUpdateNamedColumnsOnly() throws {
        let queue = try makeQueue()
        try queue.write { db in
            let stale = Person(id: 1, name: "Stale", email: "stale@example.com", age: 50)
            for _ in 0..<2 { try stale.update(db, columns: ["age"]) }  // the second through the plan
            XCTAssertEqual(
                try Person.fetchOne(db, id: 1), Person(id: 1, name: "Ann", email: "ann@example.com", age: 50))
            XCTAssertThrowsError(try stale.update(db, columns: ["id"])) { error in
                XCTAssertEqual(
                    error as? RecordError,
                    .unknownColumn(table: "person", column: "id", columns: ["name", "email", "age"]))
            }
            XCTAssertThrowsError(try stale.update(db, columns: ["nickname"])) { error in
                XCTAssertEqual(
                    error as? RecordError,
                    .unknownColumn(table: "person", column: "nickname", columns: ["name", "email", "age"]))
            }
            let gone = Person(id: 9, name: "", email: "", age: 1)
            for _ in 0..<2 {
                XCTAssertThrowsError(try gone.update(db, columns: ["age"])) { error in
                    XCTAssertEqual(error as? RecordError, .recordNotFound(table: "person", id: "9"))
                }
            }
        }
    }

    /// A key another tool stored in another form (uppercase UUID text): when the first UPDATE finds no row,
    /// the retry by every form of the key writes the same columns, not every column.
    struct Lamp: Record, Equatable {
        var id: UUID
        var name: String
        var watts: Int
        static let tableName = "lamps"
    }

    func testARetryByEveryFormOfTheKeyWritesOnlyTheNamedColumns() throws {
        let queue = try DatabaseQueue()
        let id = UUID()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE lamps (id TEXT PRIMARY KEY, name TEXT NOT NULL, watts INTEGER NOT NULL)")
            try db.execute(sql: "INSERT INTO lamps VALUES (?, 'desk', 40)", arguments: [id.uuidString])
            let stale = Lamp(id: id, name: "stale", watts: 60)
            // The second through the plan.
            for _ in 0..<2 { try stale.update(db, columns: ["watts"]) }
            XCTAssertEqual(try Lamp.fetchOne(db, id: id), Lamp(id: id, name: "desk", watts: 60))
            // Another writer renames the lamp after it was fetched; the changed column alone is written.
            guard let fetched = try Lamp.fetchOne(db, id: id) else { return XCTFail("no row") }
            try db.execute(sql: "UPDATE lamps SET name = 'hall'")
            for watts in [75, 100] {
                var changed = fetched
                changed.watts = watts
                XCTAssertTrue(try changed.updateChanges(db, from: fetched))
            }
            XCTAssertEqual(try Lamp.fetchOne(db, id: id), Lamp(id: id, name: "hall", watts: 100))
            XCTAssertEqual(try db.scalar(String.self, sql: "SELECT id FROM lamps"), id.uuidString, "key as it was")
        }
    }

    /// A partial update encodes the whole record, as a full update does, and writes only the named columns:
    /// on a connection's first write (a plan made from the record) and on the later ones (the kept plan) alike, the whole
    /// `encode(to:)` runs and every value is converted.
    struct Gauge: Record, Equatable {
        var id: Int64?
        var level: Int
        var label: String
        var ratio: Double
        static let tableName = "gauges"
        enum CodingKeys: String, CodingKey { case id, level, label, ratio }
        struct Refused: Error, Equatable { let label: String }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(level, forKey: .level)
            // Runs before the next value, so on every update that writes "level".
            if label == "refused before" { throw Refused(label: label) }
            try container.encode(label, forKey: .label)
            if label == "refused after" { throw Refused(label: label) }
            try container.encode(ratio, forKey: .ratio)
        }
    }

    private func makeGauges() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE gauges (id INTEGER PRIMARY KEY, level INTEGER NOT NULL, label TEXT NOT NULL,
                        ratio REAL NOT NULL);
                    INSERT INTO gauges VALUES (1, 0, 'one', 0.5), (2, 0, 'two', 0.5);
                    """)
        }
        return queue
    }

    typealias Outcome = (error: (any Error)?, stored: Gauge?)

    /// Updates gauge 1 to `record`'s `columns` twice: as a connection's first write (a plan made from the record), and
    /// on another connection after a write of the same columns made the plan (that write goes to gauge 2).
    /// - Returns: for each way, the error the update threw (nil when it did not) and gauge 1 as stored.
    private func updateBothWays(_ record: Gauge, columns: [String]) throws -> [Outcome] {
        var outcomes: [Outcome] = []
        for throughPlan in [false, true] {
            let queue = try makeGauges()
            try queue.write { db in
                if throughPlan { try Gauge(id: 2, level: 1, label: "two", ratio: 0.25).update(db, columns: columns) }
                let writes = RecordConnectionCache.of(db).writes
                var refused: (any Error)?
                do {
                    try record.update(db, columns: columns)
                    XCTAssertEqual(RecordConnectionCache.of(db).writes - writes, throughPlan ? 1 : 0, "through the plan")
                } catch {
                    refused = error
                }
                outcomes.append((refused, try Gauge.fetchOne(db, id: 1)))
            }
        }
        return outcomes
    }

    func testAPartialUpdateRunsTheWholeEncodeToAndConvertsEveryValue() throws {
        // The code after "label" runs, though only "level" is written, and refuses: nothing is written.
        let after = Gauge(id: 1, level: 7, label: "refused after", ratio: 0)
        for outcome in try updateBothWays(after, columns: ["level"]) {
            XCTAssertEqual(outcome.error as? Gauge.Refused, Gauge.Refused(label: "refused after"))
            XCTAssertEqual(outcome.stored, Gauge(id: 1, level: 0, label: "one", ratio: 0.5))
        }
        let before = Gauge(id: 1, level: 7, label: "refused before", ratio: 0)
        for outcome in try updateBothWays(before, columns: ["level"]) {
            XCTAssertEqual(outcome.error as? Gauge.Refused, Gauge.Refused(label: "refused before"))
            XCTAssertEqual(outcome.stored, Gauge(id: 1, level: 0, label: "one", ratio: 0.5))
        }
        // A NaN in a column the update does not write is refused, as a full update refuses it.
        let nan = Gauge(id: 1, level: 7, label: "uno", ratio: .nan)
        for outcome in try updateBothWays(nan, columns: ["level", "label"]) {
            guard case .invalidValue(_, let context) = outcome.error as? EncodingError else {
                XCTFail("expected EncodingError.invalidValue, got \(String(describing: outcome.error))")
                continue
            }
            XCTAssertEqual(
                context.debugDescription,
                #"Cannot store Double NaN in column "ratio" of table "gauges": NaN is refused on every engine (SQLite would store it as NULL, PostgreSQL would match it in a filter and sort it above every number)"#)
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["ratio"])
            XCTAssertEqual(outcome.stored, Gauge(id: 1, level: 0, label: "one", ratio: 0.5))
        }
        // Without the NaN the same update writes the named columns only.
        let uno = Gauge(id: 1, level: 7, label: "uno", ratio: 0.125)
        for outcome in try updateBothWays(uno, columns: ["level", "label"]) {
            XCTAssertNil(outcome.error)
            XCTAssertEqual(outcome.stored, Gauge(id: 1, level: 7, label: "uno", ratio: 0.5))
        }
        // Writing "ratio": every value is encoded, and a NaN there is refused.
        let queue = try makeGauges()
        try queue.write { db in
            for round in 0..<2 {
                try Gauge(id: 2, level: 0, label: "", ratio: 0.75).update(db, columns: ["ratio"])
                XCTAssertThrowsError(
                    try Gauge(id: 1, level: 0, label: "", ratio: .nan).update(db, columns: ["ratio"]), "round \(round)"
                ) { error in
                    XCTAssertTrue(error is EncodingError, "\(error)")
                }
            }
            XCTAssertEqual(try Gauge.fetchOne(db, id: 2), Gauge(id: 2, level: 0, label: "two", ratio: 0.75))
        }
    }

    struct Stamp: Record, Equatable {
        var id: Int64?
        var level: Int
        var seen: Date
        static let tableName = "stamps"
    }

    /// A date with no text form in a column the update does not write fails the update, as it fails a full
    /// update: on a first write and through the kept plan, before anything is written.
    func testADateOutOfRangeInAnUnwrittenColumnFailsThePartialUpdate() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE stamps (id INTEGER PRIMARY KEY, level INTEGER NOT NULL, seen TEXT NOT NULL);
                    INSERT INTO stamps VALUES (1, 0, '2020-01-01 00:00:00.000'), (2, 0, '2020-01-01 00:00:00.000');
                    """)
            let beyond = Date(timeIntervalSince1970: 1e12)
            for round in 0..<2 {
                XCTAssertThrowsError(
                    try Stamp(id: 1, level: 5, seen: beyond).update(db, columns: ["level"]), "round \(round)"
                ) { error in
                    guard case .invalidValue(_, let context) = error as? EncodingError else {
                        return XCTFail("expected EncodingError.invalidValue, got \(error)")
                    }
                    XCTAssertEqual(
                        context.debugDescription,
                        #"Cannot store 1000000000000.0 unix seconds in column "seen" of table "stamps" as text: "#
                            + "outside the years 0000-9999 that the text holds")
                }
                // The next round goes through the plan this update makes.
                try Stamp(id: 2, level: round + 1, seen: Date(timeIntervalSince1970: 0)).update(db, columns: ["level"])
            }
            XCTAssertEqual(
                try db.fetchAll(Line.self, sql: "SELECT id || '|' || level || '|' || seen AS line FROM stamps ORDER BY id")
                    .map(\.line),
                ["1|0|2020-01-01 00:00:00.000", "2|2|2020-01-01 00:00:00.000"])
        }
    }

    private struct Line: Decodable { var line: String }

    /// Encodes "level" twice, the second time with 100 added.
    struct Doubled: Record, Equatable {
        var id: Int64?
        var level: Int
        var label: String
        static let tableName = "doubled"
        enum CodingKeys: String, CodingKey { case id, level, label }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(level, forKey: .level)
            try container.encode(label, forKey: .label)
            try container.encode(level + 100, forKey: .level)
        }
    }

    /// A column the record encodes twice gets the value encoded last, from a full update and a partial one
    /// alike, through the plan or not: the UPDATE names it twice, and SQLite keeps the rightmost assignment.
    func testAColumnEncodedTwiceGetsTheLastValueFromFullAndPartialUpdates() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE doubled (id INTEGER PRIMARY KEY, level INTEGER NOT NULL, label TEXT NOT NULL);
                    INSERT INTO doubled VALUES (1, 0, 'a'), (2, 0, 'b');
                    """)
            func stored() throws -> [String] {
                try db.fetchAll(
                    Line.self, sql: "SELECT id || '|' || level || '|' || label AS line FROM doubled ORDER BY id"
                ).map(\.line)
            }
            for round in 1...2 {
                try Doubled(id: 1, level: round, label: "full\(round)").update(db)
                try Doubled(id: 2, level: round, label: "partial\(round)").update(db, columns: ["level"])
                XCTAssertEqual(try stored(), ["1|\(round + 100)|full\(round)", "2|\(round + 100)|b"], "round \(round)")
            }
        }
    }

    /// A record that ignores the errors of its values and goes on, encoding "note" twice: a partial update
    /// that does not write "note" leaves it alone.
    struct Counter: Record, Equatable {
        var id: Int64?
        var hits: Int
        var note: String
        static let tableName = "counters"
        enum CodingKeys: String, CodingKey { case id, hits, note }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try? container.encode(hits, forKey: .hits)
            try? container.encode(note, forKey: .note)
            try? container.encode("fallback", forKey: .note)
        }
    }

    /// A record whose `encode(to:)` encodes its keys in another order than its properties: the key last.
    struct Shelf: Record, Equatable {
        var id: Int64?
        var books: Int
        var room: String
        static let tableName = "shelves"
        enum CodingKeys: String, CodingKey { case id, books, room }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(room, forKey: .room)
            try container.encode(books, forKey: .books)
            try container.encode(id, forKey: .id)
        }
    }

    func testPartialUpdatesOfRecordsThatIgnoreErrorsOrEncodeInAnotherOrder() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE counters (id INTEGER PRIMARY KEY, hits INTEGER NOT NULL, note TEXT NOT NULL);
                    CREATE TABLE shelves (id INTEGER PRIMARY KEY, books INTEGER NOT NULL, room TEXT NOT NULL);
                    INSERT INTO counters VALUES (1, 0, 'kept');
                    INSERT INTO shelves VALUES (1, 0, 'attic');
                    """)
            let writesBefore = RecordConnectionCache.of(db).writes
            for hits in 1...3 { try Counter(id: 1, hits: hits, note: "stale").update(db, columns: ["hits"]) }
            XCTAssertEqual(try Counter.fetchOne(db, id: 1), Counter(id: 1, hits: 3, note: "kept"))
            // "books" comes before the key, which the record encodes last.
            for books in 1...3 { try Shelf(id: 1, books: books, room: "stale").update(db, columns: ["books"]) }
            XCTAssertEqual(try Shelf.fetchOne(db, id: 1), Shelf(id: 1, books: 3, room: "attic"))
            for room in ["hall", "study"] { try Shelf(id: 1, books: 0, room: room).update(db, columns: ["room"]) }
            XCTAssertEqual(try Shelf.fetchOne(db, id: 1), Shelf(id: 1, books: 3, room: "study"))
            // After each type's first write of a set of columns, the others went through the plans.
            XCTAssertEqual(RecordConnectionCache.of(db).writes - writesBefore, 5)
        }
    }

    /// A date, an optional and a REAL: the comparisons after a connection's first go through its change
    /// comparison (two plans that keep the encoded values), and find what a comparison by column name finds.
    struct Note: Record, Equatable {
        var id: Int64?
        var body: String
        var editedAt: Date
        var tag: String?
        var score: Double
        static let tableName = "note"
    }

    func testComparisonsThroughThePlansFindWhatTheCollectedWayFinds() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE note (
                        id INTEGER PRIMARY KEY, body TEXT NOT NULL, editedAt TEXT NOT NULL, tag TEXT,
                        score REAL NOT NULL)
                    """)
            let date = Date(timeIntervalSince1970: 1_700_000_000.25)
            var original = Note(id: nil, body: "a", editedAt: date, tag: nil, score: 1.5)
            try original.insert(db)
            let cases: [(name: String, change: (inout Note) -> Void, changed: [String])] = [
                ("nothing", { _ in }, []),
                ("a date below the stored millisecond", { $0.editedAt = date.addingTimeInterval(0.0001) }, []),
                ("a date a millisecond later", { $0.editedAt = date.addingTimeInterval(0.001) }, ["editedAt"]),
                ("nil to text", { $0.tag = "x" }, ["tag"]),
                ("a text over 4096 bytes", { $0.body = String(repeating: "b", count: 5000) }, ["body"]),
                ("two columns", { $0.score = 2; $0.tag = "y" }, ["tag", "score"]),
                ("the key", { $0.id = 7 }, []),
            ]
            // Each case twice: the connection's first comparison makes the plans, the second reuses them.
            for round in 0..<2 {
                for (name, change, expected) in cases {
                    var changed = original
                    change(&changed)
                    XCTAssertEqual(
                        try changed.changedColumns(from: original, db: db), expected, "\(name), round \(round)")
                }
            }
            XCTAssertNotNil(RecordConnectionCache.of(db).comparisons[ObjectIdentifier(Note.self)])
            original.score = 0
            var zero = original
            zero.score = -0.0
            XCTAssertEqual(try zero.changedColumns(from: original, db: db), [], "0.0 and -0.0 are one REAL")
            // A schema change makes the plans anew.
            try db.execute(sql: "ALTER TABLE note ADD COLUMN extra TEXT")
            var renamed = original
            renamed.body = "c"
            for _ in 0..<2 { XCTAssertEqual(try renamed.changedColumns(from: original, db: db), ["body"]) }
            XCTAssertTrue(try renamed.updateChanges(db, from: original))
            XCTAssertEqual(try Note.fetchOne(db, id: 1)?.body, "c")
        }
    }

    /// A record whose `encode(to:)` leaves a nil value's key out: the records whose keys differ from the
    /// plans' are compared through a comparison made from the record, or by column name.
    func testRecordsThatLeaveOutAKeyAreComparedTheCollectedWay() throws {
        typealias Memo = RecordWritePlanTests.Memo
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE memos (id INTEGER PRIMARY KEY, title TEXT NOT NULL, note TEXT)")
            let full = Memo(id: 1, title: "Ann", note: "An")
            var renamed = full
            renamed.title = "Anne"
            var bare = full
            bare.note = nil
            for round in 0..<2 {
                XCTAssertEqual(try renamed.changedColumns(from: full, db: db), ["title"], "round \(round)")
                XCTAssertEqual(try full.changedColumns(from: bare, db: db), ["note"], "round \(round)")
                // The comparison by column name compares the columns the record encodes.
                XCTAssertEqual(try bare.changedColumns(from: full, db: db), [], "round \(round)")
            }
        }
    }

    func testTheDefaultStoreAndAsyncForms() async throws {
        let queue = try makeQueue()
        try RecordStore.use(queue)
        guard var ann = try await Person.fetchOne(id: 1) else { return XCTFail("no row") }
        let changed = try await ann.updateChanges { $0.age = 41 }
        XCTAssertTrue(changed)
        let asyncChanged = try await ann.updateChanges { $0.name = "Anne" }
        XCTAssertTrue(asyncChanged)
        let original = ann
        ann.email = "a@example.com"
        let fromOriginal = try await ann.updateChanges(from: original)
        XCTAssertTrue(fromOriginal)
        try await Person(id: 1, name: "x", email: "x", age: 7).update(columns: ["age"])
        let stored = try await Person.fetchOne(id: 1)
        XCTAssertEqual(stored, Person(id: 1, name: "Anne", email: "a@example.com", age: 7))
    }
}
