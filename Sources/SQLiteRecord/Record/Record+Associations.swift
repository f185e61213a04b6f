/// Declaring associations, and the requests of one record's associated records.
extension Record {
    /// Declares that records of this type have many records of `child` type, whose foreign key column
    /// holds this type's key (``Record/primaryKeyColumn``).
    /// - Parameters:
    ///   - child: The child record type.
    ///   - key: The association's name, the key of the children in a nested result; by default the child
    ///     table's name (`cities`).
    ///   - foreignKey: The child table's column that holds the parent's key; by default the parent type's
    ///     name in snake case with `_id` (`country_id` for `Country`).
    public static func hasMany<Child: Record>(
        _ child: Child.Type, key: String? = nil, using foreignKey: String? = nil
    ) -> HasManyAssociation<Self, Child> {
        let key = key ?? Child.tableName
        return HasManyAssociation(link: childLink(Child.self, "hasMany", key, foreignKey), request: Child.all())
    }

    /// Declares that each record of this type has at most one record of `child` type, whose foreign key
    /// column holds this type's key (``Record/primaryKeyColumn``).
    /// - Parameters:
    ///   - child: The child record type.
    ///   - key: The association's name, the key of the child in a nested result; by default the child type's
    ///     name in lower camel case (`anthem` for `Anthem`).
    ///   - foreignKey: The child table's column that holds the parent's key; by default the parent type's
    ///     name in snake case with `_id` (`country_id` for `Country`).
    public static func hasOne<Child: Record>(
        _ child: Child.Type, key: String? = nil, using foreignKey: String? = nil
    ) -> HasOneAssociation<Self, Child> {
        let key = key ?? AssociationLink.lowerCamelName(of: Child.self)
        return HasOneAssociation(link: childLink(Child.self, "hasOne", key, foreignKey), request: Child.all())
    }

    /// The link of a has-many or has-one declaration (`kind`) of this type to `child`.
    private static func childLink<Child: Record>(
        _ child: Child.Type, _ kind: String, _ key: String, _ foreignKey: String?
    ) -> AssociationLink {
        AssociationLink(
            key: key, originKey: AssociationLink.lowerCamelName(of: Self.self),
            declaration: "\(Self.self).\(kind)(\(Child.self)) \"\(key)\"", childTable: Child.tableName,
            parentTable: tableName, foreignKey: foreignKey ?? AssociationLink.conventionalForeignKey(for: Self.self),
            parentKey: primaryKeyColumn)
    }

    /// Declares that each record of this type belongs to a record of `parent` type, whose key
    /// (``Record/primaryKeyColumn``) this type's foreign key column holds.
    /// - Parameters:
    ///   - parent: The parent record type.
    ///   - key: The association's name, the key of the parent in a nested result; by default the parent
    ///     type's name in lower camel case (`country`).
    ///   - foreignKey: This table's column that holds the parent's key; by default the parent type's name in
    ///     snake case with `_id` (`country_id` for `Country`).
    ///   - onDelete: What deleting the parent does to its children, written by
    ///     ``Record/createTable(in:ifNotExists:)`` and checked by ``Record/validateSchema(in:)`` when the type
    ///     lists the association in ``Record/parentAssociations``; nil for SQLite's default (`NO ACTION`).
    public static func belongsTo<Parent: Record>(
        _ parent: Parent.Type, key: String? = nil, using foreignKey: String? = nil,
        onDelete: ForeignKeyAction? = nil
    ) -> BelongsToAssociation<Self, Parent> {
        let key = key ?? AssociationLink.lowerCamelName(of: Parent.self)
        let link = AssociationLink(
            key: key, originKey: AssociationLink.lowerCamelName(of: Self.self),
            declaration: "\(Self.self).belongsTo(\(Parent.self)) \"\(key)\"", childTable: tableName,
            parentTable: Parent.tableName,
            foreignKey: foreignKey ?? AssociationLink.conventionalForeignKey(for: Parent.self),
            parentKey: Parent.primaryKeyColumn)
        return BelongsToAssociation(link: link, request: Parent.all(), onDelete: onDelete)
    }

    /// This record's children, as a request to refine and run:
    /// `try france.request(for: Country.cities).order(Column("population").descending).fetch(db)` runs
    /// `SELECT * FROM "cities" WHERE "country_id" = ? ORDER BY "population" DESC`.
    ///
    /// The association's filter, order and limit come first; refinements are added to them.
    public func request<Child>(for association: HasManyAssociation<Self, Child>) -> QueryInterfaceRequest<Child> {
        association.request.filter(childFilter(association.link))
    }

    /// This record's child, as a request: `try france.request(for: Country.anthem).fetchOne(db)` runs
    /// `SELECT * FROM "anthems" WHERE "country_id" = ? LIMIT ?`.
    public func request<Child>(for association: HasOneAssociation<Self, Child>) -> QueryInterfaceRequest<Child> {
        association.request.filter(childFilter(association.link))
    }

    /// `"fk" = ?` with this record's key: the condition on the children of this record.
    private func childFilter(_ link: AssociationLink) -> SQLExpression {
        SQLExpression(.binary(.equal, .column(Column(link.foreignKey)), .value(.encodable(id))))
    }

    /// This record's parent, as a request: `try paris.request(for: City.country).fetchOne(db)` runs
    /// `SELECT * FROM "countries" WHERE "id" = ? LIMIT ?` with the value of this record's foreign key.
    /// A nil foreign key selects no row.
    /// - Throws: `EncodingError` when this record does not encode, or
    ///   ``RecordError/invalidAssociation(association:reason:)`` when it encodes no foreign key column.
    public func request<Parent>(
        for association: BelongsToAssociation<Self, Parent>
    ) throws -> QueryInterfaceRequest<Parent> {
        let columns = try Self.recordEncoder.encode(self)
        guard let value = columns.value(for: association.foreignKey) else {
            throw RecordError.invalidAssociation(
                association: association.link.description,
                reason: "\(Self.self) encodes no \"\(association.foreignKey)\" column")
        }
        let forms: [SQLiteValue] = value == .null ? [] : [value]
        let parentKey = ExpressionNode.column(Column(association.link.parentKey))
        return association.request.filter(
            SQLExpression(value == .null ? .literal("0", []) : .binary(.equal, parentKey, .value(.forms(forms)))))
    }
}
