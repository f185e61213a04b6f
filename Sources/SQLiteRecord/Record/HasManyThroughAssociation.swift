/// A record's link to the records of another table reached through a third: a book has many tags through
/// its book-tag rows (many-to-many), a document has many paragraphs through its sections. Declare it once,
/// as a static property of the origin type, with ``Record/hasMany(_:key:through:using:)``, from two
/// associations: the one to the pivot and the pivot's own to the target.
///
/// ```swift
/// extension Book {
///     static let bookTags = hasMany(BookTag.self)
///     static let tags = hasMany(Tag.self, through: bookTags, using: BookTag.tag)
/// }
/// let books = try Book.including(all: Book.tags).fetch(db, as: BookWithTags.self)
/// let tagged = try Book.filter(Book.tags.filter(Column("name") == "poetry").exists).fetch(db)
/// ```
///
/// Each pivot row gives one child, as a join gives one row per pivot row (GRDB does the same): a book
/// linked to one tag by two book-tag rows has that tag twice, and a pivot row whose target is missing gives
/// none. The children come in the pivot association's order (`hasMany(BookTag.self).order(...)`), each
/// pivot row's targets in the second association's order; ``order(_:)`` on this association sorts them all
/// by the target's columns instead.
public struct HasManyThroughAssociation<Origin: Record, Destination: Record>: Sendable {
    package var path: ThroughPath<Destination>

    /// The association's name: the key of the children in a nested result (`tags`).
    public var key: String { path.key }

    /// Only the targets that match `predicate` (ANDed with the filters so far), a filter on the target's
    /// columns.
    public func filter(_ predicate: some SQLExpressible) -> Self {
        var association = self
        association.path.request = path.request.filter(predicate)
        return association
    }

    /// The children sorted by the target's `orderings` (ties in pivot order), replacing the pivot's order.
    public func order(_ orderings: any SQLOrderingTerm...) -> Self {
        var association = self
        association.path.request = path.request.order(orderings)
        association.path.ordersTargets = true
        return association
    }

    /// At most `limit` children per origin record in an eager load: the first ones in the association's order.
    public func limit(_ limit: Int) -> Self {
        var association = self
        association.path.limitPerOrigin = max(0, limit)
        return association
    }

    /// True for an origin record with at least one target that matches the association's filters:
    /// `EXISTS (SELECT 1 FROM "book_tags" AS "#pivot" JOIN "tags" AS "#target" ON "#pivot"."tag_id" =
    /// "#target"."id" WHERE "#pivot"."book_id" = "books"."id" AND (...))`.
    ///
    /// ```swift
    /// let poetry = try Book.filter(Book.tags.filter(Column("name") == "poetry").exists).fetch(db)
    /// ```
    public var exists: SQLExpression { path.exists(from: Origin.self) }
}

/// A record's link to the one record of another table reached through a third: a city's continent, through
/// its country. Declare it with ``Record/hasOne(_:key:through:using:)`` from two associations to one
/// (``BelongsToAssociation`` or ``HasOneAssociation``):
///
/// ```swift
/// extension City {
///     static let continent = hasOne(Continent.self, through: City.country, using: Country.continent)
/// }
/// let cities = try City.including(optional: City.continent).fetch(db, as: CityWithContinent.self)
/// ```
public struct HasOneThroughAssociation<Origin: Record, Destination: Record>: Sendable {
    package var path: ThroughPath<Destination>

    /// The association's name: the key of the target in a nested result (`continent`).
    public var key: String { path.key }

    /// Only the target when it matches `predicate`: an origin record whose target does not match has none.
    public func filter(_ predicate: some SQLExpressible) -> Self {
        var association = self
        association.path.request = path.request.filter(predicate)
        return association
    }

    /// True for an origin record that has a target matching the association's filters, as
    /// ``HasManyThroughAssociation/exists`` writes it.
    public var exists: SQLExpression { path.exists(from: Origin.self) }
}

