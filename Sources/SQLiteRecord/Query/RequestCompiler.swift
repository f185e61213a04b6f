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
    package internal(set) var sql = ""
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

    var dialect: SQLDialect { Binding.dialect }

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
    ///   ``RecordError/identifierTooLong(table:identifier:bytes:limit:)`` for a table, column or alias name
    ///   longer than the dialect keeps, and what ``RequestBinding/forms(of:column:)`` throws.
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
                    try assignedValue(assignment.value, column: name)
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
        // Every name is known once the SQL is written: a shape with one over the limit is never kept.
        if isWriting, dialect.maxIdentifierBytes != nil {
            try dialect.checkIdentifiers([table] + columns + aliases, table: table)
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

    // MARK: Text

    /// The column's name, recorded in the shape and (while writing) written quoted.
    mutating func column(_ column: Column) -> String {
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
