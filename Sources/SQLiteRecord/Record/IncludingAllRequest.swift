/// A request for records with all their children, made by ``QueryInterfaceRequest/including(all:)``: two
/// queries for any number of parents, one for the parents and one for all their children
/// (`WHERE "country_id" IN (...)`), never one per parent.
///
/// ```swift
/// struct CountryWithCities: Decodable {
///     var country: Country
///     var cities: [City]
/// }
/// let countries = try Country.order(Column("name").ascending)
///     .including(all: Country.cities.order(Column("population").descending).limit(3))
///     .fetch(db, as: CountryWithCities.self)
/// ```
///
/// The result type's keys are the base record type's name in lower camel case (`country`) and the
/// association's ``HasManyAssociation/key`` (`cities`).
public struct IncludingAllRequest<Base: Record, Child: Record>: Sendable {
    let base: QueryInterfaceRequest<Base>
    let association: HasManyAssociation<Base, Child>

    /// The parents with their children, each as a value of `type`.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` when a table lacks the foreign key
    ///   or key column, or `type`'s keys are not the two the request provides; otherwise as
    ///   ``QueryInterfaceRequest/fetch(_:)``.
    public func fetch<T: Decodable>(_ db: Database, as type: T.Type) throws -> [T] {
        let baseKey = AssociationLink.lowerCamelName(of: Base.self)
        return try fetchGroups(db).map { parent, children in
            try T(
                from: NestedResultDecoder(
                    values: [(baseKey, parent), (association.key, children)],
                    association: association.link.description, resultType: T.self))
        }
    }

    /// The parents with their children, as pairs.
    /// - Throws: as ``fetch(_:as:)``.
    public func fetchGroups(_ db: Database) throws -> [(Base, [Child])] {
        try Base.explainingMissingTable {
            let link = association.link
            try link.check(db)
            guard base.selection.isEmpty else {
                throw RecordError.invalidQuery(
                    table: Base.tableName, reason: "including(all:) needs whole records: remove the select(...)")
            }
            let parentQuery = try base.compiled(db, .select)
            var parents: [Base] = []
            var keys: [SQLiteValue] = []
            try db.withStatement(sql: parentQuery.sql, arguments: parentQuery.arguments) { statement in
                let keyIndex = try Self.index(of: link.parentKey, in: statement, table: Base.tableName)
                let context = RowDecodingContext(
                    statement: statement, tableName: Base.tableName, missingOptionalColumnIsNil: false,
                    decoder: Base.rowDecoder)
                while try statement.step() {
                    parents.append(try context.decodeRow(Base.self))
                    keys.append(statement.value(at: keyIndex))
                }
            }
            var seen = Set<SQLiteValue>()
            let distinctKeys = keys.filter { $0 != .null && seen.insert($0).inserted }
            var children: [SQLiteValue: [Child]] = [:]
            if !distinctKeys.isEmpty {
                // The association's limit is per parent: every matching child is read, the first ones kept.
                var request = association.request
                let perParent = request.limitCount
                request.limitCount = nil
                request.offsetCount = nil
                request = request.filter(
                    SQLExpression(
                        .list(.column(Column(link.foreignKey)), distinctKeys.map { .forms([$0]) }, negated: false)))
                let childQuery = try request.compiled(db, .select)
                try db.withStatement(sql: childQuery.sql, arguments: childQuery.arguments) { statement in
                    let keyIndex = try Self.index(of: link.foreignKey, in: statement, table: Child.tableName)
                    let context = RowDecodingContext(
                        statement: statement, tableName: Child.tableName, missingOptionalColumnIsNil: false,
                        decoder: Child.rowDecoder)
                    // Children arrive grouped by parent when SQLite walks the foreign key's index: a run of
                    // one key fills a local array, hashed into the dictionary once when the key changes.
                    var runKey = SQLiteValue.null
                    var run: [Child] = []
                    while try statement.step() {
                        let key = statement.value(at: keyIndex)
                        if key != runKey {
                            if !run.isEmpty { children[runKey, default: []] += run }
                            run = children.removeValue(forKey: key) ?? []
                            runKey = key
                        }
                        if let perParent, run.count >= perParent { continue }
                        run.append(try context.decodeRow(Child.self))
                    }
                    if !run.isEmpty { children[runKey, default: []] += run }
                }
            }
            var groups: [(Base, [Child])] = []
            groups.reserveCapacity(parents.count)
            for (parent, key) in zip(parents, keys) { groups.append((parent, children[key] ?? [])) }
            return groups
        }
    }

    /// The index of the result column `name`, as SQLite matches names.
    static func index(of name: String, in statement: Statement, table: String) throws -> Int32 {
        let folded = RowLayout.asciiLowercased(name)
        guard let index = statement.columnNames.firstIndex(where: { RowLayout.asciiLowercased($0) == folded }) else {
            throw RecordError.unknownColumn(table: table, column: name, columns: statement.columnNames)
        }
        return Int32(index)
    }
}

extension QueryInterfaceRequest {
    /// These records with all their children by `association`, fetched in two queries however many records
    /// there are: see ``IncludingAllRequest``.
    public func including<Child>(all association: HasManyAssociation<Base, Child>) -> IncludingAllRequest<Base, Child> {
        IncludingAllRequest(base: self, association: association)
    }
}

extension Record {
    /// Every record with all its children by `association`: `Country.including(all: Country.cities)`.
    public static func including<Child>(
        all association: HasManyAssociation<Self, Child>
    ) -> IncludingAllRequest<Self, Child> {
        all().including(all: association)
    }
}
