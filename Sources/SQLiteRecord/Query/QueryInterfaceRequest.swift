/// A request for the rows of a record type's table: what to filter, sort, group and select, built as a
/// value and run when asked. Every identifier is quoted and every value bound.
///
/// Start from the record type (``Record/all()``, ``Record/filter(_:)``, ``Record/order(_:)``, ...), refine,
/// then run it: `fetch`, `fetchOne`, `count`, `exists`, `fetchCursor`, `deleteAll`, `updateAll`, each with a
/// `Database`, through the default store, or `async`.
///
/// ```swift
/// let request = City.filter(Column("population") > 1_000_000).order(Column("name").ascending).limit(10)
/// let cities = try request.fetch(db)
/// // SELECT * FROM "cities" WHERE "population" > ? ORDER BY "name" ASC LIMIT ?
/// ```
///
/// The SQL a request's shape needs (everything but its values) is built once per connection and its
/// statement prepared once; running the same shape again binds new values to the cached statement.
public struct QueryInterfaceRequest<Base: Record>: Sendable {
    /// The selected expressions; empty for `*`.
    var selection: [ExpressionNode] = []
    /// True when the request selects `*`, the table's own columns, rather than a selection of its own:
    /// where a record's Optional key with no column is an error, not nil.
    package var selectsTableColumns: Bool { selection.isEmpty }
    /// The full-text index a search request reads: the FTS5 table on SQLite, the `tsvector` column of the
    /// record's table on PostgreSQL; nil for a request that does not search.
    package var fullTextIndexName: String? { fullTextSearch?.table }
    var isDistinct = false
    var filter: ExpressionNode?
    var grouping: [ExpressionNode] = []
    var havingFilter: ExpressionNode?
    var orderings: [SQLOrdering] = []
    var limitCount: Int?
    var offsetCount: Int?
    /// The full-text search, when the request is one (``FullTextSearchable/matching(_:)``).
    var fullTextSearch: FullTextSearchPart?
    /// The association whose children the request reads (a parent's `request(for:)`), whose foreign key
    /// column, when the table lacks it, is reported as the association's error (see ``linkError(_:)``).
    var childLink: AssociationLink?

    init() {}

    /// `error`, or for a foreign key column of ``childLink`` that the table lacks, the error the association's
    /// own check gives: ``RecordError/invalidAssociation(association:reason:)``, which says to name the column
    /// with `using:`. Each engine passes the error of its column check through this.
    package func linkError(_ error: any Error) -> any Error {
        guard let link = childLink, case RecordError.unknownColumn(let table, let column, let columns) = error,
            link.foreignKeys.contains(where: { RowLayout.asciiLowercased($0) == RowLayout.asciiLowercased(column) })
        else { return error }
        return RecordError.invalidAssociation(
            association: link.description,
            reason: AssociationLink.missingColumnReason(column, table: table, columns: columns, isForeignKey: true))
    }

    /// Rows that also match `predicate` (ANDed with the filters so far).
    public func filter(_ predicate: some SQLExpressible) -> Self {
        var request = self
        request.filter = filter.map { .binary(.and, $0, predicate.sqlExpression.node) } ?? predicate.sqlExpression.node
        return request
    }

    /// Rows that also match SQL of your own, with its arguments bound: `filter(sql: "population > ?",
    /// arguments: [1_000])`. The fragment is put in parentheses; its column names are neither checked nor
    /// quoted.
    public func filter(sql: String, arguments: StatementArguments = []) -> Self {
        filter(SQLExpression(sql: sql, arguments: arguments))
    }

    /// Sorted by `orderings`, in order of precedence, replacing any order set before.
    public func order(_ orderings: any SQLOrderingTerm...) -> Self {
        order(orderings)
    }

    /// Sorted by `orderings`, in order of precedence, replacing any order set before.
    public func order(_ orderings: [any SQLOrderingTerm]) -> Self {
        var request = self
        request.orderings = orderings.map(\.sqlOrdering)
        return request
    }

    /// At most `limit` rows, after skipping `offset` (SQL's `LIMIT ? OFFSET ?`).
    public func limit(_ limit: Int, offset: Int? = nil) -> Self {
        var request = self
        request.limitCount = limit
        request.offsetCount = offset
        return request
    }

    /// Selects `expressions` instead of every column (`*`): decode them with `fetch(_:as:)` into a type of
    /// your own, naming each with ``SQLExpressible/forKey(_:)-(String)`` where a coding key needs it.
    public func select(_ expressions: any SQLExpressible...) -> Self {
        select(expressions)
    }

    /// Selects `expressions` instead of every column (`*`).
    public func select(_ expressions: [any SQLExpressible]) -> Self {
        var request = self
        request.selection = expressions.map(\.sqlExpression.node)
        return request
    }

    /// Each selected row once (`SELECT DISTINCT`).
    public func distinct() -> Self {
        var request = self
        request.isDistinct = true
        return request
    }

    /// Groups rows by `expressions` (`GROUP BY`), for aggregates in the selection.
    public func group(_ expressions: any SQLExpressible...) -> Self {
        var request = self
        request.grouping = expressions.map(\.sqlExpression.node)
        return request
    }

    /// Keeps the groups that match `predicate` (`HAVING`, ANDed with the ones so far).
    public func having(_ predicate: some SQLExpressible) -> Self {
        var request = self
        let node = predicate.sqlExpression.node
        request.havingFilter = havingFilter.map { .binary(.and, $0, node) } ?? node
        return request
    }
}

extension QueryInterfaceRequest {
    /// The request without its limit and offset (an eager load applies the limit per parent).
    package var unlimited: Self {
        var request = self
        request.limitCount = nil
        request.offsetCount = nil
        return request
    }

    /// The `where:` dictionary as ANDed equalities in column-name order, so equal dictionaries give equal
    /// SQL; `forms` as ``FilterValue`` made them (a UUID in its three forms, nil as NULL).
    func filter(equalities: [String: FilterValue]) -> Self {
        var node: ExpressionNode?
        for column in equalities.keys.sorted() {
            let term = ExpressionNode.binary(
                .equal, .column(Column(column)), .value(.forms(equalities[column]?.forms ?? [])))
            node = node.map { .binary(.and, $0, term) } ?? term
        }
        guard let node else { return self }
        var request = self
        request.filter = filter.map { .binary(.and, $0, node) } ?? node
        return request
    }
    /// The typed-key `where:` dictionary as ANDed equalities in the order of the keys' string values: each
    /// coding key's column (through the record type's key strategy) equal to its value, encoded when the
    /// request runs as the operator `==` encodes one; nil as `IS NULL`.
    func filter(codingKeyEqualities conditions: [(key: String, value: (any Encodable & Sendable)?)]) -> Self {
        var node: ExpressionNode?
        for (key, value) in conditions.sorted(by: { $0.key < $1.key }) {
            let term = ExpressionNode.binary(
                .equal, .column(Column(codingKeyName: key)), .value(value.map { .encodable($0) } ?? .forms([])))
            node = node.map { .binary(.and, $0, term) } ?? term
        }
        guard let node else { return self }
        var request = self
        request.filter = filter.map { .binary(.and, $0, node) } ?? node
        return request
    }
}
