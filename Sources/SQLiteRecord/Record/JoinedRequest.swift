/// A request for records with their parent (``BelongsToAssociation``) or their one child
/// (``HasOneAssociation``), in one query that joins the other table, made by
/// ``QueryInterfaceRequest/including(required:)->JoinedRequest<Base,Parent>`` and
/// ``QueryInterfaceRequest/including(optional:)->JoinedRequest<Base,Parent>`` (and their has-one twins).
///
/// ```swift
/// struct CityWithCountry: Decodable {
///     var city: City
///     var country: Country
/// }
/// let rows = try City.filter(Column("population") > 10_000_000).including(required: City.country)
///     .fetch(db, as: CityWithCountry.self)
/// // SELECT "cities".*, "countries"."id" AS "#country", "countries".* FROM "cities"
/// //   LEFT JOIN "countries" ON "countries"."id" = "cities"."country_id" WHERE "cities"."population" > ?
/// ```
///
/// Both tables may have columns of the same names (`id`, `name`): each record is decoded from its own
/// table's columns, and the request's filters and orderings name the base table's columns.
public struct JoinedRequest<Base: Record, Associated: Record>: Sendable {
    package let base: QueryInterfaceRequest<Base>
    package let link: AssociationLink
    /// The association's filter on the joined records.
    package let joined: QueryInterfaceRequest<Associated>
    /// True when the joined table holds the foreign key (a has-one child), false when the base table does
    /// (a belongs-to parent).
    package let joinsChild: Bool
    package let isRequired: Bool

    /// SQLite's joined fetch: ``DatabaseConnection/fetchJoinedPairs(_:)``.
    func fetchPairs(_ db: Database) throws -> [(Base, Associated?)] {
        try Base.explainingMissingTable {
            let query = try sql(db)
            return try db.withStatement(sql: query.sql, arguments: query.arguments) { statement in
                let names = statement.columnNames
                let marker = Self.marker(link)
                guard let boundary = names.firstIndex(of: marker) else {
                    throw RecordError.invalidQuery(table: Base.tableName, reason: "no \(marker) column in the join")
                }
                let foreignKeyIndexes = link.foreignKeys.map { foreignKey in
                    Int32(
                        names[..<boundary].firstIndex {
                            RowLayout.asciiLowercased($0) == RowLayout.asciiLowercased(foreignKey)
                        } ?? 0)
                }
                let associatedTable = joinsChild ? link.childTable : link.parentTable
                let records = RowDecodingContext(
                    statement: statement, tableName: Base.tableName, missingOptionalColumnIsNil: false,
                    decoder: Base.rowDecoder, columnRange: 0..<boundary)
                let associated = RowDecodingContext(
                    statement: statement, tableName: associatedTable, missingOptionalColumnIsNil: false,
                    decoder: Associated.rowDecoder, columnRange: (boundary + 1)..<names.count)
                var pairs: [(Base, Associated?)] = []
                while try statement.step() {
                    let record = try records.decodeRow(Base.self)
                    if statement.value(at: Int32(boundary)) == .null {
                        if isRequired {
                            throw missingParent(
                                foreignKeyValues: foreignKeyIndexes.map {
                                    statement.value(at: $0).description
                                })
                        }
                        pairs.append((record, nil))
                    } else {
                        pairs.append((record, try associated.decodeRow(Associated.self)))
                    }
                }
                return pairs
            }
        }
    }

    /// The name of the result column that holds the joined row's key (the parent's key, or the child's
    /// foreign key) and separates the two tables' columns; NULL when no row was joined.
    package static func marker(_ link: AssociationLink) -> String { "#" + link.key }

    /// The error for a row whose required parent is missing, `foreignKeyValues` being the row's values in
    /// the link's foreign key columns as text: one value, or `(v1, v2)` for a foreign key of several columns.
    package func missingParent(foreignKeyValues values: [String]) -> RecordError {
        RecordError.missingParent(
            table: Base.tableName, column: link.foreignKeys.joined(separator: ", "),
            value: values.count == 1 ? values[0] : "(" + values.joined(separator: ", ") + ")",
            parentTable: link.parentTable)
    }

    /// The joined table, quoted; its first key column (the parent's first key column, or the child's first
    /// foreign key column), qualified: the marker, NOT NULL in every joined row, since each pair matched with
    /// `=`; and the join's condition, every pair of columns equal (`"countries"."id" = "cities"."country_id"`).
    package var joinColumns: (table: String, key: String, on: String) {
        let (table, column) = joinsChild ? (link.childTable, link.foreignKey) : (link.parentTable, link.parentKey)
        let joinedTable = SQLIdentifier.quoted(table)
        let joinedKey = joinedTable + "." + SQLIdentifier.quoted(column)
        guard !link.isComposite else {
            let on =
                joinsChild
                ? link.joinCondition(link.childTable, Base.tableName) : link.joinCondition(Base.tableName, table)
            return (joinedTable, joinedKey, on)
        }
        let baseKey =
            SQLIdentifier.quoted(Base.tableName) + "."
            + SQLIdentifier.quoted(joinsChild ? link.parentKey : link.foreignKey)
        return (joinedTable, joinedKey, joinedKey + " = " + baseKey)
    }

