#if PostgreSQL
import Foundation
import SQLiteRecord

extension Record {
    /// Inserts the record. A rowid record (`id: Int64?`) whose id is nil gets the id the table's identity
    /// column chose, read back from `RETURNING` (never a sequence's value left over from another row); any
    /// other record is inserted with its key. Then ``Record/didInsert(rowID:)`` is called with the rowid (0
    /// for other keys).
    ///
    /// A type that adopts ``PostgresWriteCallbacks`` has its ``PostgresWriteCallbacks/willSave(_:)`` called
    /// first; a throw aborts the insert.
    /// - Throws: ``PostgresError`` (SQLSTATE 23505 with the constraint for a duplicate key, 23502 with the
    ///   column for a NULL into a NOT NULL column), `EncodingError` for a value PostgreSQL cannot store,
    ///   `SchemaProbeError` when the type cannot be probed.
    public mutating func insert(_ connection: PostgresConnection) throws {
        try insert(connection, PostgresRecordShape.of(Self.self))
    }

    /// ``insert(_:)`` with this type's shape, found by the caller.
    mutating func insert(_ connection: PostgresConnection, _ shape: PostgresRecordShape) throws {
        try callWillSave(connection, shape)
        if case .rowID(let column) = shape.key, hasNilRowID {
            let result = try shape.run(shape.insertWithoutKeySQL, self, shape.nonKeyColumnsPlan, on: connection)
            guard result.rowCount == 1 else { throw RecordError.rowNotInserted(table: shape.table) }
            let rowID = try Self.returnedRowID(result, column: column)
            if let key = SameTypeCast.cast(Optional(rowID), to: ID.self) { id = key }
            didInsert(rowID: rowID)
            return
        }
        // No RETURNING: the command tag's row count (`INSERT 0 1`) tells that the row went in; a trigger or
        // rule that skipped it leaves 0.
        let result = try shape.run(shape.insertSQL, self, shape.columnsPlan, on: connection)
        guard result.affectedRows == 1 else { throw RecordError.rowNotInserted(table: shape.table) }
        didInsert(rowID: rowIDIfAny ?? 0)
    }

    /// Updates the row with the record's key.
    /// - Throws: ``RecordError/recordNotFound(table:id:)`` when no row has the key (nothing is inserted),
    ///   ``RecordError/recordNotSaved(table:)`` for a nil rowid, ``PostgresError`` as ``insert(_:)``.
    public func update(_ connection: PostgresConnection) throws {
        try update(connection, PostgresRecordShape.of(Self.self))
    }

    /// ``update(_:)`` with this type's shape, found by the caller.
    func update(_ connection: PostgresConnection, _ shape: PostgresRecordShape) throws {
        try shape.checkKey(id)
        try callWillSave(connection, shape)
        guard let sql = shape.updateSQL else {
            guard try Self.exists(connection, id: id) else {
                throw RecordError.recordNotFound(table: shape.table, id: "\(id)")
            }
            return
        }
        let changed = try shape.run(sql, self, shape.nonKeyColumnsPlan, key: id, on: connection).affectedRows
        if changed == 0 { throw RecordError.recordNotFound(table: shape.table, id: "\(id)") }
    }

    /// Inserts or updates: a rowid record inserts when its id is nil and updates otherwise (throwing
    /// ``RecordError/recordNotFound(table:id:)`` when the row is gone, never inserting it again); a record
    /// with a key of another kind is upserted (`INSERT ... ON CONFLICT (key) DO UPDATE`), as on SQLite.
    /// - Throws: as ``insert(_:)`` and ``update(_:)``.
    public mutating func save(_ connection: PostgresConnection) throws {
        let shape = try PostgresRecordShape.of(Self.self)
        if case .rowID = shape.key {
            if hasNilRowID { try insert(connection, shape) } else { try update(connection, shape) }
        } else {
            try upsert(connection, shape)
        }
    }

