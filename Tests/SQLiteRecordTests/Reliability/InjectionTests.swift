import Foundation
import SQLiteRecord
import XCTest

/// Fifty hostile strings as `where:` keys, `orderBy:` columns, table names (through a record type's
/// `tableName`) and values. Keys and columns are unknown columns (a thrown error, nothing runs), values are
/// stored and matched as written, and a table name either names no table ("no such table") or works on the
/// table created under that exact quoted name. Afterwards the schema and every row are as they were.
final class InjectionTests: XCTestCase {
    /// The strings of RecordHostileInputTests and more: quotes of every kind, comments, statement ends,
    /// parameters, keywords, schema names, control and look-alike characters.
    static let hostile: [String] = {
        let more = [
            "cities\"; DROP TABLE countries; --", "x\" OR \"1\"=\"1", "'; DELETE FROM cities; --", "cities WHERE 1=1",
            "main.cities", "sqlite_master", "sqlite_sequence", "\"\"", "\"", "'", "`", ";", "--", "*/", "\\", "%",
            "_", "?", "?1", ":name", "@name", "$name", "NULL", "ORDER", "select", "rowid",
            "cities\n; DROP TABLE cities", "\u{202E}seitic",
        ]
        return RecordHostileInputTests.hostileNames + more
    }()

