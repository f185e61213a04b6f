/// How a child table points at its parent table: the child's foreign key columns and the parent's key
/// columns they hold, pair by pair, with the names errors use. Shared by ``BelongsToAssociation``,
/// ``HasManyAssociation`` and ``HasOneAssociation``, which read it from opposite ends.
///
/// Most links are one column to the parent's ``Record/primaryKeyColumn``; ``foreignKey`` and ``parentKey``
/// are then the whole link, and the eager load's fast path reads nothing else. A link of several columns
/// (a parent with a composite key, or a declared `UNIQUE` key of several columns) matches a child to its
/// parent when every pair is equal, as SQL's `FOREIGN KEY (a, b) REFERENCES parent (x, y)` does
/// (<https://www.sqlite.org/foreignkeys.html#fk_composite>): a NULL in any foreign key column links to no
/// parent.
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
    /// The child table's columns that hold the parent's key, in the order of ``parentKeys``.
    package let foreignKeys: [String]
    /// The parent table's columns the foreign key refers to: its primary key columns, or the columns the
    /// declaration named with `to:`.
    package let parentKeys: [String]
    /// True when the declaration named the parent's columns (`to:`): they must be the parent table's primary
    /// key or a `UNIQUE` constraint on exactly those columns, which ``check(_:)`` verifies.
    let namesParentKeys: Bool
    /// The first of ``foreignKeys``: the whole foreign key of a one-column link.
    package let foreignKey: String
    /// The first of ``parentKeys``: the whole key of a one-column link.
    package let parentKey: String

    init(
        key: String, originKey: String, declaration: String, childTable: String, parentTable: String,
        foreignKeys: [String], parentKeys: [String], namesParentKeys: Bool = false
    ) {
        self.key = key
        self.originKey = originKey
        self.declaration = declaration
        self.childTable = childTable
        self.parentTable = parentTable
        self.foreignKeys = foreignKeys
        self.parentKeys = parentKeys
        self.namesParentKeys = namesParentKeys
        foreignKey = foreignKeys.first ?? ""
        parentKey = parentKeys.first ?? ""
    }

    /// True for a link of more than one column on either side (a mismatched one included): what the
    /// one-column paths leave to the paths that read every column.
    package var isComposite: Bool { foreignKeys.count != 1 || parentKeys.count != 1 }

    /// The declaration and the columns it links, for errors: `"cities"."country_id" -> "countries"."id"`
    /// for one column, `"cities" ("country_code", "admin1_code") -> "regions" ("country_code", "code")` for
    /// several.
    package var description: String {
        guard isComposite else {
            return declaration + ": \"\(childTable)\".\"\(foreignKey)\" -> \"\(parentTable)\".\"\(parentKey)\""
        }
        return declaration + ": \"\(childTable)\" " + Self.columnList(foreignKeys) + " -> \"\(parentTable)\" "
            + Self.columnList(parentKeys)
    }

    /// `("a", "b")`, as a `FOREIGN KEY` clause lists columns.
    static func columnList(_ columns: [String]) -> String {
        "(" + columns.map { "\"\($0)\"" }.joined(separator: ", ") + ")"
    }

    /// The foreign key column a declaration gets when it does not name one: the parent type's name in
    /// snake case with `_id` (`Country` gives `country_id`, `PostalCode` gives `postal_code_id`).
    static func conventionalForeignKey<Parent: Record>(for parent: Parent.Type) -> String {
        KeyCase.snakeCase(lowerCamelName(of: parent)) + "_id"
    }

    /// What every error about a foreign key column the child lacks ends with: the declaration's `using:`
    /// names the column when the convention's guess is wrong.
    package static let usingHint = " (name the foreign key with `using:`)"

    /// `table "notes" has no column "book_id"; its columns are: "id", "owner_book" (name the foreign key with
    /// `using:`)`: the reason of the error for a link column its table lacks, on every engine; the hint only for
    /// a foreign key column.
    package static func missingColumnReason(
        _ column: String, table: String, columns: [String], isForeignKey: Bool
    ) -> String {
        "table \"\(table)\" has no column \"\(column)\"; its columns are: "
            + columns.map { "\"\($0)\"" }.joined(separator: ", ") + (isForeignKey ? usingHint : "")
    }

    /// The columns of `parent`'s key: ``Record/primaryKeyColumn`` for a key of one column, the coding keys of
    /// a composite key's struct in key order (as ``Record/createTable(in:ifNotExists:)`` writes them). A key
    /// type that cannot be probed gives ``Record/primaryKeyColumn``, which ``check(_:)`` then reports as a
    /// column the parent table lacks.
    static func keyColumns<Parent: Record>(of parent: Parent.Type) -> [String] {
        (try? Parent.probedKeyColumns()) ?? [Parent.primaryKeyColumn]
    }

    /// The type's name with its first letter lowercased: `Country` is "country", the default key of a
    /// belongs-to association and of a record in a nested result.
    static func lowerCamelName<T>(of type: T.Type) -> String {
        let name = String(describing: type)
        return name.prefix(1).lowercased() + name.dropFirst()
    }

    /// Throws unless the link has one foreign key column per parent key column, every column is in its
    /// table, and the parent columns of a composite or named (`to:`) link are the parent table's primary key
    /// or a `UNIQUE` constraint on exactly those columns (what SQLite requires of a foreign key's parent key:
    /// <https://www.sqlite.org/foreignkeys.html#fk_indexes>).
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` naming the columns of both sides and
    ///   what is wrong with them, or ``DatabaseError`` when a table is missing.
    func check(_ db: Database) throws {
        if isComposite {
            try checkColumnCounts()
            for column in foreignKeys { try check(db, table: childTable, column: column) }
            for column in parentKeys { try check(db, table: parentTable, column: column) }
        } else {
            try check(db, table: childTable, column: foreignKey)
            try check(db, table: parentTable, column: parentKey)
        }
        if isComposite || namesParentKeys { try checkParentKeyIsUnique(db) }
    }

    /// Throws unless there are as many foreign key columns as parent key columns, and no column twice.
    package func checkColumnCounts() throws {
        if foreignKeys.count != parentKeys.count {
            throw RecordError.invalidAssociation(
                association: description,
                reason: "the foreign key has \(Self.count(foreignKeys)) \(Self.columnList(foreignKeys)) of table "
                    + "\"\(childTable)\" and the key of table \"\(parentTable)\" has \(Self.count(parentKeys)) "
                    + "\(Self.columnList(parentKeys)): name one foreign key column for each key column, in key "
                    + "order, with `using: [...]`")
        }
        for (table, columns) in [(childTable, foreignKeys), (parentTable, parentKeys)] {
            let folded = columns.map(RowLayout.asciiLowercased)
            if Set(folded).count != folded.count {
                throw RecordError.invalidAssociation(
                    association: description,
                    reason: "the columns of table \"\(table)\" \(Self.columnList(columns)) name one column twice")
            }
        }
    }

    /// `1 column`, `2 columns`.
    private static func count(_ columns: [String]) -> String {
        columns.count == 1 ? "1 column" : "\(columns.count) columns"
    }

    /// Throws unless `column` is a column of `table`.
    private func check(_ db: Database, table: String, column: String) throws {
        let known = try db.derivedSchemaValue(for: KnownColumns.self, table: table) { KnownColumns($0) }
        if !known.contains(column) {
            throw RecordError.invalidAssociation(
                association: description,
                reason: Self.missingColumnReason(column, table: table, columns: known.names, isForeignKey: table == childTable))
        }
    }

    /// Throws unless ``parentKeys`` are the parent table's primary key or a `UNIQUE` constraint (a unique,
    /// non-partial index) on exactly those columns, in any order. A view declares no key, and is trusted.
    private func checkParentKeyIsUnique(_ db: Database) throws {
        let keys = try db.derivedSchemaValue(for: UniqueKeys.self, table: parentTable) { columns in
            let shape = try db.tableShape(parentTable)
            if shape.isView { return UniqueKeys(nil) }
            let indexes = try db.indexes(on: parentTable).filter { $0.isUnique && !$0.isPartial }
            return UniqueKeys(
                [columns.filter { $0.primaryKeyIndex > 0 }.map(\.name)] + indexes.map { $0.columns.map { $0 ?? "" } })
        }
        guard let unique = keys.keys else { return }
        let wanted = Set(parentKeys.map(RowLayout.asciiLowercased))
        if unique.contains(wanted) { return }
        let primaryKey = keys.primaryKey.isEmpty ? "none" : Self.columnList(keys.primaryKey)
        throw RecordError.invalidAssociation(
            association: description,
            reason: "the columns \(Self.columnList(parentKeys)) of table \"\(parentTable)\" are neither its primary "
                + "key (\(primaryKey)) nor a UNIQUE constraint, so a foreign key cannot refer to them: name the "
                + "parent's key columns with `to: [...]`, or declare them UNIQUE")
    }
}

/// The column sets of a table that a foreign key may refer to (its primary key and its UNIQUE constraints),
/// cached with the table's schema; nil for a view.
final class UniqueKeys {
    /// Each key's columns with A-Z lowered; nil for a view.
    let keys: Set<Set<String>>?
    /// The primary key's columns as the table declares them; empty for none (a rowid table's is its rowid).
    let primaryKey: [String]

    /// `columnSets` holds the primary key's columns first, then each unique index's; nil for a view.
    init(_ columnSets: [[String]]?) {
        primaryKey = columnSets?.first ?? []
        keys = columnSets.map { sets in Set(sets.filter { !$0.isEmpty }.map { Set($0.map(RowLayout.asciiLowercased)) })
        }
    }
}
