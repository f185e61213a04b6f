extension Record {
    /// Throws before anything is written when the table cannot tell what a write to it did: a view (SQLite
    /// reports neither rowid nor changes through INSTEAD OF triggers), or, for an insert that leaves the id
    /// to SQLite (`insertingWithoutID`), a primary key column that is not the rowid, which SQLite does not
    /// fill in. Read from the connection's schema cache: the checks cost a lookup once the table is known.
    /// - Throws: ``RecordError/viewNotWritable(table:)``,
    ///   ``RecordError/rowIDNotAssigned(table:column:declaration:)``, or ``DatabaseError`` `no such table`.
    static func checkWriteTarget(_ db: Database, insertingWithoutID: Bool) throws {
        let shape = try db.tableShape(tableName)
        if shape.isView { throw RecordError.viewNotWritable(table: tableName) }
        guard insertingWithoutID else { return }
        let column = primaryKeyColumn
        let folded = RowLayout.asciiLowercased(column)
        if let alias = shape.rowIDAlias, RowLayout.asciiLowercased(alias) == folded { return }
        let declaration: String
        if !shape.hasRowID {
            declaration = "the table is WITHOUT ROWID"
        } else if shape.primaryKey.isEmpty {
            declaration = "the table declares no primary key"
        } else if shape.primaryKey.count > 1 || RowLayout.asciiLowercased(shape.primaryKey[0]) != folded {
            declaration = "the primary key is (" + shape.primaryKey.map { "\"\($0)\"" }.joined(separator: ", ") + ")"
        } else {
            let declared = try db.columns(in: tableName).first { RowLayout.asciiLowercased($0.name) == folded }
            let type = declared?.declaredType ?? ""
            declaration =
                type.uppercased() == "INTEGER"
                ? "it is declared INTEGER PRIMARY KEY DESC, which SQLite keeps as an ordinary column"
                : "it is declared \(type.isEmpty ? "without a type" : type) PRIMARY KEY, not INTEGER PRIMARY KEY"
        }
        throw RecordError.rowIDNotAssigned(table: tableName, column: column, declaration: declaration)
    }
}
