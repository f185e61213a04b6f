import Dispatch
import Foundation
import SQLiteRecord
import XCTest

final class DatabaseQueueTests: XCTestCase {
    func testWriteCommitsAndRollsBack() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: "CREATE TABLE t(v)") }
        try queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        XCTAssertThrowsError(
            try queue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (2)")
                try db.execute(sql: "INSERT INTO nowhere VALUES (3)")
            })
        XCTAssertEqual(try queue.read { db in try WorldFixtures.rowCount(db, "t") }, 1)
    }

    func testNestedAccessOnTheSameQueueThrowsInsteadOfDeadlocking() throws {
        let queue = try DatabaseQueue()
        try queue.write { _ in
            XCTAssertThrowsError(try queue.write { _ in }) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .misuse)
            }
            XCTAssertThrowsError(try queue.read { _ in })
        }
    }

    func testConcurrentWritersFromManyThreadsAllLand() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: WorldFixtures.schema) }
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<50 {
                do {
                    try queue.write { db in
                        var country = Country(
                            id: nil, name: "C\(thread)-\(index)", iso: "\(thread)-\(index)", population: 1)
                        try country.save(db)
                    }
                } catch {
                    XCTFail("\(error)")
                }
            }
        }
        XCTAssertEqual(try queue.read { db in try Country.count(db) }, 400)
    }
}
