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

    /// Declares that records of this type have many records of `child` type, whose foreign key columns hold
    /// this type's key, column by column: a region keyed by its country code and its own code has many cities,
    /// `Region.hasMany(City.self, using: ["country_code", "admin1_code"])`.
    /// - Parameters:
    ///   - child: The child record type.
    ///   - key: The association's name, the key of the children in a nested result; by default the child
    ///     table's name (`cities`).
    ///   - foreignKeys: The child table's columns that hold the parent's key, in the order of `parentKeys`.
    ///   - parentKeys: The columns of this type's table that the foreign key holds: by default its key's
    ///     columns in key order (``Record/primaryKeyColumn``, or the coding keys of a composite key's struct);
    ///     otherwise columns with a `UNIQUE` constraint on exactly them.
    ///
    /// A foreign key with as many columns as the parent key is checked when a request first uses the
    /// association: a count or a column name that does not match throws
    /// ``RecordError/invalidAssociation(association:reason:)`` naming both tables and their columns.
    public static func hasMany<Child: Record>(
        _ child: Child.Type, key: String? = nil, using foreignKeys: [String], to parentKeys: [String]? = nil
    ) -> HasManyAssociation<Self, Child> {
        let key = key ?? Child.tableName
        return HasManyAssociation(
            link: childLink(Child.self, "hasMany", key, foreignKeys, parentKeys), request: Child.all())
    }

    /// Declares that each record of this type has at most one record of `child` type, whose foreign key
    /// columns hold this type's key, column by column (`using: ["country_code", "admin1_code"]`): see
    /// ``hasMany(_:key:using:to:)``.
    /// - Parameters:
    ///   - child: The child record type.
    ///   - key: The association's name; by default the child type's name in lower camel case.
    ///   - foreignKeys: The child table's columns that hold the parent's key, in the order of `parentKeys`.
    ///   - parentKeys: The columns of this type's table that the foreign key holds: by default its key's
    ///     columns, in key order.
    public static func hasOne<Child: Record>(
        _ child: Child.Type, key: String? = nil, using foreignKeys: [String], to parentKeys: [String]? = nil
    ) -> HasOneAssociation<Self, Child> {
        let key = key ?? AssociationLink.lowerCamelName(of: Child.self)
        return HasOneAssociation(
            link: childLink(Child.self, "hasOne", key, foreignKeys, parentKeys), request: Child.all())
    }

    /// The link of a has-many or has-one declaration (`kind`) of this type to `child`.
    private static func childLink<Child: Record>(
        _ child: Child.Type, _ kind: String, _ key: String, _ foreignKey: String?
    ) -> AssociationLink {
        let foreignKey = foreignKey ?? AssociationLink.conventionalForeignKey(for: Self.self)
        return childLink(Child.self, kind, key, [foreignKey], nil)
    }

    /// The link of a has-many or has-one declaration (`kind`) of this type to `child` over `foreignKeys`,
    /// to `parentKeys` or this type's key columns.
    private static func childLink<Child: Record>(
        _ child: Child.Type, _ kind: String, _ key: String, _ foreignKeys: [String], _ parentKeys: [String]?
    ) -> AssociationLink {
        AssociationLink(
            key: key, originKey: AssociationLink.lowerCamelName(of: Self.self),
            declaration: "\(Self.self).\(kind)(\(Child.self)) \"\(key)\"", childTable: Child.tableName,
            parentTable: tableName, foreignKeys: foreignKeys,
            parentKeys: parentKeys ?? AssociationLink.keyColumns(of: Self.self), namesParentKeys: parentKeys != nil)
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
        let foreignKey = foreignKey ?? AssociationLink.conventionalForeignKey(for: Parent.self)
        return belongsTo(Parent.self, key: key, using: [foreignKey], to: nil, onDelete: onDelete)
    }

    /// Declares that each record of this type belongs to a record of `parent` type, whose key this type's
    /// foreign key columns hold, column by column: a city belongs to the region of its country code and its
    /// region code, `City.belongsTo(Region.self, using: ["country_code", "admin1_code"])`.
    /// - Parameters:
    ///   - parent: The parent record type.
    ///   - key: The association's name, the key of the parent in a nested result; by default the parent
    ///     type's name in lower camel case (`region`).
    ///   - foreignKeys: This table's columns that hold the parent's key, in the order of `parentKeys`.
    ///   - parentKeys: The parent table's columns the foreign key holds: by default the parent's key columns
    ///     in key order (``Record/primaryKeyColumn``, or the coding keys of a composite key's struct);
    ///     otherwise columns with a `UNIQUE` constraint on exactly them.
    ///   - onDelete: What deleting the parent does to its children, as in ``belongsTo(_:key:using:onDelete:)``.
    ///
    /// The columns are checked when a request first uses the association: a count or a column name that does
    /// not match throws ``RecordError/invalidAssociation(association:reason:)`` naming both tables and their
    /// columns.
    public static func belongsTo<Parent: Record>(
        _ parent: Parent.Type, key: String? = nil, using foreignKeys: [String], to parentKeys: [String]? = nil,
        onDelete: ForeignKeyAction? = nil
    ) -> BelongsToAssociation<Self, Parent> {
        let key = key ?? AssociationLink.lowerCamelName(of: Parent.self)
        let link = AssociationLink(
            key: key, originKey: AssociationLink.lowerCamelName(of: Self.self),
            declaration: "\(Self.self).belongsTo(\(Parent.self)) \"\(key)\"", childTable: tableName,
            parentTable: Parent.tableName, foreignKeys: foreignKeys,
            parentKeys: parentKeys ?? AssociationLink.keyColumns(of: Parent.self), namesParentKeys: parentKeys != nil)
        return BelongsToAssociation(link: link, request: Parent.all(), onDelete: onDelete)
    }

    /// This record's children, as a request to refine and run:
    /// `try france.request(for: Country.cities).order(Column("population").descending).fetch(db)` runs
    /// `SELECT * FROM "cities" WHERE "country_id" = ? ORDER BY "population" DESC`.
    ///
    /// The association's filter, order and limit come first; refinements are added to them.
    public func request<Child>(for association: HasManyAssociation<Self, Child>) -> QueryInterfaceRequest<Child> {
        var request = association.request.filter(childFilter(association.link))
        request.childLink = association.link
        return request
    }

    /// This record's child, as a request: `try france.request(for: Country.anthem).fetchOne(db)` runs
    /// `SELECT * FROM "anthems" WHERE "country_id" = ? LIMIT ?`.
    public func request<Child>(for association: HasOneAssociation<Self, Child>) -> QueryInterfaceRequest<Child> {
        var request = association.request.filter(childFilter(association.link))
        request.childLink = association.link
        return request
    }

    /// `"fk" = ?` with this record's key: the condition on the children of this record. For a link of
    /// several columns, or to columns other than the key, `"a" = ? AND "b" = ?` with the values this record
    /// stores in the parent key columns; a NULL among them selects no row, and a record that does not
    /// encode, or encodes no such column, throws when the request runs.
    private func childFilter(_ link: AssociationLink) -> SQLExpression {
        guard link.isComposite || link.namesParentKeys else {
            return SQLExpression(.binary(.equal, .column(Column(link.foreignKey)), .value(.encodable(id))))
        }
        let values: [SQLiteValue]
        do {
            values = try parentKeyValues(for: link)
        } catch {
            return SQLExpression(.subquery(AssociationSubquery(prefix: "", body: .failure(error))))
        }
        return Self.equalities(link.foreignKeys, values)
    }

    /// `"a" = ? AND "b" = ?`, each column equal to its value as stored; `0` when a value is NULL, which
    /// equals nothing.
    static func equalities(_ columns: [String], _ values: [SQLiteValue]) -> SQLExpression {
        if values.contains(.null) { return SQLExpression(.literal("0", [])) }
        let pairs = zip(columns, values).map { column, value in
            ExpressionNode.binary(.equal, .column(Column(column)), .value(.forms([value])))
        }
        return SQLExpression(pairs.dropFirst().reduce(pairs[0]) { .binary(.and, $0, $1) })
    }

    /// The values this record stores in `link`'s parent key columns, in their order, as the child's foreign
    /// key columns are to hold them.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` when this record encodes no such
    ///   column (naming the columns it encodes), or `EncodingError`.
    func parentKeyValues(for link: AssociationLink) throws -> [SQLiteValue] {
        try encodedValues(of: link.parentKeys, for: link)
    }

    /// The values this record encodes for `columns` (matched as SQLite matches names), in their order.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` naming the first column this record
    ///   does not encode and the columns it does, or `EncodingError`.
    func encodedValues(of columns: [String], for link: AssociationLink) throws -> [SQLiteValue] {
        let encoded = try Self.recordEncoder.encode(self)
        return try columns.map { column in
            let folded = RowLayout.asciiLowercased(column)
            guard
                let index = encoded.names.firstIndex(of: column)
                    ?? encoded.names.firstIndex(where: { RowLayout.asciiLowercased($0) == folded })
            else {
                throw RecordError.invalidAssociation(
                    association: link.description,
                    reason: columns == link.foreignKeys
                        ? Self.encodesNoForeignKey(column, encoded.names) : Self.encodesNoColumn(column, encoded.names))
            }
            return encoded.values[index]
        }
    }

    /// This record's parent, as a request: `try paris.request(for: City.country).fetchOne(db)` runs
    /// `SELECT * FROM "countries" WHERE "id" = ? LIMIT ?` with the value of this record's foreign key.
    /// A nil foreign key selects no row.
    /// - Throws: `EncodingError` when this record does not encode, or
    ///   ``RecordError/invalidAssociation(association:reason:)`` when it encodes no foreign key column.
    public func request<Parent>(
        for association: BelongsToAssociation<Self, Parent>
    ) throws -> QueryInterfaceRequest<Parent> {
        let link = association.link
        if link.isComposite || link.namesParentKeys {
            let values = try encodedValues(of: link.foreignKeys, for: link)
            return association.request.filter(Self.equalities(link.parentKeys, values))
        }
        let columns = try Self.recordEncoder.encode(self)
        guard let value = columns.value(for: association.foreignKey) else {
            throw RecordError.invalidAssociation(
                association: association.link.description,
                reason: Self.encodesNoForeignKey(association.foreignKey, columns.names))
        }
        let forms: [SQLiteValue] = value == .null ? [] : [value]
        let parentKey = ExpressionNode.column(Column(association.link.parentKey))
        return association.request.filter(
            SQLExpression(value == .null ? .literal("0", []) : .binary(.equal, parentKey, .value(.forms(forms)))))
    }
}
