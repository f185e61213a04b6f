import Foundation

extension Record {
    /// The records whose columns equal the given values, sorted and paged as asked.
    ///
    /// ```swift
    /// let cities = try City.fetch(db, where: ["country_id": france.id], orderBy: [.descending("population")], limit: 10)
    /// ```
    /// - Parameters:
    ///   - db: the connection, as ``DatabaseQueue/read(_:)-7l4om`` or ``DatabaseQueue/write(_:)-3p679`` gives it.
    ///   - conditions: column name to value, ANDed; a nil value matches NULL (`IS NULL`). Values are bound,
    ///     never written into the SQL.
    ///   - ordering: columns to sort by, in order of precedence.
    ///   - limit: the largest number of records to return; nil for all.
    ///   - offset: how many of the sorted records to skip first; nil for none.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` when a `where:` key or `orderBy:`
    ///   column is not a column of the table (nothing runs), ``DatabaseError`` when the table is missing, or
    ///   `DecodingError` naming the column whose stored value does not fit its property, or a property with
    ///   no column, and the row by its primary key (`row id 6`).
    public static func fetch(
        _ db: Database, where conditions: [String: (any SQLiteValueConvertible)?] = [:],
        orderBy ordering: [Ordering] = [], limit: Int? = nil, offset: Int? = nil
    ) throws -> [Self] {
        try fetch(db, equalities: try equalityValues(conditions), orderBy: ordering, limit: limit, offset: offset)
    }

    /// The fetch of the `where:` dictionary forms: the SELECT text kept for the shape of the call (see
    /// ``SelectTexts``), the columns checked against the table's on every call, before anything runs. An
    /// ordering by coding key, whose column name comes from the type's key strategy, and a value holding
    /// U+0000 go through a request.
    static func fetch(
        _ db: Database, equalities: [String: FilterValue], orderBy ordering: [Ordering], limit: Int?, offset: Int?
    ) throws -> [Self] {
        // A text holding U+0000 needs the request's exact comparison (RequestCompiler+NULText), which a
        // NOCASE column's `= ?` is not.
        if ordering.contains(where: \.isCodingKey) || equalities.values.contains(where: \.holdsNUL) {
            return try request(equalities: equalities, orderBy: ordering, limit: limit, offset: offset).fetch(db)
        }
        // Sorted, so that one set of keys gives one SQL text and one prepared statement.
        let columns = equalities.keys.sorted()
        var forms: [Int] = []
        forms.reserveCapacity(columns.count)
        var arguments = StatementArguments()
        for column in columns {
            let values = equalities[column]?.forms ?? []
            forms.append(values.count)
            arguments.values += values
        }
        // SQLite needs a LIMIT before an OFFSET; a negative limit is none.
        let hasLimit = limit != nil || offset != nil
        if hasLimit { arguments.values.append(.integer(Int64(limit ?? -1))) }
        if let offset { arguments.values.append(.integer(Int64(offset))) }
        let form = SelectTexts.Form(
            dialect: .sqlite, table: tableName, columns: columns, forms: forms, ordering: ordering,
            hasLimit: hasLimit, hasOffset: offset != nil)
        return try explainingMissingTable {
            try checkColumns(db, ordering.isEmpty ? columns : columns + ordering.map(\.column), aliases: [])
            let sql = SelectTexts.text(for: form)
            if db.changeTracker.isRecordingReads { try noteRowRead(db, equalities: equalities) }
            return try fetchAll(db, SQLQuery(sql: sql, arguments: arguments))
        }
    }

    /// The records a SQL condition of your own selects, with its arguments bound:
    /// `fetch(db, where: "population > ?", arguments: [1_000_000])`. The fragment becomes the WHERE clause,
    /// in parentheses; `orderBy:` columns are checked and quoted as in ``fetch(_:where:orderBy:limit:offset:)``.
    /// - Throws: ``DatabaseError`` for SQL that SQLite rejects (with the SQL), ``RecordError/unknownColumn(table:column:columns:)``
    ///   for an unknown `orderBy:` column, or `DecodingError` as in ``fetch(_:where:orderBy:limit:offset:)``.
    public static func fetch(
        _ db: Database, where sql: String, arguments: StatementArguments = [], orderBy ordering: [Ordering] = [],
        limit: Int? = nil, offset: Int? = nil
    ) throws -> [Self] {
        try request(sql: sql, arguments: arguments, orderBy: ordering, limit: limit, offset: offset).fetch(db)
    }

    /// The first record whose columns equal the given values (by `orderBy:` when given), or nil.
    /// - Throws: as ``fetch(_:where:orderBy:limit:offset:)``.
    public static func fetchOne(
        _ db: Database, where conditions: [String: (any SQLiteValueConvertible)?], orderBy ordering: [Ordering] = []
    ) throws -> Self? {
        try fetch(db, where: conditions, orderBy: ordering, limit: 1).first
    }

