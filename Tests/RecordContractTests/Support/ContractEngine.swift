import Foundation
import SQLiteRecord
import XCTest

#if PostgreSQL
import PostgresRecord
import PostgresTestSupport
#endif

/// An engine the contract runs on: a fresh, empty database of its own, and what a test needs around the
/// Record calls under test (tables, plain SQL to set up or read back).
protocol ContractEngine: AnyObject {
    /// "SQLite" or "PostgreSQL": what a failure is labelled with.
    var name: String { get }

    /// Runs `body` in a write transaction on a connection of the engine: committed when it returns, rolled
    /// back when it throws.
    func write<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T

    /// Creates `type`'s table as the engine's `createTable(in:)` writes it.
    func createTable<R: Record>(_ type: R.Type) throws

    /// Runs one statement of plain SQL written for this engine.
    func execute(_ sql: String) throws

    /// The single integer a query returns (`SELECT count(*) ...`).
    func integer(_ sql: String) throws -> Int64?

    /// The single text a query returns, nil for NULL.
    func text(_ sql: String) throws -> String?

    /// True for SQLite, false for PostgreSQL: for the few statements a test writes for each engine.
    var isSQLite: Bool { get }

    /// The engine's writer for the calls that run in a transaction of their own: SQLite's queue, or a
    /// PostgreSQL pool whose connections see the test's schema.
    var writer: any AsyncDatabaseWriter { get }

    /// `Book.fetch(writer, sql:)` through the engine's writer: the SQL form each engine takes with its own
    /// argument type.
    func fetchBooks(sql: String) async throws -> [Book]

    /// `R.fetch(_:sql:)` on the engine's connection: a raw-SQL fetch of a record.
    func fetch<R: Record>(_ type: R.Type, sql: String) throws -> [R]

    /// Every row of `sql` decoded as `type` by the engine's own decoding of plain rows: SQLite's
    /// `Database.fetchAll(_:sql:)`, PostgreSQL's `PostgresRows.decode(_:)`.
    func decodeRows<T: Decodable>(_ type: T.Type, sql: String) throws -> [T]

    /// The first row of `request`'s selection decoded as `type`, by the engine's `fetchOne(_:as:)`.
    func fetchOne<R: Record, T: Decodable>(_ request: QueryInterfaceRequest<R>, as type: T.Type) throws -> T?

    /// `request.updateAll(_:_:)` on the engine: how many rows it changed.
    func updateAll<R: Record>(_ request: QueryInterfaceRequest<R>, _ assignments: [ColumnAssignment]) throws -> Int

    /// What the engine's own error says: SQLite's message (`integer overflow`), PostgreSQL's SQLSTATE
    /// (`22003`); nil for an error of another type.
    func engineErrorCode(_ error: (any Error)?) -> String?

    /// The index of the failed record of a batch the engine's error gives (`batchIndex`); nil for an error of
    /// another type or one without it.
    func batchIndex(_ error: (any Error)?) -> Int?

    /// `type`'s `schemaChanges(in:options:)` plan, made in a read transaction (SQLite) or on the test's
    /// connection (PostgreSQL).
    func schemaChanges<R: Record>(_ type: R.Type, options: SchemaChangeOptions) throws -> SchemaChangePlan

    /// Applies `type`'s plan as an app does, in a migration registered with `registerSchemaChanges` (SQLite's
    /// `DatabaseMigrator`, which turns foreign keys off for a rebuild; PostgreSQL's `DatabaseMigrator<PostgresConnection>`).
    func applySchemaChanges<R: Record & SendableMetatype>(_ type: R.Type, options: SchemaChangeOptions) throws

    /// `plan.apply(_:)` on the engine's connection (SQLite: in a write of the queue, foreign keys on).
    func apply(_ plan: SchemaChangePlan) throws

    /// The schema (every table's columns, constraints and indexes, as the engine's catalog holds them) and every
    /// row of `tables`, as text: equal before and after a plan that wrote nothing.
    func snapshot(_ tables: [String]) throws -> String
}

/// SQLite: a private in-memory database per test.
final class SQLiteContractEngine: ContractEngine {
    let queue: DatabaseQueue
    var name: String { "SQLite" }
    var isSQLite: Bool { true }

    init() throws { queue = try DatabaseQueue() }

    var writer: any AsyncDatabaseWriter { queue }

    func fetchBooks(sql: String) async throws -> [Book] { try await Book.fetch(queue, sql: sql) }

