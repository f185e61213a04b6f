/// How a child table points at its parent table: the child's foreign key column and the parent's key
/// column it holds, with the names errors use. Shared by ``BelongsToAssociation`` and
/// ``HasManyAssociation``, which read it from opposite ends.
package struct AssociationLink: Sendable {
    /// The association's name, also the key of its values in a nested result.
    package let key: String
    /// The key of the declaring type's record in a nested result: its name in lower camel case (`country`
    /// for `Country.hasMany(City)`). Made once with the declaration, since naming a type is slow.
    package let originKey: String
    /// How the declaration reads, for errors: `City.belongsTo(Country) "country"`.
    let declaration: String
    package let childTable: String
    package let parentTable: String
    /// The child table's column that holds the parent's key.
    package let foreignKey: String
    /// The parent table's column the foreign key refers to: its primary key column.
    package let parentKey: String

    /// The declaration and the columns it links, for errors.
    package var description: String {
        declaration + ": \"\(childTable)\".\"\(foreignKey)\" -> \"\(parentTable)\".\"\(parentKey)\""
    }

    /// The foreign key column a declaration gets when it does not name one: the parent type's name in
    /// snake case with `_id` (`Country` gives `country_id`, `PostalCode` gives `postal_code_id`).
    static func conventionalForeignKey<Parent: Record>(for parent: Parent.Type) -> String {
        KeyCase.snakeCase(lowerCamelName(of: parent)) + "_id"
    }

    /// The type's name with its first letter lowercased: `Country` is "country", the default key of a
    /// belongs-to association and of a record in a nested result.
    static func lowerCamelName<T>(of type: T.Type) -> String {
        let name = String(describing: type)
        return name.prefix(1).lowercased() + name.dropFirst()
    }

    /// Throws unless both columns are in their tables.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` naming the missing column and the
    ///   table's columns, or ``DatabaseError`` when a table is missing.
    func check(_ db: Database) throws {
        for (table, column) in [(childTable, foreignKey), (parentTable, parentKey)] {
            let known = try db.derivedSchemaValue(for: KnownColumns.self, table: table) { KnownColumns($0) }
            if !known.contains(column) {
                throw RecordError.invalidAssociation(
                    association: description,
                    reason: "table \"\(table)\" has no column \"\(column)\"; its columns are: "
                        + known.names.map { "\"\($0)\"" }.joined(separator: ", ")
                        + (table == childTable ? " (name the foreign key with `using:`)" : ""))
            }
        }
    }
}