    /// The first record a SQL condition of your own selects, or nil.
    /// - Throws: as ``fetch(_:where:arguments:orderBy:limit:offset:)``.
    public static func fetchOne(
        _ db: Database, where sql: String, arguments: StatementArguments = [], orderBy ordering: [Ordering] = []
    ) throws -> Self? {
        try fetch(db, where: sql, arguments: arguments, orderBy: ordering, limit: 1).first
    }

    /// The record whose key is `id`, or nil when there is none (or `id` is a nil rowid). A UUID key finds
    /// its row in any form the UUID is stored in (lowercase or uppercase text, 16-byte BLOB).
    /// - Throws: the engine's error when the table is missing (``DatabaseError``, `PostgresError` 42P01), ``RecordError/keyNotUnique(table:columns:)``
    ///   when the key columns are not unique in the table, ``RecordError/missingKey(table:column:)`` for a
    ///   nil key of a kind the client sets, or `DecodingError` for a stored value that does not fit its
    ///   property.
    public static func fetchOne(_ db: some DatabaseConnection, id: ID) throws -> Self? {
        try db.fetchRecord(Self.self, id: id)
    }

    /// SQLite's ``fetchOne(_:id:)``.
    static func fetchRecord(_ db: Database, id: ID) throws -> Self? {
        // Not through `explainingMissingTable`: a closure returning `Self?` makes this unspecialized code look
        // up the metadata of `Optional<Self>` on every call.
        do {
            return try fetchRow(db, id: id)
        } catch let error as DatabaseError where error.isNoSuchTable(tableName) {
            throw explainingMissingTable(error)
        }
    }

    /// The row with key `id`, decoded; nil when there is none. Through the type's lookup plan (see
    /// ``RecordLookupPlan``): the key bound straight into a statement kept for the type.
    ///
    /// Each branch returns its call's result as it is: a local `Self?` would make this unspecialized code
    /// look up the metadata of `Optional<Self>` on every call, so the keys that may need a second query go
    /// through functions of their own.
    private static func fetchRow(_ db: Database, id: ID) throws -> Self? {
        if keyIsRowID {
            guard let rowID = RowIDKey.rowID(id) else { return nil }
            return try lookupPlan(db).fetchRow(Self.self, rowID: rowID, db: db)
        }
        if let value = plainKeyValue(id) { return try lookupPlan(db).fetchRow(Self.self, value: value, db: db) }
        if let uuid = SameTypeCast.cast(id, to: UUID.self) { return try fetchRow(db, uuid: uuid) }
        return try fetchRow(db, match: try keyMatch(id))
    }

    /// The row with UUID key `uuid`, decoded; nil when there is none. The form the encoder writes is looked
    /// up first, with no array made; the other forms only when it finds no row.
    @inline(never)
    private static func fetchRow(_ db: Database, uuid: UUID) throws -> Self? {
        let plan = try lookupPlan(db)
        if let record = try plan.fetchRow(Self.self, uuid: uuid, db: db) { return record }
        // A UUID another tool stored in another form.
        let match = KeyMatch(columns: [plan.primaryKeyColumn], values: [[plan.writtenForm(uuid)]], uuid: uuid)
        return try fetchRow(db, match.allForms)
    }

    /// The row with key `match` in the form the encoder writes, or else (a UUID) in any other form; nil
    /// when there is none.
    @inline(never)
    private static func fetchRow(_ db: Database, match: KeyMatch) throws -> Self? {
        let plan = try lookupPlan(db, keyColumns: match.columns)
        if let record = try plan.fetchRow(Self.self, values: match.values.compactMap(\.first), db: db) {
            return record
        }
        // A UUID another tool stored in another form.
        return match.hasAlternateForms ? try fetchRow(db, match.allForms) : nil
    }

    /// The row with key `match`, decoded; nil when there is none.
    private static func fetchRow(_ db: Database, _ match: KeyMatch) throws -> Self? {
        let sql = RecordConnectionCache.of(db).sql(Self.self, .selectOne, table: Self.tableName, primaryKey: match.shape) {
            RecordSQL.selectOne(from: tableName, keyColumns: match.columns, counts: match.counts)
        }
        return try fetchRow(db, sql: sql, arguments: match.arguments)
    }

    /// The first row `sql` selects with `arguments`, decoded; nil when there is none.
    private static func fetchRow(_ db: Database, sql: String, arguments: StatementArguments) throws -> Self? {
        try db.withStatement(sql: sql, arguments: arguments) { statement in
            guard try statement.step() else { return nil }
            let context = RowDecodingContext(
                statement: statement, tableName: tableName, missingOptionalColumnIsNil: false, decoder: rowDecoder)
            do {
                return try context.decodeRow(Self.self)
            } catch let error as DecodingError {
                throw locatingRow(error, of: statement)
            }
        }
    }