/// Declaring through associations.
extension Record {
    /// Declares that records of this type have many records of `target` type, reached through the records
    /// `pivot` leads to: `Book.hasMany(Tag.self, through: Book.hasMany(BookTag.self), using:
    /// BookTag.belongsTo(Tag.self))`. Each association names its own foreign key (with `using:` when the
    /// convention does not guess it).
    /// - Parameters:
    ///   - target: The target record type.
    ///   - key: The association's name, the key of the children in a nested result; by default the target
    ///     table's name (`tags`).
    ///   - pivot: The association from this type to the pivot (``HasManyAssociation``,
    ///     ``BelongsToAssociation`` or ``HasOneAssociation``); its filter, order and limit say which pivot
    ///     rows count, in which order.
    ///   - targetAssociation: The pivot type's association to the target; its filter and order apply to the
    ///     targets.
    ///
    /// The steps are checked when a request first uses the association: a pivot association that leads to
    /// another table than the one the target association starts from, or a column a table lacks, throws
    /// ``RecordError/invalidAssociation(association:reason:)`` naming both record types and tables.
    public static func hasMany<Pivot: Association, Target: Association>(
        _ target: Target.Destination.Type, key: String? = nil, through pivot: Pivot, using targetAssociation: Target
    ) -> HasManyThroughAssociation<Self, Target.Destination>
    where Pivot.Origin == Self, Target.Origin == Pivot.Destination {
        let key = key ?? Target.Destination.tableName
        return HasManyThroughAssociation(
            path: ThroughPath(
                origin: Self.self, kind: "hasMany", key: key, pivot: pivot.associationStep,
                target: targetAssociation.associationStep))
    }

    /// Declares that each record of this type has at most one record of `target` type, reached through the
    /// one record `pivot` leads to: `City.hasOne(Continent.self, through: City.belongsTo(Country.self), using:
    /// Country.belongsTo(Continent.self))`.
    /// - Parameters:
    ///   - target: The target record type.
    ///   - key: The association's name, the key of the target in a nested result; by default the target
    ///     type's name in lower camel case (`continent`).
    ///   - pivot: The association from this type to the pivot: ``BelongsToAssociation`` or
    ///     ``HasOneAssociation``.
    ///   - targetAssociation: The pivot type's association to the target, to one as well.
    ///
    /// Checked as ``hasMany(_:key:through:using:)`` is.
    public static func hasOne<Pivot: AssociationToOne, Target: AssociationToOne>(
        _ target: Target.Destination.Type, key: String? = nil, through pivot: Pivot, using targetAssociation: Target
    ) -> HasOneThroughAssociation<Self, Target.Destination>
    where Pivot.Origin == Self, Target.Origin == Pivot.Destination {
        let key = key ?? AssociationLink.lowerCamelName(of: Target.Destination.self)
        return HasOneThroughAssociation(
            path: ThroughPath(
                origin: Self.self, kind: "hasOne", key: key, pivot: pivot.associationStep,
                target: targetAssociation.associationStep))
    }
}

/// The two steps of a through association and the target's request: what both kinds share.
package struct ThroughPath<Destination: Record>: Sendable {
    let pivot: AssociationStep
    let target: AssociationStep
    /// The target association's filter, order and limit (per pivot row), with this association's own
    /// filter and order.
    var request: QueryInterfaceRequest<Destination>
    /// True once ``HasManyThroughAssociation/order(_:)`` has sorted the children by the target's columns.
    var ordersTargets = false
    var limitPerOrigin: Int?
    let key: String
    /// The key of the origin record in a nested result (`book`).
    let originKey: String
    /// How the declaration reads, for errors: `Book.hasMany(Tag) "tags" through BookTag`.
    let declaration: String

    init<Origin: Record>(
        origin: Origin.Type, kind: String, key: String, pivot: AssociationStep, target: AssociationStep
    ) {
        self.pivot = pivot
        self.target = target
        self.key = key
        originKey = AssociationLink.lowerCamelName(of: Origin.self)
        request = (target.request as? QueryInterfaceRequest<Destination>) ?? Destination.all()
        declaration = "\(Origin.self).\(kind)(\(Destination.self)) \"\(key)\" through \(pivot.destinationType)"
    }

    /// The declaration with its tables: `Book.hasMany(Tag) "tags" through BookTag: "books" -> "book_tags" ->
    /// "tags"`.
    var description: String {
        declaration + ": \"\(pivot.originTable)\" -> \"\(pivot.destinationTable)\" -> \"\(target.destinationTable)\""
    }

    /// An association of the nested result's decoder to name in errors: this one, seen as a link from the
    /// origin's table to the target's.
    var resultLink: AssociationLink {
        AssociationLink(
            key: key, originKey: originKey, declaration: declaration, childTable: target.destinationTable,
            parentTable: pivot.originTable, foreignKeys: [], parentKeys: [])
    }

    /// Throws unless the pivot association leads to the table the target association starts from.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` naming both associations' record types
    ///   and tables.
    func checkChain() throws {
        guard pivot.destinationTable != target.originTable else { return }
        throw RecordError.invalidAssociation(
            association: description,
            reason: "the pivot association \(pivot.link.declaration) leads to \(pivot.destinationType) (table "
                + "\"\(pivot.destinationTable)\"), but the target association \(target.link.declaration) starts "
                + "from \(target.originType) (table \"\(target.originTable)\"): the target association must start "
                + "from the table the pivot association leads to")
    }
}
