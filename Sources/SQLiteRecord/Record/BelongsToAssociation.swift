/// A child's link to the row of a parent table that its foreign key holds: a city belongs to a country.
/// Declare it once, as a static property of the child type, with ``Record/belongsTo(_:key:using:onDelete:)``:
///
/// ```swift
/// extension City {
///     static let country = belongsTo(Country.self)  // "cities"."country_id" -> "countries"."id"
/// }
/// let country = try paris.request(for: City.country).fetchOne(db)
/// let rows = try City.all().including(required: City.country).fetch(db, as: CityWithCountry.self)
/// ```
public struct BelongsToAssociation<Origin: Record, Destination: Record>: Sendable {
    package let link: AssociationLink
    /// A filter on the parents, for joined fetches.
    package var request: QueryInterfaceRequest<Destination>

    /// What deleting the parent does to the children, as ``Record/createTable(in:ifNotExists:)`` writes it
    /// (`ON DELETE CASCADE`, ...); nil for SQLite's default.
    public let onDelete: ForeignKeyAction?

    /// The association's name: the key of the parent in a nested result (`country`).
    public var key: String { link.key }

    /// The foreign key column in the child table; for a foreign key of several columns, the first of
    /// ``foreignKeyColumns``.
    public var foreignKey: String { link.foreignKey }

    /// The foreign key columns in the child table, in the order of the parent key columns they hold: one for
    /// most associations, several for a parent with a composite key (`["country_code", "admin1_code"]`).
    public var foreignKeyColumns: [String] { link.foreignKeys }

    /// Only the parents that match `predicate`: in a joined fetch, the children of other parents are left
    /// out (``QueryInterfaceRequest/including(required:)->JoinedRequest<Base,Parent>``) or have a nil parent
    /// (``QueryInterfaceRequest/including(optional:)->JoinedRequest<Base,Parent>``).
    public func filter(_ predicate: some SQLExpressible) -> Self {
        var association = self
        association.request = request.filter(predicate)
        return association
    }
}
