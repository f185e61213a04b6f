import SQLiteRecord
import XCTest

/// An insert's id is the id of the row it inserted, or it throws; updates and deletes say what they did.
final class WritesThatNeverLieTests: XCTestCase {
    struct Label: Record, Equatable {
        var id: Int64?
        var name: String
        static let tableName = "label"
    }

    struct Memo: Record, Equatable {
        var id: Int64?
        var body: String
        static let tableName = "memo"
    }

    private func makeQueue() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE label (id INTEGER PRIMARY KEY, name TEXT NOT NULL, UNIQUE (name) ON CONFLICT IGNORE);
                    CREATE TABLE memo  (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
                    CREATE TRIGGER memo_skip_blank BEFORE INSERT ON memo WHEN trim(NEW.body) = ''
                    BEGIN SELECT RAISE(IGNORE); END;
                    INSERT INTO label VALUES (1, 'red');
                    INSERT INTO memo  VALUES (100, 'seed');
                    """)
        }
        return queue
    }

    func testAnIgnoredInsertThrowsAndTakesNoOtherRowsID() throws {
        let queue = try makeQueue()
        try queue.write { db in
            var hello = Memo(id: nil, body: "hello")
            try hello.save(db)
            XCTAssertEqual(hello.id, 101)

            var red = Label(id: nil, name: "red")
            XCTAssertThrowsError(try red.save(db)) { error in
                XCTAssertEqual(error as? RecordError, .rowNotInserted(table: "label"))
                XCTAssertTrue("\(error)".contains("No row was inserted into table \"label\""))
            }
            XCTAssertNil(red.id)

            var blank = Memo(id: nil, body: "   ")
            XCTAssertThrowsError(try blank.save(db)) { error in
                XCTAssertEqual(error as? RecordError, .rowNotInserted(table: "memo"))
            }
            XCTAssertNil(blank.id)

            var blue = Label(id: nil, name: "blue")
            try blue.save(db)
            XCTAssertEqual(blue.id, 2)
        }
        try queue.read { db in
            XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM label"), 2)
            XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM memo"), 2)
            XCTAssertEqual(try Memo.fetchOne(db, id: 101)?.body, "hello")
        }
    }

    func testTheSameThroughThePlanAfterTheFirstInsertOfAType() throws {
        // The first insert of a type prepares the plan the later ones are bound into; the check holds there too.
        let queue = try makeQueue()
        try RecordStore.use(queue)
        var first = Memo(id: nil, body: "first")
        try first.save()
        var second = Memo(id: nil, body: "second")
        try second.save()
        XCTAssertEqual([first.id, second.id], [101, 102])
        var red = Label(id: nil, name: "red")
        XCTAssertThrowsError(try red.save())
        var blank = Memo(id: nil, body: "")
        XCTAssertThrowsError(try blank.insert()) { error in
            XCTAssertEqual(error as? RecordError, .rowNotInserted(table: "memo"))
        }
        XCTAssertNil(blank.id)
        XCTAssertEqual(try Memo.count(), 3)
        XCTAssertEqual(try Memo.fetchOne(id: 102)?.body, "second")
    }

    func testAnIgnoredInsertWithAnIDThrowsToo() throws {
        let queue = try makeQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE tag (id INTEGER PRIMARY KEY ON CONFLICT IGNORE, name TEXT)")
            try db.execute(sql: "INSERT INTO tag VALUES (7, 'kept')")
        }
        struct Tag: Record {
            var id: Int64?
            var name: String
            static let tableName = "tag"
        }
        var tag = Tag(id: 7, name: "new")
        XCTAssertThrowsError(try queue.write { db in try tag.insert(db) }) { error in
            XCTAssertEqual(error as? RecordError, .rowNotInserted(table: "tag"))
        }
        XCTAssertEqual(try queue.read { db in try db.scalar(String.self, sql: "SELECT name FROM tag") }, "kept")
    }

    func testAnIgnoredUpdateIsNotRecordNotFound() throws {
        let queue = try makeQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER memo_frozen BEFORE UPDATE ON memo WHEN OLD.body = 'seed'
                    BEGIN SELECT RAISE(IGNORE); END;
                    """)
        }
        let seed = Memo(id: 100, body: "changed")
        XCTAssertThrowsError(try queue.write { db in try seed.update(db) }) { error in
            XCTAssertEqual(error as? RecordError, .rowNotUpdated(table: "memo", id: "100"))
        }
        let gone = Memo(id: 999, body: "x")
        XCTAssertThrowsError(try queue.write { db in try gone.update(db) }) { error in
            XCTAssertEqual(error as? RecordError, .recordNotFound(table: "memo", id: "999"))
        }
        // An update that a UNIQUE ... ON CONFLICT IGNORE skips.
        try queue.write { db in
            var blue = Label(id: nil, name: "blue")
            try blue.insert(db)
            blue.name = "red"
            XCTAssertThrowsError(try blue.update(db)) { error in
                XCTAssertEqual(error as? RecordError, .rowNotUpdated(table: "label", id: "2"))
            }
        }
        XCTAssertEqual(try queue.read { db in try Memo.fetchOne(db, id: 100)?.body }, "seed")
    }

    func testAnIgnoredDeleteThrowsAndAMissingRowIsFalse() throws {
        let queue = try makeQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TRIGGER memo_keep BEFORE DELETE ON memo BEGIN SELECT RAISE(IGNORE); END")
        }
        XCTAssertThrowsError(try queue.write { db in try Memo(id: 100, body: "seed").delete(db) }) { error in
            XCTAssertEqual(error as? RecordError, .rowNotDeleted(table: "memo", id: "100"))
        }
        XCTAssertEqual(try queue.write { db in try Memo(id: 5, body: "").delete(db) }, false)
        XCTAssertEqual(try queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM memo") }, 1)
    }

    func testAKeyThatIsNotTheRowIDIsRefusedBeforeAnythingIsWritten() throws {
        struct Item: Record {
            var id: Int64?
            var name: String
            static let tableName = "item"
        }
        let cases: [(String, String)] = [
            (
                "CREATE TABLE item (id INT PRIMARY KEY, name TEXT)",
                "it is declared INT PRIMARY KEY, not INTEGER PRIMARY KEY"
            ),
            (
                "CREATE TABLE item (id INTEGER PRIMARY KEY DESC, name TEXT)",
                "it is declared INTEGER PRIMARY KEY DESC, which SQLite keeps as an ordinary column"
            ),
            ("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT) WITHOUT ROWID", "the table is WITHOUT ROWID"),
            ("CREATE TABLE item (id INTEGER, name TEXT)", "the table declares no primary key"),
            ("CREATE TABLE item (id INTEGER, name TEXT PRIMARY KEY)", "the primary key is (\"name\")"),
        ]
        for (schema, declaration) in cases {
            let queue = try DatabaseQueue()
            try queue.write { db in try db.execute(sql: schema) }
            var item = Item(id: nil, name: "a")
            XCTAssertThrowsError(try queue.write { db in try item.insert(db) }, schema) { error in
                XCTAssertEqual(
                    error as? RecordError,
                    .rowIDNotAssigned(table: "item", column: "id", declaration: declaration), schema)
            }
            XCTAssertNil(item.id)
            XCTAssertEqual(try queue.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM item") }, 0)
            // With an id the client chose, the insert is fine.
            var chosen = Item(id: 5, name: "b")
            try queue.write { db in try chosen.insert(db) }
            XCTAssertEqual(try queue.read { db in try db.scalar(Int.self, sql: "SELECT id FROM item") }, 5)
        }
    }

    func testAViewIsRefusedBeforeAnythingIsWritten() throws {
        let queue = try makeQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE VIEW memo_view AS SELECT id, body FROM memo;
                    CREATE TRIGGER memo_view_insert INSTEAD OF INSERT ON memo_view
                    BEGIN INSERT INTO memo (body) VALUES (NEW.body); END;
                    CREATE TRIGGER memo_view_update INSTEAD OF UPDATE ON memo_view
                    BEGIN UPDATE memo SET body = NEW.body WHERE id = OLD.id; END;
                    CREATE TRIGGER memo_view_delete INSTEAD OF DELETE ON memo_view
                    BEGIN DELETE FROM memo WHERE id = OLD.id; END;
                    """)
        }
        struct MemoView: Record {
            var id: Int64?
            var body: String
            static let tableName = "memo_view"
        }
        var new = MemoView(id: nil, body: "via view")
        XCTAssertThrowsError(try queue.write { db in try new.insert(db) }) { error in
            XCTAssertEqual(error as? RecordError, .viewNotWritable(table: "memo_view"))
        }
        XCTAssertThrowsError(try queue.write { db in try MemoView(id: 100, body: "x").update(db) }) { error in
            XCTAssertEqual(error as? RecordError, .viewNotWritable(table: "memo_view"))
        }
        XCTAssertThrowsError(try queue.write { db in try MemoView(id: 100, body: "x").delete(db) }) { error in
            XCTAssertEqual(error as? RecordError, .viewNotWritable(table: "memo_view"))
        }
        XCTAssertThrowsError(try queue.write { db in try MemoView.deleteAll(db) }) { error in
            XCTAssertEqual(error as? RecordError, .viewNotWritable(table: "memo_view"))
        }
        // Reading through the view is fine, and nothing was written.
        XCTAssertEqual(try queue.read { db in try MemoView.fetch(db).map(\.body) }, ["seed"])
    }
}
