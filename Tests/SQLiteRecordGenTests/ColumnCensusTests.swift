import Foundation
import SQLiteRecord
import XCTest

@testable import SQLiteRecordGen

/// The census reads every stored value, so a value past any sample decides the type, with a note.
final class ColumnCensusTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-record-census-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: folder)
    }

    func testTheLastRowOfTheTableDecidesTheType() throws {
        let url = folder.appendingPathComponent("readings.sqlite")
        try GeneratorFixtures.makeDatabase(at: url, sql: GeneratorFixtures.pastTheSampleSQL)
        let source = try ModelGenerator.generate(path: url.path).source
        let expected = """
            struct Reading: Record, Equatable, Sendable {
                var id: Int64?
                // note: taken: declared DATE, but 1 of the 2000 TEXT values are not dates: String.
                var taken: String
                // note: ok: declared BOOLEAN, but 1 of the 2000 values are neither 0 nor 1.
                var ok: Int64
                // note: count: declared INTEGER, but 1 of the 2000 values have a fraction: Double.
                var count: Double
                // note: token: declared UUID, but 1 of the 2000 TEXT values are not UUIDs: String.
                var token: String
                var label: String?

                static let tableName = "readings"
            }
            """
        XCTAssertTrue(source.contains(expected), source)
    }

    /// Found by the random schemas of ``GeneratedModelsCompileTests``: BLOBs and numbers in one column, a
    /// REAL beyond Decimal's range, and a DECIMAL key, each of which made the generated type throw.
    func testColumnsNoCodableTypeReadsAreLeftOutAndDecimalsThatWouldNotReadAreDoubles() throws {
        let url = folder.appendingPathComponent("mixed.sqlite")
        try GeneratorFixtures.makeDatabase(
            at: url,
            sql: """
                CREATE TABLE parts (id INTEGER PRIMARY KEY, payload BLOB, amount DECIMAL(10,2), name TEXT);
                INSERT INTO parts VALUES (1, x'0102', 1e300, 'a'), (2, 7, 2.5, 'b');
                CREATE TABLE prices (amount DECIMAL(10,2) NOT NULL UNIQUE, name TEXT);
                INSERT INTO prices VALUES (12.5, 'x');
                """)
        let source = try ModelGenerator.generate(path: url.path).source
        XCTAssertTrue(
            source.contains(
                """
                // note: payload: holds 1 INTEGER and 1 BLOB: no Codable type reads BLOBs and numbers alike; left out of the type (saves leave it as it is, inserts store its DEFAULT or NULL); read it as SQLiteValue with a query of your own.
                /// A row of table "parts".
                struct Part: Record, Equatable, Sendable {
                    var id: Int64?
                    // note: amount: declared DECIMAL(10,2), but holds REALs beyond 2^63, which Decimal does not read: Double.
                    var amount: Double?
                    var name: String?
                """), source)
        XCTAssertTrue(
            source.contains(
                """
                    // note: amount: declared DECIMAL(10,2), a key: Double, since the schema probe reads a Decimal key as a nested value.
                    var id: Double
                """), source)
    }

    func testTheCensusCountsEveryStorageClassAndForm() throws {
        let queue = try DatabaseQueue()
        let censuses = try queue.write { db -> [ColumnCensus] in
            try db.execute(
                sql: """
                    CREATE TABLE t (a, b, c);
                    INSERT INTO t VALUES (0, '2024-01-02 03:04:05.000', x'00112233445566778899aabbccddeeff');
                    INSERT INTO t VALUES (1, '2024-01-02', 'A1B2C3D4-0000-4000-8000-000000000001');
                    INSERT INTO t VALUES (9007199254740993, 'yes', NULL);
                    INSERT INTO t VALUES (1.5, NULL, x'00');
                    INSERT INTO t VALUES (1e300, 'text', 'a1b2c3d4-0000-4000-8000-000000000001');
                    """)
            try CensusQuery.register(on: db)
            let census = try CensusQuery.census(of: "t", columns: ["a", "b", "c"], db)
            XCTAssertEqual(census.rows, 5)
            return census.columns
        }
        var a = ColumnCensus()
        (a.integerCount, a.realCount, a.notZeroOrOneCount, a.fractionalRealCount) = (3, 2, 3, 1)
        (a.largeIntegerCount, a.realBeyondInt64Count) = (1, 1)
        XCTAssertEqual(censuses[0], a)
        var b = ColumnCensus()
        (b.nullCount, b.textCount, b.nonDateTextCount, b.nonUUIDTextCount, b.nonBoolTextCount) = (1, 4, 2, 4, 3)
        (b.nonCanonicalTextCount, b.firstText) = (3, "2024-01-02 03:04:05.000")
        XCTAssertEqual(censuses[1], b)
        var c = ColumnCensus()
        (c.nullCount, c.textCount, c.blobCount, c.notSixteenByteBlobCount) = (1, 2, 2, 1)
        (c.nonDateTextCount, c.nonBoolTextCount, c.nonCanonicalTextCount) = (2, 2, 1)
        c.firstText = "A1B2C3D4-0000-4000-8000-000000000001"
        XCTAssertEqual(censuses[2], c)
    }

    func testAWideTableIsCountedInOneScan() throws {
        let queue = try DatabaseQueue()
        let columns = (1...205).map { "c\($0)" }
        let censuses = try queue.write { db -> [ColumnCensus] in
            try db.execute(sql: "CREATE TABLE wide (" + columns.joined(separator: ", ") + ")")
            try db.execute(sql: "INSERT INTO wide (c1, c205) VALUES (1, 'x'), (NULL, 'y')")
            try CensusQuery.register(on: db)
            return try CensusQuery.census(of: "wide", columns: columns, db).columns
        }
        XCTAssertEqual(censuses.count, 205)
        XCTAssertEqual(censuses[0].integerCount, 1)
        XCTAssertEqual(censuses[0].nullCount, 1)
        XCTAssertEqual(censuses[204].textCount, 2)
        XCTAssertEqual(censuses[100].nullCount, 2)
    }
}
