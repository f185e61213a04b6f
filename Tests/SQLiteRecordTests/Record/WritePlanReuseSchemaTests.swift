import CSQLiteRecord
import Foundation
import XCTest

@testable import SQLiteRecord

/// Kept write plans under schema changes (ALTER TABLE, migrations, rolled-back DDL, TEMP tables that shadow
/// a table) and under batches and children that roll back.
final class WritePlanReuseSchemaTests: XCTestCase {
    private struct Boom: Error, CustomStringConvertible {
        var description: String { "boom from encode(to:)" }
    }

    // MARK: - Schema changes between writes

    private struct Code: Record {
        var id: Int64?
        var code: String
        static let tableName = "codes"
    }

    private func codes(_ db: Database) throws -> [String] {
        try db.fetchAll(String.self, sql: "SELECT quote(code) FROM codes ORDER BY id")
    }

    func testAddColumnRenameColumnAndMigratorBetweenPlannedWrites() throws {
        /// The same schema changes and writes, with the plans kept or dropped before every write.
        func scenario(freshPlans: Bool) throws -> (outcomes: [String], rows: [String]) {
            let db = try Database()
            var outcomes: [String] = []
            func insert(_ code: String) {
                if freshPlans { db.recordCache = nil }
                var record = Code(id: nil, code: code)
                do {
                    try record.insert(db)
                    outcomes.append("ok \(record.id!)")
                } catch { outcomes.append(WritePlanOracle.describe(error)) }
            }
            func update(_ id: Int64, _ code: String) {
                if freshPlans { db.recordCache = nil }
                do {
                    try Code(id: id, code: code).update(db)
                    outcomes.append("updated \(id)")
                } catch { outcomes.append(WritePlanOracle.describe(error)) }
            }
            try db.execute(sql: "CREATE TABLE codes(id INTEGER PRIMARY KEY, code TEXT)")
            insert("a")
            insert("b")
            try db.execute(sql: "ALTER TABLE codes ADD COLUMN extra TEXT NOT NULL DEFAULT 'x'")
            insert("c")
            insert("d")
            update(1, "a2")
            update(2, "b2")
            // The column the plans bind is renamed away, then back.
            try db.execute(sql: "ALTER TABLE codes RENAME COLUMN code TO label")
            insert("e")
            insert("e")
            update(1, "a3")
            update(1, "a3")
            try db.execute(sql: "ALTER TABLE codes RENAME COLUMN label TO code")
            insert("e")
            update(1, "a4")
            // A migrator that rebuilds the table with NUMERIC affinity.
            var migrator = DatabaseMigrator()
            migrator.registerMigration("numeric", foreignKeyChecks: .deferred) { db in
                try db.execute(
                    sql: """
                        CREATE TABLE new_codes(id INTEGER PRIMARY KEY, code NUMERIC, extra TEXT);
                        INSERT INTO new_codes SELECT id, code, extra FROM codes;
                        DROP TABLE codes;
                        ALTER TABLE new_codes RENAME TO codes;
                        """)
            }
            try migrator.migrate(db)
            insert("00120")
            insert("120")
            insert("0.50")
            update(2, "007")
            update(2, "7")
            return (outcomes, try WritePlanOracle.rows(db, "codes"))
        }
        let kept = try scenario(freshPlans: false)
        let fresh = try scenario(freshPlans: true)
        for (index, (plan, reference)) in zip(kept.outcomes, fresh.outcomes).enumerated() {
            XCTAssertEqual(plan, reference, "write \(index)")
        }
        XCTAssertEqual(kept.rows, fresh.rows)
        XCTAssertEqual(Array(kept.outcomes[0..<6]), ["ok 1", "ok 2", "ok 3", "ok 4", "updated 1", "updated 2"])
        XCTAssertTrue(kept.outcomes[6].contains("no column named code"), kept.outcomes[6])
        XCTAssertTrue(kept.outcomes[12].contains("'00120'"), kept.outcomes[12])
        XCTAssertEqual(kept.rows, ["1|'a4'|'x'", "2|7|'x'", "3|'c'|'x'", "4|'d'|'x'", "5|'e'|'x'", "6|120|NULL"])
    }