    func write<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        try queue.write { db in try body(db) }
    }

    func createTable<R: Record>(_ type: R.Type) throws {
        try queue.write { db in try R.createTable(in: db) }
    }

    func execute(_ sql: String) throws {
        try queue.write { db in try db.execute(sql: sql) }
    }

    func integer(_ sql: String) throws -> Int64? {
        try queue.read { db in try db.scalar(Int64.self, sql: sql) }
    }

    func text(_ sql: String) throws -> String? {
        try queue.read { db in try db.scalar(String.self, sql: sql) }
    }

    func fetchOne<R: Record, T: Decodable>(_ request: QueryInterfaceRequest<R>, as type: T.Type) throws -> T? {
        try queue.write { db in try request.fetchOne(db, as: T.self) }
    }

    func fetch<R: Record>(_ type: R.Type, sql: String) throws -> [R] {
        try queue.read { db in try R.fetch(db, sql: sql) }
    }

    func decodeRows<T: Decodable>(_ type: T.Type, sql: String) throws -> [T] {
        try queue.read { db in try db.fetchAll(T.self, sql: sql) }
    }

    func updateAll<R: Record>(_ request: QueryInterfaceRequest<R>, _ assignments: [ColumnAssignment]) throws -> Int {
        try queue.write { db in try request.updateAll(db, assignments) }
    }

    func engineErrorCode(_ error: (any Error)?) -> String? { (error as? DatabaseError)?.message }

    func batchIndex(_ error: (any Error)?) -> Int? { (error as? DatabaseError)?.batchIndex }

    func schemaChanges<R: Record>(_ type: R.Type, options: SchemaChangeOptions) throws -> SchemaChangePlan {
        try queue.read { db in try R.schemaChanges(in: db, options: options) }
    }

    func apply(_ plan: SchemaChangePlan) throws {
        try queue.write { db in try plan.apply(db) }
    }

    func applySchemaChanges<R: Record & SendableMetatype>(_ type: R.Type, options: SchemaChangeOptions) throws {
        var migrator = DatabaseMigrator()
        migrator.registerSchemaChanges("schema changes", for: R.self, options: options)
        try migrator.migrate(queue)
    }

    func snapshot(_ tables: [String]) throws -> String {
        try queue.read { db in
            var lines = [
                try db.scalar(
                    String.self,
                    sql: "SELECT group_concat(type || ' ' || name || ' ' || coalesce(sql, ''), char(10)) "
                        + "FROM (SELECT * FROM sqlite_schema WHERE tbl_name NOT LIKE '%migrations' ORDER BY type, name)") ?? ""
            ]
            for table in tables {
                let values = try db.columns(in: table).map { "quote(\(SQLIdentifier.quoted($0.name)))" }
                    .joined(separator: " || '|' || ")
                lines.append(
                    try db.scalar(
                        String.self,
                        sql: "SELECT group_concat(\(values), char(10)) FROM (SELECT * FROM \(SQLIdentifier.quoted(table)) "
                            + "ORDER BY rowid)") ?? "")
            }
            return lines.joined(separator: "\n")
        }
    }
}

#if PostgreSQL
/// PostgreSQL: a schema of its own per test on the suite's throwaway server, first on the connection's
/// search path, dropped afterwards.
final class PostgresContractEngine: ContractEngine {
    let url: String
    let schema: String
    let connection: PostgresConnection
    let pool: PostgresPool
    var name: String { "PostgreSQL" }
    var writer: any AsyncDatabaseWriter { pool }

    func fetchBooks(sql: String) async throws -> [Book] { try await Book.fetch(pool, sql: sql) }
    var isSQLite: Bool { false }

    init() throws {
        url = try PostgresTestServer.url()
        schema = "c_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let admin = try PostgresConnection(url)
        try admin.execute("CREATE SCHEMA \"\(schema)\"")
        let separator = url.contains("?") ? "&" : "?"
        connection = try PostgresConnection(url + separator + "options=-csearch_path%3D\(schema)")
        pool = PostgresPool(url + separator + "options=-csearch_path%3D\(schema)", maximumConnections: 2)
    }

    deinit {
        if let admin = try? PostgresConnection(url) { try? admin.execute("DROP SCHEMA \"\(schema)\" CASCADE") }
    }