    /// Inserts the record, or updates the row that has its key: one `INSERT ... ON CONFLICT (key) DO
    /// UPDATE SET ...` statement. A rowid record with a nil id is inserted. See
    /// <https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT>.
    /// - Throws: as ``insert(_:)``; SQLSTATE 42P10 when the key columns have no unique constraint.
    public mutating func upsert(_ connection: PostgresConnection) throws {
        try upsert(connection, PostgresRecordShape.of(Self.self))
    }

    /// ``upsert(_:)`` with this type's shape, found by the caller.
    mutating func upsert(_ connection: PostgresConnection, _ shape: PostgresRecordShape) throws {
        if case .rowID = shape.key, hasNilRowID { return try insert(connection, shape) }
        try shape.checkKey(id)
        try callWillSave(connection, shape)
        // No RETURNING: an upsert inserts or updates its row (or, when every column is a key column, leaves
        // the row that is there), so there is nothing to read back.
        _ = try shape.run(shape.upsertSQL, self, shape.columnsPlan, on: connection)
    }

    /// Deletes the row with the record's key; returns false when there was none. Then
    /// ``Record/didDelete(_:)`` is called.
    /// - Throws: ``RecordError/recordNotSaved(table:)`` for a nil rowid; ``PostgresError`` (23503 when other
    ///   rows still reference it).
    @discardableResult
    public func delete(_ connection: PostgresConnection) throws -> Bool {
        let shape = try PostgresRecordShape.of(Self.self)
        let key = try shape.keyValues(id)
        try callWillDelete(connection, shape)
        let deleted = try connection.execute(shape.deleteSQL, key) > 0
        didDelete(deleted)
        return deleted
    }

