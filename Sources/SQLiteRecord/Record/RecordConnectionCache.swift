/// What the Record layer prepares once per connection and keeps in its ``Database/recordCache`` slot: the
/// write plans (with what an upsert needs of its table), the lookup plans, the change comparisons, the record
/// types whose keys were found unique, and the SQL of record operations and request shapes.
///
/// Each kind of entry is kept in a ``RecentlyUsedCache`` keyed by plain values (the record type's
/// `ObjectIdentifier`, a write kind, a request's tokens). Entries that depend on the schema hold the schema
/// cache generation they were made under (see ``SchemaCache``), and the code that reads them compares it
/// with the current one. The cache lives and dies with its connection: a connection is used on one thread
/// at a time, so nothing here is locked.
final class RecordConnectionCache {
    /// A write plan's key: the record type and the statement's kind.
    struct WritePlanKey: Hashable {
        let type: ObjectIdentifier
        let kind: RecordWritePlan.Kind
    }

    /// The key of a record operation's SQL: the record type and the operation.
    struct RecordSQLKey: Hashable {
        let type: ObjectIdentifier
        let operation: RecordSQLOperation
    }

    /// A record operation's SQL, with the names it was built from: the entry is built anew when any of them
    /// changed (a record that encodes other columns, a computed `tableName` or `primaryKeyColumn`).
    struct RecordSQLEntry {
        let table: String
        let primaryKey: String
        let columns: [String]
        let sql: String
    }

    /// A shape of a request on one record type: the record type (whose table, key strategy and encoder the
    /// shape's names came through) and the tokens of ``RequestCompiler``.
    struct RequestShape: Hashable {
        let type: ObjectIdentifier
        let tokens: [ShapeToken]
    }

    /// A request shape's SQL, and the schema generation its columns were checked under: after a schema
    /// change the SQL is written and checked again.
    struct RequestSQL {
        let sql: String
        let generation: Int
    }

    /// The most request shapes kept; past it they are written again when next run.
    static let requestShapeCapacity = 512

    /// The kept prepared INSERTs and UPDATEs (see ``RecordWritePlan``), by record type and statement kind
    /// (the kind's tag, with a reporting upsert's clause and a partial update's columns).
    ///
    /// The one rule: an entry is valid while the schema generation it was made under is current and the
    /// type's `tableName` and `primaryKeyColumn` are the ones it was made for; ``Record/currentPlan(_:db:in:)``
    /// checks that before each record and drops a stale entry. An entry is made from the first record of its
    /// key written without RETURNING while the key has no entry, and is not replaced while it is valid: a
    /// record that does not fit it (other coding keys, another key shape), a write while it is in use, and a
    /// write that reads back (whose statement depends on which values are NULL) get plans that are not kept,
    /// with their statement from the statement cache.
    let writePlans = RecentlyUsedCache<WritePlanKey, RecordWritePlan>()
    /// The `fetchOne(_:id:)` statements, by record type (see ``RecordLookupPlan``).
    let lookupPlans = RecentlyUsedCache<ObjectIdentifier, RecordLookupPlan>()
    /// The change comparisons of ``Record/updateChanges(_:from:)``, by record type. Valid under the rule of
    /// ``writePlans`` (checked by ``Record/currentComparison(db:)``); made from the first record compared
    /// while the type has none.
    let comparisons = RecentlyUsedCache<ObjectIdentifier, RecordChangeComparison>()
    /// For each record type whose key columns were found unique, the schema generation they were checked
    /// under (see ``Record/checkKey(_:columns:)``).
    let keyChecks = RecentlyUsedCache<ObjectIdentifier, Int>()
    /// The SQL of the record operations that run through the statement cache, and of the write plans.
    let recordSQL = RecentlyUsedCache<RecordSQLKey, RecordSQLEntry>()
    /// The SQL of the request shapes run on this connection.
    let requestSQL = RecentlyUsedCache<RequestShape, RequestSQL>(capacity: requestShapeCapacity)
    /// How many records were written through a plan on this connection (tests check the plans are used).
    private(set) var writes = 0

    /// The cache of `db`, made on first use.
    static func of(_ db: Database) -> RecordConnectionCache {
        if let cache = SameTypeCast.exactly(db.recordCache, as: RecordConnectionCache.self) { return cache }
        let cache = RecordConnectionCache()
        db.recordCache = cache
        return cache
    }

    /// Counts a record written through a plan.
    func countWrite() { writes &+= 1 }

    /// The write plan of record type `type` for `kind`, current or not; nil when there is none.
    func writePlan(for type: ObjectIdentifier, _ kind: RecordWritePlan.Kind) -> RecordWritePlan? {
        writePlans[WritePlanKey(type: type, kind: kind)]
    }

    /// The SQL for `operation` on `type`'s `table` with `columns`: the kept entry when it was built from the
    /// same names, else built by `build` and kept.
    func sql(
        _ type: Any.Type, _ operation: RecordSQLOperation, table: String, primaryKey: String, columns: [String] = [],
        build: () -> String
    ) -> String {
        let key = RecordSQLKey(type: ObjectIdentifier(type), operation: operation)
        if let entry = recordSQL[key], entry.table == table, entry.primaryKey == primaryKey, entry.columns == columns {
            return entry.sql
        }
        let sql = build()
        recordSQL[key] = RecordSQLEntry(table: table, primaryKey: primaryKey, columns: columns, sql: sql)
        return sql
    }
}
