/// A request for records with all their children, made by
/// ``QueryInterfaceRequest/including(all:)->IncludingAllRequest<Base,Child>``: two queries for any number of
/// parents, one for the parents and one for all their children (`WHERE "country_id" IN (...)`), never one per
/// parent.
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
    package let base: QueryInterfaceRequest<Base>
    package let association: HasManyAssociation<Base, Child>
    /// The associations added with ``including(all:)``, each loaded by one more query.
    package var more: [any EagerLoadedAssociation] = []

    /// SQLite's eager load: ``DatabaseConnection/fetchNested(_:as:)``.
    func fetch<T: Decodable>(_ db: Database, as type: T.Type) throws -> [T] {
        let link = association.link
        if readsKeyRows { return try fetchByKeyRows(db, as: type) }
        guard !more.isEmpty else {
            return try fetchGroups(db).map { parent, children in
                try T(
                    from: NestedResultDecoder(
                        values: [(link.originKey, parent), (link.key, children)], association: link,
                        resultType: T.self))
            }
        }
        return try Base.explainingMissingTable {
            try checkAddedAssociations(db)
            let (parents, parentKeys, distinctKeys) = try fetchParents(db)
            let children = try association.children(db, of: distinctKeys)
            let others = try more.map { try $0.loadChildren(db, of: distinctKeys) }
            return try zip(parents, parentKeys).map { parent, key in
                var values: [(key: String, value: Any)] = [(link.originKey, parent), (link.key, children[key] ?? [])]
                for (loader, loaded) in zip(more, others) {
                    values.append((loader.link.key, loaded[key] ?? loader.noChildren))
                }
                return try T(from: NestedResultDecoder(values: values, association: link, resultType: T.self))
            }
        }
    }

    /// SQLite's eager load of one association: ``DatabaseConnection/fetchGroups(_:)``.
    func fetchGroups(_ db: Database) throws -> [(Base, [Child])] {
        if association.link.isComposite { return try fetchGroupsByKeyRows(db) }
        return try Base.explainingMissingTable {
            let (parents, keys, distinctKeys) = try fetchParents(db)
            let children = try association.children(db, of: distinctKeys)
            var groups: [(Base, [Child])] = []
            groups.reserveCapacity(parents.count)
            for (parent, key) in zip(parents, keys) { groups.append((parent, children[key] ?? [])) }
            return groups
        }
    }

    /// These records with their children by `association` too, read by one more query: a country with its
    /// cities and its airports, into a nested result with one more key (`var airports: [Airport]`).
    public func including<Other>(all association: HasManyAssociation<Base, Other>) -> Self {
        var request = self
        request.more.append(association)
        return request
    }

    /// Throws unless each association added with ``including(all:)`` links columns its tables have and has a
    /// key of its own in the nested result.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)``.
    func checkAddedAssociations(_ db: Database) throws {
        let link = association.link
        var keys = Set([link.originKey, link.key])
        for loader in more {
            try loader.link.check(db)
            if !keys.insert(loader.link.key).inserted {
                throw RecordError.invalidAssociation(
                    association: loader.link.description,
                    reason: "another association of the same eager load has the key \"\(loader.link.key)\": "
                        + "give one another name with `key:`")
            }
        }
    }

    /// True when a link of the load has several columns, or another parent column than the first link's: the
    /// loads whose parent keys are rows of values (``fetchByKeyRows(_:as:)``). Every other load reads one
    /// parent column, and groups children by a single value.
    private var readsKeyRows: Bool {
        let link = association.link
        if link.isComposite { return true }
        let parentKey = RowLayout.asciiLowercased(link.parentKey)
        return more.contains { $0.link.isComposite || RowLayout.asciiLowercased($0.link.parentKey) != parentKey }
    }

    /// The parents, their keys in the same order, and the distinct keys that are not NULL.
    private func fetchParents(_ db: Database) throws -> ([Base], [SQLiteValue], [SQLiteValue]) {
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
        return (parents, keys, keys.filter { $0 != .null && seen.insert($0).inserted })
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

extension HasManyAssociation {
    /// The children of the parents whose keys are `keys`, by parent key, in one query
    /// (`WHERE "fk" IN (...)`); the association's limit applies per parent. No query for no keys. A child
    /// whose foreign key holds its parent's key in another storage class (the text '1' in a TEXT column for
    /// the id 1, which the IN matched) is under the parent's key (``ParentKeyForms``). The caller has checked
    /// the link (``AssociationLink/check(_:)``).
    /// - Throws: what the query throws.
    func children(_ db: Database, of keys: [SQLiteValue]) throws -> [SQLiteValue: [Destination]] {
        guard !keys.isEmpty else { return [:] }
        // The association's limit is per parent: every matching child is read, the first ones kept.
        var request = self.request
        let perParent = request.limitCount
        request.limitCount = nil
        request.offsetCount = nil
        request = request.filter(
            SQLExpression(.list(.column(Column(link.foreignKey)), keys.map { .forms([$0]) }, negated: false)))
        let childQuery = try request.compiled(db, .select)
        var children: [SQLiteValue: [Destination]] = [:]
        try db.withStatement(sql: childQuery.sql, arguments: childQuery.arguments) { statement in
            let keyIndex = try IncludingAllRequest<Origin, Destination>.index(
                of: link.foreignKey, in: statement, table: Destination.tableName)
            let context = RowDecodingContext(
                statement: statement, tableName: Destination.tableName, missingOptionalColumnIsNil: false,
                decoder: Destination.rowDecoder)
            // Children arrive grouped by parent when SQLite walks the foreign key's index: a run of one key
            // fills a local array, hashed into the dictionary once when the key changes. The run of a key
            // is taken out of the dictionary when the key comes back, so storing it never copies its records.
            // A foreign key SQLite matched through its column's affinity is grouped under its parent's key.
            var parentKeys = ParentKeyForms(keys)
            var runKey = SQLiteValue.null
            var run: [Destination] = []
            // Reserving before the loop makes the compiler look up the metadata of `[Destination]` once
            // rather than before every append (this code runs unspecialized).
            run.reserveCapacity(4)
            while try statement.step() {
                if !statement.row.holds(runKey, at: keyIndex) {
                    if !run.isEmpty { children[runKey] = run }
                    runKey = parentKeys.parentKey(for: statement.value(at: keyIndex))
                    run = children.removeValue(forKey: runKey) ?? []
                }
                if let perParent, run.count >= perParent { continue }
                run.append(try context.decodeRow(Destination.self))
            }
            if !run.isEmpty { children[runKey] = run }
        }
        return children
    }
}

/// One more association of an eager load, with its child type erased: what
/// ``IncludingAllRequest/including(all:)`` adds to a request.
package protocol EagerLoadedAssociation: Sendable {
    var link: AssociationLink { get }
    /// ``HasManyAssociation/children(_:of:)``, each parent's children a `[Child]` in an `Any`.
    func loadChildren(_ db: Database, of keys: [SQLiteValue]) throws -> [SQLiteValue: Any]
    /// ``HasManyAssociation/children(_:ofKeyRows:)``, each parent's children a `[Child]` in an `Any`.
    func loadChildren(_ db: Database, ofKeyRows rows: [[SQLiteValue]]) throws -> [[SQLiteValue]: Any]
    /// The children of a parent that has none: an empty `[Child]`.
    var noChildren: Any { get }
}

extension HasManyAssociation: EagerLoadedAssociation {
    package func loadChildren(_ db: Database, of keys: [SQLiteValue]) throws -> [SQLiteValue: Any] {
        try children(db, of: keys)
    }

    package func loadChildren(_ db: Database, ofKeyRows rows: [[SQLiteValue]]) throws -> [[SQLiteValue]: Any] {
        try children(db, ofKeyRows: rows)
    }

    package var noChildren: Any { [Destination]() }
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

/// SQLite's answers to the engine-neutral eager loads.
extension Database {
    @_spi(RecordEngine)
    public func fetchGroups<Base: Record, Child: Record>(_ request: IncludingAllRequest<Base, Child>) throws
        -> [(Base, [Child])]
    {
        try request.fetchGroups(self)
    }

    @_spi(RecordEngine)
    public func fetchNested<Base: Record, Child: Record, T: Decodable>(
        _ request: IncludingAllRequest<Base, Child>, as type: T.Type
    ) throws -> [T] {
        try request.fetch(self, as: T.self)
    }
}
