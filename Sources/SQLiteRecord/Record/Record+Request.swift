import Foundation

/// Requests start from the record type: `City.filter(...)`, `City.order(...)`, `City.all()`.
extension Record {
    /// Every row of the table, as a request to refine: `City.all().order(Column("name").ascending)`.
    public static func all() -> QueryInterfaceRequest<Self> { QueryInterfaceRequest() }

    /// The rows that match `predicate`: `City.filter(Column("population") > 1_000_000)`.
    public static func filter(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<Self> {
        all().filter(predicate)
    }

    /// The rows SQL of your own selects, with its arguments bound (see
    /// ``QueryInterfaceRequest/filter(sql:arguments:)``).
    public static func filter(sql: String, arguments: StatementArguments = []) -> QueryInterfaceRequest<Self> {
        all().filter(sql: sql, arguments: arguments)
    }

    /// Every row, sorted by `orderings`.
    public static func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<Self> {
        all().order(orderings)
    }

    /// `expressions` of every row (see ``QueryInterfaceRequest/select(_:)-([SQLExpressible])``).
    public static func select(_ expressions: any SQLExpressible...) -> QueryInterfaceRequest<Self> {
        all().select(expressions)
    }

    /// At most `limit` rows, after skipping `offset`.
    public static func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<Self> {
        all().limit(limit, offset: offset)
    }

    /// The request the `where:` dictionary forms run: ANDed equalities in column-name order (nil matches
    /// NULL, a UUID each of its stored forms), sorted and paged.
    /// - Throws: ``DatabaseError`` with `SQLITE_MISMATCH` for a value with no exact SQLite form (a `UInt64`
    ///   above `Int64.max`); ``RecordError/invalidQueryValue(table:column:type:reason:)`` for a Date the
    ///   type's custom date strategy cannot write.
    static func request(
        where conditions: [String: (any SQLiteValueConvertible)?], orderBy ordering: [Ordering] = [],
        limit: Int? = nil, offset: Int? = nil
    ) throws -> QueryInterfaceRequest<Self> {
        request(equalities: try equalityValues(conditions), orderBy: ordering, limit: limit, offset: offset)
    }

    /// The values of a `where:` dictionary as the stored forms each column is compared with.
    /// - Throws: as ``request(where:orderBy:limit:offset:)``.
    static func equalityValues(
        _ conditions: [String: (any SQLiteValueConvertible)?]
    ) throws -> [String: FilterValue] {
        guard !conditions.isEmpty else { return [:] }
        var binding = RecordRequestBinding<Self>()
        var equalities: [String: FilterValue] = [:]
        equalities.reserveCapacity(conditions.count)
        for (column, value) in conditions {
            // A Date is compared in the form the type's date strategy writes (unix seconds, ISO 8601...), as
            // save() wrote it; every other value's SQLiteValueConvertible form is the encoder's own.
            if let date = value as? Date {
                equalities[column] = FilterValue(forms: try binding.encodedForms(date, column: column))
            } else {
                equalities[column] = try FilterValue(filtering: value)
            }
        }
        return equalities
    }

    /// The request of the `where sql:` forms.
    static func request(
        sql: String, arguments: StatementArguments, orderBy ordering: [Ordering] = [], limit: Int? = nil,
        offset: Int? = nil
    ) -> QueryInterfaceRequest<Self> {
        var request = all().filter(sql: sql, arguments: arguments)
        request.orderings = ordering.map(\.sqlOrdering)
        request.limitCount = limit
        request.offsetCount = offset
        return request
    }
}

/// Running a request on SQLite: what `Database` answers for the engine-neutral request calls
/// (`QueryInterfaceRequest+Connection.swift`), compiled in SQLite's dialect.
extension Database {
    @_spi(RecordEngine)
    public func fetchRecords<Base: Record>(_ request: QueryInterfaceRequest<Base>) throws -> [Base] {
        try Base.explainingMissingTable {
            let query = try request.compiled(self, .select)
            try request.noteRowRead(self)
            return try Base.fetchAll(self, query, tableName: request.selectsTableColumns ? Base.tableName : nil)
        }
    }

    @_spi(RecordEngine)
    public func fetchValues<Base: Record, T: Decodable>(
        _ request: QueryInterfaceRequest<Base>, as type: T.Type, first: Bool
    ) throws -> [T] {
        try Base.explainingMissingTable {
            let query = try (first ? request.limitedToOne : request).compiled(self, .select)
            try request.noteRowRead(self)
            return try withStatement(sql: query.sql, arguments: query.arguments) { statement in
                let context = RowDecodingContext(
                    statement: statement, tableName: nil, missingOptionalColumnIsNil: true, decoder: Base.rowDecoder)
                var values: [T] = []
                while try statement.step() {
                    // The first row's single NULL (the `max` of no rows) is no value.
                    if first && statement.columnCount == 1 && statement.isNull(at: 0) { return [] }
                    values.append(try context.decodeRow(T.self))
                }
                return values
            }
        }
    }

