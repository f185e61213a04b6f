/// What the Record layer supplies to compile a request: the table's names and the values as its record type
/// stores them.
protocol RequestBinding {
    /// The column's name in the table (a coding key through the type's key strategy).
    mutating func name(of column: Column) -> String
    /// `value` as the stored forms that count as equal to it, compared with `column` (named in errors):
    /// empty for NULL, one form, or several for a UUID.
    /// - Throws: ``RecordError/invalidQueryValue(table:column:type:reason:)`` for a value that is not one
    ///   column's value.
    mutating func forms(of value: QueryValue, column: String?) throws -> [SQLiteValue]
}

/// What a compiled request's statement does.
enum RequestStatement: UInt8 {
    case select, count, exists, delete, update
}

/// A request made into SQL: one walk binds its values and records its shape; the SQL text is written in
/// the same walk only when the shape is new (``isWriting``), so that a request run again with other values
/// costs no string building. Identifiers are quoted by ``SQLIdentifier``; values are bound.
struct RequestCompiler<Binding: RequestBinding> {
    /// A list longer than this many values is bound as JSON arrays (see ``SQLExpressible/in(_:)``): SQLite
    /// limits the bound values of a statement (999 on builds older than 3.32), and every list length would
    /// otherwise be a statement of its own in the cache.
    static var jsonListThreshold: Int { 512 }

    var binding: Binding
    let table: String
    /// True when the SQL text is written; false when only the shape and arguments are wanted.
    let isWriting: Bool
    private(set) var sql = ""
    private(set) var tokens: [ShapeToken] = []
    private(set) var arguments = StatementArguments()
    /// Every column name the request uses, in order (recorded only while writing), for the check against
    /// the table.
    private(set) var columns: [String] = []
    /// The selection's aliases, which ORDER BY and HAVING may name as columns.
    private(set) var aliases: [String] = []
    /// The table written before every column (`"cities"."name"`), for a request that joins another table
    /// whose columns may have the same names; nil writes bare column names.
    var qualifier: String?
    /// A JOIN written after `FROM "table"`, with its own arguments, and what it adds to a `*` selection
    /// (see ``AssociationJoin``).
    var join: (sql: String, selection: String, arguments: StatementArguments)?

    init(binding: Binding, table: String, isWriting: Bool) {
        self.binding = binding
        self.table = table
        self.isWriting = isWriting
        tokens.reserveCapacity(16)
        arguments.values.reserveCapacity(8)
        if isWriting { sql.reserveCapacity(128) }
    }

    // MARK: Statements

