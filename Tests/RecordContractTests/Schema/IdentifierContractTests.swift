import Foundation
import SQLiteRecord
import XCTest

/// Names longer than an engine keeps: SQLite keeps every byte; PostgreSQL keeps 63 (NAMEDATALEN - 1) and
/// would cut the rest, merging two names that share their first 63 bytes, so the library refuses them there
/// before anything runs.
final class IdentifierContractTests: RecordContractTestCase {
    /// A table whose name is 100 bytes long.
    struct Longhand: Record, Equatable {
        var id: Int64?
        var note: String
        static let tableName = String(repeating: "t", count: 100)
    }

    /// Two columns whose names share their first 63 bytes, 32 "é" (two bytes each) making 64 bytes.
    struct Twins: Record, Equatable {
        var id: Int64?
        var first: String
        var second: String
        var accented: String
        static let tableName = "twins"
        enum CodingKeys: String, CodingKey {
            case id
            case first = "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccfirst"
            case second = "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccsecond"
            case accented = "éééééééééééééééééééééééééééééééé"
        }
    }

    private func tableCount(_ engine: any ContractEngine) throws -> Int64? {
        try engine.integer(
            engine.isSQLite
                ? "SELECT count(*) FROM sqlite_schema WHERE type = 'table'"
                : "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()")
    }

    func testATableNameOf100BytesWorksOnSQLiteAndIsRefusedOnPostgreSQL() {
        onEachEngine { engine in
            var record = Longhand(id: nil, note: "kept")
            if engine.isSQLite {
                try engine.createTable(Longhand.self)
                try engine.write { db in try record.insert(db) }
                XCTAssertEqual(try engine.write { db in try Longhand.fetchOne(db, id: record.id) }, record)
                return
            }
            let created = error { try engine.createTable(Longhand.self) }
            XCTAssertEqual(
                created as? RecordError,
                .identifierTooLong(table: Longhand.tableName, identifier: Longhand.tableName, bytes: 100, limit: 63))
            XCTAssertEqual(try tableCount(engine), 0)
            // A table of the name cut short does not take the record's rows.
            try engine.execute("CREATE TABLE \"\(String(repeating: "t", count: 63))\" (id BIGINT, note TEXT)")
            let inserted = error { try engine.write { db in try record.insert(db) } }
            XCTAssertEqual(
                inserted as? RecordError,
                .identifierTooLong(table: Longhand.tableName, identifier: Longhand.tableName, bytes: 100, limit: 63))
            XCTAssertNil(record.id)
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM \"\(String(repeating: "t", count: 63))\""), 0)
            XCTAssertEqual(
                (created as? RecordError)?.description,
                "The name \"\(Longhand.tableName)\" (for table \"\(Longhand.tableName)\") is 100 bytes of UTF-8, more "
                    + "than the 63 an identifier keeps on PostgreSQL, which would cut it short and could merge it with "
                    + "another name; nothing ran. Use a shorter name (see https://www.postgresql.org/docs/current/"
                    + "sql-syntax-lexical.html#SQL-SYNTAX-IDENTIFIERS)")
        }
    }

    func testColumnsSharingTheirFirst63BytesStayTwoOnSQLiteAndAreRefusedOnPostgreSQL() {
        onEachEngine { engine in
            var twins = Twins(id: nil, first: "one", second: "two", accented: "é")
            if engine.isSQLite {
                try engine.createTable(Twins.self)
                try engine.write { db in try twins.insert(db) }
                XCTAssertEqual(try engine.write { db in try Twins.fetchOne(db, id: twins.id) }, twins)
                return
            }
            let created = error { try engine.createTable(Twins.self) }
            let first = Twins.CodingKeys.first.rawValue
            XCTAssertEqual(
                created as? RecordError,
                .identifierTooLong(table: "twins", identifier: first, bytes: 68, limit: 63))
            XCTAssertEqual(try tableCount(engine), 0)
            let inserted = error { try engine.write { db in try twins.insert(db) } }
            XCTAssertEqual(
                inserted as? RecordError, .identifierTooLong(table: "twins", identifier: first, bytes: 68, limit: 63))
            XCTAssertNil(twins.id)
        }
    }

    func testAnAliasOver63BytesIsRefusedOnPostgreSQLOnly() {
        onEachEngine { engine in
            try engine.createTable(Longhand.Short.self)
            var row = Longhand.Short(id: nil, note: "n")
            try engine.write { db in try row.insert(db) }
            // 32 "é": 32 characters, 64 bytes.
            let alias = String(repeating: "é", count: 32)
            let request = Longhand.Short.all().select(Column("note").forKey(alias))
            if engine.isSQLite {
                XCTAssertEqual(try engine.fetchOne(request, as: String.self), "n")
                return
            }
            let thrown = error { _ = try engine.fetchOne(request, as: String.self) }
            XCTAssertEqual(
                thrown as? RecordError, .identifierTooLong(table: "shorts", identifier: alias, bytes: 64, limit: 63))
        }
    }
}

extension IdentifierContractTests.Longhand {
    /// A table of a short name, for the requests.
    struct Short: Record, Equatable {
        var id: Int64?
        var note: String
        static let tableName = "shorts"
    }
}