    /// Saves the record, then each child after setting its foreign key to this record's key, in one
    /// transaction (a savepoint inside the caller's), as on SQLite: the foreign key of the one
    /// ``BelongsToAssociation`` to this type that the child type lists in ``Record/parentAssociations``, then
    /// the child's ``Record/bind(to:)``, which has the last word (a type that lists none is bound by its
    /// `bind(to:)` alone). All or nothing, in the database and in memory (on a throw the records keep the
    /// values they came with).
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` when the child type lists two or more
    ///   associations to this type (name one with ``save(_:children:for:)-(PostgresConnection,_,_)``) or a
    ///   record encodes no such key column; otherwise the first error of a save, or `CancellationError` when the task of the
    ///   async pool call was cancelled. Nothing stays written.
    public mutating func save<Child: Record>(_ connection: PostgresConnection, children: inout [Child]) throws {
        try save(connection, children: &children, link: Self.declaredLink(to: Child.self))
    }

    /// Saves every record in one transaction (a savepoint inside the caller's): all or nothing, in the
    /// database and in memory. When every record is a rowid record with a nil id (all new), they are inserted
    /// as ``insertAll(_:_:)`` inserts them, in one pipelined batch; otherwise each is saved in turn.
    /// - Throws: the first error of a save, or `CancellationError` when the task of the async pool call was
    ///   cancelled; nothing stays written, and the records keep the values they came
    ///   with.
    public static func save(_ connection: PostgresConnection, _ records: inout [Self]) throws {
        let shape = try PostgresRecordShape.of(Self.self)
        if case .rowID = shape.key, !records.isEmpty, records.allSatisfy(\.hasNilRowID) {
            return try insertAll(connection, &records)
        }
        let original = records
        do {
            try connection.transaction {
                for index in records.indices {
                    try connection.checkCancellation()
                    try records[index].save(connection)
                }
            }
        } catch {
            records = original
            throw error
        }
    }

    /// Inserts every record, in order, in one transaction (a savepoint inside the caller's) through libpq's
    /// pipeline mode: every INSERT is sent before the first answer is read, so the batch costs about one
    /// round trip rather than one a row (see
    /// <https://www.postgresql.org/docs/current/libpq-pipeline-mode.html>). A rowid record whose id is nil
    /// gets the id its row's identity column chose, read from that row's own `RETURNING`; any other record
    /// is inserted with its key. ``PostgresWriteCallbacks/willSave(_:)`` runs for each record first, inside
    /// the transaction; ``Record/didInsert(rowID:)`` for each afterwards, in order.
    ///
    /// All or nothing: when one row fails (a constraint), the server runs none of the rows after it, the
    /// transaction rolls back, and every record keeps the values it came with (none gains an id). So too when
    /// the task of the async pool call it runs in was cancelled before the batch was answered
    /// (``PostgresConnection/checkCancellation()``): it throws `CancellationError`.
    /// - Throws: ``PostgresError`` of the row that failed: its SQLSTATE, the constraint, table and column the
    ///   server names, and ``PostgresError/batchIndex``, the index in `records` of the record whose row
    ///   failed; `EncodingError` for a value PostgreSQL cannot store (nothing is sent); `CancellationError`
    ///   when the task was cancelled.
    public static func insertAll(_ connection: PostgresConnection, _ records: inout [Self]) throws {
        guard !records.isEmpty else { return }
        let shape = try PostgresRecordShape.of(Self.self)
        var inserted = records
        try connection.transaction {
            // Each record's willSave, in order, inside the batch's transaction: a throw writes nothing.
            if shape.hasWriteCallbacks {
                for record in records { try record.callWillSave(connection, shape) }
            }
            var identityColumn: String?
            var statements: [(sql: String, parameters: Range<Int>)] = []
            statements.reserveCapacity(records.count)
            var takesIdentity: [Bool] = []
            takesIdentity.reserveCapacity(records.count)
            // Every record's values in one buffer, all written before anything is sent.
            let encoder = PostgresRecordEncoder(
                jsonEncoder: shape.jsonEncoder, capacity: records.count * shape.columns.count)
            for record in records {
                if case .rowID(let column) = shape.key, record.hasNilRowID {
                    identityColumn = column
                    let parameters = try shape.namingTable { try encoder.append(record, plan: shape.nonKeyColumnsPlan) }
                    statements.append((shape.insertWithoutKeySQL, parameters))
                    takesIdentity.append(true)
                } else {
                    statements.append(
                        (shape.insertSQL, try shape.namingTable { try encoder.append(record, plan: shape.columnsPlan) }))
                    takesIdentity.append(false)
                }
            }
            // Each answer is checked as it is read, and let go: the batch keeps no result past its check.
            try connection.runPipelined(statements, encoder.takeParameters()) { index, result in
                // The command tag's row count: RETURNING's rows for an identity, `INSERT 0 1` otherwise.
                guard result.affectedRows == 1 else { throw RecordError.rowNotInserted(table: shape.table) }
                guard takesIdentity[index], let identityColumn else { return }
                guard result.rowCount == 1 else { throw RecordError.rowNotInserted(table: shape.table) }
                let rowID = try returnedRowID(result, column: identityColumn)
                if let key = SameTypeCast.cast(Optional(rowID), to: ID.self) { inserted[index].id = key }
            }
            // A task cancelled while the batch ran: the transaction rolls back and no record gains an id.
            try connection.checkCancellation()
        }
        records = inserted
        for index in records.indices {
            records[index].didInsert(rowID: records[index].rowIDIfAny ?? 0)
        }
    }

    /// True for a rowid record (`id: Int64?`) whose id is nil: a new row whose identity column chooses its id.
    /// Found by comparing types, with no dynamic cast.
    var hasNilRowID: Bool {
        guard let rowID = SameTypeCast.cast(id, to: Int64?.self) else { return false }
        return rowID == nil
    }

    /// The rowid of a rowid record; nil for a nil id or a key of another kind.
    var rowIDIfAny: Int64? { SameTypeCast.cast(id, to: Int64?.self) ?? nil }

    /// The id an `INSERT ... RETURNING` of the key alone gave: its one row's one column.
    /// - Throws: the `DecodingError` of a value that is not a BIGINT, naming `column`.
    static func returnedRowID(_ result: PostgresResult, column: String) throws -> Int64 {
        let cell = result.cell(row: 0, column: 0)
        // An identity column's BIGINT, read as it is; any other cell through the value table and its errors.
        if case .integer(let rowID, _) = cell { return rowID }
        return try PostgresValueReader.read(Int64.self, cell, column: column, codingPath: [PostgresColumnKey(column)])
    }
}
#endif
