#if PostgreSQL
import SQLiteRecord

/// One notification a listening session received: its channel, its payload, and the server process that
/// sent it (`PGnotify`'s `relname`, `extra`, `be_pid`).
struct PostgresNotification: Sendable, Equatable {
    let channel: String
    let payload: String
    let senderPID: Int32
}

/// A table an observed read used, as the server's lock table reports it: its schema, its name, its
/// notification channel, whether it has the library's trigger, and whether its bare name finds it through
/// the reading session's `search_path` (what ``PostgresConnection/installChangeNotifications(for:)`` resolves).
struct ObservedTable: Sendable, Hashable {
    let schema: String
    let name: String
    let channel: String
    let notifiesChanges: Bool
    let isFoundByName: Bool
}

extension PostgresConnection {
    /// The name of the trigger (and of its function) that ``installChangeNotifications(for:)`` installs.
    public static let changeNotificationTrigger = "postgresrecord_notify_change"

    /// Installs the change notifications an observation (`ValueObservation`) listens to, on each
    /// table of `tables`: a statement-level trigger, `AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE`, that
    /// calls `pg_notify` on the table's channel. The channel is the table's schema and name, `schema.table`
    /// (`public.notes`), or, when that is longer than PostgreSQL's 63-byte identifiers, `postgresrecord_`
    /// followed by its MD5 in hexadecimal. The payload is empty.
    ///
    /// It creates (or replaces) the trigger function ``changeNotificationTrigger`` in the session's current
    /// schema, then drops and creates the trigger of that name on each table, in one transaction (a savepoint
    /// inside the caller's): run it again at will, as a migration step that follows the table's creation.
    /// It first takes the migrations' advisory lock (``PostgresConnection/migrationLockKey``), so that sessions
    /// that install at once, or while another migrates, run one after the other.
    /// It needs the rights DDL needs (owning the tables, `CREATE` on the schema), which an app's runtime role
    /// often lacks. `Record.createTable(in:ifNotExists:notifiesChanges:)` runs it for the tables it creates,
    /// and an observation whose read uses a table without the trigger runs it on that table when the pool's
    /// role may; when it may not, the observation ends with an error that gives this call and its SQL.
    ///
    /// Every commit that wrote one of the tables then notifies, whoever made it (another app instance, psql,
    /// a script). `NOTIFY` is transactional: the notification is sent when the transaction commits, never when
    /// it rolls back, and notifications of the same channel and payload in one transaction are delivered
    /// once. See <https://www.postgresql.org/docs/current/sql-notify.html> and
    /// <https://www.postgresql.org/docs/current/sql-createtrigger.html>.
    /// - Parameter tables: table names as the library writes them (each quoted whole; resolved through the
    ///   session's `search_path`).
    /// - Throws: ``PostgresError`` when a table does not exist (SQLSTATE 42P01) or the session lacks the
    ///   rights (42501).
    public func installChangeNotifications(for tables: [String]) throws {
        try installChangeNotifications(quotedTables: tables.map(SQLIdentifier.quoted))
    }

    /// ``installChangeNotifications(for:)`` on tables named as SQL (`"public"."notes"`, quoted already).
    func installChangeNotifications(quotedTables: [String]) throws {
        try transaction {
            try lockSchemaChanges()
            for statement in Self.changeNotificationSQL(quotedTables: quotedTables) { try execute(statement) }
        }
    }

    /// The statements that install the change notifications on `quotedTables` (SQL names, quoted already):
    /// the trigger function, then for each table the trigger dropped and created again.
    static func changeNotificationSQL(quotedTables: [String]) -> [String] {
        let trigger = SQLIdentifier.quoted(changeNotificationTrigger)
        return [changeNotificationFunctionSQL]
            + quotedTables.flatMap { quoted in
                [
                    "DROP TRIGGER IF EXISTS \(trigger) ON \(quoted)",
                    "CREATE TRIGGER \(trigger) AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(quoted) "
                        + "FOR EACH STATEMENT EXECUTE FUNCTION \(trigger)()",
                ]
            }
    }

