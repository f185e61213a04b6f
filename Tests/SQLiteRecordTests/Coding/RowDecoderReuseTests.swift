import Foundation
import XCTest

@testable import SQLiteRecord

private struct Stamp: Decodable, Equatable {
    var id: Int
    var at: Date
}

private struct OptionalStamp: Decodable, Equatable {
    var id: Int
    var at: Date?
}

private struct Pair: Decodable, Equatable {
    var id: Int
    var first: String
    var second: String
}

private struct CityName: Decodable, Equatable {
    var id: Int
    var countryCode: String
}

private struct CityNameByCodingKey: Decodable, Equatable {
    var id: Int
    var countryCode: String

    enum CodingKeys: String, CodingKey {
        case id
        case countryCode = "country_code"
    }
}

private struct Point: Codable, Equatable {
    var xValue: Int
}

private struct Shape: Decodable, Equatable {
    var id: Int
    var point: Point
}

/// ``RowDecoder/decode(_:from:)`` keeps a decoding context on the statement for the rows after the first; these
/// tests step statements by hand, as its callers do, and check that what one decoder or statement keeps never
/// changes what another reads.
final class RowDecoderReuseTests: XCTestCase {
    private func stampsDatabase() throws -> Database {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, at)")
        try db.execute(sql: "INSERT INTO t VALUES (1, 86400), (2, 172800), (3, 259200), (4, 345600)")
        return db
    }

    func testOneDecoderAlternatingBetweenTwoStatements() throws {
        let db = try stampsDatabase()
        let ascending = try db.makeStatement(sql: "SELECT id, at FROM t ORDER BY id")
        let descending = try db.makeStatement(sql: "SELECT at, id FROM t ORDER BY id DESC")
        let decoder = RowDecoder()
        var read: [Stamp] = []
        while try ascending.step(), try descending.step() {
            read.append(try decoder.decode(Stamp.self, from: ascending))
            read.append(try decoder.decode(Stamp.self, from: descending))
        }
        let day = { (days: Double) in Date(timeIntervalSince1970: days * 86_400) }
        XCTAssertEqual(
            read,
            [
                Stamp(id: 1, at: day(1)), Stamp(id: 4, at: day(4)), Stamp(id: 2, at: day(2)), Stamp(id: 3, at: day(3)),
                Stamp(id: 3, at: day(3)), Stamp(id: 2, at: day(2)), Stamp(id: 4, at: day(4)), Stamp(id: 1, at: day(1)),
            ])
    }

    func testTwoDecodersWithOtherDateStrategiesAlternatingOnOneStatement() throws {
        let db = try stampsDatabase()
        let statement = try db.makeStatement(sql: "SELECT id, at FROM t ORDER BY id")
        let seconds = RowDecoder()
        var milliseconds = RowDecoder()
        milliseconds.dateDecodingStrategy = .unixMilliseconds
        var read: [Stamp] = []
        var row = 0
        while try statement.step() {
            read.append(try (row % 2 == 0 ? seconds : milliseconds).decode(Stamp.self, from: statement))
            row += 1
        }
        XCTAssertEqual(
            read.map(\.at), [86_400, 172.8, 259_200, 345.6].map { Date(timeIntervalSince1970: $0) })
    }

    func testTwoDecodersWithOtherKeyStrategiesAlternatingOnOneStatement() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE cities(id INTEGER PRIMARY KEY, country_code TEXT)")
        try db.execute(sql: "INSERT INTO cities VALUES (1, 'FR'), (2, 'JP'), (3, 'NZ'), (4, 'PE')")
        let statement = try db.makeStatement(sql: "SELECT * FROM cities ORDER BY id")
        var snakeCase = RowDecoder()
        snakeCase.keyDecodingStrategy = .convertFromSnakeCase
        let defaultKeys = RowDecoder()
        var codes: [String] = []
        var row = 0
        while try statement.step() {
            if row % 2 == 0 {
                codes.append(try snakeCase.decode(CityName.self, from: statement).countryCode)
                // The same row again, through the context the other decoder keeps.
                codes.append(try defaultKeys.decode(CityNameByCodingKey.self, from: statement).countryCode)
            } else {
                codes.append(try defaultKeys.decode(CityNameByCodingKey.self, from: statement).countryCode)
                XCTAssertThrowsError(try defaultKeys.decode(CityName.self, from: statement)) { error in
                    guard case DecodingError.keyNotFound(let key, _) = error else { return XCTFail("\(error)") }
                    XCTAssertEqual(key.stringValue, "countryCode")
                }
            }
            row += 1
        }
        XCTAssertEqual(codes, ["FR", "FR", "JP", "NZ", "NZ", "PE"])
    }

    func testDecodersWithTheirOwnJSONDecodersAlternatingOnOneStatement() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE shapes(id INTEGER PRIMARY KEY, point TEXT)")
        try db.execute(sql: #"INSERT INTO shapes VALUES (1, '{"x_value": 1}'), (2, '{"x_value": 2}')"#)
        let statement = try db.makeStatement(sql: "SELECT * FROM shapes ORDER BY id")
        let plain = RowDecoder()
        let snakeCaseJSON = RowDecoder()
        snakeCaseJSON.jsonDecoder.keyDecodingStrategy = .convertFromSnakeCase
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(try snakeCaseJSON.decode(Shape.self, from: statement), Shape(id: 1, point: Point(xValue: 1)))
        XCTAssertThrowsError(try plain.decode(Shape.self, from: statement))
        XCTAssertTrue(try statement.step())
        XCTAssertThrowsError(try plain.decode(Shape.self, from: statement))
        XCTAssertEqual(try snakeCaseJSON.decode(Shape.self, from: statement), Shape(id: 2, point: Point(xValue: 2)))
    }

    /// A run ended by a reset or by stepping past the last row: SQLite prepares the statement again at its
    /// next step, where `SELECT *` then returns two columns, and the decoder notices either way.
    func testStatementPreparedAgainAfterASchemaChangeReadsItsNewColumns() throws {
        let endings: [(Statement) throws -> Void] = [{ $0.reset() }, { XCTAssertFalse(try $0.step()) }]
        for endRun in endings {
            let db = try Database()
            try db.execute(sql: "CREATE TABLE cities(id INTEGER PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO cities VALUES (1)")
            let statement = try db.makeStatement(sql: "SELECT * FROM cities")
            let decoder = RowDecoder()
            XCTAssertTrue(try statement.step())
            XCTAssertThrowsError(try decoder.decode(CityNameByCodingKey.self, from: statement))
            try endRun(statement)
            try db.execute(sql: "ALTER TABLE cities ADD COLUMN country_code TEXT DEFAULT 'FR'")
            XCTAssertTrue(try statement.step())
            XCTAssertEqual(
                try decoder.decode(CityNameByCodingKey.self, from: statement),
                CityNameByCodingKey(id: 1, countryCode: "FR"))
        }
    }

    /// Columns that swap names keep the column count: the statement prepared again must still be noticed,
    /// or each key would read the other column.
    func testStatementPreparedAgainWithSwappedColumnNamesReadsEachColumnByItsNewName() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE pairs(id INTEGER PRIMARY KEY, first TEXT, second TEXT)")
        try db.execute(sql: "INSERT INTO pairs VALUES (1, 'a', 'b')")
        let swap =
            "ALTER TABLE pairs RENAME COLUMN first TO swapping; ALTER TABLE pairs RENAME COLUMN second TO first; "
            + "ALTER TABLE pairs RENAME COLUMN swapping TO second"

        // Row by row over one statement of the caller's.
        let statement = try db.makeStatement(sql: "SELECT * FROM pairs")
        let decoder = RowDecoder()
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(try decoder.decode(Pair.self, from: statement), Pair(id: 1, first: "a", second: "b"))
        statement.reset()
        try db.execute(sql: swap)
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(try decoder.decode(Pair.self, from: statement), Pair(id: 1, first: "b", second: "a"))
        statement.reset()

        // Through the connection's statement cache, as record fetches and raw-SQL fetches use it.
        XCTAssertEqual(try db.fetchAll(Pair.self, sql: "SELECT * FROM pairs"), [Pair(id: 1, first: "b", second: "a")])
        try db.execute(sql: swap)
        XCTAssertEqual(try db.fetchAll(Pair.self, sql: "SELECT * FROM pairs"), [Pair(id: 1, first: "a", second: "b")])
    }

    /// Decodes its row, then the same statement's row again with a decoder of the snake_case key strategy
    /// (which replaces the statement's whole coding state) and one with a JSON decoder of its own (which
    /// replaces the kept context): the context decoding this row is read without a retain, so it must
    /// outlive both replacements. Under the address sanitizer a freed context would fail here.
    private struct Nested: FetchableRecord, Equatable {
        var id: Int64
        var countryCode: String
        var again: CityName?
        var viaOwnJSON: CityNameByCodingKey?

        init(id: Int64, countryCode: String, again: CityName?, viaOwnJSON: CityNameByCodingKey?) {
            (self.id, self.countryCode, self.again, self.viaOwnJSON) = (id, countryCode, again, viaOwnJSON)
        }

        init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not through Decodable"))
        }

        init(row: borrowing FetchedRow) throws {
            let statement = try XCTUnwrap(row.context).statement
            var snakeCase = RowDecoder()
            snakeCase.keyDecodingStrategy = .convertFromSnakeCase
            again = try snakeCase.decode(CityName.self, from: statement)
            var ownJSON = RowDecoder()
            ownJSON.jsonDecoder = JSONDecoder()
            viaOwnJSON = try ownJSON.decode(CityNameByCodingKey.self, from: statement)
            // The outer context's own reads, after both replacements.
            id = try row["id", as: Int64.self]
            countryCode = try row["country_code", as: String.self]
        }
    }

    func testARowInitializerThatDecodesItsStatementWithOtherDecodersKeepsTheDecodingContextAlive() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE cities(id INTEGER PRIMARY KEY, country_code TEXT)")
        try db.execute(sql: "INSERT INTO cities VALUES (1, 'FR'), (2, 'DE'), (3, 'IT')")
        let statement = try db.makeStatement(sql: "SELECT * FROM cities ORDER BY id")
        let decoder = RowDecoder()
        var rows: [Nested] = []
        while try statement.step() { rows.append(try decoder.decode(Nested.self, from: statement)) }
        XCTAssertEqual(
            rows,
            [(1, "FR"), (2, "DE"), (3, "IT")].map {
                Nested(
                    id: $0, countryCode: $1, again: CityName(id: Int($0), countryCode: $1),
                    viaOwnJSON: CityNameByCodingKey(id: Int($0), countryCode: $1))
            })
    }

    // MARK: Dates through the keyed container

    /// Decodes `sql`'s rows as `T` row by row with a decoder of `strategy`.
    private func decodeRows<T: Decodable>(
        _ type: T.Type, sql: String, strategy: RowDecoder.DateDecodingStrategy
    ) throws -> [T] {
        let db = try Database()
        let statement = try db.makeStatement(sql: sql)
        var decoder = RowDecoder()
        decoder.dateDecodingStrategy = strategy
        var values: [T] = []
        while try statement.step() {
            values.append(try decoder.decode(type, from: statement))
        }
        return values
    }

    func testDateOfEachStrategyFromTheKeyedContainer() throws {
        let instant = Date(timeIntervalSince1970: 1_714_566_600.25)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        let cases: [(RowDecoder.DateDecodingStrategy, String)] = [
            (.automatic, "'2024-05-01 12:30:00.250'"),
            (.automatic, "1714566600.25"),
            (.unixSeconds, "1714566600.25"),
            (.unixMilliseconds, "1714566600250"),
            (.iso8601, "'2024-05-01T12:30:00.250Z'"),
            (.formatted(formatter), "'2024-05-01 12:30:00.250'"),
            (.custom({ _ in instant }), "'any'"),
        ]
        for (strategy, literal) in cases {
            let sql = "SELECT 1 AS id, \(literal) AS at UNION ALL SELECT 2, \(literal)"
            XCTAssertEqual(
                try decodeRows(Stamp.self, sql: sql, strategy: strategy),
                [Stamp(id: 1, at: instant), Stamp(id: 2, at: instant)], "\(strategy) from \(literal)")
            XCTAssertEqual(
                try decodeRows(OptionalStamp.self, sql: sql + " UNION ALL SELECT 3, NULL", strategy: strategy),
                [OptionalStamp(id: 1, at: instant), OptionalStamp(id: 2, at: instant), OptionalStamp(id: 3, at: nil)],
                "\(strategy) from \(literal)")
        }
    }

    func testAutomaticDateErrorsFromTheKeyedContainer() throws {
        // TEXT that is no date is dataCorrupted (TEXT is a storage a Date reads); a BLOB is typeMismatch.
        let expectations: [(String, String, Bool)] = [
            (
                "'noon'",
                "Expected Date but column \"at\" holds TEXT 'noon', which is not a date text SQLite reads "
                    + "(YYYY-MM-DD[ HH:MM[:SS[.SSS]]][Z|±HH:MM|±HHMM|±HH])", true
            ),
            ("x'00'", "Expected Date but column \"at\" holds BLOB <1 bytes>", false),
        ]
        for (literal, message, isCorrupted) in expectations {
            XCTAssertThrowsError(
                try decodeRows(Stamp.self, sql: "SELECT 1 AS id, \(literal) AS at", strategy: .automatic)
            ) { error in
                let context: DecodingError.Context
                switch error {
                case DecodingError.typeMismatch(let type, let found) where !isCorrupted:
                    XCTAssertTrue(type == Date.self)
                    context = found
                case DecodingError.dataCorrupted(let found) where isCorrupted: context = found
                default: return XCTFail("\(error)")
                }
                XCTAssertEqual(context.codingPath.map(\.stringValue), ["at"])
                XCTAssertTrue(context.debugDescription.hasPrefix(message), context.debugDescription)
            }
        }
        XCTAssertThrowsError(
            try decodeRows(Stamp.self, sql: "SELECT 1 AS id, NULL AS at", strategy: .automatic)
        ) { error in
            guard case DecodingError.valueNotFound(let type, let context) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(type == Date.self)
            XCTAssertEqual(context.debugDescription, "Expected Date but column \"at\" holds NULL")
        }
    }
}
