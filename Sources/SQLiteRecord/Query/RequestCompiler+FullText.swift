// Full-text search in a compiled request: the FTS5 join on SQLite, the `tsvector` query, rank and
// excerpt on PostgreSQL.

extension RequestCompiler {
    /// ` JOIN (SELECT rowid, rank[, excerpt] FROM "fts" WHERE "fts" MATCH ?) AS "sqliterecord_search" ON
    /// "table".rowid = ...`: the FTS5 query runs once, in a subquery where its rank and auxiliary functions
    /// are valid, and its rows find the table's by rowid. The subquery's columns have unusual names, so that
    /// the request's own unqualified column names still name the table's columns.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for an excerpt of a column the index
    ///   does not hold.
    mutating func searchJoin(_ search: FullTextSearchPart) throws {
        tokens.append(.part(.searchJoin))
        tokens.append(.name(search.table))
        let fts = SQLIdentifier.quoted(search.table)
        write(
            " JOIN (SELECT rowid AS " + SQLIdentifier.quoted(FullTextSearchPart.rowIDColumn) + ", rank AS "
                + SQLIdentifier.quoted(FullTextSearchPart.rankColumn))
        if let excerpt = search.excerpt {
            let name = binding.name(of: excerpt.column)
            let folded = RowLayout.asciiLowercased(name)
            guard let index = search.columns.firstIndex(where: { RowLayout.asciiLowercased($0) == folded }) else {
                throw RecordError.unknownColumn(table: search.table, column: name, columns: search.columns)
            }
            arguments.append(sqlite: .integer(Int64(index)))
            arguments.append(sqlite: .text(excerpt.open))
            arguments.append(sqlite: .text(excerpt.close))
            switch excerpt.kind {
            case .highlight:
                tokens.append(.part(.highlight))
                write(", highlight(" + fts + ", ?, ?, ?)")
            case .snippet(let ellipsis, let count):
                tokens.append(.part(.snippet))
                write(", snippet(" + fts + ", ?, ?, ?, ?, ?)")
                arguments.append(sqlite: .text(ellipsis))
                arguments.append(sqlite: .integer(Int64(count)))
            }
            write(" AS " + SQLIdentifier.quoted(FullTextSearchPart.excerptColumn))
        }
        write(" FROM " + fts + " WHERE " + fts + " MATCH ?) AS " + SQLIdentifier.quoted(FullTextSearchPart.alias))
        arguments.append(sqlite: .text(search.pattern))
        write(" ON " + SQLIdentifier.quoted(table) + ".rowid = " + searchColumn(FullTextSearchPart.rowIDColumn))
    }

    /// How `ts_rank` weighs a document's length: 1 divides the rank by 1 + the logarithm of the number of
    /// words, so that among rows that match alike the shorter ones come first, as FTS5's bm25 ranks them.
    /// See <https://www.postgresql.org/docs/current/textsearch-controls.html#TEXTSEARCH-RANKING>.
    static var postgresRankNormalization: Int { 1 }

    /// PostgreSQL: binds the search's text and returns the query that reads it, `websearch_to_tsquery(
    /// 'configuration', $n)` or `to_tsquery(...)`.
    /// - Throws: ``RecordError/invalidQuery(table:reason:)`` for a raw FTS5 pattern, or a tokenizer with no
    ///   PostgreSQL configuration.
    mutating func postgresSearchQuery(_ search: FullTextSearchPart) throws -> String {
        guard let query = search.postgresQuery else {
            throw RecordError.invalidQuery(
                table: table,
                reason: "a raw FTS5 pattern is FTS5's syntax, which PostgreSQL does not read: use search(_:) or "
                    + "another FTS5Pattern initializer")
        }
        guard let configuration = search.tokenizer.postgresConfiguration else {
            throw RecordError.invalidQuery(
                table: table,
                reason: "the full-text tokenizer '\(search.tokenizer.arguments)' has no PostgreSQL text search "
                    + "configuration: use unicode61 or porter")
        }
        tokens.append(.name(query.function))
        // The configuration is one of the names `postgresConfiguration` gives, none with a quote.
        let sql = query.function + "('" + configuration + "', " + nextParameter + ")"
        arguments.append(sqlite: .text(query.text))
        return sql
    }

    /// `"table"."index"`: the search's `tsvector` column on PostgreSQL.
    func tsvectorColumn(_ search: FullTextSearchPart) -> String {
        SQLIdentifier.quoted(table) + "." + SQLIdentifier.quoted(search.table)
    }

    /// PostgreSQL's excerpt, `ts_headline('configuration', "table"."column", query, $n) AS
    /// "sqliterecord_excerpt"`, its options bound as one text: `StartSel` and `StopSel` double-quoted with
    /// their `"` doubled, then `HighlightAll=true`, or, for a snippet, one fragment of at most `tokens` words.
    /// See <https://www.postgresql.org/docs/current/textsearch-controls.html#TEXTSEARCH-HEADLINE>.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for a column the index does not hold.
    mutating func postgresExcerpt(
        _ excerpt: FullTextExcerpt, of search: FullTextSearchPart, query: String
    ) throws {
        let name = binding.name(of: excerpt.column)
        let folded = RowLayout.asciiLowercased(name)
        guard let column = search.columns.first(where: { RowLayout.asciiLowercased($0) == folded }),
            let configuration = search.tokenizer.postgresConfiguration
        else {
            throw RecordError.unknownColumn(table: search.table, column: name, columns: search.columns)
        }
        func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        var options = "StartSel=" + quoted(excerpt.open) + ", StopSel=" + quoted(excerpt.close)
        switch excerpt.kind {
        case .highlight:
            tokens.append(.part(.highlight))
            options += ", HighlightAll=true"
        case .snippet(_, let count):
            tokens.append(.part(.snippet))
            // MinWords must be positive and less than MaxWords.
            let most = max(count, 2)
            options += ", MaxWords=\(most), MinWords=\(max(1, most / 2)), ShortWord=0, MaxFragments=1"
        }
        write(
            "ts_headline('" + configuration + "', " + SQLIdentifier.quoted(table) + "."
                + SQLIdentifier.quoted(column) + ", " + query + ", " + nextParameter + ") AS "
                + SQLIdentifier.quoted(FullTextSearchPart.excerptColumn))
        arguments.append(sqlite: .text(options))
    }

    /// `"sqliterecord_search"."name"`.
    func searchColumn(_ name: String) -> String {
        SQLIdentifier.quoted(FullTextSearchPart.alias) + "." + SQLIdentifier.quoted(name)
    }
}
