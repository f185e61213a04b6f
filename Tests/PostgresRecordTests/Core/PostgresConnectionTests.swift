#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

final class PostgresConnectionTests: PostgresTestCase {
    func testSessionTimeZoneIsUTC() throws {
        XCTAssertEqual(try text("SHOW TimeZone"), "UTC")
        // A timestamp without zone reads as the same wall clock in UTC.
        let rows = try connection.query("SELECT TIMESTAMP '2024-02-29 12:34:56.5' AS t")
        XCTAssertEqual(try rows[0].decode(Date.self, column: "t").timeIntervalSince1970, 1_709_210_096.5)
    }

    func testUniqueViolationCarriesSQLStateConstraintTableDetailAndSQL() throws {
        try connection.execute("CREATE TABLE countries (id BIGINT PRIMARY KEY, iso TEXT NOT NULL UNIQUE)")
        try connection.execute("INSERT INTO countries VALUES ($1, $2)", [1, "FR"])
        XCTAssertThrowsError(try connection.execute("INSERT INTO countries VALUES ($1, $2)", [2, "FR"])) { error in
            guard let error = error as? PostgresError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.kind, .server)
            XCTAssertEqual(error.sqlState, .uniqueViolation)
            XCTAssertEqual(error.constraint, "countries_iso_key")
            XCTAssertEqual(error.table, "countries")
            XCTAssertEqual(error.message, "duplicate key value violates unique constraint \"countries_iso_key\"")
            XCTAssertEqual(error.detail, "Key (iso)=(FR) already exists.")
            XCTAssertEqual(error.sql, "INSERT INTO countries VALUES ($1, $2)")
            XCTAssertEqual(
                error.description,
                "PostgreSQL error 23505: duplicate key value violates unique constraint \"countries_iso_key\" "
                    + "- while executing: INSERT INTO countries VALUES ($1, $2)")
        }
    }

    func testNotNullViolationNamesTheColumn() throws {
        try connection.execute("CREATE TABLE cities (id BIGINT PRIMARY KEY, name TEXT NOT NULL)")
        XCTAssertThrowsError(try connection.execute("INSERT INTO cities VALUES ($1, $2)", [1, nil])) { error in
            let error = error as? PostgresError
            XCTAssertEqual(error?.sqlState, .notNullViolation)
            XCTAssertEqual(error?.column, "name")
            XCTAssertEqual(error?.table, "cities")
        }
    }

    func testSyntaxErrorKeepsTheSQL() throws {
        XCTAssertThrowsError(try connection.query("SELEC 1")) { error in
            let error = error as? PostgresError
            XCTAssertEqual(error?.sqlState, SQLState("42601"))
            XCTAssertEqual(error?.message, "syntax error at or near \"SELEC\"")
            XCTAssertEqual(error?.sql, "SELEC 1")
        }
    }

    func testLostConnectionIsAnErrorThatSaysSo() throws {
        let victim = try PostgresConnection(configuration: configuration())
        let pid = victim.backendPID
        _ = try connection.query("SELECT pg_terminate_backend($1)", [PostgresValue(pid)])
        XCTAssertThrowsError(try victim.query("SELECT 1")) { error in
            let error = error as? PostgresError
            XCTAssertEqual(error?.kind, .connectionLost)
            XCTAssertTrue(error?.description.hasPrefix("PostgreSQL connection lost: ") ?? false, "\(String(describing: error))")
            XCTAssertEqual(error?.sql, "SELECT 1")
        }
        XCTAssertFalse(victim.isConnected)
    }

    func testNamedStatementsArePreparedOnceAndUnnamedOnesNever() throws {
        for _ in 0..<3 { _ = try connection.query("SELECT $1::int + 1", [PostgresValue(Int32(1))]) }
        let named = try connection.query("SELECT count(*) FROM pg_prepared_statements WHERE statement = $1", ["SELECT $1::int + 1"])
        XCTAssertEqual(try named[0].decode(Int64.self, at: 0), 1)

        let unnamed = try PostgresConnection(configuration: configuration(namedStatements: false))
        for value in 0..<3 {
            let rows = try unnamed.query("SELECT $1::int + 1", [PostgresValue(Int32(value))])
            XCTAssertEqual(try rows[0].decode(Int.self, at: 0), value + 1)
        }
        let none = try unnamed.query("SELECT count(*) FROM pg_prepared_statements")
        XCTAssertEqual(try none[0].decode(Int64.self, at: 0), 0)
    }

    func testAStatementPreparedBeforeItsTableChangedIsPreparedAgainOutsideATransaction() throws {
        try connection.execute("CREATE TABLE words (id BIGINT PRIMARY KEY)")
        try connection.execute("INSERT INTO words VALUES (1)")
        XCTAssertEqual(try connection.query("SELECT * FROM words").columnNames, ["id"])
        let other = try PostgresConnection(configuration: configuration())
        try other.execute("ALTER TABLE words ADD COLUMN extra BIGINT")
        try other.execute("UPDATE words SET extra = 7")
        let rows = try connection.query("SELECT * FROM words")
        XCTAssertEqual(rows.columnNames, ["id", "extra"])
        XCTAssertEqual(try rows[0].decode(Int64.self, at: 1), 7)
    }

    func testAStatementPreparedBeforeItsTableChangedFailsItsTransactionOnceThenIsPreparedAgain() async throws {
        struct Word: Record, Equatable {
            var id: Int64
            var text: String
            static let tableName = "words"
        }
        try connection.execute("CREATE TABLE words (id BIGINT PRIMARY KEY, text TEXT NOT NULL)")
        try connection.execute("INSERT INTO words VALUES (1, 'one')")
        let pool = makePool(maximumConnections: 1)
        let first = try await Word.fetch(pool)
        XCTAssertEqual(first, [Word(id: 1, text: "one")])
        try connection.execute("ALTER TABLE words ADD COLUMN extra BIGINT")
        do {
            _ = try await Word.fetch(pool)
            XCTFail("no error")
        } catch let error as PostgresError {
            XCTAssertEqual(error.sqlState, .featureNotSupported)
            XCTAssertEqual(
                error.message,
                "cached plan must not change result type (SQLSTATE 0A000): a table the statement reads changed "
                    + "since this connection prepared it; the transaction is rolled back, and the next call "
                    + "prepares the statement again")
        }
        let again = try await Word.fetch(pool)
        XCTAssertEqual(again, [Word(id: 1, text: "one")])
        let count = try await pool.read { try $0.query("SELECT count(*) FROM words")[0].decode(Int64.self, at: 0) }
        XCTAssertEqual(count, 1)
    }

    func testTextWithNULIsRefusedBeforeAnythingIsSent() throws {
        XCTAssertThrowsError(try PostgresValue(text: "a\u{0}b")) { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.debugDescription, "PostgreSQL text cannot hold a NUL character (U+0000)")
        }
    }

    func testConnectionFailureSaysWhere() throws {
        XCTAssertThrowsError(try PostgresConnection("postgresql://postgres@127.0.0.1:1/postgres?connect_timeout=2")) {
            let error = $0 as? PostgresError
            XCTAssertEqual(error?.kind, .connectionFailed)
            XCTAssertTrue(error?.message.contains("127.0.0.1") ?? false, "\(String(describing: error))")
        }
    }

    func testTransactionAbortedByACaughtErrorCommitsNothing() throws {
        try connection.execute("CREATE TABLE notes (id BIGINT PRIMARY KEY)")
        XCTAssertThrowsError(
            try connection.transaction {
                try connection.execute("INSERT INTO notes VALUES ($1)", [1])
                _ = try? connection.execute("INSERT INTO notes VALUES ($1)", [1])
            }
        ) { error in
            XCTAssertEqual((error as? PostgresError)?.sqlState, .inFailedSQLTransaction)
        }
        XCTAssertEqual(try text("SELECT count(*)::text FROM notes"), "0")
        XCTAssertEqual(connection.transactionStatus, .idle)
    }

    func testSavepointsNest() throws {
        try connection.execute("CREATE TABLE notes (id BIGINT PRIMARY KEY)")
        try connection.transaction {
            try connection.execute("INSERT INTO notes VALUES ($1)", [1])
            try? connection.transaction {
                try connection.execute("INSERT INTO notes VALUES ($1)", [2])
                throw CocoaError(.userCancelled)
            }
            try connection.transaction { try connection.execute("INSERT INTO notes VALUES ($1)", [3]) }
        }
        XCTAssertEqual(try text("SELECT string_agg(id::text, ',' ORDER BY id) FROM notes"), "1,3")
    }
}
#endif