    /// Removes the triggers ``installChangeNotifications(for:)`` installed on `tables` (the function stays:
    /// other tables may use it). Observations of those tables then hear of no commit.
    /// - Throws: ``PostgresError`` when a table does not exist or the session lacks the rights.
    public func removeChangeNotifications(for tables: [String]) throws {
        try transaction {
            try lockSchemaChanges()
            for table in tables {
                try execute(
                    "DROP TRIGGER IF EXISTS \(SQLIdentifier.quoted(Self.changeNotificationTrigger)) ON "
                        + SQLIdentifier.quoted(table))
            }
        }
    }

    /// Waits for the migrations' advisory lock (``PostgresConnection/migrationLockKey``) until the transaction
    /// ends: two sessions that replace the trigger function at once fail otherwise ("tuple concurrently
    /// updated", XX000), and two that take the tables' trigger locks in other orders deadlock. Inside a
    /// migration the session holds the lock already, and takes it again at once.
    private func lockSchemaChanges() throws {
        _ = try query("SELECT pg_advisory_xact_lock($1)", [PostgresValue(Self.migrationLockKey)])
    }

    /// The channel of the table named by the SQL text expression `qualifiedName` (its schema, a dot, its
    /// name), as SQL: the same rule in the trigger function and in ``observedTables()``, so that the
    /// channel a listener listens to is the one the trigger notifies.
    private static func channelSQL(_ qualifiedName: String) -> String {
        "CASE WHEN octet_length(\(qualifiedName)) > 63 THEN 'postgresrecord_' || md5(\(qualifiedName)) "
            + "ELSE \(qualifiedName) END"
    }

    /// The trigger function: one `pg_notify` per statement that wrote the table, on the table's channel.
    private static var changeNotificationFunctionSQL: String {
        """
        CREATE OR REPLACE FUNCTION \(SQLIdentifier.quoted(changeNotificationTrigger))() RETURNS trigger
        LANGUAGE plpgsql AS $postgresrecord$
        BEGIN
            PERFORM pg_notify(\(channelSQL("(TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME)")), '');
            RETURN NULL;
        END
        $postgresrecord$
        """
    }

    /// The tables (ordinary and partitioned) the session's open transaction has read or written, from the
    /// server's lock table: every statement takes an `ACCESS SHARE` lock (or stronger) on each table it
    /// uses, the tables of views and functions included, and keeps it until the transaction ends. System
    /// catalogs are left out. Run inside the transaction whose reads it reports.
    /// See <https://www.postgresql.org/docs/current/view-pg-locks.html>.
    /// - Throws: ``PostgresError`` when the query fails.
    func observedTables() throws -> Set<ObservedTable> {
        let rows = try query(Self.observedTablesSQL)
        var tables: Set<ObservedTable> = []
        for index in 0..<rows.count {
            let row = rows[index]
            tables.insert(
                ObservedTable(
                    schema: try row.decode(String.self, at: 0), name: try row.decode(String.self, at: 1),
                    channel: try row.decode(String.self, at: 2), notifiesChanges: try row.decode(Bool.self, at: 3),
                    isFoundByName: try row.decode(Bool.self, at: 4)))
        }
        return tables
    }

    private static let observedTablesSQL =
        "SELECT DISTINCT n.nspname::text, c.relname::text, \(channelSQL("(n.nspname || '.' || c.relname)")), "
        + "EXISTS (SELECT 1 FROM pg_catalog.pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = "
        + "'\(changeNotificationTrigger)' AND t.tgenabled <> 'D'), "
        + "coalesce(pg_catalog.to_regclass(pg_catalog.quote_ident(c.relname)) = c.oid, false) "
        + "FROM pg_catalog.pg_locks l JOIN pg_catalog.pg_class c ON c.oid = l.relation "
        + "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
        + "WHERE l.locktype = 'relation' AND l.pid = pg_catalog.pg_backend_pid() AND c.relkind IN ('r', 'p') "
        + "AND n.nspname NOT IN ('pg_catalog', 'information_schema')"
}

extension Record {
    /// Installs the change notifications an observation listens to on the type's table: see
    /// ``PostgresConnection/installChangeNotifications(for:)``. A migration step:
    ///
    /// ```swift
    /// migrator.registerMigration("notify notes") { connection in
    ///     try Note.installChangeNotifications(in: connection)
    /// }
    /// ```
    /// - Throws: as ``PostgresConnection/installChangeNotifications(for:)``.
    public static func installChangeNotifications(in connection: PostgresConnection) throws {
        try connection.installChangeNotifications(for: [tableName])
    }
}
#endif
