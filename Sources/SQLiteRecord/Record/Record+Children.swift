extension Record {
    /// Saves this record, then each child after setting its foreign key to this record's key (which it has
    /// by then), all in one transaction.
    ///
    /// The foreign key comes from the child type's declaration: the one ``BelongsToAssociation`` to this
    /// type that it lists in ``Record/parentAssociations`` (`static let parentAssociations:
    /// [any ParentAssociation] = [country]`), so a type that declares its parent writes no
    /// ``Record/bind(to:)``. The child's ``Record/bind(to:)`` is called after that, with this record: a type
    /// that writes its own keeps it, and has the last word on every property. A child type that lists no
    /// association to this type is bound by its ``Record/bind(to:)`` alone, as before associations.
    ///
    /// All or nothing, in the database and in memory: when any save fails, every row is rolled back and
    /// this record and `children` are put back exactly as they were before the call (no id is left on a
    /// record whose row was rolled back). Called inside a transaction of the caller's (in
    /// ``DatabaseQueue/write(_:)-3p679``), the call runs in a savepoint and that guarantee covers the savepoint: a
    /// caller who later rolls back its own transaction owns the records it passed in, whose ids then name
    /// rows that no longer exist.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` when the child type lists two or more
    ///   associations to this type (say which with ``save(_:children:for:)``) or a child encodes no foreign key
    ///   column; otherwise the first error a save throws (``DatabaseError`` for a violated constraint,
    ///   ``RecordError/recordNotFound(table:id:)`` for an update whose row is gone). Nothing is saved then.
    public mutating func save<Child: Record>(_ db: Database, children: inout [Child]) throws {
        try save(db, children: &children, link: Self.declaredLink(to: Child.self))
    }

    /// Saves this record, then each child after setting the foreign key column of `association` to this
    /// record's key, all in one transaction: ``save(_:children:)`` with the association named, for a child
    /// type with two links to this type (`Country.hasMany(Flight.self, using: "origin_id")`) or one that does
    /// not list its parent in ``Record/parentAssociations``. The child's ``Record/bind(to:)`` is called after,
    /// as there.
    /// - Throws: as ``save(_:children:)``.
    public mutating func save<Child: Record>(
        _ db: Database, children: inout [Child], for association: HasManyAssociation<Self, Child>
    ) throws {
        try save(db, children: &children, link: association.link)
    }

    /// The save of ``save(_:children:)``, setting each child's foreign key by `link` when there is one.
    private mutating func save<Child: Record>(
        _ db: Database, children: inout [Child], link: AssociationLink?
    ) throws {
        let original = self
        let originalChildren = children
        do {
            try db.transaction(.immediate) {
                try save(db)
                let key = try link.map { try parentKeyValues(forChildrenOf: $0) }
                for index in children.indices {
                    try db.checkCancellation()
                    try bindChild(&children[index], link: link) { child, link in
                        try child.bound(by: link, to: key ?? [], in: db)
                    }
                    try children[index].save(db)
                }
            }
        } catch {
            self = original
            children = originalChildren
            throw error
        }
    }

    /// Binds `child` to this record before its save, as ``save(_:children:)`` does on every engine: `link`'s
    /// foreign key columns set to this record's key by `setForeignKey` (the engine's encoding and decoding),
    /// when there is a link (the association named, or the one ``declaredLink(to:)`` finds), then the child's
    /// ``Record/bind(to:)``, which has the last word.
    /// - Throws: what `setForeignKey` throws.
    package func bindChild<Child: Record>(
        _ child: inout Child, link: AssociationLink?, setForeignKey: (Child, AssociationLink) throws -> Child
    ) rethrows {
        if let link { child = try setForeignKey(child, link) }
        child.bind(to: self)
    }

    /// The link of the one belongs-to association to `Child`'s parent type `Self` that `Child` lists in its
    /// ``Record/parentAssociations``; nil when it lists none.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` when it lists more than one.
    package static func declaredLink<Child: Record>(to child: Child.Type) throws -> AssociationLink? {
        let links = Child.parentAssociations.compactMap { ($0 as? any ParentLink)?.link(toParent: Self.self) }
        guard links.count > 1 else { return links.first }
        throw RecordError.invalidAssociation(
            association: links.map(\.description).joined(separator: " and "),
            reason: "\(Child.self) lists \(links.count) associations to \(Self.self) in parentAssociations, so "
                + "save(_:children:) cannot tell which foreign key to set: name one with save(_:children:for:)")
    }

    /// The values of this record's key columns that `link`'s foreign key columns hold, in their order, as
    /// this record stores them.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` when the link's column counts differ
    ///   or this record encodes no such column, or `EncodingError`.
    private func parentKeyValues(forChildrenOf link: AssociationLink) throws -> [SQLiteValue] {
        if link.isComposite { try link.checkColumnCounts() }
        do {
            return try link.parentKeys.map { try storedValue(of: $0) }
        } catch RecordError.unknownColumn(_, let column, let columns) {
            throw RecordError.invalidAssociation(
                association: link.description, reason: Self.encodesNoColumn(column, columns))
        }
    }

    /// This child with `link`'s foreign key columns set to `key`, column by column.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` when this record encodes no foreign
    ///   key column, or the errors of ``settingColumn(_:to:in:)``.
    private func bound(by link: AssociationLink, to key: [SQLiteValue], in db: Database) throws -> Self {
        do {
            return try settingColumns(link.foreignKeys, to: key, in: db)
        } catch RecordError.unknownColumn(_, let column, let columns) {
            throw RecordError.invalidAssociation(
                association: link.description, reason: Self.encodesNoColumn(column, columns))
        }
    }

    /// `City encodes no "country_id" column; it encodes "id", "name"`.
    package static func encodesNoColumn(_ column: String, _ columns: [String]) -> String {
        "\(Self.self) encodes no \"\(column)\" column; it encodes "
            + columns.map { "\"\($0)\"" }.joined(separator: ", ")
    }

    /// ``save(_:children:)`` through the default queue (``RecordStore``), in a transaction of its own.
    /// - Throws: as ``save(_:children:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public mutating func save<Child: Record>(children: inout [Child]) throws {
        try saveInDefaultQueue(children: &children) { parent, db, children in try parent.save(db, children: &children) }
    }

    /// ``save(_:children:for:)`` through the default queue (``RecordStore``), in a transaction of its own.
    /// - Throws: as ``save(_:children:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public mutating func save<Child: Record>(
        children: inout [Child], for association: HasManyAssociation<Self, Child>
    ) throws {
        try saveInDefaultQueue(children: &children) { parent, db, children in
            try parent.save(db, children: &children, for: association)
        }
    }

    /// Runs `save` in a write of the default queue.
    private mutating func saveInDefaultQueue<Child: Record>(
        children: inout [Child], _ save: (inout Self, Database, inout [Child]) throws -> Void
    ) throws {
        let queue = try RecordStore.defaultQueue()
        // save(_:children:) restores the records when it throws; this restores them when the COMMIT after it
        // fails.
        let original = self
        let originalChildren = children
        do {
            try queue.write { db in try save(&self, db, &children) }
        } catch {
            self = original
            children = originalChildren
            throw error
        }
    }

    /// Deletes each child's row, then this record's, in one transaction: all or nothing. Children go first
    /// so that their foreign keys never point at a deleted parent.
    /// - Returns: true when this record's row was deleted.
    /// - Throws: ``RecordError/recordNotSaved(table:)`` for a record with no id, what a ``willDelete(_:)``
    ///   throws, or ``DatabaseError`` (another row still references one of them); nothing is deleted then.
    @discardableResult
    public func delete<Child: Record>(_ db: Database, with children: [Child]) throws -> Bool {
        try db.transaction(.immediate) {
            for child in children {
                try db.checkCancellation()
                try child.delete(db)
            }
            return try delete(db)
        }
    }

    /// ``delete(_:with:)`` through the default queue (``RecordStore``).
    /// - Throws: as ``delete(_:with:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public func delete<Child: Record>(with children: [Child]) throws -> Bool {
        try RecordStore.defaultQueue().write { db in try delete(db, with: children) }
    }
}
