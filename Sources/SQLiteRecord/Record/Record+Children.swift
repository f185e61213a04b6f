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
    public mutating func save<Child: Record>(_ db: some DatabaseConnection, children: inout [Child]) throws {
        try save(db, children: &children, link: Self.declaredLink(to: Child.self), ownTransaction: false)
    }

    /// Saves this record, then each child after setting the foreign key column of `association` to this
    /// record's key, all in one transaction: ``save(_:children:)`` with the association named, for a child
    /// type with two links to this type (`Country.hasMany(Flight.self, using: "origin_id")`) or one that does
    /// not list its parent in ``Record/parentAssociations``. The child's ``Record/bind(to:)`` is called after,
    /// as there.
    /// - Throws: as ``save(_:children:)``.
    public mutating func save<Child: Record>(
        _ db: some DatabaseConnection, children: inout [Child], for association: HasManyAssociation<Self, Child>
    ) throws {
        try save(db, children: &children, link: association.link, ownTransaction: false)
    }

    /// The save of ``save(_:children:)``, setting each child's foreign key by `link` when there is one.
    /// - Parameter ownTransaction: true when the caller's transaction is one the library opened for this call
    ///   alone (a pool's or the default queue's write), which rolls back when the call throws: the save then
    ///   needs no savepoint of its own.
    package mutating func save<Child: Record>(
        _ db: some DatabaseConnection, children: inout [Child], link: AssociationLink?, ownTransaction: Bool
    ) throws {
        let original = self
        let originalChildren = children
        do {
            if ownTransaction {
                try saveBinding(db, children: &children, link: link)
            } else {
                try db.inWriteTransaction { try saveBinding(db, children: &children, link: link) }
            }
        } catch {
            self = original
            children = originalChildren
            throw error
        }
    }

    /// Saves this record, then binds and saves each child, in the caller's transaction.
    private mutating func saveBinding<Child: Record>(
        _ db: some DatabaseConnection, children: inout [Child], link: AssociationLink?
    ) throws {
        try save(db)
        let parent = self
        // Made once for every child: where the foreign key goes, and the parent's key values.
        let setForeignKey = try link.map { link in
            if link.isComposite { try link.checkColumnCounts() }
            return try db.foreignKeySetter(
                Child.self, setting: link.foreignKeys, to: link.parentKeys, of: parent, association: link.description)
        }
        for index in children.indices {
            try db.checkCancellation()
            try bindChild(&children[index], link: link) { child, _ in try setForeignKey?(child) ?? child }
            try children[index].save(db)
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

    /// The values this record stores in `parentKeys`, in their order: what its children's foreign keys hold.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` naming `association` when this
    ///   record encodes no such column, or `EncodingError`.
    func parentKeyValues(_ parentKeys: [String], association: String) throws -> [SQLiteValue] {
        do {
            return try parentKeys.map { try storedValue(of: $0) }
        } catch RecordError.unknownColumn(_, let column, let columns) {
            throw RecordError.invalidAssociation(association: association, reason: Self.encodesNoColumn(column, columns))
        }
    }

    /// This child with its `foreignKeys` columns set to `key`, column by column.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` when this record encodes no foreign
    ///   key column, or the errors of ``settingColumn(_:to:in:)``.
    func bound(_ foreignKeys: [String], to key: [SQLiteValue], association: String, in db: Database) throws -> Self {
        do {
            return try settingColumns(foreignKeys, to: key, in: db)
        } catch RecordError.unknownColumn(_, let column, let columns) {
            throw RecordError.invalidAssociation(
                association: association, reason: Self.encodesNoForeignKey(column, columns))
        }
    }

    /// `City encodes no "country_id" column; it encodes "id", "name" (name the foreign key with `using:`)`:
    /// for a foreign key column, which the declaration names with `using:` when the convention's guess
    /// (``AssociationLink/conventionalForeignKey(for:)``) is not the column.
    package static func encodesNoForeignKey(_ column: String, _ columns: [String]) -> String {
        encodesNoColumn(column, columns) + AssociationLink.usingHint
    }

    /// `City encodes no "country_id" column; it encodes "id", "name"`.
    package static func encodesNoColumn(_ column: String, _ columns: [String]) -> String {
        "\(Self.self) encodes no \"\(column)\" column; it encodes "
            + columns.map { "\"\($0)\"" }.joined(separator: ", ")
    }

    /// ``save(_:children:)`` through the default queue (``RecordStore``), in a transaction of its own.
    /// - Throws: as ``save(_:children:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public mutating func save<Child: Record>(children: inout [Child]) throws {
        let link = try Self.declaredLink(to: Child.self)
        try saveInDefaultQueue(children: &children) { parent, db, children in
            try parent.save(db, children: &children, link: link, ownTransaction: true)
        }
    }

    /// ``save(_:children:for:)`` through the default queue (``RecordStore``), in a transaction of its own.
    /// - Throws: as ``save(_:children:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public mutating func save<Child: Record>(
        children: inout [Child], for association: HasManyAssociation<Self, Child>
    ) throws {
        try saveInDefaultQueue(children: &children) { parent, db, children in
            try parent.save(db, children: &children, link: association.link, ownTransaction: true)
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
    public func delete<Child: Record>(_ db: some DatabaseConnection, with children: [Child]) throws -> Bool {
        try db.inWriteTransaction {
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
