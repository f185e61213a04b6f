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
    package let link: AssociationLink
    /// The children's filter and order; its limit applies per parent.
    package var request: QueryInterfaceRequest<Destination>

    /// The association's name: the key of the children in a nested result (`cities`).
    public var key: String { link.key }

    /// The foreign key column in the child table; for a foreign key of several columns, the first of
    /// ``foreignKeyColumns``.
    public var foreignKey: String { link.foreignKey }

    /// The foreign key columns in the child table, in the order of the parent key columns they hold: one for
    /// most associations, several for a parent with a composite key (`["country_code", "admin1_code"]`).
    public var foreignKeyColumns: [String] { link.foreignKeys }

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
    /// in ``Record/request(for:)-(HasManyAssociation<Self,Child>)``, at most `limit` rows.
    public func limit(_ limit: Int) -> Self {
        var association = self
        association.request = request.limit(limit)
        return association
    }
}
