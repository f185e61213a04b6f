extension Record {
    /// The records whose columns equal the given values, sorted and limited as asked.
    ///
    /// ```swift
    /// let cities = try City.fetch(db, where: ["country_id": france.id], orderBy: [.descending("population")], limit: 10)
    /// ```
    /// - Parameters:
    ///   - conditions: column name to value, ANDed; a nil value matches NULL (`IS NULL`). Values are bound,
    ///     never written into the SQL.
    ///   - ordering: columns to sort by, in order of precedence.
    ///   - limit: the largest number of records to return; nil for all.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` when a `where:` key or `orderBy:`
    ///   column is not a column of the table (nothing runs), ``DatabaseError`` when the table is missing, or
    ///   `DecodingError` naming the column whose stored value does not fit its property, or a property with
    ///   no column.
    public static func fetch(
        _ db: Database, where conditions: [String: (any SQLiteValueConvertible)?] = [:],
        orderBy ordering: [Ordering] = [],
        limit: Int? = nil
    ) throws -> [Self] {
        let values = try checkedConditions(db, conditions, ordering)
        let query = RecordSQL.select(from: tableName, where: values, orderBy: ordering, limit: limit)
        return try fetchAll(db, query, tableName: tableName)
    }

    /// ``fetch(_:where:orderBy:limit:)`` through the default queue (``RecordStore``).
    /// - Throws: as ``fetch(_:where:orderBy:limit:)``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    public static func fetch(
        where conditions: [String: (any SQLiteValueConvertible)?] = [:], orderBy ordering: [Ordering] = [],
        limit: Int? = nil
    ) throws -> [Self] {
        try RecordStore.defaultQueue().read { db in try fetch(db, where: conditions, orderBy: ordering, limit: limit) }
    }

    /// The record whose `id` is `id`, or nil when there is none.
    /// - Throws: ``DatabaseError`` when the table is missing, or `DecodingError` for a stored value that does
    ///   not fit its property.
    public static func fetchOne(_ db: Database, id: Int64) throws -> Self? {
        let sql = RecordSQL.selectOne(from: tableName, primaryKey: primaryKeyColumn)
        return try fetchAll(db, SQLQuery(sql: sql, arguments: [id]), tableName: tableName).first
    }

    /// ``fetchOne(_:id:)`` through the default queue (``RecordStore``).
    /// - Throws: as ``fetchOne(_:id:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func fetchOne(id: Int64) throws -> Self? {
        try RecordStore.defaultQueue().read { db in try fetchOne(db, id: id) }
    }

    /// The records an SQL query of your own returns: joins, subqueries, anything SELECT can do. Columns are
    /// matched to coding keys by name; columns the type does not ask for are ignored, and an Optional
    /// property with no column decodes as nil (so partial SELECTs work).
    ///
    /// ```swift
    /// let french = try City.fetch(db, sql: "SELECT cities.* FROM cities JOIN countries ON countries.id = cities.country_id WHERE countries.iso = ?", arguments: ["FR"])
    /// ```
    /// - Throws: ``DatabaseError`` for SQL that SQLite rejects (with the SQL), or `DecodingError` naming the
    ///   column whose value does not fit, or a non-optional property with no column.
    public static func fetch(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Self] {
        try fetchAll(db, SQLQuery(sql: sql, arguments: arguments), tableName: nil)
    }

    /// ``fetch(_:sql:arguments:)`` through the default queue (``RecordStore``).
    /// - Throws: as ``fetch(_:sql:arguments:)``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    public static func fetch(sql: String, arguments: StatementArguments = []) throws -> [Self] {
        try RecordStore.defaultQueue().read { db in try fetch(db, sql: sql, arguments: arguments) }
    }

    /// The number of rows whose columns equal the given values (nil matches NULL).
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for a key that is not a column, or
    ///   ``DatabaseError`` when the table is missing.
    public static func count(
        _ db: Database, where conditions: [String: (any SQLiteValueConvertible)?] = [:]
    ) throws -> Int {
        let query = RecordSQL.count(from: tableName, where: try checkedConditions(db, conditions, []))
        return Int(try db.integerScalar(sql: query.sql, arguments: query.arguments) ?? 0)
    }

    /// ``count(_:where:)`` through the default queue (``RecordStore``).
    /// - Throws: as ``count(_:where:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public static func count(where conditions: [String: (any SQLiteValueConvertible)?] = [:]) throws -> Int {
        try RecordStore.defaultQueue().read { db in try count(db, where: conditions) }
    }

    /// True when a row has `id` as its primary key.
    /// - Throws: ``DatabaseError`` when the table is missing.
    public static func exists(_ db: Database, id: Int64) throws -> Bool {
        let query = RecordSQL.count(from: tableName, where: [primaryKeyColumn: .integer(id)])
        return try db.integerScalar(sql: query.sql, arguments: query.arguments) ?? 0 > 0
    }

    /// Runs `query` and decodes every row. The column lookup is built once for the statement, not per row.
    static func fetchAll(_ db: Database, _ query: SQLQuery, tableName: String?) throws -> [Self] {
        try db.withStatement(sql: query.sql, arguments: query.arguments) { statement in
            let context = RowDecodingContext(
                statement: statement, tableName: tableName, missingOptionalColumnIsNil: tableName == nil,
                decoder: rowDecoder)
            var records: [Self] = []
            while try statement.step() {
                records.append(try context.decodeRow(Self.self))
            }
            return records
        }
    }

    /// The `where:` values as SQLite values, after checking every key and `orderBy:` column against the
    /// table's real columns.
    static func checkedConditions(
        _ db: Database, _ conditions: [String: (any SQLiteValueConvertible)?], _ ordering: [Ordering]
    ) throws -> [String: SQLiteValue] {
        let requested = Array(conditions.keys) + ordering.map(\.column)
        if !requested.isEmpty {
            let columns = try db.columns(in: tableName).map(\.name)
            // SQLite matches column names ASCII case-insensitively.
            let known = Set(columns.map { $0.lowercased() })
            for column in requested.sorted() where !known.contains(column.lowercased()) {
                throw RecordError.unknownColumn(table: tableName, column: column, columns: columns)
            }
        }
        return conditions.mapValues { $0?.sqliteValue ?? .null }
    }
}
