#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// A `where:` fetch whose form the connection kept, run again after its table changed: created, altered or
/// dropped by another connection, by this one, or seen through another search path. Each call reports a key
/// or an ordering column the table lacks by name (``RecordError/unknownColumn(table:column:columns:)``), as
/// the same call does on a fresh connection, and finds its own rows.
final class PostgresFetchFormSchemaTests: PostgresTestCase {
    typealias Town = PostgresTown

    /// The same table read as another record type with fewer columns.
    struct TownName: Record, Equatable {
        var id: Int64?
        var name: String
        static let tableName = "towns"
    }

    private func insertTowns() throws {
        let towns: [(String, String?, Int64)] = [("Lyon", "ARA", 522_969), ("Brest", "BRE", 139_926)]
        for (name, region, population) in towns {
            var town = Town(id: nil, name: name, region: region, population: population)
            try town.insert(connection)
        }
    }

    private func assertUnknownColumn(
        _ call: @autoclosure () throws -> some Any, column: String, columns: [String]? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try call(), file: file, line: line) { error in
            guard case RecordError.unknownColumn(let table, let found, let all) = error else {
                return XCTFail("expected RecordError.unknownColumn, got \(error)", file: file, line: line)
            }
            XCTAssertEqual(table, "towns", file: file, line: line)
            XCTAssertEqual(found, column, file: file, line: line)
            if let columns { XCTAssertEqual(all, columns, file: file, line: line) }
        }
    }

    /// A fetch of a table that does not exist yet (the server reports it), then the table created by another
    /// connection without the key's column: the key is reported by name, not left to the server.
    func testAKeyMissingFromATableCreatedAfterTheFirstFetchIsReportedByName() throws {
        XCTAssertThrowsError(try Town.fetch(connection, where: ["region": "ARA"], orderBy: [.ascending("name")]))
        let other = try PostgresConnection(configuration: configuration())
        try other.execute(
            "CREATE TABLE towns (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, population BIGINT NOT NULL)")
        assertUnknownColumn(
            try Town.fetch(connection, where: ["region": "ARA"], orderBy: [.ascending("name")]), column: "region",
            columns: ["id", "name", "population"])
    }

    /// The same, inside a transaction: the unknown key is refused before anything runs, so the transaction
    /// goes on (a server error would have aborted it).
    func testAKeyMissingFromATableCreatedAfterTheFirstFetchLeavesATransactionUsable() throws {
        XCTAssertThrowsError(try Town.fetch(connection, where: ["region": "ARA"]))
        let other = try PostgresConnection(configuration: configuration())
        try other.execute(
            "CREATE TABLE towns (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, population BIGINT NOT NULL)")
        try other.execute("INSERT INTO towns (name, population) VALUES ('Lyon', 522969)")
        let names = try connection.transaction { () throws -> [String] in
            XCTAssertThrowsError(try Town.fetch(connection, where: ["region": "ARA"]))
            return try TownName.fetch(connection, where: ["name": "Lyon"]).map(\.name)
        }
        XCTAssertEqual(names, ["Lyon"])
    }

    /// A fetch checked its ordering column; another connection then adds a column and drops the ordering
    /// column. A fetch of the new key, ordered as before, reads the table's columns again (for the new key)
    /// and reports the ordering column by name.
    func testAnOrderingColumnDroppedWhileAKeyWasAddedIsReportedByName() throws {
        try Town.createTable(in: connection)
        try insertTowns()
        XCTAssertEqual(
            try Town.fetch(connection, where: ["region": "ARA"], orderBy: [.descending("population")]).map(\.name),
            ["Lyon"])
        let other = try PostgresConnection(configuration: configuration())
        try other.execute("ALTER TABLE towns ADD COLUMN country TEXT, DROP COLUMN population")
        assertUnknownColumn(
            try TownName.fetch(connection, where: ["country": "FR"], orderBy: [.descending("population")]),
            column: "population", columns: ["id", "name", "region", "country"])
    }

    /// Two record types of one table, the second lacking a column of the first's `where:` keys: the same form
    /// (table, keys, ordering) decodes each as its own type.
    func testTwoRecordTypesOfOneTableAlternateOnOneForm() throws {
        try Town.createTable(in: connection)
        try insertTowns()
        for _ in 0..<3 {
            XCTAssertEqual(try Town.fetch(connection, where: ["name": "Brest"]).map(\.population), [139_926])
            XCTAssertEqual(try TownName.fetch(connection, where: ["name": "Brest"]), [TownName(id: 2, name: "Brest")])
            assertUnknownColumn(try TownName.fetch(connection, where: ["nom": "Brest"]), column: "nom")
        }
    }

    /// The table dropped and created again with other columns by this connection's `execute`: the kept form
    /// is forgotten, a key of the old table is reported, and a fetch of the new columns decodes the new rows.
    func testATableRecreatedWithOtherColumnsThroughExecute() throws {
        try Town.createTable(in: connection)
        try insertTowns()
        XCTAssertEqual(try Town.fetch(connection, where: ["region": "BRE"]).map(\.name), ["Brest"])
        try connection.execute("DROP TABLE towns")
        try connection.execute("CREATE TABLE towns (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, region_code TEXT)")
        try connection.execute("INSERT INTO towns (name, region_code) VALUES ('Quimper', 'BRE')")
        assertUnknownColumn(try TownName.fetch(connection, where: ["region": "BRE"]), column: "region")
        XCTAssertEqual(
            try TownName.fetch(connection, where: ["region_code": "BRE"]), [TownName(id: 1, name: "Quimper")])
    }

    /// The table dropped and created again by another connection, same columns in another order: each fetch of
    /// the kept form decodes its columns by name.
    func testATableRecreatedInAnotherColumnOrderByAnotherConnection() throws {
        try Town.createTable(in: connection)
        try insertTowns()
        XCTAssertEqual(try Town.fetch(connection, where: ["region": "BRE"]).map(\.name), ["Brest"])
        let other = try PostgresConnection(configuration: configuration())
        try other.execute("DROP TABLE towns")
        try other.execute(
            "CREATE TABLE towns (population BIGINT NOT NULL, region TEXT, name TEXT NOT NULL, "
                + "id BIGSERIAL PRIMARY KEY)")
        try other.execute("INSERT INTO towns (population, region, name) VALUES (42, 'BRE', 'Quimper')")
        XCTAssertEqual(
            try Town.fetch(connection, where: ["region": "BRE"]),
            [Town(id: 1, name: "Quimper", region: "BRE", population: 42)])
    }

    /// Two tables of one name in two schemas, the search path moved by `execute("SET search_path ...")`
    /// between fetches of one form: each fetch reads the table the search path names now.
    func testOneFormOnTwoSchemasThroughTheSearchPath() throws {
        try Town.createTable(in: connection)
        try insertTowns()
        let second = schema + "_b"
        let other = try PostgresConnection(configuration: configuration())
        try other.execute("CREATE SCHEMA \"\(second)\"")
        defer { try? other.execute("DROP SCHEMA \"\(second)\" CASCADE") }
        try other.execute(
            "CREATE TABLE \"\(second)\".towns (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, "
                + "population BIGINT NOT NULL)")
        try other.execute("INSERT INTO \"\(second)\".towns (name, population) VALUES ('Brest', 1)")
        XCTAssertEqual(try Town.fetch(connection, where: ["name": "Brest"]).map(\.population), [139_926])
        try connection.execute("SET search_path TO \"\(second)\"")
        XCTAssertEqual(try TownName.fetch(connection, where: ["name": "Brest"]), [TownName(id: 1, name: "Brest")])
        assertUnknownColumn(try Town.fetch(connection, where: ["region": "BRE"]), column: "region")
        try connection.execute("SET search_path TO \"\(schema)\"")
        XCTAssertEqual(try Town.fetch(connection, where: ["name": "Brest"]).map(\.population), [139_926])
    }

    /// Keys that need quoting, a reserved word, and one longer than PostgreSQL's 63-byte identifiers, each in a
    /// loop of one form with NULL, then a value, then NULL.
    func testKeysThatNeedQuotingInALoopOfNullThenValueThenNull() throws {
        let long = String(repeating: "k", count: 70)
        try connection.execute(
            "CREATE TABLE towns (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, \"order\" TEXT, \"Mixed Case\" TEXT, "
                + "\"\(long)\" TEXT)")
        try connection.execute(
            "INSERT INTO towns (name, \"order\", \"Mixed Case\", \"\(long)\") VALUES ('a', 'o', 'm', 'l')")
        try connection.execute("INSERT INTO towns (name) VALUES ('b')")
        for key in ["order", "Mixed Case", long] {
            let cases: [(String?, [String])] = [
                (nil, ["b"]), ("x", []), (nil, ["b"]), ("o", ["a"]), ("m", ["a"]), ("l", ["a"]),
            ]
            for (value, expected) in cases {
                let found = try TownName.fetch(connection, where: [key: value], orderBy: [.ascending("name")])
                    .map(\.name)
                let hit = value == nil || (key == "order" ? "o" : key == long ? "l" : "m") == value
                XCTAssertEqual(found, hit ? expected : [], "\(key) = \(value ?? "NULL")")
            }
        }
    }

    /// Ordering by the same column twice, then once, then by another: each form's rows in its own order.
    func testOrderingsOfOneKeySet() throws {
        try Town.createTable(in: connection)
        try insertTowns()
        var town = Town(id: nil, name: "Annecy", region: "ARA", population: 130_721)
        try town.insert(connection)
        let twice = try Town.fetch(
            connection, where: ["region": "ARA"], orderBy: [.ascending("population"), .descending("population")])
        XCTAssertEqual(twice.map(\.name), ["Annecy", "Lyon"])
        XCTAssertEqual(
            try Town.fetch(connection, where: ["region": "ARA"], orderBy: [.descending("population")]).map(\.name),
            ["Lyon", "Annecy"])
        XCTAssertEqual(
            try Town.fetch(connection, where: ["region": "ARA"], orderBy: [.ascending("name")]).map(\.name),
            ["Annecy", "Lyon"])
        assertUnknownColumn(
            try Town.fetch(connection, where: ["region": "ARA"], orderBy: [.ascending("populace")]), column: "populace")
        XCTAssertEqual(
            try Town.fetch(connection, where: ["region": "ARA"], orderBy: [.ascending("name")]).map(\.name),
            ["Annecy", "Lyon"])
    }

    /// A column renamed by another connection after a fetch of one form: the server refuses that fetch (the
    /// connection cannot know before it runs), and the next fetch of the old key is refused by name, since
    /// the refusal made the connection read the table's columns again.
    func testAColumnRenamedByAnotherConnectionIsReportedByNameOnTheNextFetch() throws {
        try Town.createTable(in: connection)
        try insertTowns()
        XCTAssertEqual(try TownName.fetch(connection, where: ["region": "BRE"]).map(\.name), ["Brest"])
        let other = try PostgresConnection(configuration: configuration())
        try other.execute("ALTER TABLE towns RENAME COLUMN region TO area")
        XCTAssertThrowsError(try TownName.fetch(connection, where: ["region": "BRE"]))
        assertUnknownColumn(
            try TownName.fetch(connection, where: ["region": "BRE"]), column: "region",
            columns: ["id", "name", "area", "population"])
        XCTAssertEqual(try TownName.fetch(connection, where: ["area": "BRE"]).map(\.name), ["Brest"])
    }

    /// A column retyped by another connection, and back: the fetch of the other type reports the column, and
    /// the fetch after the type came back decodes the rows, through the kept form and decoding.
    func testAColumnRetypedByAnotherConnectionAndBack() throws {
        try Town.createTable(in: connection)
        try insertTowns()
        XCTAssertEqual(try Town.fetch(connection, where: ["region": "BRE"]).map(\.population), [139_926])
        let other = try PostgresConnection(configuration: configuration())
        try other.execute("ALTER TABLE towns ALTER COLUMN population TYPE TEXT USING 'many ' || population")
        XCTAssertThrowsError(try Town.fetch(connection, where: ["region": "BRE"])) { error in
            XCTAssertTrue("\(error)".contains("population"), "\(error)")
        }
        try other.execute("ALTER TABLE towns ALTER COLUMN population TYPE BIGINT USING length(population)")
        XCTAssertEqual(try Town.fetch(connection, where: ["region": "BRE"]).map(\.population), [11])
        XCTAssertEqual(try Town.fetchOne(connection, id: 2)?.population, 11)
    }

    /// A record whose `tableName` changes at run time, between fetches of one form.
    struct Moving: Record, Equatable {
        static let table = TestLocked("towns")
        static var tableName: String { table.withLock { $0 } }
        var id: Int64?
        var name: String
    }

    func testATableNameThatChangesBetweenFetchesOfOneForm() throws {
        try Town.createTable(in: connection)
        try insertTowns()
        try connection.execute("CREATE TABLE archive (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, closed BOOLEAN)")
        try connection.execute("INSERT INTO archive (name, closed) VALUES ('Brest', true), ('Ys', true)")
        defer { Moving.table.withLock { $0 = "towns" } }
        for _ in 0..<2 {
            Moving.table.withLock { $0 = "towns" }
            XCTAssertEqual(try Moving.fetch(connection, where: ["region": "BRE"]), [Moving(id: 2, name: "Brest")])
            XCTAssertEqual(try Moving.fetch(connection, where: ["name": "Brest"]), [Moving(id: 2, name: "Brest")])
            Moving.table.withLock { $0 = "archive" }
            XCTAssertEqual(try Moving.fetch(connection, where: ["name": "Brest"]), [Moving(id: 1, name: "Brest")])
            XCTAssertThrowsError(try Moving.fetch(connection, where: ["region": "BRE"])) { error in
                guard case RecordError.unknownColumn(let table, let column, _) = error else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(table, "archive")
                XCTAssertEqual(column, "region")
            }
            XCTAssertEqual(
                try Moving.fetch(connection, where: ["closed": true], orderBy: [.ascending("name")]).map(\.name),
                ["Brest", "Ys"])
        }
    }

    /// A column added inside a transaction that is rolled back, after a fetch of it in the transaction: the
    /// next fetch of that key reports it by name.
    func testAColumnAddedInARolledBackTransactionIsReportedByName() throws {
        try Town.createTable(in: connection)
        try insertTowns()
        struct Rollback: Error {}
        XCTAssertThrowsError(
            try connection.transaction {
                try connection.execute("ALTER TABLE towns ADD COLUMN country TEXT")
                XCTAssertEqual(try TownName.fetch(connection, where: ["country": nil]).count, 2)
                throw Rollback()
            })
        assertUnknownColumn(
            try TownName.fetch(connection, where: ["country": nil]), column: "country",
            columns: ["id", "name", "region", "population"])
    }
}
#endif