    func testFiftyHostileStringsChangeNothingTheyShouldNot() throws {
        XCTAssertEqual(Self.hostile.count, 50)
        XCTAssertEqual(Set(Self.hostile).count, 50, "the strings are distinct")
        let db = try WorldFixtures.makeDatabase()
        try db.execute(sql: "CREATE TABLE secrets (id INTEGER PRIMARY KEY, secret TEXT NOT NULL)")
        try db.execute(sql: "INSERT INTO secrets (secret) VALUES ('the key'), ('the lock')")
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        var cities = ["Paris", "Lyon", "Nice"].enumerated().map {
            City(id: nil, countryId: nil, name: $0.element, population: $0.offset, foundedAt: nil)
        }
        try france.save(db, children: &cities)
        let schemaBefore = try schema(db)
        let rowsBefore = try checksum(db)

        var attempts = 0
        for name in Self.hostile {
            // As where keys and order columns: unknown columns, refused before any SQL runs.
            let asColumn: [(String, () throws -> Any)] = [
                ("fetch(where:)", { try City.fetch(db, where: [name: "Paris"]) }),
                ("fetchOne(where:)", { try City.fetchOne(db, where: [name: nil]) as Any }),
                ("count(where:)", { try City.count(db, where: [name: 1]) }),
                ("deleteAll(where:)", { try City.deleteAll(db, where: [name: "Paris"]) }),
                ("orderBy ascending", { try City.fetch(db, orderBy: [.ascending(name)]) }),
                ("orderBy descending", { try City.fetch(db, where: "1", orderBy: [.descending(name)], limit: 1) }),
                // The request API: every place a column can stand.
                ("filter ==", { try City.filter(Column(name) == "Paris").fetch(db) }),
                ("filter == nil", { try City.filter(Column(name) == nil).count(db) }),
                ("filter <", { try City.filter(Column(name) < 3).exists(db) }),
                ("filter in", { try City.filter(Column(name).in(["a", "b"])).fetch(db) }),
                ("filter empty in", { try City.filter(Column(name).in([String]())).fetch(db) }),
                ("filter between", { try City.filter(Column(name).between(1, and: 2)).fetch(db) }),
                ("filter hasPrefix", { try City.filter(Column(name).hasPrefix("P")).fetch(db) }),
                ("filter like", { try City.filter(Column(name).like("%")).fetch(db) }),
                ("filter nocase", { try City.filter(Column(name).collating(.nocase) == "x").fetch(db) }),
                ("filter arithmetic", { try City.filter(Column(name) * 2 > 1).fetch(db) }),
                ("filter column == column", { try City.filter(Column("name") == Column(name)).fetch(db) }),
                ("order", { try City.order(Column(name).descending).fetch(db) }),
                ("order nulls", { try City.order(Column(name).ascending(nulls: .last)).fetchOne(db) as Any }),
                ("select", { try City.select(Column(name)).fetch(db, as: String.self) }),
                ("select max", { try City.select(max(Column(name))).fetchOne(db, as: Int.self) as Any }),
                ("group", { try City.select(SQLExpression.countAll).group(Column(name)).fetch(db, as: Int.self) }),
                ("having", { try City.all().group(Column("name")).having(count(Column(name)) > 1).count(db) }),
                ("cursor", { try City.filter(Column(name) != 1).fetchCursor(db) }),
                ("request deleteAll", { try City.filter(Column(name) == "Paris").deleteAll(db) }),
                ("updateAll set", { try City.all().updateAll(db, Column(name).set(to: 1)) }),
                ("updateAll value", { try City.all().updateAll(db, Column("name").set(to: Column(name))) }),
                ("limited deleteAll", { try City.order(Column(name).ascending).limit(1).deleteAll(db) }),
            ]
            for (call, run) in asColumn {
                attempts += 1
                XCTAssertThrowsError(try run(), "\(call) \(name.debugDescription)") { error in
                    guard case .unknownColumn(_, let column, _)? = error as? RecordError else {
                        return XCTFail("\(call) \(name.debugDescription): \(error)")
                    }
                    XCTAssertEqual(column, name)
                }
            }

            // As values: stored as written, matched exactly, removed exactly.
            var city = City(id: nil, countryId: france.id, name: name, population: 7, foundedAt: nil)
            try city.save(db)
            XCTAssertEqual(try City.fetch(db, where: ["name": name]).map(\.id), [city.id], name.debugDescription)
            XCTAssertEqual(try City.fetch(db, where: "name = ?", arguments: [name]).count, 1)
            XCTAssertEqual(try City.count(db, where: ["name": name, "population": 7]), 1)
            XCTAssertEqual(try City.fetchOne(db, id: city.id ?? 0)?.name, name)
            // Through requests: the value is bound, search text is literal, an alias and a collation name
            // are quoted.
            XCTAssertEqual(try City.filter(Column("name") == name).fetch(db).map(\.id), [city.id])
            XCTAssertEqual(try City.filter(Column("name").in([name, "nowhere"])).count(db), 1)
            XCTAssertEqual(try City.filter(Column("name").hasPrefix(name) && Column("population") == 7).count(db), 1)
            XCTAssertEqual(try City.filter(Column("name").contains(name) && Column("population") == 7).count(db), 1)
            XCTAssertEqual(try City.filter(Column("name").hasSuffix(name) && Column("population") == 7).count(db), 1)
            if !name.contains("\u{0}") {  // SQL text holding a NUL is refused, as the test below shows
                XCTAssertEqual(
                    try City.filter(Column("id") == city.id).select(Column("name").forKey(name))
                        .fetchOne(db, as: String.self),
                    name)
            }
            XCTAssertThrowsError(try City.filter(Column("name").collating(SQLCollation(name)) == name).fetch(db)) {
                XCTAssertNotNil($0 as? DatabaseError, "\($0)")
            }
            XCTAssertEqual(try City.filter(Column("id") == city.id).updateAll(db, Column("name").set(to: name)), 1)
            XCTAssertEqual(try City.filter(SQLExpression(sql: "name = ?", arguments: [name])).count(db), 1)
            XCTAssertEqual(try City.deleteAll(db, where: ["name": name]), 1)
            attempts += 15
        }
        attempts += try TableNames.run(Zero.self, db: db, test: self)

        XCTAssertEqual(try schema(db), schemaBefore, "the schema changed")
        XCTAssertEqual(try checksum(db), rowsBefore, "the rows changed")
        XCTAssertEqual(try db.fetchAll(String.self, sql: "PRAGMA integrity_check"), ["ok"])
        print(
            "InjectionTests: \(Self.hostile.count) hostile strings, \(attempts) attempts as where keys, order columns, "
                + "values and table names; schema and rows unchanged")
    }

    func testSQLTextHoldingANULIsRefusedNotCutShort() throws {
        let db = try WorldFixtures.makeDatabase()
        var france = Country(id: nil, name: "France", iso: "FR", population: 1)
        try france.save(db)
        // SQLite reads SQL text up to its first NUL: this would run `DELETE FROM countries` and empty the table.
        for sql in ["DELETE FROM countries\u{0} WHERE id = 99", "SELECT 1;\u{0} DELETE FROM countries"] {
            XCTAssertThrowsError(try db.execute(sql: sql)) { error in
                guard let error = error as? DatabaseError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.resultCode, .misuse)
                XCTAssertTrue(error.message.contains("NUL"), error.message)
            }
            XCTAssertThrowsError(try db.makeStatement(sql: sql)) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .misuse, "\(error)")
            }
            XCTAssertThrowsError(try db.fetchAll(sql: sql))
        }
        XCTAssertEqual(try Country.count(db), 1)
    }

    // MARK: Snapshots

    private func schema(_ db: Database) throws -> [String] {
        try db.fetchAll(sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").map {
            "\($0)"
        }
    }

    /// Every row of every table, in rowid order, folded into one number.
    private func checksum(_ db: Database) throws -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let tables = try db.fetchAll(
            String.self, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        for table in tables {
            for row in try db.fetchAll(sql: "SELECT * FROM \(SQLIdentifier.quoted(table)) ORDER BY rowid") {
                for byte in "\(table)|\(row)".utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            }
        }
        return hash
    }
}

