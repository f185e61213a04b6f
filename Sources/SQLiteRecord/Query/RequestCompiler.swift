/// What the Record layer supplies to compile a request: the table's names, the values as its record type
/// stores them on one engine, and that engine's ``SQLDialect``.
package protocol RequestBinding {
    /// The arguments of the engine the request runs on.
    associatedtype Arguments: RequestArguments = StatementArguments
    /// The SQL spellings the compiler writes.
    static var dialect: SQLDialect { get }

    /// The column's name in the table (a coding key through the type's key strategy).
    mutating func name(of column: Column) -> String
    /// `value` as the stored forms that count as equal to it, compared with `column` (named in errors):
    /// empty for NULL, one form, or several for a UUID.
    /// - Throws: ``RecordError/invalidQueryValue(table:column:type:reason:)`` for a value that is not one
    ///   column's value.
    mutating func forms(of value: QueryValue, column: String?) throws -> [Arguments.BoundValue]
    /// How a list of more than ``RequestCompiler/jsonListThreshold`` forms, compared with `column`, is bound.
    /// - Throws: ``RecordError/invalidQueryValue(table:column:type:reason:)`` for forms no one value holds.
    mutating func longList(
        _ forms: [Arguments.BoundValue], column: String?
    ) throws -> RequestListForm<Arguments.BoundValue>
}

extension RequestBinding {
    package static var dialect: SQLDialect { .sqlite }
}

extension RequestBinding where Arguments == StatementArguments {
    package mutating func longList(_ forms: [SQLiteValue], column: String?) throws -> RequestListForm<SQLiteValue> {
        let (scalars, blobs, nulTexts) = JSONList.arrays(forms)
        return .json(scalars: scalars, blobs: blobs, nulTexts: nulTexts)
    }
}

/// How a long list is bound: as JSON arrays that SQLite's `json_each` reads, or as one array value that
/// PostgreSQL compares with `= ANY($n)`
/// (<https://www.postgresql.org/docs/current/functions-comparisons.html#FUNCTIONS-COMPARISONS-ANY-SOME>).
package enum RequestListForm<Value> {
    /// Scalars, BLOBs as hex, and text holding U+0000 as hex, as stored and with its ASCII letters lowered
    /// (nil when there is none).
    case json(scalars: String, blobs: String, nulTexts: (stored: String, folded: String)?)
    case array(Value)
}

/// What a compiled request's statement does.
package enum RequestStatement: UInt8 {
    case select, count, exists, delete, update
}