    /// Once a defect, now fixed: `PRAGMA schema_version` goes back down on ROLLBACK, so the same version number can
    /// name two different schemas. A plan made inside a rolled-back transaction is taken as current when a
    /// later schema change lands on the same number: its affinity guard says TEXT where the column is now
    /// NUMERIC, and '00120' is stored as 120. A fresh plan (whose schema cache saw the version go down)
    /// refuses it.
    func testAPlanMadeInARolledBackTransactionIsNotReusedForAnotherSchemaWithTheSameVersion() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE codes(id INTEGER PRIMARY KEY, code TEXT)")
        var first = Code(id: nil, code: "A1")
        try first.insert(db)
        let version = try XCTUnwrap(db.fetchOne(Int64.self, sql: "PRAGMA schema_version"))
        try db.execute(sql: "BEGIN")
        try db.execute(sql: "DROP TABLE codes; CREATE TABLE codes(id INTEGER PRIMARY KEY, code TEXT)")
        var inside = Code(id: nil, code: "B2")
        try inside.insert(db)  // the plan is remade at version + 2
        try db.execute(sql: "ROLLBACK")
        XCTAssertEqual(
            try XCTUnwrap(db.fetchOne(Int64.self, sql: "PRAGMA schema_version")), version, "the version went back down")
        _ = try db.columns(in: "codes")  // anything that reads the schema
        try db.execute(sql: "DROP TABLE codes; CREATE TABLE codes(id INTEGER PRIMARY KEY, code NUMERIC)")
        XCTAssertEqual(
            try XCTUnwrap(db.fetchOne(Int64.self, sql: "PRAGMA schema_version")), version + 2,
            "the same number as the rolled-back schema")
        var fresh = SharedCode(id: nil, code: "00120")
        XCTAssertThrowsError(try fresh.insert(db), "a fresh plan (another type, none kept) refuses it")
        var padded = Code(id: nil, code: "00120")
        XCTAssertThrowsError(try padded.insert(db), "'00120' would be stored as 120")
        XCTAssertEqual(try codes(db), [])
    }

    /// Once a defect, now fixed (both ways, not only the plan): as above, with nothing between the ROLLBACK and the
    /// new schema. The schema cache itself still holds the rolled-back schema's affinities under the same
    /// version number, so even a fresh plan (another record type, writing that table for the first
    /// time on this connection) lets '00120' become 120.
    func testTheAffinityCacheIsNotReusedForAnotherSchemaWithTheSameVersion() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE codes(id INTEGER PRIMARY KEY, code TEXT)")
        var first = Code(id: nil, code: "A1")
        try first.insert(db)
        XCTAssertThrowsError(
            try db.transaction { () throws -> Void in
                try db.execute(sql: "DROP TABLE codes; CREATE TABLE codes(id INTEGER PRIMARY KEY, code TEXT)")
                var inside = Code(id: nil, code: "B2")
                try inside.insert(db)
                throw Boom()
            })
        try db.execute(sql: "DROP TABLE codes; CREATE TABLE codes(id INTEGER PRIMARY KEY, code NUMERIC)")
        var padded = Code(id: nil, code: "00120")
        XCTAssertThrowsError(try padded.insert(db), "kept plan: '00120' would be stored as 120")
        var other = SharedCode(id: nil, code: "00120")
        XCTAssertThrowsError(try other.insert(db), "fresh plan: '00120' would be stored as 120")
        XCTAssertEqual(try codes(db), [])
    }

    private struct SharedCode: Record {
        var id: Int64?
        var code: String
        static let tableName = "codes"
    }

    /// Once a defect, now fixed (both ways): a TEMP table of the same name shadows the main one without changing the
    /// main schema's version, which is all the plans and the schema cache compare. Writes then go to the
    /// TEMP table (SQLite re-prepares) but are checked against the main table's affinities.
    func testATempTableThatShadowsTheTableIsCheckedWithItsOwnAffinity() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE codes(id INTEGER PRIMARY KEY, code TEXT)")
        for code in ["A1", "A2"] {
            var record = Code(id: nil, code: code)
            try record.insert(db)
        }
        try db.execute(sql: "CREATE TEMP TABLE codes(id INTEGER PRIMARY KEY, code NUMERIC)")
        var padded = Code(id: nil, code: "00120")
        XCTAssertThrowsError(try padded.insert(db), "kept plan: '00120' would be stored as 120 in temp.codes")
        var fresh = SharedCode(id: nil, code: "00120")
        XCTAssertThrowsError(try fresh.insert(db), "fresh plan: '00120' would be stored as 120 in temp.codes")
        XCTAssertEqual(try db.fetchAll(String.self, sql: "SELECT quote(code) FROM temp.codes"), [])
        XCTAssertEqual(try db.fetchAll(String.self, sql: "SELECT quote(code) FROM main.codes"), ["'A1'", "'A2'"])
    }

    func testSchemaChangesInsideTransactionsAndSavepoints() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE codes(id INTEGER PRIMARY KEY, code TEXT)")
        var first = Code(id: nil, code: "007")
        try first.insert(db)
        XCTAssertThrowsError(
            try db.transaction { () throws -> Void in
                var second = Code(id: nil, code: "008")
                try second.insert(db)
                try db.transaction { () throws -> Void in  // a savepoint
                    try db.execute(sql: "DROP TABLE codes; CREATE TABLE codes(id INTEGER PRIMARY KEY, code INTEGER)")
                    var refused = Code(id: nil, code: "009")
                    XCTAssertThrowsError(try refused.insert(db))
                    var fine = Code(id: nil, code: "9")
                    try fine.insert(db)
                    throw Boom()
                }
            })
        XCTAssertEqual(try codes(db), ["'007'"], "the outer transaction rolled back with the savepoint's error")
        try db.transaction { () throws -> Void in
            XCTAssertThrowsError(
                try db.transaction { () throws -> Void in  // a savepoint rolled back alone
                    try db.execute(sql: "DROP TABLE codes; CREATE TABLE codes(id INTEGER PRIMARY KEY, code INTEGER)")
                    var fine = Code(id: nil, code: "9")
                    try fine.insert(db)
                    throw Boom()
                })
        }
        // Back to TEXT after the rollback: the plan made under INTEGER must not refuse.
        var kept = Code(id: nil, code: "010")
        try kept.insert(db)
        var kept2 = Code(id: nil, code: "011")
        try kept2.insert(db)
        XCTAssertEqual(try codes(db), ["'007'", "'010'", "'011'"])
    }

    /// Once a defect, now fixed (both ways, low severity): DDL run through `fetchAll(sql:)` inside a transaction: the schema cache is taken as current for the
    /// whole transaction unless `execute` or a prepared statement of the user's ran.
    func testDDLThroughFetchInsideATransactionIsSeen() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE codes(id INTEGER PRIMARY KEY, code TEXT)")
        var first = Code(id: nil, code: "A1")
        try first.insert(db)
        try db.transaction {
            var second = Code(id: nil, code: "A2")
            try second.insert(db)
            _ = try db.fetchAll(sql: "DROP TABLE codes")
            _ = try db.fetchAll(sql: "CREATE TABLE codes(id INTEGER PRIMARY KEY, code NUMERIC)")
            var padded = Code(id: nil, code: "00120")
            XCTAssertThrowsError(try padded.insert(db), "'00120' would be stored as 120")
        }
        XCTAssertEqual(try codes(db), [])
    }

    // MARK: - Batches and children that roll back

    private struct Tag: Record, Equatable {
        var id: Int64?
        var label: String
        var postId: Int64?
        static let tableName = "tags"
        mutating func bind(to parent: any Record) {
            if let post = parent as? Post { postId = post.id }
        }
    }

    private struct Post: Record, Equatable {
        var id: Int64?
        var title: String
        static let tableName = "posts"
    }

    private static let postsSchema = """
        CREATE TABLE posts(id INTEGER PRIMARY KEY, title TEXT UNIQUE);
        CREATE TABLE tags(id INTEGER PRIMARY KEY, label TEXT CHECK (label <> 'bad'), postId INTEGER REFERENCES posts(id));
        """

    func testBatchSaveThatRollsBackThroughThePlanRestoresIDsAndRows() throws {
        let db = try Database()
        try db.execute(sql: Self.postsSchema)
        var warm = [Tag(id: nil, label: "w1", postId: nil), Tag(id: nil, label: "w2", postId: nil)]
        try Tag.save(db, &warm)
        warm[0].label = "w1-updated"
        var batch =
            warm + [
                Tag(id: nil, label: "n1", postId: nil), Tag(id: nil, label: "n2", postId: nil),
                Tag(id: nil, label: "bad", postId: nil), Tag(id: nil, label: "n3", postId: nil),
            ]
        let before = batch
        XCTAssertThrowsError(try Tag.save(db, &batch)) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .constraintCheck)
            XCTAssertEqual(
                (error as? DatabaseError)?.arguments?.values, [.text("bad"), .null], "the bound values, no id")
        }
        XCTAssertEqual(batch, before)
        XCTAssertEqual(try WritePlanOracle.rows(db, "tags"), ["1|'w1'|NULL", "2|'w2'|NULL"])
        batch[4].label = "good"
        try Tag.save(db, &batch)
        XCTAssertEqual(batch.map(\.id), [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(
            try WritePlanOracle.rows(db, "tags"),
            ["1|'w1-updated'|NULL", "2|'w2'|NULL", "3|'n1'|NULL", "4|'n2'|NULL", "5|'good'|NULL", "6|'n3'|NULL"])
        XCTAssertEqual(try Tag.fetch(db, orderBy: [.ascending("id")]), batch)
    }

    func testSaveChildrenThatRollsBackThroughThePlanRestoresParentAndChildren() throws {
        let db = try Database()
        try db.execute(sql: Self.postsSchema)
        var warmPost = Post(id: nil, title: "warm")
        var warmTags = [Tag(id: nil, label: "t1", postId: nil), Tag(id: nil, label: "t2", postId: nil)]
        try warmPost.save(db, children: &warmTags)
        var post = Post(id: nil, title: "second")
        var tags = [Tag(id: nil, label: "t3", postId: nil), Tag(id: nil, label: "bad", postId: nil)]
        XCTAssertThrowsError(try post.save(db, children: &tags))
        XCTAssertNil(post.id)
        XCTAssertEqual(tags.map(\.id), [nil, nil])
        XCTAssertEqual(tags.map(\.postId), [nil, nil])
        var duplicate = Post(id: nil, title: "warm")
        var more = [Tag(id: nil, label: "t4", postId: nil)]
        XCTAssertThrowsError(try duplicate.save(db, children: &more))
        XCTAssertNil(duplicate.id)
        tags[1].label = "t3b"
        try post.save(db, children: &tags)
        XCTAssertEqual(post.id, 2)
        XCTAssertEqual(tags.map(\.id), [3, 4])
        XCTAssertEqual(try WritePlanOracle.rows(db, "posts"), ["1|'warm'", "2|'second'"])
        XCTAssertEqual(try WritePlanOracle.rows(db, "tags"), ["1|'t1'|1", "2|'t2'|1", "3|'t3'|2", "4|'t3b'|2"])
    }
}
