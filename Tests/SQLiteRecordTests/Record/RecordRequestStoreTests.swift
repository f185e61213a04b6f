import Foundation
import SQLiteRecord
import XCTest

/// Requests through the default queue and their async twins give what the `Database` forms give.
final class RecordRequestStoreTests: XCTestCase {
    override func tearDown() {
        RecordStore.reset()
    }

    func testDefaultStoreForms() throws {
        try RecordStore.use(try QueryFixtures.makeQueue())
        let poetry = Novel.filter(Novel.CodingKeys.genre == Genre.poetry).order(Novel.CodingKeys.pages)
        XCTAssertEqual(try poetry.fetch().map(\.title), ["Ariel", "Leaves of Grass"])
        XCTAssertEqual(try poetry.fetchOne()?.title, "Ariel")
        XCTAssertEqual(try poetry.count(), 2)
        XCTAssertTrue(try poetry.exists())
        XCTAssertEqual(try poetry.select(Column("pages")).fetch(as: Int.self), [96, 145])
        XCTAssertEqual(try Novel.select(max(Column("pages"))).fetchOne(as: Int.self), 412)
        XCTAssertEqual(try poetry.updateAll(Column("pages").set(to: 1)), 2)
        XCTAssertEqual(try Novel.filter(Column("pages") == 1).deleteAll(), 2)
        XCTAssertEqual(try Novel.all().count(), 3)
    }

    func testAsyncForms() async throws {
        try RecordStore.use(try QueryFixtures.makeQueue())
        let poetry = Novel.filter(Novel.CodingKeys.genre == Genre.poetry).order(Novel.CodingKeys.pages)
        let titles = try await poetry.fetch().map(\.title)
        XCTAssertEqual(titles, ["Ariel", "Leaves of Grass"])
        let first = try await poetry.fetchOne()
        XCTAssertEqual(first?.title, "Ariel")
        let count = try await poetry.count()
        XCTAssertEqual(count, 2)
        let exists = try await poetry.filter(Column("pages") > 1_000).exists()
        XCTAssertFalse(exists)
        let pages = try await poetry.select(Column("pages")).fetch(as: Int.self)
        XCTAssertEqual(pages, [96, 145])
        let longest = try await Novel.select(max(Column("pages"))).fetchOne(as: Int.self)
        XCTAssertEqual(longest, 412)
        let updated = try await poetry.updateAll(Column("pages").set(to: 1))
        XCTAssertEqual(updated, 2)
        let deleted = try await Novel.filter(Column("pages") == 1).deleteAll()
        XCTAssertEqual(deleted, 2)
        let left = try await Novel.all().count()
        XCTAssertEqual(left, 3)
    }

    func testWithoutADefaultStore() {
        RecordStore.reset()
        XCTAssertThrowsError(try Novel.all().fetch()) { XCTAssertEqual($0 as? RecordError, .noDefaultStore) }
    }
}
