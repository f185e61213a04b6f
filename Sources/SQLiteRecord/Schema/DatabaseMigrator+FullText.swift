/// The migration step that creates a record type's full-text index.
extension DatabaseMigrator {
    /// Registers a migration that creates `type`'s full-text index
    /// (``FullTextSearchable/createFullTextIndex(in:)``): the FTS5 table, its triggers, and the index of the
    /// rows already in the table. Register it after the migration that creates the table.
    ///
    /// ```swift
    /// migrator.registerFullTextIndex("index notes", for: Note.self)
    /// ```
    ///
    /// Like any migration, it must not change once shipped: the index's columns and tokenizer are read from
    /// `type` when the migration runs, so a later change to ``FullTextSearchable/fullTextIndex`` needs a
    /// migration of its own (drop with ``FullTextSearchable/dropFullTextIndex(in:)``, then create).
    /// See <https://www.sqlite.org/fts5.html#external_content_tables>.
    /// - Parameters:
    ///   - identifier: the migration's name, unique within the migrator.
    ///   - type: the record type whose index to create.
    public mutating func registerFullTextIndex<T: FullTextSearchable & SendableMetatype>(
        _ identifier: String, for type: T.Type
    ) {
        registerMigration(identifier) { db in try T.createFullTextIndex(in: db) }
    }
}
