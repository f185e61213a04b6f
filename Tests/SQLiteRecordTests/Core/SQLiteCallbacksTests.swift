import Foundation
import XCTest

@testable import SQLiteRecord

/// The context rules of ``SQLiteCallbacks``: each C callback finds live Swift state for as long as SQLite
/// may call it. A broken rule reads freed memory, which the address sanitizer reports
/// (`Scripts/sanitizers.sh asan`); without it these tests check the values the callbacks produce.
final class SQLiteCallbacksTests: XCTestCase {
    /// Holds a connection for a trace handler that changes the connection's trace (the handler must be
    /// `Sendable`; a `Database` is not). Used on the connection's thread only.
    private final class ConnectionSlot: @unchecked Sendable {
        // @unchecked Sendable: the test touches `database` and `events` on its one thread only.
        var database: Database?
        var events: [String] = []
    }

    /// A custom function stays registered while a statement that uses it outlives its `Database`:
    /// `sqlite3_close_v2` defers the close, and SQLite releases the function's context only then.
    func testAFunctionRunsInAStatementThatOutlivesItsConnection() throws {
        final class Token: Sendable {}
        weak var weakToken: Token?
        var statement: Statement?
        do {
            let db = try Database()
            let token = Token()
            weakToken = token
            try db.createFunction("shout", argumentCount: 1) { arguments in
                _ = token
                guard case .text(let text) = arguments[0] else { return nil }
                return text.uppercased() + "!"
            }
            statement = try db.makeStatement(sql: "SELECT shout(?)")
        }
        XCTAssertNotNil(weakToken, "SQLite holds the function until its last statement is finalized")
        do {
            let kept = try XCTUnwrap(statement)
            try kept.bind(["tokyo"])
            XCTAssertTrue(try kept.step())
            XCTAssertEqual(kept.string(at: 0), "TOKYO!")
        }
        statement = nil
        XCTAssertNil(weakToken, "finalizing the last statement closes the connection and releases the function")
    }

    /// The same for a collation, whose context SQLite calls with two texts to compare.
    func testACollationRunsInAStatementThatOutlivesItsConnection() throws {
        var statement: Statement?
        do {
            let db = try Database()
            try db.createCollation("reversed") { left, right in
                right < left ? .orderedAscending : left == right ? .orderedSame : .orderedDescending
            }
            try db.execute(sql: "CREATE TABLE t(name TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES ('Lima'), ('Oslo'), ('Accra')")
            statement = try db.makeStatement(sql: "SELECT name FROM t ORDER BY name COLLATE reversed")
        }
        let kept = try XCTUnwrap(statement)
        var names: [String] = []
        while try kept.step() { names.append(kept.string(at: 0)) }
        XCTAssertEqual(names, ["Oslo", "Lima", "Accra"])
    }

    /// Replacing a collation while a statement uses it is refused (`SQLITE_BUSY`). SQLite does not call the
    /// destructor of a refused collation, so the library releases the context itself, once: a second release
    /// would be a double free under the address sanitizer, none a leak that `weakToken` shows.
    func testReplacingACollationWhileAStatementUsesItIsRefusedAndLeaksNothing() throws {
        final class Token: Sendable {}
        weak var weakToken: Token?
        let db = try Database()
        try db.createCollation("c") { $0 < $1 ? .orderedAscending : $0 == $1 ? .orderedSame : .orderedDescending }
        try db.execute(sql: "CREATE TABLE t(name TEXT)")
        try db.execute(sql: "INSERT INTO t VALUES ('b'), ('a')")
        let running = try db.makeStatement(sql: "SELECT name FROM t ORDER BY name COLLATE c")
        XCTAssertTrue(try running.step())
        do {
            let token = Token()
            weakToken = token
            XCTAssertThrowsError(
                try db.createCollation("c") { _, _ in
                    _ = token
                    return .orderedSame
                }
            ) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .busy)
            }
        }
        XCTAssertNil(weakToken, "the refused collation's context is released")
        XCTAssertEqual(running.string(at: 0), "a", "the running statement still orders with the first collation")
        XCTAssertTrue(try running.step())
        XCTAssertEqual(running.string(at: 0), "b")
    }

    /// A trace handler that replaces the trace, then switches it off, while SQLite is calling it: the
    /// callback runs on its own copy of the closure, and the next statement reaches the new handler.
    func testATraceHandlerReplacesTheTraceWhileItRuns() throws {
        let slot = ConnectionSlot()
        let db = try Database()
        slot.database = db
        db.trace { event in
            slot.events.append("first: \(event.sql)")
            slot.database?.trace { event in
                slot.events.append("second: \(event.sql)")
                slot.database?.trace(nil)
            }
        }
        try db.execute(sql: "SELECT 1")
        try db.execute(sql: "SELECT 2")
        try db.execute(sql: "SELECT 3")
        XCTAssertEqual(slot.events, ["first: SELECT 1", "second: SELECT 2"])
        db.trace { event in slot.events.append("third: \(event.sql)") }
        try db.execute(sql: "SELECT 4")
        XCTAssertEqual(slot.events.last, "third: SELECT 4")
        slot.database = nil
    }

    /// A statement that outlives its `Database` runs after the connection switched its trace and hooks off:
    /// no callback reaches the released trace context or transaction guard, and the write commits on its own.
    func testAStatementThatOutlivesItsConnectionCallsNoReleasedHook() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("callbacks-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: url) }
        let slot = ConnectionSlot()
        var statement: Statement?
        do {
            let db = try Database(path: url.path)
            try db.execute(sql: "CREATE TABLE t(v INTEGER)")
            db.trace { event in slot.events.append(event.sql) }
            statement = try db.makeStatement(sql: "INSERT INTO t VALUES (42)")
        }
        try XCTUnwrap(statement).step()
        statement = nil
        XCTAssertEqual(slot.events, [], "the trace went off with the connection")
        let reopened = try Database(path: url.path)
        XCTAssertEqual(try reopened.scalar(Int.self, sql: "SELECT v FROM t"), 42)
    }

    /// Text and blob results of a custom function are copied by SQLite (`SQLITE_TRANSIENT`) before the
    /// Swift value that held them is released; empty ones stay empty, not NULL.
    func testFunctionResultsAreCopiedBeforeTheirStorageGoes() throws {
        let db = try Database()
        try db.createFunction("make", argumentCount: 1) { arguments in
            guard case .integer(let kind) = arguments[0] else { return nil }
            switch kind {
            case 0: return String(repeating: "東京", count: 1000)
            case 1: return ""
            case 2: return Data(repeating: 7, count: 4096)
            default: return Data()
            }
        }
        let statement = try db.makeStatement(sql: "SELECT make(0), make(1), make(2), make(3), typeof(make(1))")
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(statement.string(at: 0), String(repeating: "東京", count: 1000))
        XCTAssertEqual(statement.value(at: 1), .text(""))
        XCTAssertEqual(statement.data(at: 2), Data(repeating: 7, count: 4096))
        XCTAssertEqual(statement.value(at: 3), .blob(Data()))
        XCTAssertEqual(statement.string(at: 4), "text")
    }
}
