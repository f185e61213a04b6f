/// Updates that write only some columns: the ones named, or the ones that changed. Two writers that change
/// different columns of one row then keep each other's change, and a row nothing changed in is not written.
extension Record {
    /// Writes the named columns of the record to the row with its key (`UPDATE ... SET "a" = ? WHERE key`),
    /// leaving the row's other columns as they are. Calls ``willSave(_:)`` first.
    ///
    /// The whole record is encoded, as ``update(_:)`` encodes it, and only the named columns and the key are
    /// bound: the record's `encode(to:)` runs to its end (a check it makes anywhere in it runs), and every
    /// value it encodes is converted, so a value that cannot be stored (a NaN, a date outside the years the
    /// text form holds) fails the update even in a column it does not write, as it fails a full update. A
    /// column the record encodes twice gets the value encoded last, as from ``update(_:)`` (SQLite keeps the
    /// rightmost assignment of a `SET`). This holds for the first update of the type on a connection and for
    /// every later one. When no row has the key and the key is a UUID that another tool may have stored in
    /// another form, the update is retried by every form of the key, with the same columns.
    /// - Parameters:
    ///   - db: the connection, inside the caller's transaction.
    ///   - columns: columns the record encodes, not the key's and not generated ones; `[]` writes
    ///     nothing (the row must still exist).
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)`` for a column the record cannot write
    ///   this way, before anything is written; `EncodingError` naming the column whose value cannot be stored,
    ///   whether or not it is named, before anything is written; otherwise as ``update(_:)``.
    public func update(_ db: some DatabaseConnection, columns: [String]) throws {
        try update(db, writing: columns)
    }

    /// Writes the columns whose values differ from `original`'s, the record as it was fetched, to the row
    /// with the record's key; runs no statement when none differ. The values compared are the ones the
    /// record's encoder would store (``RecordEncoder``), so a change the column cannot hold apart (a Date
    /// beyond the stored milliseconds) is no change. Key columns and generated columns are never written.
    /// Both records are encoded in full to compare them; the write then encodes the record again, as
    /// ``update(_:columns:)`` does, and binds the changed columns and the key.
    /// - Returns: true when an UPDATE ran, false when nothing changed.
    /// - Throws: encoding errors; as ``update(_:columns:)`` when a column changed.
    @discardableResult
    public func updateChanges(_ db: some DatabaseConnection, from original: Self) throws -> Bool {
        let changed = try db.changedColumns(of: self, from: original)
        guard !changed.isEmpty else { return false }
        try update(db, writing: changed)
        return true
    }

    /// Runs `modify` on the record, then writes the columns it changed, as ``updateChanges(_:from:)`` does
    /// with the record as it was before. When `modify` or the update throws, the record is put back as it
    /// was.
    ///
    /// ```swift
    /// try book.updateChanges(db) { $0.title = "Persuasion" }  // UPDATE "books" SET "title" = ? WHERE ...
    /// ```
    /// - Returns: true when an UPDATE ran, false when `modify` changed no stored value.
    /// - Throws: what `modify` throws; as ``updateChanges(_:from:)``.
    @discardableResult
    public mutating func updateChanges(
        _ db: some DatabaseConnection, modify: (inout Self) throws -> Void
    ) throws -> Bool {
        let original = self
        do {
            try modify(&self)
            return try updateChanges(db, from: original)
        } catch {
            self = original
            throw error
        }
    }

    /// ``update(_:columns:)`` through the default queue (``RecordStore``).
    /// - Throws: as ``update(_:columns:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    public func update(columns: [String]) throws {
        try RecordStore.defaultQueue().write { db in try update(db, columns: columns) }
    }

    /// ``updateChanges(_:from:)`` through the default queue (``RecordStore``).
    /// - Returns: true when an UPDATE ran, false when nothing changed.
    /// - Throws: as ``updateChanges(_:from:)``, and ``RecordError/noDefaultStore`` before ``RecordStore/use(_:)``.
    @discardableResult
    public func updateChanges(from original: Self) throws -> Bool {
        try RecordStore.defaultQueue().write { db in try updateChanges(db, from: original) }
    }

    /// ``updateChanges(_:modify:)`` through the default queue (``RecordStore``): `modify` runs first, then
    /// the changed columns are written in a transaction of their own.
    /// - Returns: true when an UPDATE ran, false when `modify` changed no stored value.
    /// - Throws: as ``updateChanges(_:modify:)``, and ``RecordError/noDefaultStore`` before
    ///   ``RecordStore/use(_:)``.
    @discardableResult
    public mutating func updateChanges(modify: (inout Self) throws -> Void) throws -> Bool {
        let original = self
        do {
            try modify(&self)
            return try updateChanges(from: original)
        } catch {
            self = original
            throw error
        }
    }

    /// SQLite's columns whose stored values differ between the record and `original`, in the record's column
    /// order, without the key's and the generated ones.
    /// - Throws: encoding errors; as ``keyMatch(_:)`` for a key that is nil.
    func changedColumns(from original: Self, db: Database) throws -> [String] {
        // A key that is not the rowid must be set, whether or not anything changed.
        if !Self.keyIsRowID { _ = try Self.keyMatch(id) }
        if let comparison = try Self.currentComparison(db: db),
            let changed = try comparison.changedColumns(self, from: original)
        {
            return changed
        }
        // No kept comparison, or this pair does not fit it: one made from this record, kept when there is
        // none for the type.
        let encoder = Self.recordEncoder
        let (current, keys) = try encoder.encodeWithKeys(self, tableName: Self.tableName)
        let layout = try Self.keyLayout(of: id, .none)
        let generated = GeneratedColumns.of(Self.tableName, db: db)
        let comparisons = RecordConnectionCache.of(db).comparisons
        // A comparison that cannot be made (a record with no column but the key's, whose UPDATE has nothing
        // to set) leaves the records compared by column name.
        if let comparison = try? RecordChangeComparison(
            keys: keys, names: current.names, key: layout, generated: generated,
            primaryKeyColumn: Self.primaryKeyColumn, tableName: Self.tableName, options: encoder, db: db)
        {
            if comparisons[ObjectIdentifier(Self.self)] == nil { comparisons[ObjectIdentifier(Self.self)] = comparison }
            if let changed = try comparison.changedColumns(self, from: original) { return changed }
        }
        // The original encodes other keys than the record (or the record's encode(to:) changed between two
        // runs): the encodings are compared by column name.
        let before = try encoder.encode(original, tableName: Self.tableName)
        let keyColumns = layout.columns
        var changed: [String] = []
        for (index, name) in current.names.enumerated() {
            let previous =
                before.names.count > index && before.names[index] == name
                ? before.values[index] : before.value(for: name)
            if previous != current.values[index], !keyColumns.contains(name), !generated.contains(name) {
                changed.append(name)
            }
        }
        return changed
    }

    /// The connection's change comparison for this type when it is current (same table, key column and
    /// schema generation; a stale one is dropped) and not in use; nil otherwise.
    /// - Throws: ``DatabaseError`` when the schema version cannot be read.
    static func currentComparison(db: Database) throws -> RecordChangeComparison? {
        let comparisons = RecordConnectionCache.of(db).comparisons
        guard let comparison = comparisons[ObjectIdentifier(Self.self)] else { return nil }
        let plan = comparison.after
        guard plan.isFor(tableName: Self.tableName, primaryKeyColumn: Self.primaryKeyColumn),
            plan.schemaGeneration == (try db.currentSchemaGeneration())
        else {
            comparisons[ObjectIdentifier(Self.self)] = nil
            return nil
        }
        return comparison
    }
}
