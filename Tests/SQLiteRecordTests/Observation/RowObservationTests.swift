import Foundation
import XCTest

@testable import SQLiteRecord

/// Observation by row on SQLite: a read of rows by their rowid key reads again only after a commit that
/// changed one of those rows, and each gap of SQLite's update hook (REPLACE, the truncation of a `DELETE`
/// without `WHERE`, WITHOUT ROWID tables, an update of the rowid) counts as a change of the whole table.
/// On a queue each commit's read runs before `write` returns, so the counts are exact right after it.
final class RowObservationTests: XCTestCase {
    private func makeQueue(_ schema: String = observationSchema) throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: schema)
            for id in 1...10 {
                try db.execute(sql: "INSERT INTO items(id, name) VALUES (?, ?)", arguments: [id, "n\(id)"])
            }
        }
        return queue
    }

    /// The observation of `read`, counting its reads in `reads`.
    private func counting<Value: Sendable>(
        _ reads: Locked<Int>, _ read: @escaping @Sendable (Database) throws -> Value
    ) -> ValueObservation<Value> {
        ValueObservation.tracking { (db: Database) in
            reads.withLock { $0 += 1 }
            return try read(db)
        }
    }

    private func rename(_ id: Int, _ name: String, in queue: DatabaseQueue) async throws {
        try await queue.write { db in
            try db.execute(sql: "UPDATE items SET name = ? WHERE id = ?", arguments: [name, id])
        }
    }

    func testAnObservationByIDReadsAgainOnlyWhenItsRowChanges() async throws {
        let queue = try makeQueue()
        let reads = Locked(0)
        let observed = ObservedValues(
            counting(reads) { db in try ObservedItem.fetchOne(db, id: 5)?.name }.values(in: queue))
        _ = try await observed.wait(count: 1)
        try await rename(3, "three", in: queue)
        try await queue.write { db in try db.execute(sql: "DELETE FROM items WHERE id = 7") }
        try await queue.write { db in try db.execute(sql: "INSERT INTO items(id, name) VALUES (11, 'eleven')") }
        XCTAssertEqual(reads.withLock { $0 }, 1)
        try await rename(5, "five", in: queue)
        XCTAssertEqual(reads.withLock { $0 }, 2)
        try await queue.write { db in try db.execute(sql: "DELETE FROM items WHERE id = 5") }
        try await queue.write { db in try db.execute(sql: "INSERT INTO items(id, name) VALUES (5, 'again')") }
        let values = try await observed.wait(count: 4)
        XCTAssertEqual(values, ["n5", "five", nil, "again"])
        XCTAssertEqual(reads.withLock { $0 }, 4)
        observed.cancel()
    }

    func testEveryFormThatNamesItsKeysIsNarrowedToItsRows() async throws {
        let queue = try makeQueue()
        let forms: [(String, @Sendable (Database) throws -> [String])] = [
            ("fetchOne(id:)", { db in try ObservedItem.fetchOne(db, id: 5).map { [$0.name] } ?? [] }),
            ("fetch(ids:)", { db in try ObservedItem.fetch(db, ids: [2, 5]).map(\.name).sorted() }),
            ("where: dictionary", { db in try ObservedItem.fetch(db, where: ["id": 5]).map(\.name) }),
            ("filter ==", { db in try ObservedItem.filter(Column("id") == 5).fetch(db).map(\.name) }),
            (
                "filter IN",
                { db in try ObservedItem.filter(Column("id").in([2, 5])).order(Column("id")).fetch(db).map(\.name) }
            ),
            (
                "filter == AND",
                { db in
                    try ObservedItem.filter(Column("id") == 5 && Column("name") != "x").fetch(db).map(\.name)
                }
            ),
        ]
        let counts = forms.map { _ in Locked(0) }
        let observations = zip(forms, counts).map { form, reads in
            ObservedValues(counting(reads, form.1).values(in: queue))
        }
        for observed in observations { _ = try await observed.wait(count: 1) }
        // Rows none of them read.
        try await rename(3, "three", in: queue)
        try await queue.write { db in try db.execute(sql: "INSERT INTO items(id, name) VALUES (12, 'twelve')") }
        XCTAssertEqual(counts.map { $0.withLock { $0 } }, Array(repeating: 1, count: forms.count), "\(forms.map(\.0))")
        try await rename(5, "five", in: queue)
        XCTAssertEqual(counts.map { $0.withLock { $0 } }, Array(repeating: 2, count: forms.count), "\(forms.map(\.0))")
        let both = try await observations[1].wait(count: 2)
        XCTAssertEqual(both.last, ["five", "n2"])
        let anded = try await observations[5].wait(count: 2)
        XCTAssertEqual(anded.last, ["five"])
        for observed in observations { observed.cancel() }
    }

    func testReadsTheLibraryCannotNarrowObserveTheTable() async throws {
        let queue = try makeQueue()
        let forms: [(String, @Sendable (Database) throws -> [String])] = [
            (
                "SQL of your own",
                { db in try ObservedItem.fetch(db, sql: "SELECT * FROM items WHERE id = 5").map(\.name) }
            ),
            (
                "filter on another column",
                { db in try ObservedItem.filter(Column("name") == "n5").fetch(db).map(\.name) }
            ),
            (
                "filter OR",
                { db in try ObservedItem.filter(Column("id") == 5 || Column("id") == 6).fetch(db).map(\.name) }
            ),
            (
                "filter AND SQL",
                { db in
                    try ObservedItem.filter(Column("id") == 5).filter(sql: "name IN (SELECT name FROM items)").fetch(db)
                        .map(\.name)
                }
            ),
        ]
        let counts = forms.map { _ in Locked(0) }
        let observations = zip(forms, counts).map { form, reads in
            ObservedValues(counting(reads, form.1).values(in: queue))
        }
        for observed in observations { _ = try await observed.wait(count: 1) }
        try await rename(3, "three", in: queue)
        XCTAssertEqual(counts.map { $0.withLock { $0 } }, Array(repeating: 2, count: forms.count), "\(forms.map(\.0))")
        for observed in observations { observed.cancel() }
    }

    /// Observes row 5 through `fetchOne(_:id:)`, runs `write`, and checks that the observation read again
    /// and delivered `expected`.
    private func assertRowFiveIsReadAgain(
        schema: String = observationSchema, after write: @escaping @Sendable (Database) throws -> Void,
        delivers expected: String?, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let queue = try makeQueue(schema)
        let reads = Locked(0)
        let observed = ObservedValues(
            counting(reads) { db in try ObservedItem.fetchOne(db, id: 5)?.name }.values(in: queue))
        _ = try await observed.wait(count: 1)
        // Narrowed: a change of another row reads nothing.
        try await rename(3, "three", in: queue)
        XCTAssertEqual(reads.withLock { $0 }, 1, file: file, line: line)
        try await queue.write(write)
        XCTAssertEqual(reads.withLock { $0 }, 2, file: file, line: line)
        let values = try await observed.wait(count: 2)
        XCTAssertEqual(values, ["n5", expected], file: file, line: line)
        observed.cancel()
    }

    func testAnInsertOrReplaceThatDeletesTheRowIsSeen() async throws {
        // The row REPLACE deletes (5, whose name conflicts) is not reported by the update hook; the insert
        // is, under the new rowid 20.
        try await assertRowFiveIsReadAgain(
            schema: "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)",
            after: { db in try db.execute(sql: "INSERT OR REPLACE INTO items(id, name) VALUES (20, 'n5')") },
            delivers: nil)
        try await assertRowFiveIsReadAgain(
            schema: "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)",
            after: { db in try db.execute(sql: "replace into items(id, name) values (21, 'n5')") }, delivers: nil)
    }

    func testAConflictClauseOfTheTableThatReplacesIsSeen() async throws {
        // The statement says nothing of REPLACE: the table's definition does, so the read observes the table.
        let schema = "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE ON CONFLICT REPLACE)"
        let queue = try makeQueue(schema)
        let reads = Locked(0)
        let observed = ObservedValues(
            counting(reads) { db in try ObservedItem.fetchOne(db, id: 5)?.name }.values(in: queue))
        _ = try await observed.wait(count: 1)
        try await queue.write { db in try db.execute(sql: "INSERT INTO items(id, name) VALUES (20, 'n5')") }
        XCTAssertEqual(reads.withLock { $0 }, 2)
        let values = try await observed.wait(count: 2)
        XCTAssertEqual(values, ["n5", nil])
        observed.cancel()
    }

    func testADeleteWithoutWhereIsSeen() async throws {
        // SQLite truncates the table, and the update hook reports no row.
        try await assertRowFiveIsReadAgain(after: { db in try db.execute(sql: "DELETE FROM items") }, delivers: nil)
    }

    func testAnUpdateOfTheRowIDIsSeen() async throws {
        // The update hook reports the row under its new rowid, 50.
        try await assertRowFiveIsReadAgain(
            after: { db in try db.execute(sql: "UPDATE items SET id = 50 WHERE id = 5") }, delivers: nil)
        try await assertRowFiveIsReadAgain(
            after: { db in try db.execute(sql: "UPDATE items SET rowid = 50 WHERE id = 5") }, delivers: nil)
    }

    func testAWriteOfMoreRowsThanAreKeptIsSeen() async throws {
        let count = DatabaseChange.rowLimit + 1
        try await assertRowFiveIsReadAgain(
            after: { db in
                for id in 100..<(100 + count) {
                    try db.execute(sql: "INSERT INTO items(id, name) VALUES (?, 'bulk')", arguments: [id])
                }
            }, delivers: "n5")
    }

    func testARowDeletedOrChangedByAForeignKeyActionIsSeen() async throws {
        // The child rows a cascade deletes, or SET NULL updates, are changed by SQLite's own triggers.
        let schema = """
            CREATE TABLE lists(id INTEGER PRIMARY KEY);
            CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL,
                list_id INTEGER REFERENCES lists(id) ON DELETE CASCADE);
            INSERT INTO lists(id) VALUES (1), (2);
            """
        try await assertRowFiveIsReadAgain(
            schema: schema,
            after: { db in
                try db.execute(sql: "UPDATE items SET list_id = 1 WHERE id = 5")
                try db.execute(sql: "DELETE FROM lists WHERE id = 1")
            }, delivers: nil)
    }

    func testTheUpdateHookIsInstalledOnlyWhileAnObservationReadsRows() async throws {
        let queue = try makeQueue()
        let byTable = ObservedValues(ValueObservation.tracking(itemNames).values(in: queue))
        _ = try await byTable.wait(count: 1)
        try await rename(3, "three", in: queue)
        let reportsBefore = try await queue.read { db in db.changeTracker.isReportingRows }
        XCTAssertFalse(reportsBefore)
        let byRow = ObservedValues(ObservedItem.observation(id: 5).values(in: queue))
        _ = try await byRow.wait(count: 1)
        // Installed by the next write, before it runs: its row is reported.
        try await rename(5, "five", in: queue)
        let reportsWhileObserved = try await queue.read { db in db.changeTracker.isReportingRows }
        XCTAssertTrue(reportsWhileObserved)
        let values = try await byRow.wait(count: 2)
        XCTAssertEqual(values.map { $0?.name }, ["n5", "five"])
        byRow.cancel()
        let tracker = try await queue.read { db in db.changeTracker }
        try await waitUntil { tracker.observerCount == 1 }
        try await rename(3, "three again", in: queue)
        let reportsAfter = try await queue.read { db in db.changeTracker.isReportingRows }
        XCTAssertFalse(reportsAfter)
        byTable.cancel()
    }

    func testAWithoutRowIDTableIsObservedWhole() async throws {
        let schema = "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID"
        let queue = try makeQueue(schema)
        let reads = Locked(0)
        let observed = ObservedValues(
            counting(reads) { db in try ObservedItem.fetchOne(db, id: 5)?.name }.values(in: queue))
        _ = try await observed.wait(count: 1)
        try await rename(3, "three", in: queue)
        XCTAssertEqual(reads.withLock { $0 }, 2)
        try await rename(5, "five", in: queue)
        XCTAssertEqual(reads.withLock { $0 }, 3)
        let values = try await observed.wait(count: 3)
        XCTAssertEqual(values, ["n5", "n5", "five"])
        observed.cancel()
    }

    func testATextKeyIsObservedWhole() async throws {
        struct Tag: Record, Sendable {
            var id: String
            var name: String
            static let tableName = "tags"
        }
        let queue = try DatabaseQueue()
        try await queue.write { db in
            try db.execute(sql: "CREATE TABLE tags(id TEXT PRIMARY KEY, name TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO tags VALUES ('a', 'A'), ('b', 'B')")
        }
        let reads = Locked(0)
        let observed = ObservedValues(counting(reads) { db in try Tag.fetchOne(db, id: "a")?.name }.values(in: queue))
        _ = try await observed.wait(count: 1)
        try await queue.write { db in try db.execute(sql: "UPDATE tags SET name = 'BB' WHERE id = 'b'") }
        XCTAssertEqual(reads.withLock { $0 }, 2)
        observed.cancel()
    }
}
