extension Record {
    /// Compares the type with its table and throws one error listing every mismatch, so that an app that
    /// ships or opens an existing database learns at launch, not at the first fetch, that its models no
    /// longer match it.
    ///
    /// ```swift
    /// try queue.read { db in
    ///     try Country.validateSchema(in: db)
    ///     try City.validateSchema(in: db)
    /// }
    /// ```
    ///
    /// Reported, all at once:
    /// - a missing table (or view): then nothing else is compared;
    /// - a coding key with no column: the decoder's name (``rowDecoder``'s key strategy) and the encoder's
    ///   (``recordEncoder``'s) must each be a column, matched as SQLite matches names (ASCII
    ///   case-insensitively; generated columns count). Optional keys count too: table-backed fetches read
    ///   every key, and saves write nil as NULL;
    /// - a column whose declared type can never give the property's values back.
    ///
    /// Only certain failures are reported, since SQLite stores any value in any column. The one column type
    /// that can never work is TEXT affinity (a declared type containing CHAR, CLOB or TEXT, such as
    /// `VARCHAR(20)`) for a property that is written as a number and read only from numbers: every integer
    /// and floating-point type and enums over them, and Date stored as unix seconds or milliseconds and read
    /// by the automatic or unix strategies. SQLite stores each number put in such a column as text, which
    /// those types do not read. Everything else can hold values: TEXT in an INTEGER, REAL or NUMERIC column
    /// stays TEXT unless it is a number that reads back the same (the library refuses the others before
    /// writing), numbers in those columns stay numbers, BLOBs are never converted, Bool reads "0" and "1",
    /// and String reads numbers as their text. See <https://www.sqlite.org/datatype3.html#type_affinity>.
    ///
    /// - every part of ``tableDefinition`` the table lacks or declares otherwise: a UNIQUE constraint (a
    ///   unique index on exactly those columns, or the primary key), an index (one on those columns in that
    ///   order, unique when declared so), a default (the column's `DEFAULT` text as ``createTable(in:ifNotExists:)``
    ///   writes it), a CHECK constraint (its text in the table's CREATE TABLE, compared without whitespace
    ///   and case: SQLite keeps checks only as text), a foreign key (its parent table and columns and its
    ///   `ON DELETE` and `ON UPDATE` actions; a nil action is `NO ACTION`).
    ///
    /// Not reported, since they fail only for some values or some calls: NOT NULL columns for Optional
    /// properties, NOT NULL columns the type does not write (inserts fail, fetches work), CHECK and UNIQUE
    /// constraints the type does not declare, columns the type ignores.
    /// On PostgreSQL the same comparison reads `pg_catalog`: a missing table, a coding key with no column, a
    /// column whose type can never give the property's values back (by the value table: TEXT for an integer,
    /// BOOLEAN for a Date), key columns that are not the table's primary key, and ``tableDefinition`` by the
    /// same rule as on SQLite, from `pg_index`, `pg_attrdef` and `pg_constraint`: a default or a CHECK is
    /// compared with the expression as PostgreSQL deparses it (`pg_get_expr`), casts, parentheses, quotes and
    /// case aside (`'x'::text` is `'x'`), so a check PostgreSQL rewrites (`kind IN ('a', 'b')` becomes
    /// `kind = ANY (ARRAY[...])`) is reported as missing: declare it in the form PostgreSQL keeps.
    /// - Throws: ``SchemaValidationError`` with the ``SchemaMismatch`` list; ``SchemaProbeError`` when the
    ///   type cannot be probed; ``RecordError/missingPrimaryKey(table:column:)`` when no coding key names
    ///   ``primaryKeyColumn``; the engine's error (``DatabaseError``, PostgreSQL's) when the schema cannot be
    ///   read.
    public static func validateSchema(in db: some DatabaseConnection) throws {
        try db.validateTable(of: Self.self)
    }
}

extension Record where Self: Sendable {
    /// ``validateSchema(in:)`` in a read-only transaction of `writer`.
    /// - Throws: as ``validateSchema(in:)``.
    public static func validateSchema(in writer: some AsyncDatabaseWriter) async throws {
        try await writer.read { db in try validateSchema(in: db) }
    }
}