    /// The records whose keys are in `ids`, in no particular order, each once (a key given twice returns its
    /// record once); empty for an empty list. A UUID key matches its row in every stored form.
    ///
    /// The keys are bound as arguments, split over as many statements as SQLite's limit on bound values
    /// (`SQLITE_LIMIT_VARIABLE_NUMBER`: 32,766 by default, 999 on older builds) needs, so any number of keys
    /// works. See <https://www.sqlite.org/limits.html#max_variable_number>.
    /// - Throws: as ``fetchOne(_:id:)``.
    public static func fetch<IDs: Collection>(_ db: Database, ids: IDs) throws -> [Self] where IDs.Element == ID {
        // Each key once, so that a key given twice cannot return its row twice from two statements.
        var matches: [KeyMatch] = []
        var seen = Set<KeyMatch>()
        matches.reserveCapacity(ids.count)
        for id in ids {
            if keyIsRowID && RowIDKey.rowID(id) == nil { continue }
            let match = try keyMatch(id).allForms
            if seen.insert(match).inserted { matches.append(match) }
        }
        guard let first = matches.first else { return [] }
        try checkKey(db, columns: first.columns)
        let perKey = first.counts.reduce(0, +)
        let chunk = max(1, min(db.maximumBoundValues, 32_766) / max(perKey, 1))
        var records: [Self] = []
        var start = 0
        while start < matches.count {
            let part = matches[start..<min(start + chunk, matches.count)]
            let sql = RecordSQL.select(
                from: tableName, keyColumns: first.columns, counts: first.counts, keys: part.count)
            var arguments = StatementArguments()
            arguments.values.reserveCapacity(part.count * perKey)
            for match in part { arguments.values += match.values.joined() }
            if keyIsRowID && db.changeTracker.isRecordingReads {
                try db.noteRowRead(of: tableName, keyColumn: primaryKeyColumn, rowIDs: Self.integers(arguments.values))
            }
            records += try fetchAll(db, SQLQuery(sql: sql, arguments: arguments))
            start += chunk
        }
        return records
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

    /// The number of rows whose columns equal the given values (nil matches NULL).
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for a key that is not a column, or
    ///   ``DatabaseError`` when the table is missing.
    public static func count(
        _ db: Database, where conditions: [String: (any SQLiteValueConvertible)?] = [:]
    ) throws
        -> Int
    {
        try request(where: conditions).count(db)
    }

    /// The number of rows a SQL condition of your own selects.
    /// - Throws: ``DatabaseError`` for SQL that SQLite rejects.
    public static func count(_ db: Database, where sql: String, arguments: StatementArguments = []) throws -> Int {
        try request(sql: sql, arguments: arguments).count(db)
    }

    /// True when a row has `id` as its primary key (false for a nil rowid).
    /// - Throws: ``DatabaseError`` when the table is missing; as ``fetchOne(_:id:)`` for the key.
    public static func exists(_ db: some DatabaseConnection, id: ID) throws -> Bool {
        if keyIsRowID && RowIDKey.rowID(id) == nil { return false }
        return try db.recordExists(Self.self, id: id)
    }

    /// SQLite's ``exists(_:id:)``, for a key that is not a nil rowid.
    static func recordExists(_ db: Database, id: ID) throws -> Bool {
        let match = try keyMatch(id)
        return try explainingMissingTable {
            try checkKey(db, columns: match.columns)
            return try countRows(db, match) > 0
        }
    }

    /// Runs `query` and decodes every row. The column lookup is built once for the statement, not per row.
    /// `tableName` nil marks raw SQL, where a missing Optional column decodes as nil.
    static func fetchAll(_ db: Database, _ query: SQLQuery, tableName: String? = Self.tableName) throws -> [Self] {
        try db.withStatement(sql: query.sql, arguments: query.arguments) { statement in
            let context = RowDecodingContext(
                statement: statement, tableName: tableName, missingOptionalColumnIsNil: tableName == nil,
                decoder: rowDecoder)
            var records: [Self] = []
            // Room for the first few rows. Reserving before the loop also makes the compiler look up the type
            // metadata of `[Self]` once, here, rather than before every append: this code is generic and runs
            // unspecialized, and each lookup is a hash lookup in the runtime's cache.
            records.reserveCapacity(4)
            // A row initializer's record is appended by code compiled for the type, in its module (see
            // ``FetchableRecord/_appendRow(_:to:)``); a Decodable one here, where `[Self]` is looked up once.
            let appendsThroughRowInitializer = context.hasRowInitializer(Self.self)
            while try statement.step() {
                do {
                    if appendsThroughRowInitializer {
                        try context.appendRow(Self.self, to: &records)
                    } else {
                        records.append(try context.decodeRow(Self.self))
                    }
                } catch let error as DecodingError where tableName != nil {
                    // A fetch from the table names the row by its key, for the person who fixes it.
                    throw locatingRow(error, of: statement)
                }
            }
            return records
        }
    }
}

/// A table's column names, folded once per schema version (kept in the connection's schema cache) rather
/// than on every filtered fetch.
final class KnownColumns {
    /// The names as the table declares them, in order.
    let names: [String]
    /// The same names with A-Z lowered: SQLite matches column names case-insensitively in ASCII only ("É"
    /// is not "é").
    private let folded: Set<String>

    init(_ columns: [ColumnInfo]) {
        names = columns.map(\.name)
        folded = Set(names.map(RowLayout.asciiLowercased))
    }

    func contains(_ name: String) -> Bool { folded.contains(RowLayout.asciiLowercased(name)) }
}