    func write<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        try connection.transaction { try body(connection) }
    }

    func createTable<R: Record>(_ type: R.Type) throws {
        try R.createTable(in: connection)
    }

    func execute(_ sql: String) throws {
        try connection.execute(sql)
    }

    func integer(_ sql: String) throws -> Int64? {
        let rows = try connection.query(sql)
        return try rows[0].decode(Int64?.self, at: 0)
    }

    func text(_ sql: String) throws -> String? {
        let rows = try connection.query(sql)
        return try rows[0].decode(String?.self, at: 0)
    }

    func fetchOne<R: Record, T: Decodable>(_ request: QueryInterfaceRequest<R>, as type: T.Type) throws -> T? {
        try request.fetchOne(connection, as: T.self)
    }

    func fetch<R: Record>(_ type: R.Type, sql: String) throws -> [R] {
        try R.fetch(connection, sql: sql)
    }

    func decodeRows<T: Decodable>(_ type: T.Type, sql: String) throws -> [T] {
        try connection.query(sql).decode(T.self)
    }

    func updateAll<R: Record>(_ request: QueryInterfaceRequest<R>, _ assignments: [ColumnAssignment]) throws -> Int {
        try request.updateAll(connection, assignments)
    }

    func engineErrorCode(_ error: (any Error)?) -> String? { (error as? PostgresError)?.sqlState.rawValue }

    func batchIndex(_ error: (any Error)?) -> Int? { (error as? PostgresError)?.batchIndex }

    func schemaChanges<R: Record>(_ type: R.Type, options: SchemaChangeOptions) throws -> SchemaChangePlan {
        try R.schemaChanges(in: connection, options: options)
    }

    func apply(_ plan: SchemaChangePlan) throws {
        try plan.apply(connection)
    }

    func applySchemaChanges<R: Record & SendableMetatype>(_ type: R.Type, options: SchemaChangeOptions) throws {
        var migrator = DatabaseMigrator<PostgresConnection>()
        migrator.registerSchemaChanges("schema changes", for: R.self, options: options)
        try migrator.migrate(connection)
    }

    func snapshot(_ tables: [String]) throws -> String {
        var lines = [
            try text(
                """
                SELECT concat_ws(E'\\n',
                    (SELECT string_agg(table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' '
                        || coalesce(column_default, ''), E'\\n' ORDER BY table_name, ordinal_position)
                     FROM information_schema.columns WHERE table_schema = current_schema()
                        AND table_name NOT LIKE '%migrations'),
                    (SELECT string_agg(conname || ' ' || pg_get_constraintdef(oid), E'\\n' ORDER BY conname)
                     FROM pg_catalog.pg_constraint WHERE connamespace = current_schema()::regnamespace
                        AND conrelid::regclass::text NOT LIKE '%migrations'),
                    (SELECT string_agg(indexdef, E'\\n' ORDER BY indexname) FROM pg_catalog.pg_indexes
                     WHERE schemaname = current_schema() AND tablename NOT LIKE '%migrations'))
                """) ?? ""
        ]
        for table in tables {
            let quoted = SQLIdentifier.quoted(table)
            lines.append(try text("SELECT string_agg(t::text, E'\\n' ORDER BY t::text) FROM \(quoted) t") ?? "")
        }
        return lines.joined(separator: "\n")
    }
}
#endif

/// A suite of the contract: each test runs its body once per engine (SQLite always; PostgreSQL too when the
/// package is built with the PostgreSQL trait), on a fresh database each time. A failure names the engine it
/// happened on.
class RecordContractTestCase: XCTestCase {
    /// The engine the body runs on now, for failure messages.
    private var engineName: String?

    /// Runs `body` on every engine, each with a fresh database; an error thrown on one engine fails the test
    /// with the engine's name and goes on with the next engine.
    func onEachEngine(
        file: StaticString = #filePath, line: UInt = #line, _ body: (any ContractEngine) throws -> Void
    ) {
        for engine in openEngines(file: file, line: line) {
            run(on: engine, file: file, line: line) { try body(engine) }
        }
    }

    /// ``onEachEngine(file:line:_:)`` for a body that awaits: the calls through an engine's writer.
    func onEachEngine(
        file: StaticString = #filePath, line: UInt = #line, _ body: (any ContractEngine) async throws -> Void
    ) async {
        for engine in openEngines(file: file, line: line) {
            engineName = engine.name
            defer { engineName = nil }
            _ = CallbackLog.shared.take()
            do {
                try await body(engine)
            } catch {
                XCTFail("threw \(error)", file: file, line: line)
            }
        }
    }

    /// A fresh engine of each kind (SQLite always; PostgreSQL too when the package is built with the
    /// PostgreSQL trait and a server runs). No server: the test server has printed why, and under
    /// POSTGRESRECORD_REQUIRE_SERVER=1 it has failed the test.
    private func openEngines(file: StaticString, line: UInt) -> [any ContractEngine] {
        var engines: [() throws -> any ContractEngine] = [{ try SQLiteContractEngine() }]
        #if PostgreSQL
        engines.append { try PostgresContractEngine() }
        #endif
        return engines.compactMap { make in
            do {
                return try make()
            } catch is XCTSkip {
                return nil
            } catch {
                XCTFail("could not open an engine: \(error)", file: file, line: line)
                return nil
            }
        }
    }

    /// Runs `body` labelled with `engine`'s name, with an empty callback log; an error fails the test.
    private func run(on engine: any ContractEngine, file: StaticString, line: UInt, _ body: () throws -> Void) {
        engineName = engine.name
        defer { engineName = nil }
        _ = CallbackLog.shared.take()
        do {
            try body()
        } catch {
            XCTFail("threw \(error)", file: file, line: line)
        }
    }

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        let label = engineName.map { "[\($0)] " } ?? ""
        super.recordFailure(withDescription: label + description, inFile: filePath, atLine: lineNumber, expected: expected)
    }

    /// The error `body` throws, or a failure (naming the engine) when it throws none.
    func error(file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) -> (any Error)? {
        do {
            try body()
            XCTFail("expected an error", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }
}
