/// What a table may do to a write behind the writer's back, for the upserts and the writes that read back:
/// read apart from ``TableShape`` (two queries of the schema), and only by the calls that need it.
struct TableWriteTraits: Sendable, Hashable {
    /// True when a write to the table may be skipped without an error: the table has triggers (which may
    /// `RAISE(IGNORE)`), in the main or the TEMP schema, or its declaration has a conflict clause that
    /// ignores (`ON CONFLICT IGNORE`; any "IGNORE" in its SQL counts, which errs on the safe side). When
    /// false, a statement that changed no row was not skipped.
    let mayIgnoreWrites: Bool
    /// True when the table has triggers (main or TEMP schema): a RETURNING clause reports the row as the
    /// statement wrote it, before AFTER triggers changed it.
    let hasTriggers: Bool
}

extension Database {
    /// The write traits of table `table` (see ``TableWriteTraits``), read once per schema and cached.
    /// - Throws: ``DatabaseError`` when the schema cannot be read.
    func tableWriteTraits(_ table: String) throws -> TableWriteTraits {
        try derivedSchemaValue(for: TableWriteTraitsBox.self, table: table) { _ in
            let triggerSQL = """
                SELECT count(*) FROM (SELECT type, tbl_name FROM sqlite_schema \
                UNION ALL SELECT type, tbl_name FROM sqlite_temp_schema) \
                WHERE type = 'trigger' AND tbl_name = ? COLLATE NOCASE
                """
            let ignoreSQL = """
                SELECT count(*) FROM (SELECT type, name, sql FROM sqlite_schema \
                UNION ALL SELECT type, name, sql FROM sqlite_temp_schema) \
                WHERE type = 'table' AND name = ? COLLATE NOCASE AND sql LIKE '%IGNORE%'
                """
            let hasTriggers = try integerScalar(sql: triggerSQL, arguments: [table]) ?? 0 > 0
            let ignores = try integerScalar(sql: ignoreSQL, arguments: [table]) ?? 0 > 0
            return TableWriteTraitsBox(
                TableWriteTraits(mayIgnoreWrites: hasTriggers || ignores, hasTriggers: hasTriggers))
        }.traits
    }
}

/// ``TableWriteTraits`` as the schema cache keeps derived values: an object.
private final class TableWriteTraitsBox {
    let traits: TableWriteTraits
    init(_ traits: TableWriteTraits) { self.traits = traits }
}