/// A request made into SQL: one walk binds its values and records its shape; the SQL text is written in
/// the same walk only when the shape is new (``isWriting``), so that a request run again with other values
/// costs no string building. Identifiers are quoted by ``SQLIdentifier``; values are bound.
package struct RequestCompiler<Binding: RequestBinding> {
    /// A list longer than this many values is bound as JSON arrays (see ``SQLExpressible/in(_:)``): SQLite
    /// limits the bound values of a statement (999 on builds older than 3.32), and every list length would
    /// otherwise be a statement of its own in the cache.
    static var jsonListThreshold: Int { 512 }

    var binding: Binding
    package let table: String
    /// True when the SQL text is written; false when only the shape and arguments are wanted.
    let isWriting: Bool
    package private(set) var sql = ""
    var tokens: [ShapeToken] = []
    package internal(set) var arguments = Binding.Arguments.empty
    /// Every column name the request uses, in order (recorded only while writing), for the check against
    /// the table.
    package private(set) var columns: [String] = []
    /// The selection's aliases, which ORDER BY and HAVING may name as columns.
    package private(set) var aliases: [String] = []
    /// The table written before every column (`"cities"."name"`), for a request that joins another table
    /// whose columns may have the same names; nil writes bare column names.
    package var qualifier: String?
    /// A JOIN written after `FROM "table"`, with its own arguments, and what it adds to a `*` selection
    /// (see ``AssociationJoin``).
    package var join: (sql: String, selection: String, arguments: Binding.Arguments)?
    /// A condition on the joined table, with its own arguments, written first in a SELECT's WHERE clause
    /// (a required parent's filter on PostgreSQL, where SQL of another binding cannot be a literal).
    package var joinFilter: (sql: String, arguments: Binding.Arguments)?

    private var dialect: SQLDialect { Binding.dialect }

    package init(binding: Binding, table: String, isWriting: Bool) {
        self.binding = binding
        self.table = table
        self.isWriting = isWriting
        tokens.reserveCapacity(16)
        arguments.reserveCapacity(8)
        if isWriting { sql.reserveCapacity(128) }
    }

    // MARK: Statements

    /// Compiles `parts` as `statement`. `keyColumns` names the columns that find a row (nil: the rowid),
    /// asked for only when a delete or update has a LIMIT.
    /// - Throws: ``RecordError/invalidQuery(table:reason:)`` for a delete or update of a grouped request,
    ///   and what ``RequestBinding/forms(of:column:)`` throws.
    package mutating func compile(
        _ parts: RequestParts, as statement: RequestStatement, assignments: [ColumnAssignment] = [],
        keyColumns: () throws -> [String]? = { nil }
    ) throws {
        tokens.append(.statement(statement))
        tokens.append(.name(table))
        switch statement {
        case .select:
            try select(parts)
        case .count:
            if parts.isPlain {
                write("SELECT count(*) FROM " + SQLIdentifier.quoted(table))
                try whereClause(parts.filter)
            } else {
                write("SELECT count(*) FROM (")
                try select(parts, keepingOrder: false)
                // PostgreSQL before 16 needs a name for a subquery in FROM.
                write(dialect == .postgres ? ") AS \"counted\"" : ")")
            }
        case .exists:
            write("SELECT EXISTS (")
            try select(parts, keepingOrder: false)
            write(")")
        case .delete, .update:
            guard parts.search == nil else {
                throw RecordError.invalidQuery(
                    table: table,
                    reason:
                        "a full-text search request cannot delete or update: fetch the records, or filter by their ids")
            }
            guard parts.grouping.isEmpty, parts.having == nil else {
                throw RecordError.invalidQuery(
                    table: table,
                    reason: "a request with GROUP BY or HAVING selects groups, not rows: it cannot delete or update")
            }
            if statement == .delete {
                write("DELETE FROM " + SQLIdentifier.quoted(table))
            } else {
                write("UPDATE " + SQLIdentifier.quoted(table) + " SET ")
                tokens.append(.count(assignments.count))
                for (index, assignment) in assignments.enumerated() {
                    if index > 0 { write(", ") }
                    let name = column(assignment.column)
                    write(" = ")
                    try expression(assignment.value, 0, context: name)
                }
            }
            if parts.limit == nil && parts.offset == nil {
                try whereClause(parts.filter)
            } else {
                // SQLite's DELETE ... LIMIT needs a compile-time option; a subquery on the key works everywhere.
                let key: String
                if isWriting {
                    let columns = try keyColumns()
                    if let columns, columns.count == 1, let only = columns.first {
                        key = SQLIdentifier.quoted(only)
                    } else if let columns, !columns.isEmpty {
                        key = "(" + columns.map(SQLIdentifier.quoted).joined(separator: ", ") + ")"
                    } else {
                        key = "rowid"
                    }
                } else {
                    key = ""
                }
                write(" WHERE " + key + " IN (SELECT " + key + " FROM " + SQLIdentifier.quoted(table))
                try whereClause(parts.filter)
                try orderClause(parts.orderings)
                limitClause(parts)
                write(")")
            }
        }
    }

    /// `SELECT ... FROM "table" WHERE ... GROUP BY ... HAVING ... ORDER BY ... LIMIT ? OFFSET ?`. Without
    /// `keepingOrder`, ORDER BY is left out unless a LIMIT or OFFSET needs it.
    private mutating func select(_ parts: RequestParts, keepingOrder: Bool = true) throws {
        // PostgreSQL: the search's text is bound first, and its query written wherever it is used.
        let postgresQuery = try parts.search.flatMap { dialect == .postgres ? try postgresSearchQuery($0) : nil }
        write(parts.isDistinct ? "SELECT DISTINCT " : "SELECT ")
        tokens.append(.count(parts.selection.count))
        if let search = parts.search, let excerpt = search.excerpt, let postgresQuery {
            write(SQLIdentifier.quoted(table) + ".*, ")
            try postgresExcerpt(excerpt, of: search, query: postgresQuery)
        } else if parts.search?.excerpt != nil {
            // fetchMatches: the record's columns, then the excerpt (the selection is not used).
            write(SQLIdentifier.quoted(table) + ".*, " + searchColumn(FullTextSearchPart.excerptColumn))
        } else if parts.selection.isEmpty {
            if let qualifier {
                write(SQLIdentifier.quoted(qualifier) + ".*")
            } else {
                write(parts.search == nil ? "*" : SQLIdentifier.quoted(table) + ".*")
            }
        } else {
            for (index, node) in parts.selection.enumerated() {
                if index > 0 { write(", ") }
                if case .alias(let inner, let name) = node {
                    try expression(inner, 0, context: nil)
                    tokens.append(.name(name))
                    write(" AS " + SQLIdentifier.quoted(name))
                    if isWriting { aliases.append(name) }
                } else {
                    try expression(node, 0, context: nil)
                }
            }
        }
        if let join, parts.selection.isEmpty { write(", " + join.selection) }
        write(" FROM " + SQLIdentifier.quoted(table))
        if let search = parts.search {
            if let postgresQuery {
                tokens.append(.part(.searchJoin))
                write(
                    " CROSS JOIN LATERAL (SELECT -ts_rank(" + tsvectorColumn(search) + ", " + postgresQuery + ", "
                        + String(Self.postgresRankNormalization) + ") AS "
                        + SQLIdentifier.quoted(FullTextSearchPart.rankColumn) + ") AS "
                        + SQLIdentifier.quoted(FullTextSearchPart.alias))
            } else {
                try searchJoin(search)
            }
        }
        if let join {
            tokens.append(.name(join.sql))
            write(join.sql)
            arguments.append(arguments: join.arguments)
        }
        var hasCondition = false
        if let search = parts.search, let postgresQuery {
            write(" WHERE " + tsvectorColumn(search) + " @@ " + postgresQuery)
            hasCondition = true
        }
        if let joinFilter {
            tokens.append(.name(joinFilter.sql))
            write((hasCondition ? " AND (" : " WHERE (") + joinFilter.sql + ")")
            arguments.append(arguments: joinFilter.arguments)
            hasCondition = true
        }
        if hasCondition {
            if let filter = parts.filter {
                tokens.append(.part(.whereClause))
                write(" AND ")
                try expression(filter, 3, context: nil)
            }
        } else {
            try whereClause(parts.filter)
        }
        if !parts.grouping.isEmpty {
            tokens.append(.part(.groupBy))
            write(" GROUP BY ")
            for (index, node) in parts.grouping.enumerated() {
                if index > 0 { write(", ") }
                try expression(node, 0, context: nil)
            }
        }
        if let having = parts.having {
            tokens.append(.part(.having))
            write(" HAVING ")
            try expression(having, 0, context: nil)
        }
        if keepingOrder || parts.limit != nil || parts.offset != nil {
            if parts.search != nil && parts.orderings.isEmpty {
                tokens.append(.part(.orderByRank))
                write(" ORDER BY " + searchColumn(FullTextSearchPart.rankColumn))
            } else {
                try orderClause(parts.orderings)
            }
        }
        limitClause(parts)
    }

    /// ` JOIN (SELECT rowid, rank[, excerpt] FROM "fts" WHERE "fts" MATCH ?) AS "sqliterecord_search" ON
    /// "table".rowid = ...`: the FTS5 query runs once, in a subquery where its rank and auxiliary functions
    /// are valid, and its rows find the table's by rowid. The subquery's columns have unusual names, so that
    /// the request's own unqualified column names still name the table's columns.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for an excerpt of a column the index
    ///   does not hold.
    private mutating func searchJoin(_ search: FullTextSearchPart) throws {
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
    private mutating func postgresSearchQuery(_ search: FullTextSearchPart) throws -> String {
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
    private func tsvectorColumn(_ search: FullTextSearchPart) -> String {
        SQLIdentifier.quoted(table) + "." + SQLIdentifier.quoted(search.table)
    }

    /// PostgreSQL's excerpt, `ts_headline('configuration', "table"."column", query, $n) AS
    /// "sqliterecord_excerpt"`, its options bound as one text: `StartSel` and `StopSel` double-quoted with
    /// their `"` doubled, then `HighlightAll=true`, or, for a snippet, one fragment of at most `tokens` words.
    /// See <https://www.postgresql.org/docs/current/textsearch-controls.html#TEXTSEARCH-HEADLINE>.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for a column the index does not hold.
    private mutating func postgresExcerpt(
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
    private func searchColumn(_ name: String) -> String {
        SQLIdentifier.quoted(FullTextSearchPart.alias) + "." + SQLIdentifier.quoted(name)
    }

    private mutating func whereClause(_ filter: ExpressionNode?) throws {
        guard let filter else { return }
        tokens.append(.part(.whereClause))
        write(" WHERE ")
        try expression(filter, 0, context: nil)
    }

    private mutating func orderClause(_ orderings: [SQLOrdering]) throws {
        guard !orderings.isEmpty else { return }
        tokens.append(.count(orderings.count))
        write(" ORDER BY ")
        for (index, ordering) in orderings.enumerated() {
            if index > 0 { write(", ") }
            try expression(ordering.expression, 0, context: nil)
            tokens.append(.ordering(descending: ordering.isDescending, nulls: ordering.nulls))
            write(ordering.isDescending ? " DESC" : " ASC")
            write(dialect.nullsClause(descending: ordering.isDescending, nulls: ordering.nulls))
        }
    }

    /// `LIMIT ?` and `OFFSET ?`, bound: SQLite needs a LIMIT before an OFFSET, and a negative limit is none
    /// (bound as -1 on SQLite, NULL on PostgreSQL, whose `LIMIT NULL` is `LIMIT ALL`).
    private mutating func limitClause(_ parts: RequestParts) {
        if parts.limit != nil || parts.offset != nil {
            tokens.append(.part(.limit))
            write(" LIMIT " + nextParameter)
            arguments.append(limit: parts.limit)
        }
        if let offset = parts.offset {
            tokens.append(.part(.offset))
            write(" OFFSET " + nextParameter)
            arguments.append(limit: offset)
        }
    }

    // MARK: Expressions

    /// Appends `node`, in parentheses when it binds less tightly than `precedence` asks. `context` is the
    /// column a value in it is compared with, for the encoder and for errors.
    mutating func expression(_ node: ExpressionNode, _ precedence: Int, context: String?) throws {
        switch node {
        case .column(let column):
            _ = self.column(column)
        case .value(let value):
            tokens.append(.part(.value))
            let forms = try binding.forms(of: value, column: context)
            write(nextParameter)
            arguments.append(forms.first ?? Binding.Arguments.null)
        case .literal(let text, let literalArguments):
            tokens.append(.part(.literal))
            tokens.append(.name(text))
            if dialect == .postgres && text == "0" && literalArguments.values.isEmpty {
                // A parent request for a NULL foreign key (Record.request(for:) of a belongsTo) matches no
                // row: SQLite's `0`, PostgreSQL's boolean.
                write("(FALSE)")
            } else {
                write("(" + (dialect == .postgres ? Self.renumbered(text, after: arguments.count) : text) + ")")
            }
            arguments.append(literal: literalArguments)
        case .null:
            tokens.append(.part(.null))
            write("NULL")
        case .countAll:
            tokens.append(.part(.countAll))
            write("count(*)")
        case .unary(let unary, let operand):
            tokens.append(.unary(unary))
            switch unary {
            case .not:
                try parenthesized(3, precedence) {
                    $0.write("NOT ")
                    try $0.expression(operand, 3, context: context)
                }
            case .negate:
                write("-")
                try expression(operand, 10, context: context)
            }
        case .binary(let binary, let left, let right):
            tokens.append(.binary(binary))
            if binary == .equal || binary == .notEqual, case .value(let value) = right {
                return try equality(left, value, negated: binary == .notEqual, precedence)
            }
            let leftContext = binary.isComparison ? (columnName(in: right) ?? context) : context
            let rightContext = binary.isComparison ? (columnName(in: left) ?? context) : context
            try parenthesized(binary.precedence, precedence) {
                try $0.expression(left, binary.precedence, context: leftContext)
                $0.write(binary.sql)
                try $0.expression(right, binary.precedence + 1, context: rightContext)
            }
        case .isNull(let operand, let negated):
            tokens.append(.part(negated ? .isNotNull : .isNull))
            try parenthesized(4, precedence) {
                try $0.expression(operand, 5, context: context)
                $0.write(negated ? " IS NOT NULL" : " IS NULL")
            }
        case .list(let operand, let values, let negated):
            tokens.append(.part(negated ? .notInList : .inList))
            try list(operand, values, negated: negated, precedence)
        case .between(let operand, let lower, let upper, let negated):
            tokens.append(.part(negated ? .notBetween : .between))
            let name = columnName(in: operand) ?? context
            try parenthesized(4, precedence) {
                try $0.expression(operand, 5, context: context)
                $0.write(negated ? " NOT BETWEEN " : " BETWEEN ")
                try $0.expression(lower, 5, context: name)
                $0.write(" AND ")
                try $0.expression(upper, 5, context: name)
            }
        case .like(let operand, let pattern, let escaped, let negated):
            tokens.append(.part(negated ? (escaped ? .notLikeEscaped : .notLike) : (escaped ? .likeEscaped : .like)))
            let name = columnName(in: operand) ?? context
            // SQLite's LIKE stops reading its pattern at U+0000 and refuses one over its length limit;
            // PostgreSQL's text holds no U+0000 (its binding refuses such a value naming the column), and its
            // LIKE has no length limit.
            if dialect != .postgres { try pattern.checkLikePattern(column: name, table: table) }
            // SQLite's LIKE also reads the stored text up to its first U+0000 (RequestCompiler+NULText).
            if !escaped, try exactLike(operand, pattern, negated: negated, precedence) { return }
            // PostgreSQL's LIKE tells case apart; ILIKE matches letters in either case as SQLite's LIKE does
            // ASCII's, and serves the Unicode case-insensitive matchers in place of the case-fold function
            // (<https://www.postgresql.org/docs/current/functions-matching.html#FUNCTIONS-LIKE>).
            let (matched, like): (ExpressionNode, String)
            if dialect == .postgres {
                if case .function(.caseFold, let folded, false) = operand, folded.count == 1, let only = folded.first {
                    matched = only
                } else {
                    matched = operand
                }
                like = negated ? " NOT ILIKE " : " ILIKE "
            } else {
                (matched, like) = (operand, negated ? " NOT LIKE " : " LIKE ")
            }
            try parenthesized(4, precedence) {
                try $0.expression(matched, 5, context: context)
                $0.write(like)
                try $0.expression(pattern, 5, context: name)
                if escaped { $0.write(" ESCAPE '\\'") }
            }
        case .textMatch(let operand, let text, let match, let caseFolded):
            // SQLite's forms read past U+0000 (see SearchTextMatch); PostgreSQL's text holds none, so its
            // ILIKE alone is exact, and search text holding one is refused by the binding. PostgreSQL's ILIKE
            // folds both sides itself, as its database's LC_CTYPE says: the search text goes as it was typed.
            if dialect == .postgres {
                try expression(
                    .like(operand, .value(.searchText(text, match)), escaped: true, negated: false), precedence,
                    context: context)
            } else {
                let matched = caseFolded ? Database.caseFolded(text) : text
                try expression(match.condition(operand, matched, caseFolded: caseFolded), precedence, context: context)
            }
        case .collate(let operand, let collation):
            tokens.append(.part(.collate))
            tokens.append(.name(collation))
            try expression(operand, 11, context: context)
            write(" COLLATE " + SQLIdentifier.quoted(collation))
        case .function(let function, let operands, let distinct):
            tokens.append(.function(function))
            tokens.append(.count(distinct ? -operands.count : operands.count))
            // PostgreSQL has no `total`: `coalesce(sum(x), 0)` is its value (0 for no rows), and `lower`
            // stands for the case-fold function.
            let isTotal = dialect == .postgres && function == .total
            write(
                isTotal
                    ? "coalesce(sum" : (dialect == .postgres && function == .caseFold ? "lower" : function.name))
            write(distinct ? "(DISTINCT " : "(")
            for (index, operand) in operands.enumerated() {
                if index > 0 { write(", ") }
                try expression(operand, 0, context: context)
            }
            write(isTotal ? "), 0)" : ")")
        case .subquery(let subquery):
            // Its SQL is its shape: written every time (it is short), recorded as a name.
            let (text, subqueryArguments) = try subquery.compile()
            if dialect == .postgres && !subqueryArguments.values.isEmpty {
                throw RecordError.invalidQuery(
                    table: table,
                    reason: "an association's exists or count with a filter of its own is not written for "
                        + "PostgreSQL: filter the association's request(for:) instead")
            }
            tokens.append(.part(.subquery))
            tokens.append(.name(subquery.prefix + text))
            write(subquery.prefix + text)
            for value in subqueryArguments.values { arguments.append(sqlite: value) }
        case .alias(let operand, let name):
            // An alias outside a selection names nothing: the expression stands for itself.
            tokens.append(.part(.alias))
            tokens.append(.name(name))
            try expression(operand, precedence, context: context)
        }
    }

    /// `left = ?`, `left IS NULL` or `left IN (?, ?, ?)`, by how many stored forms `value` has; negated:
    /// `<>`, `IS NOT NULL`, `NOT IN`.
    private mutating func equality(
        _ left: ExpressionNode, _ value: QueryValue, negated: Bool, _ precedence: Int
    ) throws {
        let name = columnName(in: left)
        let forms = try binding.forms(of: value, column: name)
        tokens.append(.count(forms.count))
        // Text holding U+0000 is compared past it, which NOCASE would not do (RequestCompiler+NULText).
        if Self.anyHoldsNUL(forms) {
            if forms.count == 1, let only = forms.first {
                return try exactEquality(left, only, name: name, negated: negated, precedence)
            }
            return try nulList(left, forms, name: name, negated: negated, precedence)
        }
        try parenthesized(4, precedence) {
            try $0.expression(left, 5, context: name)
            switch forms.count {
            case 0:
                $0.write(negated ? " IS NOT NULL" : " IS NULL")
            case 1:
                $0.write(negated ? " <> " : " = ")
                $0.write($0.nextParameter)
            default:
                $0.write(negated ? " NOT IN (" : " IN (")
                $0.writeParameters(forms.count)
                $0.write(")")
            }
        }
        arguments.append(contentsOf: forms)
    }

    /// `operand IN (?, ...)` over every stored form of every value; `0` (or `1` negated) for an empty list,
    /// as SQLite evaluates an empty `IN ()`; JSON arrays read with `json_each` beyond ``jsonListThreshold``.
    private mutating func list(
        _ operand: ExpressionNode, _ values: [QueryValue], negated: Bool, _ precedence: Int
    ) throws {
        let name = columnName(in: operand)
        var forms: [Binding.Arguments.BoundValue] = []
        forms.reserveCapacity(values.count)
        for value in values {
            let valueForms = try binding.forms(of: value, column: name)
            if valueForms.isEmpty { forms.append(Binding.Arguments.null) } else { forms += valueForms }
        }
        if forms.isEmpty {
            tokens.append(.count(0))
            // The operand is still walked, so that its columns are checked, then left out with its values.
            let (savedSQL, savedArguments) = (sql, arguments)
            try expression(operand, 5, context: name)
            (sql, arguments) = (savedSQL, savedArguments)
            // PostgreSQL's WHERE takes a boolean, not SQLite's 0 and 1.
            write(dialect == .postgres ? (negated ? "TRUE" : "FALSE") : (negated ? "1" : "0"))
            return
        }
        if forms.count > Self.jsonListThreshold {
            let form = try binding.longList(forms, column: name)
            if case .array(let array) = form {
                tokens.append(.count(-3))
                // `NOT (e = ANY(...))` rather than `e <> ALL(...)`: a NULL in the array then leaves every row
                // out, as `NOT IN` with a NULL does.
                try parenthesized(negated ? 3 : 4, precedence) {
                    if negated { $0.write("NOT (") }
                    try $0.expression(operand, 5, context: name)
                    $0.write(" = ANY(" + $0.nextParameter + ")")
                    if negated { $0.write(")") }
                }
                arguments.append(array)
                return
            }
            guard case .json(let scalars, let blobs, let nulTexts) = form else { return }
            tokens.append(.count(nulTexts == nil ? -1 : -2))
            // Values are appended in the order their parameters are written: the operand may hold some.
            try parenthesized(negated ? 3 : 1, precedence) {
                if negated { $0.write("NOT ") }
                $0.write("(")
                try $0.expression(operand, 5, context: name)
                // `+value`, an expression of no affinity, not the column `value`: the operand's affinity then
                // applies to the values as it does to `IN (?, ...)`'s parameters (a TEXT column matches the
                // integer 1 as '1'). See <https://www.sqlite.org/datatype3.html#affinity_of_expressions>.
                $0.write(" IN (SELECT +value FROM json_each(?))")
                $0.arguments.append(sqlite: .text(scalars))
                $0.write(" OR (typeof(")
                try $0.expression(operand, 0, context: name)
                $0.write(") = 'blob' AND hex(")
                try $0.expression(operand, 0, context: name)
                $0.write(") IN (SELECT value FROM json_each(?)))")
                $0.arguments.append(sqlite: .text(blobs))
                if let nulTexts {
                    $0.write(" OR (typeof(")
                    try $0.expression(operand, 0, context: name)
                    $0.write(") = 'text' AND ")
                    try $0.nulTextTerm(operand, name: name, texts: nulTexts.stored, folded: nulTexts.folded)
                    $0.write(")")
                }
                $0.write(")")
            }
            return
        }
        tokens.append(.count(forms.count))
        if Self.anyHoldsNUL(forms) {
            return try nulList(operand, forms, name: name, negated: negated, precedence)
        }
        try parenthesized(4, precedence) {
            try $0.expression(operand, 5, context: name)
            $0.write(negated ? " NOT IN (" : " IN (")
            $0.writeParameters(forms.count)
            $0.write(")")
        }
        arguments.append(contentsOf: forms)
    }

    /// Writes `node` alone, as a condition (the ON clause of a join).
    /// - Throws: what ``RequestBinding/forms(of:column:)`` throws.
    mutating func condition(_ node: ExpressionNode) throws {
        try expression(node, 3, context: nil)
    }

    /// Writes the filter of `parts` alone, as a condition (the ON clause of a join); nothing when it has none.
    /// - Throws: what ``RequestBinding/forms(of:column:)`` throws.
    package mutating func condition(of parts: RequestParts) throws {
        guard let filter = parts.filter else { return }
        try condition(filter)
    }

    // MARK: Text

    /// The column's name, recorded in the shape and (while writing) written quoted.
    private mutating func column(_ column: Column) -> String {
        let name = binding.name(of: column)
        tokens.append(.name(name))
        if isWriting {
            columns.append(name)
            if let qualifier { sql += SQLIdentifier.quoted(qualifier) + "." }
            sql += SQLIdentifier.quoted(name)
        }
        return name
    }

    /// The name of the first column in `node`, the column a value beside it is compared with.
    mutating func columnName(in node: ExpressionNode) -> String? {
        node.firstColumn.map { binding.name(of: $0) }
    }

    mutating func write(_ text: String) {
        if isWriting { sql += text }
    }

    mutating func writeParameters(_ count: Int) {
        guard isWriting else { return }
        guard dialect == .sqlite else {
            sql += dialect.parameters(from: arguments.count + 1, count: count)
            return
        }
        sql += "?"
        for _ in 1..<count { sql += ", ?" }
    }

    /// The parameter of the next value appended to ``arguments``: `?`, or `$n` on PostgreSQL.
    var nextParameter: String {
        dialect == .sqlite ? "?" : dialect.parameter(arguments.count + 1)
    }

    /// `text` with each `$n` parameter outside quotes moved past the `count` values bound before it: SQL of
    /// the caller's own numbers its parameters from `$1`, as a statement of its own would.
    static func renumbered(_ text: String, after count: Int) -> String {
        guard count > 0, text.contains("$") else { return text }
        var result = ""
        var quote: Character?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "$" {
                var end = text.index(after: index)
                while end < text.endIndex, text[end].isASCII, text[end].isNumber { end = text.index(after: end) }
                if end > text.index(after: index), let number = Int(text[text.index(after: index)..<end]) {
                    result += "$" + String(number + count)
                    index = end
                    continue
                }
            }
            result.append(character)
            index = text.index(after: index)
        }
        return result
    }

    /// Runs `body` between parentheses when an operator of `inner` precedence sits where `outer` is needed.
    mutating func parenthesized(
        _ inner: Int, _ outer: Int, _ body: (inout Self) throws -> Void
    ) throws {
        let needs = inner < outer
        if needs { write("(") }
        try body(&self)
        if needs { write(")") }
    }
}

extension ExpressionNode {
    /// The first column in the expression, depth first: the column a value beside it is compared with.
    var firstColumn: Column? {
        switch self {
        case .column(let column): return column
        case .value, .literal, .null, .countAll, .subquery: return nil
        case .textMatch(let operand, _, _, _): return operand.firstColumn
        case .unary(_, let operand), .isNull(let operand, _), .list(let operand, _, _), .collate(let operand, _),
            .alias(let operand, _), .between(let operand, _, _, _), .like(let operand, _, _, _):
            return operand.firstColumn
        case .binary(_, let left, let right): return left.firstColumn ?? right.firstColumn
        case .function(_, let operands, _): return operands.lazy.compactMap(\.firstColumn).first
        }
    }
}
