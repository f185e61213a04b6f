/// Running a full-text search for records and excerpts.
extension QueryInterfaceRequest where Base: FullTextSearchable {
    /// The records a search request selects, each with an excerpt of one indexed column, in the request's
    /// order (best match first by default). The request's selection, if any, is not used: whole records are
    /// read. See <https://www.sqlite.org/fts5.html#auxiliary_functions>.
    ///
    /// ```swift
    /// let matches = try Note.search("sao paulo").fetchMatches(db, excerpt: .highlight(Column("body"), open: "**", close: "**"))
    /// // matches[0].excerpt: "Flights to **São** **Paulo** on Monday"
    /// ```
    /// - Throws: ``RecordError/invalidQuery(table:reason:)`` when the request is not a search (no
    ///   ``matching(_:)``), ``RecordError/unknownColumn(table:column:columns:)`` for an excerpt of a column
    ///   the index does not hold, and what ``fetch(_:)`` throws.
    public func fetchMatches(_ db: some DatabaseConnection, excerpt: FullTextExcerpt) throws -> [FullTextMatch<Base>] {
        try db.fetchFullTextMatches(self, excerpt: excerpt)
    }

    /// SQLite's matches: the request compiled with the excerpt's `snippet` or `highlight` column last.
    func fetchFTS5Matches(_ db: Database, excerpt: FullTextExcerpt) throws -> [FullTextMatch<Base>] {
        let request = try selectingExcerpt(excerpt)
        return try Base.explainingMissingTable {
            let query = try request.compiled(db, .select)
            return try db.withStatement(sql: query.sql, arguments: query.arguments) { statement in
                let context = RowDecodingContext(
                    statement: statement, tableName: Base.tableName, missingOptionalColumnIsNil: false,
                    decoder: Base.rowDecoder)
                let excerptIndex = statement.columnCount - 1
                var matches: [FullTextMatch<Base>] = []
                while try statement.step() {
                    let record = try context.decodeRow(Base.self)
                    let text = statement.isNull(at: excerptIndex) ? "" : statement.string(at: excerptIndex)
                    matches.append(FullTextMatch(record: record, excerpt: text))
                }
                return matches
            }
        }
    }
}

extension QueryInterfaceRequest where Base: FullTextSearchable & Sendable {
    /// ``fetchMatches(_:excerpt:)`` in a read of `writer`: a ``DatabaseQueue``, a ``DatabasePool`` or a
    /// PostgreSQL pool.
    /// - Throws: as ``fetchMatches(_:excerpt:)``, and `CancellationError` when the task was cancelled.
    public func fetchMatches(_ writer: some AsyncDatabaseWriter, excerpt: FullTextExcerpt) async throws
        -> [FullTextMatch<Base>]
    {
        let request = self
        return try await writer.read { db in try request.fetchMatches(db, excerpt: excerpt) }
    }
}
