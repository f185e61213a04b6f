/// A request for records with the records they reach through another table, made by
/// ``QueryInterfaceRequest/including(all:)->IncludingThroughRequest<Base,Target>`` (children) and
/// ``QueryInterfaceRequest/including(optional:)->IncludingThroughRequest<Base,Target>`` and
/// `including(required:)` (one target): one query per level, three in all whatever the number of records
/// (the records, the pivot rows of all of them, the targets of all pivot rows), never one per record.
///
/// ```swift
/// struct BookWithTags: Decodable {
///     var book: Book
///     var tags: [Tag]
/// }
/// let books = try Book.order(Column("title").ascending).including(all: Book.tags).fetch(db, as: BookWithTags.self)
/// // SELECT * FROM "books" ORDER BY "title" ASC
/// // SELECT * FROM "book_tags" WHERE "book_id" IN (?, ?, ?)
/// // SELECT * FROM "tags" WHERE "id" IN (?, ?)
/// ```
///
/// The result type's keys are the base record type's name in lower camel case (`book`) and the association's
/// key (`tags`): an array for a has-many-through association, an Optional for `including(optional:)`, the
/// target itself for `including(required:)`, which leaves out a record that has none. Records and keys are
/// matched by the values the records encode, so that the same code runs on every engine.
public struct IncludingThroughRequest<Base: Record, Target: Record>: Sendable {
    package let base: QueryInterfaceRequest<Base>
    package let path: ThroughPath<Target>
    /// How each record's targets go into the result.
    package let form: Form

    /// How each record's targets go into the result.
    package enum Form: Sendable {
        /// `[Target]`.
        case all
        /// `Target?`.
        case optional
        /// `Target`; a record with none is left out.
        case required
    }

    /// The records with their targets, each as a value of `type` (see ``IncludingThroughRequest``).
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` when the steps do not chain, a table
    ///   lacks a foreign key or key column (saying to name it with `using:`), or `type`'s keys are not the
    ///   ones the request provides; ``RecordError/invalidQuery(table:reason:)`` for a request with a
    ///   selection; otherwise as ``QueryInterfaceRequest/fetch(_:)``.
    public func fetch<T: Decodable>(_ db: some DatabaseConnection, as type: T.Type) throws -> [T] {
        let link = path.resultLink
        return try fetchGroups(db).compactMap { record, targets in
            let value: Any
            switch form {
            case .all: value = targets
            case .optional: value = targets.first as Target? as Any
            case .required:
                guard let first = targets.first else { return nil }
                value = first
            }
            return try link.decodeNested(T.self, values: [(path.originKey, record), (path.key, value)])
        }
    }

    /// The records with their targets as pairs, in the records' order: every target of a has-many-through
    /// association, at most one of a has-one-through association (a record with none is left out by
    /// `including(required:)`).
    /// - Throws: as ``fetch(_:as:)``.
    public func fetchGroups(_ db: some DatabaseConnection) throws -> [(Base, [Target])] {
        guard base.parts.selectsRecords else {
            throw RecordError.invalidQuery(
                table: Base.tableName,
                reason: "including a through association needs whole records: remove the select(...)")
        }
        try path.checkChain()
        let records = try base.fetch(db)
        let groups = try path.targets(db, of: records)
        guard form != .all else { return Array(zip(records, groups)) }
        return zip(records, groups).compactMap { record, targets in
            form == .required && targets.isEmpty ? nil : (record, Array(targets.prefix(1)))
        }
    }
}

extension IncludingThroughRequest where Base: Sendable, Target: Sendable {
    /// ``fetch(_:as:)`` in a read-only transaction of `writer`: the three queries see one snapshot.
    /// - Throws: as ``fetch(_:as:)``.
    public func fetch<T: Decodable & Sendable>(
        _ writer: some AsyncDatabaseWriter, as type: T.Type
    ) async throws
        -> [T]
    {
        try await writer.read { db in try self.fetch(db, as: T.self) }
    }

    /// ``fetchGroups(_:)`` in a read-only transaction of `writer`.
    /// - Throws: as ``fetch(_:as:)``.
    public func fetchGroups(_ writer: some AsyncDatabaseWriter) async throws -> [(Base, [Target])] {
        try await writer.read { db in try self.fetchGroups(db) }
    }
}

extension ThroughPath {
    /// The targets of each of `records`, in their order: one query for the pivot rows of all records, one
    /// for the targets of all pivot rows; none for no keys. Each pivot row gives its targets, in the pivot
    /// association's order, or (``ordersTargets``) sorted by the target request's order, ties in pivot order.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` for a key or foreign key column a
    ///   record or table lacks; what the queries throw.
    func targets<Origin: Record>(_ db: any DatabaseConnection, of records: [Origin]) throws -> [[Destination]] {
        // Each record's key in the pivot step's origin columns; nil for a NULL, which matches no row.
        let keys = try records.map { record -> [SQLiteValue]? in
            let key = try record.encodedValues(of: pivot.originColumns, for: pivot.link)
            return key.contains(.null) ? nil : key
        }
        var seen = Set<[SQLiteValue]>()
        let distinctKeys = keys.compactMap { $0 }.filter { seen.insert($0).inserted }
        let pivotRows = try pivot.destinations(db, distinctKeys, target.originColumns, target.link)
        var pivotsByKey: [[SQLiteValue]: [[SQLiteValue]]] = [:]
        var targetKeys = Set<[SQLiteValue]>()
        var distinctTargetKeys: [[SQLiteValue]] = []
        for row in pivotRows where !row.values.contains(.null) {
            pivotsByKey[row.key, default: []].append(row.values)
            if targetKeys.insert(row.values).inserted { distinctTargetKeys.append(row.values) }
        }
        let targets = try AssociationStep.fetch(
            request, db, matching: target.destinationColumns, keys: distinctTargetKeys, link: target.link)
        // Each target by its key, with its place in the target query's order.
        var targetsByKey: [[SQLiteValue]: [(position: Int, record: Destination)]] = [:]
        for (position, record) in targets.enumerated() {
            let key = try record.encodedValues(of: target.destinationColumns, for: target.link)
            targetsByKey[key, default: []].append((position, record))
        }
        return keys.map { key in
            guard let key, let pivots = pivotsByKey[key] else { return [] }
            var found = pivots.flatMap { targetsByKey[$0] ?? [] }
            if ordersTargets {
                // Stable: the sort keeps pivot order among targets the order ranks alike.
                found = found.enumerated().sorted {
                    ($0.element.position, $0.offset) < ($1.element.position, $1.offset)
                }
                .map(\.element)
            }
            let children = found.map(\.record)
            guard let limitPerOrigin else { return children }
            return Array(children.prefix(limitPerOrigin))
        }
    }
}