    @_spi(RecordEngine)
    public func countRows<Base: Record>(_ request: QueryInterfaceRequest<Base>, exists: Bool) throws -> Int {
        try Base.explainingMissingTable {
            let query = try request.compiled(self, exists ? .exists : .count)
            return Int(try integerScalar(sql: query.sql, arguments: query.arguments) ?? 0)
        }
    }

    @_spi(RecordEngine)
    public func writeRows<Base: Record>(_ request: QueryInterfaceRequest<Base>, assignments: [ColumnAssignment]?)
        throws -> Int
    {
        try Base.explainingMissingTable {
            try Base.checkWriteTarget(self, insertingWithoutID: false)
            let query = try request.compiled(self, assignments == nil ? .delete : .update, assignments: assignments ?? [])
            try run(sql: query.sql, arguments: query.arguments)
            return changesCount
        }
    }
}

/// The request's cursor, which is SQLite's alone, and its compiling.
extension QueryInterfaceRequest {
    /// The request with a limit of one row (none when its own limit is 0), its offset kept.
    package var limitedToOne: Self { limit(limitCount == 0 ? 0 : 1, offset: offsetCount) }

    /// A cursor over the records, decoded one at a time as it is iterated: memory stays flat however many
    /// rows there are. Use it where `db` is used (inside the same queue closure), as ``RowCursor``.
    /// - Throws: as ``fetch(_:)`` for compiling and binding; errors while stepping and decoding come from
    ///   ``RecordCursor/next()``.
    public func fetchCursor(_ db: Database) throws -> RecordCursor<Base> {
        try Base.explainingMissingTable {
            let query = try compiled(db, .select)
            let statement = try db.cachedStatement(sql: query.sql)
            statement.isCheckedOut = true
            do {
                try statement.bind(query.arguments)
            } catch {
                statement.resetAndClearBindings()
                statement.isCheckedOut = false
                throw error
            }
            return RecordCursor(statement: statement, tableName: selection.isEmpty ? Base.tableName : nil)
        }
    }

    // MARK: Compiling

    package var parts: RequestParts {
        RequestParts(
            selection: selection, isDistinct: isDistinct, filter: filter, grouping: grouping, having: havingFilter,
            orderings: orderings, limit: limitCount, offset: offsetCount, search: fullTextSearch)
    }

    /// The request as SQL and arguments. Values are bound in one walk that also records the request's
    /// shape; the SQL of a shape is written, and its columns checked against the table, once per connection
    /// and schema.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)``,
    ///   ``RecordError/invalidQueryValue(table:column:type:reason:)``, ``RecordError/invalidQuery(table:reason:)``,
    ///   or ``DatabaseError`` reading the schema.
    func compiled(
        _ db: Database, _ statement: RequestStatement, assignments: [ColumnAssignment] = []
    ) throws -> SQLQuery {
        let table = Base.tableName
        let parts = self.parts
        var binder = RequestCompiler(binding: RecordRequestBinding<Base>(), table: table, isWriting: false)
        try binder.compile(parts, as: statement, assignments: assignments)
        let key = RecordConnectionCache.RequestShape(type: ObjectIdentifier(Base.self), tokens: binder.tokens)
        let cache = RecordConnectionCache.of(db).requestSQL
        let generation = try db.currentSchemaGeneration()
        if let entry = cache[key], entry.generation == generation {
            return SQLQuery(sql: entry.sql, arguments: binder.arguments)
        }
        var writer = RequestCompiler(binding: RecordRequestBinding<Base>(), table: table, isWriting: true)
        try writer.compile(parts, as: statement, assignments: assignments) {
            let shape = try db.tableShape(table)
            return shape.hasRowID ? nil : shape.primaryKey
        }
        do {
            try Base.checkColumns(db, writer.columns, aliases: writer.aliases)
        } catch {
            throw linkError(error)
        }
        cache[key] = RecordConnectionCache.RequestSQL(sql: writer.sql, generation: generation)
        return SQLQuery(sql: writer.sql, arguments: writer.arguments)
    }
}

extension Record {
    /// Throws unless every name in `columns` is a column of the table (or one of the selection's
    /// `aliases`), ASCII case-insensitively as SQLite matches them.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for the first that is not.
    static func checkColumns(_ db: Database, _ columns: [String], aliases: [String]) throws {
        guard !columns.isEmpty else { return }
        let known = try db.derivedSchemaValue(for: KnownColumns.self, table: tableName) { KnownColumns($0) }
        let folded = Set(aliases.map(RowLayout.asciiLowercased))
        for column in columns where !known.contains(column) && !folded.contains(RowLayout.asciiLowercased(column)) {
            throw RecordError.unknownColumn(table: tableName, column: column, columns: known.names)
        }
    }
}
