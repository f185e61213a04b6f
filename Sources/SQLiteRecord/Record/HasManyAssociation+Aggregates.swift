/// Parents filtered and sorted by their children: `Country.filter(Country.cities.filter(...).exists)`,
/// `Country.select(Column("name"), Country.cities.count.forKey("cityCount"))`. Each is a correlated
/// subquery on the child table, so it goes wherever an expression of the parent's request goes.
extension HasManyAssociation {
    /// True for a parent with at least one child that matches the association's filter:
    /// `EXISTS (SELECT 1 FROM "cities" WHERE "cities"."country_id" = "countries"."id" AND (...))`.
    ///
    /// ```swift
    /// let megacityCountries = try Country.filter(Country.cities.filter(Column("population") > 10_000_000).exists)
    ///     .fetch(db)
    /// ```
    public var exists: SQLExpression { link.subquery("EXISTS (SELECT 1", over: request) }

    /// The number of a parent's children that match the association's filter:
    /// `(SELECT count(*) FROM "cities" WHERE "cities"."country_id" = "countries"."id" AND (...))`.
    ///
    /// ```swift
    /// struct CountryCount: Decodable { var name: String; var cityCount: Int }
    /// let counts = try Country.select(Column("name"), Country.cities.count.forKey("cityCount"))
    ///     .order(Country.cities.count.descending).fetch(db, as: CountryCount.self)
    /// ```
    public var count: SQLExpression { link.subquery("(SELECT count(*)", over: request) }
}

/// A correlated subquery on an association's child table, made into SQL when its request is compiled:
/// ``HasManyAssociation/exists`` and ``HasManyAssociation/count``.
struct AssociationSubquery: Sendable {
    /// `EXISTS (SELECT 1` or `(SELECT count(*)`.
    let prefix: String
    /// The rest of the SQL with its arguments, or why it could not be made.
    let body: Result<(String, StatementArguments), any Error>
    /// The same in PostgreSQL's spelling (`$1`, numbered from 1), its values bound as text of no declared
    /// type but for the arrays among them (in the order of its arguments); nil for a subquery written only in
    /// SQLite's, which PostgreSQL takes when it binds no value.
    var postgresBody: Result<(String, StatementArguments, [PostgresSubqueryArray]), any Error>? = nil

    /// The rest of the SQL with its arguments.
    /// - Throws: what compiling the association's filter threw.
    func compile() throws -> (String, StatementArguments) { try body.get() }
}

extension AssociationLink {
    /// `prefix` followed by ``subqueryBody(_:)`` over `children`: the `EXISTS` and `count(*)` expressions
    /// of ``HasManyAssociation`` and ``HasOneAssociation``. A filter that does not compile throws when the
    /// outer request is compiled.
    func subquery<Child: Record>(_ prefix: String, over children: QueryInterfaceRequest<Child>) -> SQLExpression {
        SQLExpression(.subquery(AssociationSubquery(prefix: prefix, body: Result { try subqueryBody(children) })))
    }

    /// ` FROM "child" WHERE "child"."fk" = "parent"."key" AND (filter))` (every pair of columns equal, for a
    /// link of several), with the filter's arguments: the
    /// body of a subquery on the children of the parent row the outer query is on.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` for a link whose column counts differ,
    ///   or what compiling `children`'s filter throws (a value that does not encode).
    func subqueryBody<Child: Record>(_ children: QueryInterfaceRequest<Child>) throws -> (String, StatementArguments) {
        if isComposite { try checkColumnCounts() }
        var sql = RecordSQL.correlatedFrom(childTable, where: joinCondition(childTable, parentTable))
        guard let filter = children.filter else { return (sql + ")", []) }
        var compiler = RequestCompiler(binding: RecordRequestBinding<Child>(), table: childTable, isWriting: true)
        compiler.qualifier = childTable
        try compiler.condition(filter)
        sql += " AND (" + compiler.sql + "))"
        return (sql, compiler.arguments)
    }
}

extension AssociationLink {
    /// `"child"."fk" = "parent"."key"`, ANDed over every pair of columns of a link of several:
    /// `"cities"."country_code" = "regions"."country_code" AND "cities"."admin1_code" = "regions"."code"`. The
    /// tables are named as `child` and `parent` (the tables themselves, or their aliases).
    package func joinCondition(_ child: String, _ parent: String) -> String {
        let child = SQLIdentifier.quoted(child) + "."
        let parent = SQLIdentifier.quoted(parent) + "."
        return zip(foreignKeys, parentKeys).map { foreignKey, parentKey in
            child + SQLIdentifier.quoted(foreignKey) + " = " + parent + SQLIdentifier.quoted(parentKey)
        }.joined(separator: " AND ")
    }
}
