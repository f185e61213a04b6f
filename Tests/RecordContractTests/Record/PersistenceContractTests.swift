import Foundation
import SQLiteRecord
import XCTest

/// insert, update, save, delete and the lookups by key, with their callbacks: the same calls, the same
/// answers, the same errors on every engine.
final class PersistenceContractTests: RecordContractTestCase {
    func testInsertTakesTheRowIDTheDatabaseChoseAndCallsTheCallbacksInOrder() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            var dune = Book(id: nil, title: "Dune", pages: 412, isbn: "978-0441013593")
            var emma = Book(id: nil, title: "Emma", pages: 474, isbn: nil)
            try engine.write { db in
                try dune.insert(db)
                try emma.insert(db)
            }
            XCTAssertEqual(dune.id, 1)
            XCTAssertEqual(emma.id, 2)
            XCTAssertEqual(CallbackLog.shared.take(), ["willSave Dune", "didInsert 1", "willSave Emma", "didInsert 2"])
            let fetched = try engine.write { db in try Book.fetchOne(db, id: 1) }
            XCTAssertEqual(fetched, dune)
            XCTAssertEqual(try engine.write { db in try Book.fetchOne(db, id: 3) }, nil)
            XCTAssertEqual(try engine.write { db in try Book.fetchOne(db, id: nil) }, nil)
        }
    }

    func testInsertKeepsAGivenRowID() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            var book = Book(id: 2_643_743, title: "London", pages: 1, isbn: nil)
            try engine.write { db in try book.insert(db) }
            XCTAssertEqual(book.id, 2_643_743)
            XCTAssertEqual(CallbackLog.shared.take(), ["willSave London", "didInsert 2643743"])
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books WHERE id = 2643743"), 1)
        }
    }

    func testWillSaveThrowingWritesNothingAndLeavesTheRecordAsItWas() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            var untitled = Book(id: nil, title: "", pages: 10, isbn: nil)
            let thrown = error { try engine.write { db in try untitled.insert(db) } }
            XCTAssertEqual(thrown as? Book.EmptyTitle, Book.EmptyTitle())
            XCTAssertNil(untitled.id)
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books"), 0)
            XCTAssertEqual(CallbackLog.shared.take(), ["willSave "])
        }
    }

    func testWillSaveReadsThroughTheConnectionItIsGiven() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            try engine.createTable(Review.self)
            var book = Book(id: nil, title: "Dune", pages: 412, isbn: nil)
            var good = Review(id: nil, bookId: 1, stars: 5)
            var orphan = Review(id: nil, bookId: 99, stars: 1)
            try engine.write { db in
                try book.insert(db)
                try good.insert(db)
            }
            XCTAssertEqual(good.id, 1)
            let thrown = error { try engine.write { db in try orphan.insert(db) } }
            XCTAssertEqual(thrown as? Review.UnknownBook, Review.UnknownBook(id: 99))
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM reviews"), 1)
        }
    }

    func testInsertOrIgnoreSkipsADuplicateKeyAndKeepsTheRecordsID() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            var first = Book(id: nil, title: "Dune", pages: 412, isbn: "978-0441013593")
            var twin = Book(id: nil, title: "Dune again", pages: 1, isbn: "978-0441013593")
            let outcomes = try engine.write { db in
                [try first.insert(db, onConflict: .ignore), try twin.insert(db, onConflict: .ignore)]
            }
            XCTAssertEqual(outcomes, [true, false])
            XCTAssertEqual(first.id, 1)
            XCTAssertNil(twin.id)
            XCTAssertEqual(CallbackLog.shared.take(), ["willSave Dune", "didInsert 1", "willSave Dune again"])
            XCTAssertEqual(try engine.text("SELECT title FROM books"), "Dune")
        }
    }

    func testInsertOfATakenKeyThrowsAndTheRecordKeepsItsNilID() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            var first = Book(id: nil, title: "Dune", pages: 412, isbn: "978-0441013593")
            var twin = Book(id: nil, title: "Dune again", pages: 1, isbn: "978-0441013593")
            try engine.write { db in try first.insert(db) }
            XCTAssertNotNil(error { try engine.write { db in try twin.insert(db) } })
            XCTAssertNil(twin.id)
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books"), 1)
        }
    }

    func testUpdateWritesEveryColumnAndAMissingRowIsRecordNotFound() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            var book = Book(id: nil, title: "Dune", pages: 412, isbn: nil)
            try engine.write { db in try book.insert(db) }
            book.title = "Dune Messiah"
            book.pages = 256
            try engine.write { db in try book.update(db) }
            XCTAssertEqual(try engine.write { db in try Book.fetchOne(db, id: 1) }, book)
            let gone = Book(id: 7, title: "Gone", pages: 1, isbn: nil)
            let thrown = error { try engine.write { db in try gone.update(db) } }
            XCTAssertEqual(thrown as? RecordError, .recordNotFound(table: "books", id: "7"))
            let unsaved = Book(id: nil, title: "New", pages: 1, isbn: nil)
            let notSaved = error { try engine.write { db in try unsaved.update(db) } }
            XCTAssertEqual(notSaved as? RecordError, .recordNotSaved(table: "books"))
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books"), 1)
        }
    }

    func testUpdateOfNamedColumnsLeavesTheOthersAsTheyAre() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            var book = Book(id: nil, title: "Dune", pages: 412, isbn: "978-0441013593")
            try engine.write { db in try book.insert(db) }
            var edited = book
            edited.title = "DUNE"
            edited.pages = 1
            try engine.write { db in try edited.update(db, columns: ["title"]) }
            XCTAssertEqual(try engine.text("SELECT title FROM books"), "DUNE")
            XCTAssertEqual(try engine.integer("SELECT pages FROM books"), 412)
            let thrown = error { try engine.write { db in try edited.update(db, columns: ["no_such_column"]) } }
            guard case .unknownColumn(let table, let column, _)? = thrown as? RecordError else {
                return XCTFail("expected unknownColumn, got \(String(describing: thrown))")
            }
            XCTAssertEqual([table, column], ["books", "no_such_column"])
        }
    }

    func testUpdateChangesWritesOnlyWhatChanged() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            var book = Book(id: nil, title: "Dune", pages: 412, isbn: nil)
            try engine.write { db in try book.insert(db) }
            _ = CallbackLog.shared.take()
            let unchanged = try engine.write { db in try book.updateChanges(db, from: book) }
            XCTAssertFalse(unchanged)
            XCTAssertEqual(CallbackLog.shared.take(), [])
            // Another writer's change to a column this update does not touch stays.
            try engine.execute("UPDATE books SET title = 'Dune (1965)'")
            let changed = try engine.write { db in try book.updateChanges(db) { $0.pages = 500 } }
            XCTAssertTrue(changed)
            XCTAssertEqual(book.pages, 500)
            XCTAssertEqual(try engine.text("SELECT title FROM books"), "Dune (1965)")
            XCTAssertEqual(try engine.integer("SELECT pages FROM books"), 500)
            XCTAssertEqual(CallbackLog.shared.take(), ["willSave Dune"])
        }
    }

    func testSaveInsertsThenUpdatesARowIDRecord() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            var book = Book(id: nil, title: "Dune", pages: 412, isbn: nil)
            try engine.write { db in try book.save(db) }
            book.pages = 413
            try engine.write { db in try book.save(db) }
            XCTAssertEqual(book.id, 1)
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books"), 1)
            XCTAssertEqual(try engine.integer("SELECT pages FROM books"), 413)
            XCTAssertEqual(CallbackLog.shared.take(), ["willSave Dune", "didInsert 1", "willSave Dune"])
            // A saved record whose row is gone is not inserted again.
            try engine.execute("DELETE FROM books")
            let thrown = error { try engine.write { db in try book.save(db) } }
            XCTAssertEqual(thrown as? RecordError, .recordNotFound(table: "books", id: "1"))
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books"), 0)
        }
    }

    func testSaveOfAClientKeyInsertsOrUpdatesByTheKey() {
        onEachEngine { engine in
            try engine.createTable(Currency.self)
            var euro = Currency(id: "EUR", name: "Euro", rate: 1)
            try engine.write { db in try euro.save(db) }
            euro.rate = 1.08
            try engine.write { db in try euro.save(db) }
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM currencies"), 1)
            XCTAssertEqual(try engine.write { db in try Currency.fetchOne(db, id: "EUR") }, euro)
            XCTAssertTrue(try engine.write { db in try Currency.exists(db, id: "EUR") })
            XCTAssertFalse(try engine.write { db in try Currency.exists(db, id: "USD") })
            let missing = Currency(id: "USD", name: "Dollar", rate: 1)
            let thrown = error { try engine.write { db in try missing.update(db) } }
            XCTAssertEqual(thrown as? RecordError, .recordNotFound(table: "currencies", id: "'USD'"))
        }
    }

    func testCompositeKeysInsertUpdateFetchAndDelete() {
        onEachEngine { engine in
            try engine.createTable(Placement.self)
            var placement = Placement(shelf: 3, slot: 14, label: "Dune")
            try engine.write { db in try placement.insert(db) }
            placement.label = "Dune (1965)"
            try engine.write { db in try placement.save(db) }
            let key = Placement.Key(shelf: 3, slot: 14)
            XCTAssertEqual(try engine.write { db in try Placement.fetchOne(db, id: key) }, placement)
            XCTAssertTrue(try engine.write { db in try placement.delete(db) })
            XCTAssertFalse(try engine.write { db in try Placement.delete(db, id: key) })
            let gone = Placement(shelf: 1, slot: 2, label: "x")
            let thrown = error { try engine.write { db in try gone.update(db) } }
            XCTAssertEqual(thrown as? RecordError, .recordNotFound(table: "placements", id: "shelf = 1, slot = 2"))
        }
    }

    func testDeleteCallsTheCallbacksAndSaysWhetherARowWent() {
        onEachEngine { engine in
            try engine.createTable(Book.self)
            var dune = Book(id: nil, title: "Dune", pages: 412, isbn: nil)
            var keep = Book(id: nil, title: "keep", pages: 1, isbn: nil)
            try engine.write { db in
                try dune.insert(db)
                try keep.insert(db)
            }
            _ = CallbackLog.shared.take()
            XCTAssertTrue(try engine.write { db in try dune.delete(db) })
            XCTAssertFalse(try engine.write { db in try dune.delete(db) })
            XCTAssertEqual(
                CallbackLog.shared.take(), ["willDelete Dune", "didDelete true", "willDelete Dune", "didDelete false"])
            let thrown = error { _ = try engine.write { db in try keep.delete(db) } }
            XCTAssertEqual(thrown as? Book.Kept, Book.Kept())
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM books"), 1)
            XCTAssertTrue(try engine.write { db in try Book.delete(db, id: keep.id) })
            XCTAssertFalse(try engine.write { db in try Book.delete(db, id: nil) })
            let unsaved = Book(id: nil, title: "New", pages: 1, isbn: nil)
            let notSaved = error { _ = try engine.write { db in try unsaved.delete(db) } }
            XCTAssertEqual(notSaved as? RecordError, .recordNotSaved(table: "books"))
        }
    }

    func testATableNameChosenAtRunTimeIsTheOneEveryCallUses() {
        onEachEngine { engine in
            defer { Shard.current = "shard_a" }
            let first = try Shard.makeTables(in: engine)
            Shard.current = "shard_b"
            var second = Shard(id: nil, value: "in b")
            try engine.write { db in try second.insert(db) }
            XCTAssertEqual(try engine.write { db in try Shard.fetchOne(db, id: 1) }, second)
            Shard.current = "shard_a"
            XCTAssertEqual(try engine.write { db in try Shard.fetchOne(db, id: 1) }, first)
            XCTAssertEqual(try engine.text("SELECT value FROM shard_a"), "in a")
            XCTAssertEqual(try engine.text("SELECT value FROM shard_b"), "in b")
        }
    }
}
