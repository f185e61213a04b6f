import Foundation
import SQLiteRecord
import XCTest

#if PostgreSQL
    import PostgresRecord
#endif

/// `where:` fetches around schema changes their connection made and then rolled back: a key of a column that
/// no longer exists is refused by name on every engine, as before the change, whatever the connection
/// read of the table while the column existed.
final class FilterSchemaChangeContractTests: RecordContractTestCase {
    struct Title: Record, Equatable {
        var id: Int64?
        var name: String
        static let tableName = "titles"
    }

    struct Rollback: Error {}

    /// `sql` run on `db`, the connection of a write.
    private static func execute(_ sql: String, on db: any DatabaseConnection) throws {
        if let db = db as? Database { return try db.execute(sql: sql) }
        #if PostgreSQL
            if let db = db as? PostgresConnection { return try db.execute(sql) }
        #endif
        XCTFail("no way to run SQL on \(type(of: db))")
    }

    /// The `titles` table, holding "Emma".
    private static func createTitles(on engine: any ContractEngine) throws {
        try engine.createTable(Title.self)
        try engine.write { db in
            var title = Title(id: nil, name: "Emma")
            try title.insert(db)
        }
    }

    func testAColumnAddedAndFetchedInARolledBackWriteIsRefusedByName() {
        onEachEngine { engine in
            try Self.createTitles(on: engine)
            XCTAssertThrowsError(
                try engine.write { db in
                    try Self.execute("ALTER TABLE titles ADD COLUMN country TEXT", on: db)
                    XCTAssertEqual(try Title.fetch(db, where: ["country": nil]).map(\.name), ["Emma"])
                    throw Rollback()
                })
            XCTAssertThrowsError(try engine.write { db in try Title.fetch(db, where: ["country": nil]) }) { error in
                guard case RecordError.unknownColumn(let table, let column, let columns) = error else {
                    return XCTFail("expected RecordError.unknownColumn, got \(error)")
                }
                XCTAssertEqual(table, "titles")
                XCTAssertEqual(column, "country")
                XCTAssertEqual(columns, ["id", "name"])
            }
            // The connection goes on: a fetch of the table's own columns.
            XCTAssertEqual(try engine.write { db in try Title.fetch(db, where: ["name": "Emma"]).count }, 1)
        }
    }

    func testAColumnDroppedInARolledBackWriteIsFoundAgain() {
        onEachEngine { engine in
            try Self.createTitles(on: engine)
            XCTAssertThrowsError(
                try engine.write { db in
                    try Self.execute("ALTER TABLE titles DROP COLUMN name", on: db)
                    XCTAssertThrowsError(try Title.fetch(db, where: ["name": "Emma"]))
                    throw Rollback()
                })
            XCTAssertEqual(
                try engine.write { db in try Title.fetch(db, where: ["name": "Emma"]).map(\.name) }, ["Emma"])
        }
    }
}
