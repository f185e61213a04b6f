// The expressions of a compiled request: columns, values, operators, lists and functions, in the dialect's
// SQL, each value bound as the column beside it stores it.

extension RequestCompiler {
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
            // PostgreSQL's `total` is `coalesce(sum(x), 0)` (0 for no rows); `avg` and `total` read their
            // operands as DOUBLE PRECISION there, so that both are a Double on every engine.
            let isTotal = dialect == .postgres && function == .total
            let cast = dialect.aggregateOperandCast(of: function)
            write(dialect.functionName(function))
            write(distinct ? "(DISTINCT " : "(")
            for (index, operand) in operands.enumerated() {
                if index > 0 { write(", ") }
                if let cast {
                    write("CAST(")
                    try expression(operand, 0, context: context)
                    write(" AS " + cast + ")")
                } else {
                    try expression(operand, 0, context: context)
                }
            }
            write(isTotal ? "), 0)" : ")")
        case .subquery(let subquery):
            // Its SQL is its shape: written every time (it is short), recorded as a name.
            if dialect == .postgres, let postgresBody = subquery.postgresBody {
                // Numbered from $1 by its own compiler: moved past the values bound before it. Each value is
                // text of no declared type, which the server reads as the type of the column beside it, but an
                // array, which the binding may bind as its column takes it (a PostgreSQL array into an array
                // column): the arrays come in the order of the arguments, each matched by its form.
                let (text, subqueryArguments, arrays) = try postgresBody.get()
                let renumbered = Self.renumbered(text, after: arguments.count)
                tokens.append(.part(.subquery))
                tokens.append(.name(subquery.prefix + renumbered))
                write(subquery.prefix + renumbered)
                var nextArray = arrays.startIndex
                for value in subqueryArguments.values {
                    if nextArray < arrays.endIndex, arrays[nextArray].form == value {
                        let array = arrays[nextArray]
                        nextArray += 1
                        if let form = try binding.subqueryArrayForm(array) {
                            arguments.append(form)
                            continue
                        }
                    }
                    arguments.append(sqlite: value.untypedText)
                }
                return
            }
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
            if case .slices(let elements, let lowers, let uppers) = form {
                tokens.append(.count(-4))
                // Three values however many arrays: `operand IN (SELECT $1[lower:upper] FROM unnest($2, $3))`.
                try parenthesized(negated ? 3 : 4, precedence) {
                    if negated { $0.write("NOT (") }
                    try $0.expression(operand, 5, context: name)
                    $0.write(" IN (SELECT " + $0.nextParameter)
                    $0.arguments.append(elements)
                    $0.write("[\"#slice\".\"lower\":\"#slice\".\"upper\"] FROM unnest(" + $0.nextParameter)
                    $0.arguments.append(lowers)
                    $0.write(", " + $0.nextParameter)
                    $0.arguments.append(uppers)
                    $0.write(") AS \"#slice\"(\"lower\", \"upper\"))")
                    if negated { $0.write(")") }
                }
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
