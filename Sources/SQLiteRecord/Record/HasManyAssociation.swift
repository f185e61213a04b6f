/// A parent's link to the records of a child table whose foreign key holds the parent's key: a country
/// has many cities. Declare it once, as a static property of the parent type, with
/// ``Record/hasMany(_:key:using:)``:
///
/// ```swift
/// extension Country {
///     static let cities = hasMany(City.self)  // "cities"."country_id" -> "countries"."id"
/// }
/// let cities = try france.request(for: Country.cities).order(Column("name").ascending).fetch(db)
/// let countries = try Country.all().including(all: Country.cities).fetch(db, as: CountryWithCities.self)
/// ```
///
/// Refine it with ``filter(_:)``, ``order(_:)`` and ``limit(_:)`` to say which children, in which order,
/// and how many per parent an eager load gives.
public struct HasManyAssociation<Origin: Record, Destination: Record>: Sendable {
    let link: AssociationLink
    /// The children's filter and order; its limit applies per parent.
    var request: QueryInterfaceRequest<Destination>

    /// The association's name: the key of the children in a nested result (`cities`).
    public var key: String { link.key }

    /// The foreign key column in the child table.
    public var foreignKey: String { link.foreignKey }

    /// Only the children that match `predicate` (ANDed with the filters so far).
    public func filter(_ predicate: some SQLExpressible) -> Self {
        var association = self
        association.request = request.filter(predicate)
        return association
    }

    /// The children sorted by `orderings`, replacing any order set before.
    public func order(_ orderings: any SQLOrderingTerm...) -> Self {
        var association = self
        association.request = request.order(orderings)
        return association
    }

    /// At most `limit` children per parent in an eager load (the first ones in the association's order);
    /// in ``Record/request(for:)->QueryInterfaceRequest<Child>``, at most `limit` rows.
    public func limit(_ limit: Int) -> Self {
        var association = self
        association.request = request.limit(limit)
        return association
    }
}

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
    let link: AssociationLink
    /// A filter on the parents, for joined fetches.
    var request: QueryInterfaceRequest<Destination>

    /// What deleting the parent does to the children, as ``Record/createTable(in:ifNotExists:)`` writes it
    /// (`ON DELETE CASCADE`, ...); nil for SQLite's default.
    public let onDelete: ForeignKeyAction?

    /// The association's name: the key of the parent in a nested result (`country`).
    public var key: String { link.key }

    /// The foreign key column in the child table.
    public var foreignKey: String { link.foreignKey }

    /// Only the parents that match `predicate`: in a joined fetch, the children of other parents are left
    /// out (``QueryInterfaceRequest/including(required:)``) or have a nil parent
    /// (``QueryInterfaceRequest/including(optional:)``).
    public func filter(_ predicate: some SQLExpressible) -> Self {
        var association = self
        association.request = request.filter(predicate)
        return association
    }
}