// MARK: Hostile table names

/// A natural number as a type, so that each hostile table name gets a record type of its own: the SQL a
/// record type needs is built once per type, so one type must not change its table name.
protocol TableTag { static var index: Int { get } }
enum Zero: TableTag { static var index: Int { 0 } }
enum Next<Previous: TableTag>: TableTag { static var index: Int { Previous.index + 1 } }

/// A record whose table is hostile string number `Tag.index`.
struct HostileTable<Tag: TableTag>: Record, Equatable {
    var id: Int64?
    var label: String
    var n: Int
    static var tableName: String { InjectionTests.hostile[Tag.index] }
}

enum TableNames {
    /// Runs the table-name checks for `Tag` and every later tag; returns the number of attempts.
    static func run<Tag: TableTag>(_ tag: Tag.Type, db: Database, test: XCTestCase) throws -> Int {
        var attempts = try check(HostileTable<Tag>.self, db: db)
        if Tag.index + 1 < InjectionTests.hostile.count {
            attempts += try run(Next<Tag>.self, db: db, test: test)
        }
        return attempts
    }

    /// Before its table exists, each call fails with "no such table" and the exact name; once it exists
    /// under the quoted name, each call works on it.
    static func check<Table: TableTag>(_ type: HostileTable<Table>.Type, db: Database) throws -> Int {
        let name = type.tableName
        let quoted = SQLIdentifier.quoted(name)
        let context = "table \(name.debugDescription)"
        var record = HostileTable<Table>(id: nil, label: "one", n: 1)
        let calls: [(String, () throws -> Any)] = [
            ("fetch", { try type.fetch(db) }),
            ("fetch(where:orderBy:)", { try type.fetch(db, where: ["label": "one"], orderBy: [.ascending("n")]) }),
            ("fetchOne(id:)", { try type.fetchOne(db, id: 1) as Any }),
            ("count", { try type.count(db) }),
            ("exists", { try type.exists(db, id: 1) }),
            ("deleteAll", { try type.deleteAll(db) }),
            ("insert", { try record.insert(db) }),
        ]
        let reserved = name.lowercased().hasPrefix("sqlite_")
        for (call, run) in calls {
            if reserved {
                // SQLite's own tables exist: reads may work, writes fail; the snapshots check nothing changed.
                _ = try? run()
                continue
            }
            XCTAssertThrowsError(try run(), "\(call) on \(context)") { error in
                guard let error = error as? DatabaseError else { return XCTFail("\(call) on \(context): \(error)") }
                // A name with a NUL cannot be written in SQL: refused before SQLite reads a cut-short statement.
                if error.message.hasPrefix("no such table: \(name)")
                    || (name.utf8.contains(0) && error.resultCode == .misuse)
                {
                    return
                }
                XCTFail("\(call) on \(context): \(error)")
            }
        }
        XCTAssertNil(record.id)
        guard !reserved, !name.utf8.contains(0) else { return calls.count }

        try db.execute(sql: "CREATE TABLE \(quoted) (id INTEGER PRIMARY KEY, label TEXT NOT NULL, n INTEGER NOT NULL)")
        try record.insert(db)
        var second = HostileTable<Table>(id: nil, label: name, n: 2)
        try second.save(db)
        second.n = 3
        try second.save(db)
        XCTAssertEqual(try type.fetch(db, orderBy: [.descending("n")]).map(\.label), [name, "one"], context)
        XCTAssertEqual(try type.fetchOne(db, where: ["label": name]), second, context)
        XCTAssertEqual(try type.count(db), 2, context)
        XCTAssertTrue(try type.exists(db, id: second.id ?? 0), context)
        XCTAssertTrue(try second.delete(db), context)
        XCTAssertEqual(try type.deleteAll(db), 1, context)
        try db.execute(sql: "DROP TABLE \(quoted)")
        return calls.count + 8
    }
}