    /// `SELECT "child".*, "parent"."key" AS "#key", "parent".* FROM "child" LEFT JOIN "parent" ON ...`: a
    /// LEFT JOIN in both cases, so that a required parent that is missing is an error rather than a row
    /// silently left out. A required parent's filter goes in WHERE (its children are left out), an
    /// optional one's in ON (its children get nil). A has-one child is joined the other way round
    /// (`SELECT "parent".*, "child"."fk" AS "#key", "child".* FROM "parent" LEFT JOIN "child" ON ...`), with
    /// its filter in ON, and a required child that is missing leaves its parent out (an inner JOIN): a parent
    /// without a child is ordinary data, where a child without its parent is a broken foreign key.
    func sql(_ db: Database) throws -> SQLQuery {
        try link.check(db)
        guard base.selection.isEmpty else {
            throw RecordError.invalidQuery(
                table: Base.tableName, reason: "a joined fetch needs whole records: remove the select(...)")
        }
        let table = joinsChild ? link.childTable : link.parentTable
        let (joinedTable, joinedKey, joinOn) = joinColumns
        var on = joinOn
        var onArguments = StatementArguments()
        var request = base
        if let filter = joined.filter {
            var compiler = RequestCompiler(binding: RecordRequestBinding<Associated>(), table: table, isWriting: true)
            compiler.qualifier = table
            try compiler.condition(filter)
            try Associated.checkColumns(db, compiler.columns, aliases: [])
            if isRequired && !joinsChild {
                request = request.filter(SQLExpression(sql: compiler.sql, arguments: compiler.arguments))
            } else {
                on += " AND (" + compiler.sql + ")"
                onArguments = compiler.arguments
            }
        }
        var writer = RequestCompiler(binding: RecordRequestBinding<Base>(), table: Base.tableName, isWriting: true)
        writer.qualifier = Base.tableName
        writer.join = (
            sql: (isRequired && joinsChild ? " JOIN " : " LEFT JOIN ") + joinedTable + " ON " + on,
            selection: joinedKey + " AS " + SQLIdentifier.quoted(Self.marker(link)) + ", " + joinedTable + ".*",
            arguments: onArguments
        )
        try writer.compile(request.parts, as: .select)
        try Base.checkColumns(db, writer.columns, aliases: writer.aliases)
        return SQLQuery(sql: writer.sql, arguments: writer.arguments)
    }
}

extension QueryInterfaceRequest {
    /// These records with their parent by `association`, in one query; a record whose parent is missing is
    /// an error (see ``JoinedRequest``).
    public func including<Parent>(
        required association: BelongsToAssociation<Base, Parent>
    ) -> JoinedRequest<Base, Parent> {
        JoinedRequest(
            base: self, link: association.link, joined: association.request, joinsChild: false, isRequired: true)
    }

    /// These records with their parent by `association`, in one query; the parent is nil when the foreign
    /// key is NULL, matches no row, or the parent does not match the association's filter.
    public func including<Parent>(
        optional association: BelongsToAssociation<Base, Parent>
    ) -> JoinedRequest<Base, Parent> {
        JoinedRequest(
            base: self, link: association.link, joined: association.request, joinsChild: false, isRequired: false)
    }

    /// These records with their child by `association`, in one query; a record with no child (or none that
    /// matches the association's filter) is left out (see ``JoinedRequest``).
    public func including<Child>(required association: HasOneAssociation<Base, Child>) -> JoinedRequest<Base, Child> {
        JoinedRequest(
            base: self, link: association.link, joined: association.request, joinsChild: true, isRequired: true)
    }

    /// These records with their child by `association` or nil, in one query: an eager load into a nested
    /// result whose child is an Optional (`var anthem: Anthem?`).
    public func including<Child>(optional association: HasOneAssociation<Base, Child>) -> JoinedRequest<Base, Child> {
        JoinedRequest(
            base: self, link: association.link, joined: association.request, joinsChild: true, isRequired: false)
    }
}

extension Record {
    /// Every record with its parent by `association`: `City.including(required: City.country)`.
    public static func including<Parent>(
        required association: BelongsToAssociation<Self, Parent>
    ) -> JoinedRequest<Self, Parent> {
        all().including(required: association)
    }

    /// Every record with its parent or nil: `City.including(optional: City.country)`.
    public static func including<Parent>(
        optional association: BelongsToAssociation<Self, Parent>
    ) -> JoinedRequest<Self, Parent> {
        all().including(optional: association)
    }

    /// Every record that has a child by `association`, with it: `Country.including(required: Country.anthem)`.
    public static func including<Child>(
        required association: HasOneAssociation<Self, Child>
    ) -> JoinedRequest<Self, Child> {
        all().including(required: association)
    }

    /// Every record with its child or nil: `Country.including(optional: Country.anthem)`.
    public static func including<Child>(
        optional association: HasOneAssociation<Self, Child>
    ) -> JoinedRequest<Self, Child> {
        all().including(optional: association)
    }
}

/// SQLite's answer to the engine-neutral joined fetch.
extension Database {
    @_spi(RecordEngine)
    public func fetchJoinedPairs<Base: Record, Associated: Record>(_ request: JoinedRequest<Base, Associated>)
        throws -> [(Base, Associated?)]
    {
        try request.fetchPairs(self)
    }
}
