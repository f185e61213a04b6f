/// A parent's link to the one record of a child table whose foreign key holds the parent's key: a country
/// has one anthem. Declare it once, as a static property of the parent type, with
/// ``Record/hasOne(_:key:using:)``:
///
/// ```swift
/// extension Country {
///     static let anthem = hasOne(Anthem.self)  // "anthems"."country_id" -> "countries"."id"
/// }
/// let anthem = try france.request(for: Country.anthem).fetchOne(db)
/// let rows = try Country.all().including(optional: Country.anthem).fetch(db, as: CountryWithAnthem.self)
/// ```
///
/// The child table should hold at most one row per parent (a `UNIQUE` foreign key): a joined fetch gives
/// one row per matching child, as SQL's JOIN does.
public struct HasOneAssociation<Origin: Record, Destination: Record>: Sendable {
    package let link: AssociationLink
    /// The child's filter, for the request of one record's child and for joined fetches.
    package var request: QueryInterfaceRequest<Destination>

    /// The association's name: the key of the child in a nested result (`anthem`).
    public var key: String { link.key }

    /// The foreign key column in the child table; for a foreign key of several columns, the first of
    /// ``foreignKeyColumns``.
    public var foreignKey: String { link.foreignKey }

    /// The foreign key columns in the child table, in the order of the parent key columns they hold: one for
    /// most associations, several for a parent with a composite key (`["country_code", "admin1_code"]`).
    public var foreignKeyColumns: [String] { link.foreignKeys }

    /// Only the children that match `predicate` (ANDed with the filters so far): a parent whose child does
    /// not match has none.
    public func filter(_ predicate: some SQLExpressible) -> Self {
        var association = self
        association.request = request.filter(predicate)
        return association
    }

    /// True for a parent with a child that matches the association's filter:
    /// `EXISTS (SELECT 1 FROM "anthems" WHERE "anthems"."country_id" = "countries"."id" AND (...))`.
    ///
    /// ```swift
    /// let countriesWithAnthem = try Country.filter(Country.anthem.exists).fetch(db)
    /// ```
    public var exists: SQLExpression { link.subquery("EXISTS (SELECT 1", over: request) }
}
