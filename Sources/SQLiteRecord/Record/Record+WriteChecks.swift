extension Record {
    /// Throws before anything is written when a call names columns it cannot write: a conflict target that
    /// is not a PRIMARY KEY or UNIQUE constraint of the table, or is not among the record's columns; columns
    /// to update that the record does not encode, that are generated, or (for a partial update) that belong
    /// to the key. Run where every write plan is made, from the record it is made from.
    /// - Throws: ``RecordError/conflictTargetNotUnique(table:columns:)``,
    ///   ``RecordError/unknownColumn(table:column:columns:)``, or ``DatabaseError`` `no such table`.
    static func checkNamedColumns(
        _ kind: RecordWritePlan.Kind, encoded: [String], keyColumns: [String], generated: GeneratedColumns,
        _ db: Database
    ) throws {
        switch kind.tag {
        case .upsertReporting:
            guard let clause = kind.upsertClause else { return }
            let target = clause.conflictColumns ?? keyColumns
            for column in target where !encoded.contains(column) {
                throw RecordError.unknownColumn(table: tableName, column: column, columns: encoded)
            }
            try checkConflictTarget(db, columns: target)
            let writable = encoded.filter { !generated.contains($0) }
            for column in clause.namedColumns ?? [] where !writable.contains(column) {
                throw RecordError.unknownColumn(table: tableName, column: column, columns: writable)
            }
        case .updateColumns:
            let named = kind.namedColumns
            let writable = encoded.filter { !generated.contains($0) && !keyColumns.contains($0) }
            for column in named where !writable.contains(column) {
                throw RecordError.unknownColumn(table: tableName, column: column, columns: writable)
            }
        default:
            break
        }
    }

    /// Throws unless `columns` are exactly the columns of the table's PRIMARY KEY or of a UNIQUE constraint
    /// (a unique index that is not partial), as SQLite needs of an upsert's conflict target. See
    /// <https://www.sqlite.org/lang_upsert.html>.
    /// - Throws: ``RecordError/conflictTargetNotUnique(table:columns:)``, or ``DatabaseError`` `no such table`.
    static func checkConflictTarget(_ db: Database, columns: [String]) throws {
        let target = Set(columns.map(RowLayout.asciiLowercased))
        let shape = try db.tableShape(tableName)
        if shape.isView { throw RecordError.viewNotWritable(table: tableName) }
        if !target.isEmpty, Set(shape.primaryKey.map(RowLayout.asciiLowercased)) == target { return }
        let unique = try db.indexes(on: tableName).contains { index in
            index.isUnique && !index.isPartial
                && Set(index.columns.map { RowLayout.asciiLowercased($0 ?? "") }) == target
        }
        guard unique else { throw RecordError.conflictTargetNotUnique(table: tableName, columns: columns) }
    }

    /// Throws unless every name in `columns` is a column of the table, before a RETURNING clause names it.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)``, or ``DatabaseError`` `no such table`.
    static func checkReturnedColumns(_ db: Database, _ columns: [String]?) throws {
        guard let columns else { return }
        let known = try db.derivedSchemaValue(for: KnownColumns.self, table: tableName) { KnownColumns($0) }
        for column in columns where !known.contains(column) {
            throw RecordError.unknownColumn(table: tableName, column: column, columns: known.names)
        }
    }
}
