import Foundation
import XCTest

@testable import SQLiteRecord

/// A record with a row initializer that says it ran: `readByRow` is no column, false from `init(from:)`.
private struct Town: Record, FetchableRecord, Equatable {
    var id: Int64?
    var name: String
    var foundedAt: Date?
    var readByRow = false
    static let tableName = "towns"
    enum CodingKeys: String, CodingKey {
        case id, name
        case foundedAt = "founded_at"
    }
}

extension Town {
    init(row: borrowing FetchedRow) throws {
        id = try row[0, as: Int64?.self]
        name = try row["name", as: String.self]
        foundedAt = try row["founded_at", as: Date?.self]
        readByRow = true
    }
}

/// The same record written both ways, in step.
private struct Planet: Record, FetchableRecord, Equatable {
    var id: Int64?
    var name: String
    var moons: Int
    static let tableName = "towns"
    enum CodingKeys: String, CodingKey {
        case id, name
        case moons = "founded_at"
    }
}

extension Planet {
    init(row: borrowing FetchedRow) throws {
        id = try row["id", as: Int64?.self]
        name = try row["name", as: String.self]
        moons = try row["founded_at", as: Int.self]
    }
}

/// A row initializer that drifted from its `Decodable` conformance: it reads `name` from the wrong column.
private struct DriftedTown: Record, FetchableRecord, Equatable {
    var id: Int64?
    var name: String
    static let tableName = "towns"
}

extension DriftedTown {
    init(row: borrowing FetchedRow) throws {
        id = try row["id", as: Int64?.self]
        name = try row["founded_at", as: String?.self] ?? "?"
    }
}

final class FetchableRecordTests: XCTestCase {
    private var db: Database!

    override func setUpWithError() throws {
        db = try Database()
        try db.execute(sql: "CREATE TABLE towns (id INTEGER PRIMARY KEY, name TEXT NOT NULL, founded_at)")
        try db.execute(
            sql: "INSERT INTO towns VALUES (1, 'Lyon', '1970-01-02'), (2, 'Nice', NULL), (3, 'Metz', '1970-01-01')")
    }

    private let lyon = Town(id: 1, name: "Lyon", foundedAt: Date(timeIntervalSince1970: 86_400), readByRow: true)
    private let nice = Town(id: 2, name: "Nice", foundedAt: nil, readByRow: true)
    private let metz = Town(id: 3, name: "Metz", foundedAt: Date(timeIntervalSince1970: 0), readByRow: true)

    // MARK: Every fetch path takes the row initializer

    func testRecordFetchesUseTheRowInitializer() throws {
        XCTAssertEqual(try Town.fetch(db), [lyon, nice, metz])
        XCTAssertEqual(try Town.fetch(db, where: ["name": "Nice"]), [nice])
        XCTAssertEqual(try Town.fetch(db, where: "id > ?", arguments: [2]), [metz])
        XCTAssertEqual(try Town.fetchOne(db, where: ["id": 1]), lyon)
        XCTAssertEqual(try Town.fetch(db, ids: [3, 1]).sorted { ($0.id ?? 0) < ($1.id ?? 0) }, [lyon, metz])
    }

    func testFetchOneByIDUsesItOnEveryCall() throws {
        // The second call finds the answer kept on the cached statement.
        XCTAssertEqual(try Town.fetchOne(db, id: 2), nice)
        XCTAssertEqual(try Town.fetchOne(db, id: 3), metz)
        XCTAssertNil(try Town.fetchOne(db, id: 4))
    }

    func testRawSQLFetchesUseIt() throws {
        XCTAssertEqual(try Town.fetch(db, sql: "SELECT * FROM towns WHERE id = ?", arguments: [1]), [lyon])
        XCTAssertEqual(try db.fetchAll(Town.self, sql: "SELECT * FROM towns ORDER BY id DESC LIMIT 1"), [metz])
        XCTAssertEqual(try db.fetchOne(Town.self, sql: "SELECT * FROM towns WHERE id = 2"), nice)
    }

    func testRowDecoderUsesIt() throws {
        let statement = try db.makeStatement(sql: "SELECT * FROM towns ORDER BY id")
        let decoder = RowDecoder()
        var towns: [Town] = []
        while try statement.step() { towns.append(try decoder.decode(Town.self, from: statement)) }
        XCTAssertEqual(towns, [lyon, nice, metz])
        statement.reset()
        XCTAssertEqual(try decoder.decodeAll(Town.self, from: statement), [lyon, nice, metz])
    }

    func testAStatementDecodesTwoTypesInTurn() throws {
        // The same cached statement decodes a row-initializer type and a Decodable-only one: each keeps its path.
        struct Plain: Decodable, Equatable {
            var id: Int64
            var name: String
        }
        let sql = "SELECT * FROM towns WHERE id = 1"
        XCTAssertEqual(try db.fetchOne(Town.self, sql: sql), lyon)
        XCTAssertEqual(try db.fetchOne(Plain.self, sql: sql), Plain(id: 1, name: "Lyon"))
        XCTAssertEqual(try db.fetchOne(Town.self, sql: sql), lyon)
    }

    func testErrorsOfATableFetchNameTheRow() throws {
        try db.execute(sql: "UPDATE towns SET founded_at = 'soon' WHERE id = 2")
        XCTAssertThrowsError(try Town.fetch(db)) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["founded_at"])
            XCTAssertEqual(
                context.debugDescription,
                "Expected Date but column \"founded_at\" of table \"towns\" holds TEXT 'soon', which is not a date "
                    + "text SQLite reads (YYYY-MM-DD[ HH:MM[:SS[.SSS]]][Z|±HH:MM|±HHMM|±HH]) (row id 2)")
        }
    }

    // MARK: Keeping the two in step

    func testTheCheckPassesForATypeInStep() throws {
        try db.execute(sql: "UPDATE towns SET founded_at = 4")
        XCTAssertEqual(try Planet.checkRowInitializer(db), 3)
        XCTAssertEqual(try Planet.checkRowInitializer(db, sql: "SELECT * FROM towns WHERE id < ?", arguments: [3]), 2)
        // A row both refuse is in step too.
        try db.execute(sql: "UPDATE towns SET founded_at = 'x' WHERE id = 1")
        XCTAssertEqual(try Planet.checkRowInitializer(db), 3)
    }

    func testTheCheckNamesTheRowWhereTheyDiffer() throws {
        XCTAssertThrowsError(try DriftedTown.checkRowInitializer(db)) { error in
            guard let mismatch = error as? RowInitializerMismatch else { return XCTFail("\(error)") }
            XCTAssertEqual(mismatch.rowIndex, 0)
            XCTAssertEqual(mismatch.row, ["id": 1, "name": "Lyon", "founded_at": "1970-01-02"])
            XCTAssertEqual(
                mismatch.description,
                "DriftedTown: row 0 [id: 1, name: 'Lyon', founded_at: '1970-01-02'] reads differently: init(row:) "
                    + "gave DriftedTown(id: Optional(1), name: \"1970-01-02\"); init(from:) gave "
                    + "DriftedTown(id: Optional(1), name: \"Lyon\")")
        }
    }
}
