/// A request for records with their parent, in one query that joins the parent table, made by
/// ``QueryInterfaceRequest/including(required:)`` and ``QueryInterfaceRequest/including(optional:)``.
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
public struct JoinedRequest<Base: Record, Parent: Record>: Sendable {
    let base: QueryInterfaceRequest<Base>
    let association: BelongsToAssociation<Base, Parent>
    let isRequired: Bool

    /// The records with their parents, each as a value of `type`, whose keys are the base type's name in
    /// lower camel case (`city`) and the association's key (`country`, an Optional for
    /// ``QueryInterfaceRequest/including(optional:)``).
    /// - Throws: ``RecordError/missingParent(table:column:value:parentTable:)`` for a required parent that no
    ///   row holds, ``RecordError/invalidAssociation(association:reason:)`` when a table lacks the foreign
    ///   key or key column or `type`'s keys do not match; otherwise as ``QueryInterfaceRequest/fetch(_:)``.
    public func fetch<T: Decodable>(_ db: Database, as type: T.Type) throws -> [T] {
        let baseKey = AssociationLink.lowerCamelName(of: Base.self)
        return try fetchPairs(db).map { record, parent in
            let parentValue: Any = isRequired ? (parent as Any) : (parent as Parent? as Any)
            return try T(
                from: NestedResultDecoder(
                    values: [(baseKey, record), (association.key, parentValue)],
                    association: association.link.description, resultType: T.self))
        }
    }

    /// The records with their parents, as pairs (the parent nil only for an optional one).
    /// - Throws: as ``fetch(_:as:)``.
    public func fetchPairs(_ db: Database) throws -> [(Base, Parent?)] {
        try Base.explainingMissingTable {
            let query = try sql(db)
            return try db.withStatement(sql: query.sql, arguments: query.arguments) { statement in
                let link = association.link
                let names = statement.columnNames
                let marker = Self.marker(link)
                guard let boundary = names.firstIndex(of: marker) else {
                    throw RecordError.invalidQuery(table: Base.tableName, reason: "no \(marker) column in the join")
                }
                let foreignKeyIndex = Int32(
                    names[..<boundary].firstIndex {
                        RowLayout.asciiLowercased($0) == RowLayout.asciiLowercased(link.foreignKey)
                    } ?? 0)
                let records = RowDecodingContext(
                    statement: statement, tableName: Base.tableName, missingOptionalColumnIsNil: false,
                    decoder: Base.rowDecoder, columnRange: 0..<boundary)
                let parents = RowDecodingContext(
                    statement: statement, tableName: Parent.tableName, missingOptionalColumnIsNil: false,
                    decoder: Parent.rowDecoder, columnRange: (boundary + 1)..<names.count)
                var pairs: [(Base, Parent?)] = []
                while try statement.step() {
                    let record = try records.decodeRow(Base.self)
                    if statement.value(at: Int32(boundary)) == .null {
                        if isRequired {
                            throw RecordError.missingParent(
                                table: Base.tableName, column: link.foreignKey,
                                value: statement.value(at: foreignKeyIndex).description, parentTable: Parent.tableName)
                        }
                        pairs.append((record, nil))
                    } else {
                        pairs.append((record, try parents.decodeRow(Parent.self)))
                    }
                }
                return pairs
            }
        }
    }

    /// The name of the result column that holds the parent's key and separates the two tables' columns.
    static func marker(_ link: AssociationLink) -> String { "#" + link.key }

    /// `SELECT "child".*, "parent"."key" AS "#key", "parent".* FROM "child" LEFT JOIN "parent" ON ...`: a
    /// LEFT JOIN in both cases, so that a required parent that is missing is an error rather than a row
    /// silently left out. A required parent's filter goes in WHERE (its children are left out), an
    /// optional one's in ON (its children get nil).
    func sql(_ db: Database) throws -> SQLQuery {
        let link = association.link
        try link.check(db)
        guard base.selection.isEmpty else {
            throw RecordError.invalidQuery(
                table: Base.tableName, reason: "a joined fetch needs whole records: remove the select(...)")
        }
        let parentTable = SQLIdentifier.quoted(link.parentTable)
        let parentKey = parentTable + "." + SQLIdentifier.quoted(link.parentKey)
        var on = parentKey + " = " + SQLIdentifier.quoted(link.childTable) + "." + SQLIdentifier.quoted(link.foreignKey)
        var onArguments = StatementArguments()
        var request = base
        if let filter = association.request.filter {
            var compiler = RequestCompiler(
                binding: RecordRequestBinding<Parent>(), table: link.parentTable, isWriting: true)
            compiler.qualifier = link.parentTable
            try compiler.condition(filter)
            try Parent.checkColumns(db, compiler.columns, aliases: [])
            if isRequired {
                request = request.filter(SQLExpression(sql: compiler.sql, arguments: compiler.arguments))
            } else {
                on += " AND (" + compiler.sql + ")"
                onArguments = compiler.arguments
            }
        }
        var writer = RequestCompiler(binding: RecordRequestBinding<Base>(), table: Base.tableName, isWriting: true)
        writer.qualifier = Base.tableName
        writer.join = (
            sql: " LEFT JOIN " + parentTable + " ON " + on,
            selection: parentKey + " AS " + SQLIdentifier.quoted(Self.marker(link)) + ", " + parentTable + ".*",
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
        JoinedRequest(base: self, association: association, isRequired: true)
    }

    /// These records with their parent by `association`, in one query; the parent is nil when the foreign
    /// key is NULL, matches no row, or the parent does not match the association's filter.
    public func including<Parent>(
        optional association: BelongsToAssociation<Base, Parent>
    ) -> JoinedRequest<Base, Parent> {
        JoinedRequest(base: self, association: association, isRequired: false)
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
}