    /// Compiles `parts` as `statement`. `keyColumns` names the columns that find a row (nil: the rowid),
    /// asked for only when a delete or update has a LIMIT.
    /// - Throws: ``RecordError/invalidQuery(table:reason:)`` for a delete or update of a grouped request,
    ///   and what ``RequestBinding/forms(of:column:)`` throws.
    mutating func compile(
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
                write(")")
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
        write(parts.isDistinct ? "SELECT DISTINCT " : "SELECT ")
        tokens.append(.count(parts.selection.count))
        if parts.search?.excerpt != nil {
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
        if let search = parts.search { try searchJoin(search) }
        if let join {
            tokens.append(.name(join.sql))
            write(join.sql)
            arguments.values += join.arguments.values
        }
        try whereClause(parts.filter)
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
            arguments.values += [.integer(Int64(index)), .text(excerpt.open), .text(excerpt.close)]
            switch excerpt.kind {
            case .highlight:
                tokens.append(.part(.highlight))
                write(", highlight(" + fts + ", ?, ?, ?)")
            case .snippet(let ellipsis, let count):
                tokens.append(.part(.snippet))
                write(", snippet(" + fts + ", ?, ?, ?, ?, ?)")
                arguments.values += [.text(ellipsis), .integer(Int64(count))]
            }
            write(" AS " + SQLIdentifier.quoted(FullTextSearchPart.excerptColumn))
        }
        write(" FROM " + fts + " WHERE " + fts + " MATCH ?) AS " + SQLIdentifier.quoted(FullTextSearchPart.alias))
        arguments.values.append(.text(search.pattern))
        write(" ON " + SQLIdentifier.quoted(table) + ".rowid = " + searchColumn(FullTextSearchPart.rowIDColumn))
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
            if let nulls = ordering.nulls { write(nulls == .first ? " NULLS FIRST" : " NULLS LAST") }
        }
    }

    /// `LIMIT ?` and `OFFSET ?`, bound: SQLite needs a LIMIT before an OFFSET, and a negative limit is none.
    private mutating func limitClause(_ parts: RequestParts) {
        if parts.limit != nil || parts.offset != nil {
            tokens.append(.part(.limit))
            write(" LIMIT ?")
            arguments.values.append(.integer(Int64(parts.limit ?? -1)))
        }
        if let offset = parts.offset {
            tokens.append(.part(.offset))
            write(" OFFSET ?")
            arguments.values.append(.integer(Int64(offset)))
        }
    }

    // MARK: Expressions

    /// Appends `node`, in parentheses when it binds less tightly than `precedence` asks. `context` is the
    /// column a value in it is compared with, for the encoder and for errors.
    private mutating func expression(_ node: ExpressionNode, _ precedence: Int, context: String?) throws {
        switch node {
        case .column(let column):
            _ = self.column(column)
        case .value(let value):
            tokens.append(.part(.value))
            let forms = try binding.forms(of: value, column: context)
            write("?")
            arguments.values.append(forms.first ?? .null)
        case .literal(let text, let literalArguments):
            tokens.append(.part(.literal))
            tokens.append(.name(text))
            write("(" + text + ")")
            arguments.values += literalArguments.values
            for (name, value) in literalArguments.namedValues { arguments.namedValues[name] = value }
            if arguments.conversionFailure == nil { arguments.conversionFailure = literalArguments.conversionFailure }
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
            try pattern.checkLikePatternHoldsNoNUL(column: name, table: table)
            try parenthesized(4, precedence) {
                try $0.expression(operand, 5, context: context)
                $0.write(negated ? " NOT LIKE " : " LIKE ")
                try $0.expression(pattern, 5, context: name)
                if escaped { $0.write(" ESCAPE '\\'") }
            }
        case .collate(let operand, let collation):
            tokens.append(.part(.collate))
            tokens.append(.name(collation))
            try expression(operand, 11, context: context)
            write(" COLLATE " + SQLIdentifier.quoted(collation))
        case .function(let function, let operands, let distinct):
            tokens.append(.function(function))
            tokens.append(.count(distinct ? -operands.count : operands.count))
            write(function.name + (distinct ? "(DISTINCT " : "("))
            for (index, operand) in operands.enumerated() {
                if index > 0 { write(", ") }
                try expression(operand, 0, context: context)
            }
            write(")")
        case .subquery(let subquery):
            // Its SQL is its shape: written every time (it is short), recorded as a name.
            let (text, subqueryArguments) = try subquery.compile()
            tokens.append(.part(.subquery))
            tokens.append(.name(subquery.prefix + text))
            write(subquery.prefix + text)
            arguments.values += subqueryArguments.values
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
        try parenthesized(4, precedence) {
            try $0.expression(left, 5, context: name)
            switch forms.count {
            case 0:
                $0.write(negated ? " IS NOT NULL" : " IS NULL")
            case 1:
                $0.write(negated ? " <> ?" : " = ?")
            default:
                $0.write(negated ? " NOT IN (" : " IN (")
                $0.writeParameters(forms.count)
                $0.write(")")
            }
        }
        arguments.values += forms
    }

    /// `operand IN (?, ...)` over every stored form of every value; `0` (or `1` negated) for an empty list,
    /// as SQLite evaluates an empty `IN ()`; JSON arrays read with `json_each` beyond ``jsonListThreshold``.
    private mutating func list(
        _ operand: ExpressionNode, _ values: [QueryValue], negated: Bool, _ precedence: Int
    ) throws {
        let name = columnName(in: operand)
        var forms: [SQLiteValue] = []
        forms.reserveCapacity(values.count)
        for value in values {
            let valueForms = try binding.forms(of: value, column: name)
            if valueForms.isEmpty { forms.append(.null) } else { forms += valueForms }
        }
        if forms.isEmpty {
            tokens.append(.count(0))
            // The operand is still walked, so that its columns are checked, then left out with its values.
            let (savedSQL, savedArguments) = (sql, arguments)
            try expression(operand, 5, context: name)
            (sql, arguments) = (savedSQL, savedArguments)
            write(negated ? "1" : "0")
            return
        }
        if forms.count > Self.jsonListThreshold {
            let (scalars, blobs, nulTexts) = JSONList.arrays(forms)
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
                $0.arguments.values.append(.text(scalars))
                $0.write(" OR (typeof(")
                try $0.expression(operand, 0, context: name)
                $0.write(") = 'blob' AND hex(")
                try $0.expression(operand, 0, context: name)
                $0.write(") IN (SELECT value FROM json_each(?)))")
                $0.arguments.values.append(.text(blobs))
                if let nulTexts {
                    $0.write(" OR (typeof(")
                    try $0.expression(operand, 0, context: name)
                    $0.write(") = 'text' AND hex(")
                    try $0.expression(operand, 0, context: name)
                    $0.write(") IN (SELECT value FROM json_each(?)))")
                    $0.arguments.values.append(.text(nulTexts))
                }
                $0.write(")")
            }
            return
        }
        tokens.append(.count(forms.count))
        try parenthesized(4, precedence) {
            try $0.expression(operand, 5, context: name)
            $0.write(negated ? " NOT IN (" : " IN (")
            $0.writeParameters(forms.count)
            $0.write(")")
        }
        arguments.values += forms
    }

    /// Writes `node` alone, as a condition (the ON clause of a join).
    /// - Throws: what ``RequestBinding/forms(of:column:)`` throws.
    mutating func condition(_ node: ExpressionNode) throws {
        try expression(node, 3, context: nil)
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
    private mutating func columnName(in node: ExpressionNode) -> String? {
        node.firstColumn.map { binding.name(of: $0) }
    }

    private mutating func write(_ text: String) {
        if isWriting { sql += text }
    }

    private mutating func writeParameters(_ count: Int) {
        guard isWriting else { return }
        sql += "?"
        for _ in 1..<count { sql += ", ?" }
    }

    /// Runs `body` between parentheses when an operator of `inner` precedence sits where `outer` is needed.
    private mutating func parenthesized(
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
        case .unary(_, let operand), .isNull(let operand, _), .list(let operand, _, _), .collate(let operand, _),
            .alias(let operand, _), .between(let operand, _, _, _), .like(let operand, _, _, _):
            return operand.firstColumn
        case .binary(_, let left, let right): return left.firstColumn ?? right.firstColumn
        case .function(_, let operands, _): return operands.lazy.compactMap(\.firstColumn).first
        }
    }
}
