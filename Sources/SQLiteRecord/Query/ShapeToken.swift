/// One piece of a request's shape: what its SQL text depends on, everything but the values.
///
/// ``RequestCompiler`` walks a request once and appends tokens as it goes; two requests on one record type
/// share a cached SQL text exactly when their token lists are equal. So the rule is: **every choice the
/// compiler makes that changes the SQL text appends a token that names it**, and a choice that changes only
/// the bound values appends none.
/// - a fixed piece of syntax (a clause, `IS NULL`, `BETWEEN`) is a ``ShapePart``;
/// - an operator or a function is its own case, carrying which one;
/// - a name that is written into the text (table, column, alias, collation, literal SQL, a subquery's SQL)
///   is ``name(_:)``;
/// - a length that changes the text (a selection, an ORDER BY list, the parameters of `IN (?, ?)`) is
///   ``count(_:)``.
///
/// Tokens are positional: a list's count comes before its items, so that `a, b` and `ab` never compare equal.
enum ShapeToken: Hashable {
    case statement(RequestStatement)
    case part(ShapePart)
    case unary(UnaryOperator)
    case binary(BinaryOperator)
    case function(SQLFunction)
    case ordering(descending: Bool, nulls: SQLOrdering.NullsPosition?)
    case name(String)
    case count(Int)
}

/// The fixed pieces of SQL syntax a request's shape records (see ``ShapeToken``).
enum ShapePart: UInt8, Hashable {
    /// A bound value: `?`.
    case value
    /// Literal SQL, followed by its text as a ``ShapeToken/name(_:)``.
    case literal
    case null
    /// `count(*)`.
    case countAll
    /// An alias outside a selection, followed by its name.
    case alias
    /// A subquery, followed by its SQL as a name.
    case subquery
    case isNull, isNotNull
    case inList, notInList
    case between, notBetween
    case like, likeEscaped, notLike, notLikeEscaped
    /// `COLLATE`, followed by the collation's name.
    case collate
    /// An equality or list whose text holds U+0000, compared past it (``RequestCompiler/exactEquality(_:_:name:negated:_:)``);
    /// for a list, followed by the counts of its other values and of its texts that hold U+0000.
    case exactNUL
    /// A LIKE of the caller's own pattern judged on the whole stored text (``RequestCompiler/exactLike(_:_:negated:_:)``),
    /// followed by a count: 1 with its prefix term, 0 without.
    case exactLike
    case whereClause
    case groupBy
    case having
    /// A full-text search's ORDER BY rank, when the request orders by nothing else.
    case orderByRank
    case limit
    case offset
    /// The join on a full-text index, followed by the index's table name.
    case searchJoin
    case highlight
    case snippet
}