extension QueryInterfaceRequest {
    /// These records with all the records `association` reaches through its pivot table, in three queries
    /// however many records there are: see ``IncludingThroughRequest``.
    public func including<Target>(
        all association: HasManyThroughAssociation<Base, Target>
    ) -> IncludingThroughRequest<Base, Target> {
        IncludingThroughRequest(base: self, path: association.path, form: .all)
    }

    /// These records with the record `association` reaches through its pivot, or nil.
    public func including<Target>(
        optional association: HasOneThroughAssociation<Base, Target>
    ) -> IncludingThroughRequest<Base, Target> {
        IncludingThroughRequest(base: self, path: association.path, form: .optional)
    }

    /// These records with the record `association` reaches through its pivot; a record that reaches none (a
    /// NULL foreign key, a missing row, a target the association's filter leaves out) is left out.
    public func including<Target>(
        required association: HasOneThroughAssociation<Base, Target>
    ) -> IncludingThroughRequest<Base, Target> {
        IncludingThroughRequest(base: self, path: association.path, form: .required)
    }
}

extension Record {
    /// Every record with all the records `association` reaches: `Book.including(all: Book.tags)`.
    public static func including<Target>(
        all association: HasManyThroughAssociation<Self, Target>
    ) -> IncludingThroughRequest<Self, Target> {
        all().including(all: association)
    }

    /// Every record with the record `association` reaches, or nil: `City.including(optional: City.continent)`.
    public static func including<Target>(
        optional association: HasOneThroughAssociation<Self, Target>
    ) -> IncludingThroughRequest<Self, Target> {
        all().including(optional: association)
    }

    /// Every record that reaches a record by `association`, with it.
    public static func including<Target>(
        required association: HasOneThroughAssociation<Self, Target>
    ) -> IncludingThroughRequest<Self, Target> {
        all().including(required: association)
    }
}
