/// A belongs-to association seen without its types: what ``Record/createTable(in:ifNotExists:)`` and
/// ``Record/validateSchema(in:)`` need to write and check the foreign key. List a type's
/// ``BelongsToAssociation``s in ``Record/parentAssociations``.
public protocol ParentAssociation: Sendable {
    /// The column of the child table that holds the parent's key.
    var foreignKey: String { get }
    /// The parent's table.
    var parentTable: String { get }
    /// The parent table's column the foreign key refers to.
    var parentKey: String { get }
    /// What deleting the parent does to the children; nil leaves SQLite's default (`NO ACTION`) and is not
    /// checked by ``Record/validateSchema(in:)``.
    var onDelete: ForeignKeyAction? { get }
    /// How the declaration reads, for errors.
    var associationDescription: String { get }
    /// The columns of the child table that hold the parent's key, in the order of ``parentKeyColumns``:
    /// `[foreignKey]` for a foreign key of one column.
    var foreignKeyColumns: [String] { get }
    /// The parent table's columns the foreign key refers to: `[parentKey]` for a foreign key of one column.
    var parentKeyColumns: [String] { get }
}

extension ParentAssociation {
    /// `[foreignKey]`: a foreign key of one column.
    public var foreignKeyColumns: [String] { [foreignKey] }
    /// `[parentKey]`: a foreign key of one column.
    public var parentKeyColumns: [String] { [parentKey] }
}

extension BelongsToAssociation: ParentAssociation {
    /// The parent's table.
    public var parentTable: String { link.parentTable }
    /// The parent table's column the foreign key refers to: the parent's ``Record/primaryKeyColumn``, or the
    /// first of ``parentKeyColumns``.
    public var parentKey: String { link.parentKey }
    /// The parent table's columns the foreign key refers to, in the order of ``foreignKeyColumns``: the
    /// parent's key columns, or those the declaration named with `to:`.
    public var parentKeyColumns: [String] { link.parentKeys }
    /// The declaration with its types, tables and columns:
    /// `City.belongsTo(Country) "country": "cities"."country_id" -> "countries"."id"`.
    public var associationDescription: String { link.description }
}

/// A parent association whose parent type is known: how ``Record/save(_:children:)`` finds the child type's
/// declaration of a link to the parent it saves.
protocol ParentLink {
    /// The link, when the association's parent type is `parent`; nil for another parent type.
    func link(toParent parent: Any.Type) -> AssociationLink?
}

extension BelongsToAssociation: ParentLink {
    func link(toParent parent: Any.Type) -> AssociationLink? {
        parent == Destination.self ? link : nil
    }
}
