/// The generated columns of a table (`GENERATED ALWAYS AS (...) VIRTUAL` or `STORED`), which a record reads
/// like any other column but never writes: SQLite computes them, and refuses an INSERT or UPDATE that names
/// one. Derived from ``Database/columns(in:)`` and kept in the connection's schema cache, so a write asks a
/// set, not the schema. See <https://www.sqlite.org/gencol.html>.
final class GeneratedColumns {
    /// The generated columns' names, with A-Z lowered, as SQLite compares names.
    private let folded: Set<String>

    init(_ columns: [ColumnInfo]) {
        folded = Set(columns.filter(\.isGenerated).map { RowLayout.asciiLowercased($0.name) })
    }

    /// True when `name` is a generated column of the table.
    func contains(_ name: String) -> Bool {
        !folded.isEmpty && folded.contains(RowLayout.asciiLowercased(name))
    }

    /// The generated columns of `table`; none when its columns cannot be read (a missing table), so that the
    /// write itself reports what SQLite says about it.
    static func of(_ table: String, db: Database) -> GeneratedColumns {
        // The write that follows fails with SQLite's own error for the same cause, naming its SQL.
        (try? db.derivedSchemaValue(for: GeneratedColumns.self, table: table) { GeneratedColumns($0) })
            ?? GeneratedColumns([])
    }
}
