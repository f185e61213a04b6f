/// Records filtered by what they reach through another table: `Book.filter(Book.tags.filter(...).exists)`, a
/// correlated `EXISTS` subquery over the pivot table joined with the target table. Both tables are written
/// under aliases of their own (`"#pivot"`, `"#target"`), so that a path through the origin's own table (people
/// who follow people) compares the right rows.
extension ThroughPath {
    /// The alias of the pivot table, and of the target table, in the subquery.
    static var pivotAlias: String { "#pivot" }
    static var targetAlias: String { "#target" }

    /// `EXISTS (SELECT 1 FROM "pivot" AS "#pivot" JOIN "target" AS "#target" ON ... WHERE ... AND (...))`, for
    /// the outer request on `Origin`'s table, in SQLite's spelling and in PostgreSQL's.
    func exists<Origin: Record>(from origin: Origin.Type) -> SQLExpression {
        SQLExpression(
            .subquery(
                AssociationSubquery(
                    prefix: "EXISTS (SELECT 1",
                    body: Result {
                        let (sql, arguments, _) = try subqueryBody(Origin.tableName, .sqlite)
                        return (sql, arguments)
                    },
                    postgresBody: Result { try subqueryBody(Origin.tableName, .postgres) })))
    }

    /// The subquery after its `SELECT 1`, with the filters' arguments: the pivot step's filter, then the
    /// target's; and, on PostgreSQL, the arrays among them (``PostgresSubqueryArray``).
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` when the steps do not chain or a
    ///   link's column counts differ; what compiling a filter throws.
    private func subqueryBody(
        _ originTable: String, _ dialect: SQLDialect
    ) throws -> (String, StatementArguments, [PostgresSubqueryArray]) {
        try checkChain()
        for step in [pivot, target] where step.link.isComposite { try step.link.checkColumnCounts() }
        let pivotAlias = SQLIdentifier.quoted(Self.pivotAlias)
        let targetAlias = SQLIdentifier.quoted(Self.targetAlias)
        var sql =
            " FROM " + SQLIdentifier.quoted(pivot.destinationTable) + " AS " + pivotAlias + " JOIN "
            + SQLIdentifier.quoted(target.destinationTable) + " AS " + targetAlias + " ON "
            + target.joinCondition(origin: Self.pivotAlias, destination: Self.targetAlias) + " WHERE "
            + pivot.joinCondition(origin: originTable, destination: Self.pivotAlias)
        var arguments = StatementArguments()
        var arrays: [PostgresSubqueryArray] = []
        if let (filter, filterArguments, filterArrays) = try pivot.filterSQL(Self.pivotAlias, dialect) {
            sql += " AND (" + filter + ")"
            arguments.values += filterArguments.values
            arrays += filterArrays
        }
        if let filter = request.filter {
            let text: String
            let values: [SQLiteValue]
            if dialect == .postgres {
                var compiler = RequestCompiler(
                    binding: PostgresSpelledBinding(
                        RecordRequestBinding<Destination>(), table: target.destinationTable),
                    table: target.destinationTable, isWriting: true)
                compiler.qualifier = Self.targetAlias
                try compiler.condition(filter)
                // The target's `$n` follow the pivot filter's.
                text = RequestCompiler<PostgresSpelledBinding<Destination>>.renumbered(
                    compiler.sql, after: arguments.values.count)
                values = compiler.arguments.values
                arrays += compiler.binding.arrays
            } else {
                var compiler = RequestCompiler(
                    binding: RecordRequestBinding<Destination>(), table: target.destinationTable, isWriting: true)
                compiler.qualifier = Self.targetAlias
                try compiler.condition(filter)
                text = compiler.sql
                values = compiler.arguments.values
            }
            sql += " AND (" + text + ")"
            arguments.values += values
        }
        return (sql + ")", arguments, arrays)
    }
}
