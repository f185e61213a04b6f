#if PostgreSQL
import Foundation
import SQLiteRecord

/// A record type's full-text index on PostgreSQL: a `tsvector` column of the record's table, generated from
/// the indexed columns and stored, and a GIN index on it.
///
/// A `STORED` generated column rather than a column a trigger keeps: the server computes it on every insert
/// and update, by the library or by anyone else (psql, another app, `COPY`), so it cannot fall out of step
/// and needs neither a trigger to keep nor a rebuild; it cannot be written by mistake either. Its expression
/// must be immutable: `to_tsvector` with its configuration named (a `regconfig` constant) is. Accents are
/// folded by that configuration (`postgresrecord_unaccent`: the `unaccent` dictionary, then `simple`), not
/// by calling `unaccent()` in the expression, which is only `STABLE` (it finds its dictionary through the
/// search path) and so cannot appear in a generated column or an index without an immutable wrapper that
/// would promise more than it keeps. See <https://www.postgresql.org/docs/current/unaccent.html>,
/// <https://www.postgresql.org/docs/current/textsearch-tables.html> and
/// <https://www.postgresql.org/docs/current/ddl-generated-columns.html>.
extension FullTextSearchable {
    /// PostgreSQL's full-text index, in one transaction: the `unaccent` extension and the text search
    /// configuration when the tokenizer folds accents (each only if missing), the `tsvector` column named
    /// `fullTextTableName` (`ALTER TABLE ... ADD COLUMN ... GENERATED ALWAYS AS (...) STORED`, which computes
    /// it for the rows already there), and its GIN index: what `createFullTextIndex(in:)` runs on this
    /// engine. Errors: 42701 when the index exists already; 42P01 for a missing table; 42501 when the role
    /// may not create the extension; `RecordError.invalidQuery` for a tokenizer with no PostgreSQL
    /// configuration.
    static func createTSVectorIndex(in connection: PostgresConnection) throws {
        let statements = try postgresCreateFullTextIndexSQL()
        try connection.checkColumns(fullTextIndex.columns, of: tableName)
        try connection.transaction {
            for sql in statements { try connection.execute(sql) }
        }
    }

    /// The statements `createFullTextIndex(in:)` runs, in order, to read or to paste into a migration:
    /// for an accent-folding tokenizer, `CREATE EXTENSION IF NOT EXISTS unaccent` and a `DO` block that
    /// creates the configuration unless it exists; then `ALTER TABLE ... ADD COLUMN` and `CREATE INDEX ...
    /// USING GIN`.
    ///
    /// | `FullTextTokenizer` | PostgreSQL configuration |
    /// | --- | --- |
    /// | `unicode61()` (the default) | `postgresrecord_unaccent`: `unaccent`, then `simple` |
    /// | `unicode61(removeDiacritics: false)` | `simple` |
    /// | `porter()` | `postgresrecord_unaccent_english`: `unaccent`, then `english_stem` |
    /// | `porter(removeDiacritics: false)` | `english` |
    ///
    /// - Throws: ``RecordError/invalidQuery(table:reason:)`` when the index names no column, or its
    ///   tokenizer (`ascii`, `trigram`, arguments of your own) has no PostgreSQL configuration;
    ///   `RecordError.identifierTooLong` for a table, index or column name over PostgreSQL's 63 bytes.
    public static func postgresCreateFullTextIndexSQL() throws -> [String] {
        let index = fullTextIndex
        try SQLDialect.postgres.checkIdentifiers([tableName, fullTextTableName] + index.columns, table: tableName)
        guard !index.columns.isEmpty else {
            throw RecordError.invalidQuery(table: tableName, reason: "a full-text index needs at least one column")
        }
        guard let configuration = index.tokenizer.postgresConfiguration else {
            throw RecordError.invalidQuery(
                table: tableName,
                reason: "the full-text tokenizer '\(index.tokenizer.arguments)' has no PostgreSQL text search "
                    + "configuration: use unicode61 or porter")
        }
        let table = SQLIdentifier.quoted(tableName)
        let column = SQLIdentifier.quoted(fullTextTableName)
        // One tsvector per column, concatenated: `||` shifts the positions of the later ones, so that a
        // phrase never spans two columns.
        let vectors = index.columns.map {
            "to_tsvector('\(configuration)'::regconfig, coalesce(\(SQLIdentifier.quoted($0)), ''))"
        }
        var statements: [String] = []
        if let base = postgresFoldingConfigurations[configuration] {
            statements.append("CREATE EXTENSION IF NOT EXISTS unaccent")
            statements.append(createConfigurationSQL(configuration, base: base))
        }
        statements.append(
            "ALTER TABLE \(table) ADD COLUMN \(column) tsvector GENERATED ALWAYS AS ("
                + vectors.joined(separator: " || ") + ") STORED")
        // PostgreSQL cuts an identifier to 63 bytes: for a table name of 63 or more, `..._fts_index` would cut
        // to the table's own name, so a name that long is left to the server, which picks a free one.
        let indexName = fullTextTableName + "_index"
        let name = indexName.utf8.count > 63 ? "" : SQLIdentifier.quoted(indexName) + " "
        statements.append("CREATE INDEX \(name)ON \(table) USING GIN (\(column))")
        return statements
    }

    /// Drops the index's column (and with it its GIN index), if it exists; the table's other columns and rows
    /// are untouched, and so are the extension and the configuration, which other indexes may use.
    static func dropTSVectorIndex(in connection: PostgresConnection) throws {
        try connection.execute(
            "ALTER TABLE \(SQLIdentifier.quoted(tableName)) DROP COLUMN IF EXISTS "
                + SQLIdentifier.quoted(fullTextTableName))
    }

    /// The configurations that fold accents, each with the built-in one it copies and the dictionary that
    /// follows `unaccent` for words with letters beyond ASCII.
    private static var postgresFoldingConfigurations: [String: (copy: String, dictionary: String)] {
        ["postgresrecord_unaccent": ("simple", "simple"), "postgresrecord_unaccent_english": ("english", "english_stem")]
    }

    /// A `DO` block that creates the configuration `name` as a copy of `base.copy` whose `word`, `hword` and
    /// `hword_part` tokens (those with letters beyond ASCII) go through `unaccent` then `base.dictionary`,
    /// and does nothing when a configuration of that name exists in the first schema of the search path (the
    /// catalog's unique index reports it, as 23505).
    /// `unaccent` is a filtering dictionary: a word it changes goes on to the next one changed, a word it
    /// does not change goes on as it is. The dictionary is named with the schema its extension was created
    /// in, which need not be on the search path of later sessions.
    /// See <https://www.postgresql.org/docs/current/sql-createtsconfig.html>.
    private static func createConfigurationSQL(_ name: String, base: (copy: String, dictionary: String)) -> String {
        """
        DO $$ DECLARE dictionary text; BEGIN \
        SELECT quote_ident(n.nspname) || '.unaccent' INTO dictionary FROM pg_extension e \
        JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent'; \
        CREATE TEXT SEARCH CONFIGURATION \(name) (COPY = \(base.copy)); \
        EXECUTE 'ALTER TEXT SEARCH CONFIGURATION \(name) ALTER MAPPING FOR word, hword, hword_part WITH ' \
        || dictionary || ', \(base.dictionary)'; \
        EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$
        """
    }
}
#endif
