#if PostgreSQL
import Foundation
import SQLiteRecord

/// What PostgresRecord needs to know of a record type, found once per type by probing it (SQLiteRecord's
/// schema probe) and kept for the life of the process: its columns, its key, the statements of its calls.
///
/// A final class of constants: every record call looks its type's shape up, and a reference is handed out
/// without copying (or retaining) each of its strings and plans.
final class PostgresRecordShape: Sendable {
    enum Key: Sendable, Equatable {
        /// `Int64?`: an identity column set from `RETURNING`.
        case rowID(String)
        /// A key of one column the client sets.
        case single(String)
        /// A composite key: the key struct's coding keys, in order.
        case composite([String])

        var columns: [String] {
            switch self {
            case .rowID(let column), .single(let column): return [column]
            case .composite(let columns): return columns
            }
        }
    }

    let table: String
    let key: Key
    /// Every column the type writes, in its `init(from:)` order (the encoder's names).
    let columns: [String]
    /// Coding key to column, when the record's encoder renames keys; nil when keys are column names.
    let encoderNames: [String: String]?
    /// Coding key to column, for the decoder.
    let decoderNames: [String: String]?

    /// `INSERT INTO ...` of every column, for a record that brings its key: no `RETURNING`, as the row count
    /// of the command tag tells that the row was inserted.
    let insertSQL: String
    /// The INSERT of a rowid record whose id is nil: every column but the key, `RETURNING` it.
    let insertWithoutKeySQL: String
    /// ``insertWithoutKeySQL`` with `ON CONFLICT DO NOTHING`: a skipped row returns no row.
    let insertWithoutKeyIgnoringSQL: String
    /// `UPDATE ... SET <non-key columns> WHERE <key>`; nil when every column is a key column.
    let updateSQL: String?
    /// `INSERT ... ON CONFLICT (key) DO UPDATE SET <non-key columns>`, without `RETURNING`.
    let upsertSQL: String
    let deleteSQL: String
    let selectOneSQL: String
    /// `SELECT count(*) ... WHERE <key>`.
    let existsSQL: String
    /// The upsert by the key that writes every column and reports its outcome (see
    /// ``upsert(of:onConflict:updating:)``): what `upsert(_:)` with no target or columns runs.
    let keyUpsert: Upsert
    let nonKeyColumns: [String]
    /// Each coding key of the type and the column it writes, in its `encode(to:)` order: what an encoding
    /// plan for other columns (a partial update's) is made from.
    let orderedKeys: [(key: String, column: String)]
    /// Where the coding keys go among ``columns``, and among ``nonKeyColumns``.
    let columnsPlan: PostgresEncodingPlan
    let nonKeyColumnsPlan: PostgresEncodingPlan
    /// The record's `RecordEncoder.jsonEncoder`: what writes its nested values.
    let jsonEncoder: JSONEncoder
    /// The record's `RowDecoder.jsonDecoder`: what reads its nested values.
    let jsonDecoder: JSONDecoder
    /// The type's ``Record/primaryKeyColumn`` when the shape was made: with ``table``, what a kept shape is
    /// checked against.
    let primaryKeyColumn: String
    /// A rowid key's identity catch-up (see ``PostgresConnection/catchUpIdentity(of:)``); nil for another key.
    let identityCatchUp: IdentityCatchUp?

    // One shape per record type, valid while the type's table name and key column are the ones it was made
    // with: a type whose `tableName` is computed gets a new shape when the name changes. The columns come from
    // the type's coding keys, which do not change while the program runs.
    private static let cache = Locked<[ObjectIdentifier: PostgresRecordShape]>([:])

    private init(
        table: String, primaryKeyColumn: String, key: Key, columns: [String], encoderNames: [String: String]?,
        decoderNames: [String: String]?, insertSQL: String, insertWithoutKeySQL: String,
        insertWithoutKeyIgnoringSQL: String, updateSQL: String?, upsertSQL: String, deleteSQL: String,
        selectOneSQL: String, existsSQL: String, keyUpsert: Upsert, nonKeyColumns: [String], orderedKeys: [(key: String, column: String)],
        columnsPlan: PostgresEncodingPlan, nonKeyColumnsPlan: PostgresEncodingPlan, jsonEncoder: JSONEncoder,
        jsonDecoder: JSONDecoder
    ) throws {
        self.table = table
        self.primaryKeyColumn = primaryKeyColumn
        self.key = key
        self.columns = columns
        self.encoderNames = encoderNames
        self.decoderNames = decoderNames
        self.insertSQL = insertSQL
        self.insertWithoutKeySQL = insertWithoutKeySQL
        self.insertWithoutKeyIgnoringSQL = insertWithoutKeyIgnoringSQL
        self.updateSQL = updateSQL
        self.upsertSQL = upsertSQL
        self.deleteSQL = deleteSQL
        self.selectOneSQL = selectOneSQL
        self.existsSQL = existsSQL
        self.keyUpsert = keyUpsert
        self.nonKeyColumns = nonKeyColumns
        self.orderedKeys = orderedKeys
        self.columnsPlan = columnsPlan
        self.nonKeyColumnsPlan = nonKeyColumnsPlan
        self.jsonEncoder = jsonEncoder
        self.jsonDecoder = jsonDecoder
        if case .rowID(let column) = key {
            identityCatchUp = try IdentityCatchUp(table: table, column: column)
        } else {
            identityCatchUp = nil
        }
    }

    static func of<R: Record>(_ type: R.Type) throws -> PostgresRecordShape {
        let id = ObjectIdentifier(type)
        if let shape = cache.withLock({ $0[id] }), shape.table == R.tableName,
            shape.primaryKeyColumn == R.primaryKeyColumn
        {
            return shape
        }
        let shape = try make(type)
        // Two threads that probed the same type at once keep the first current shape stored.
        return cache.withLock { cache in
            if let stored = cache[id], stored.table == shape.table, stored.primaryKeyColumn == shape.primaryKeyColumn {
                return stored
            }
            cache[id] = shape
            return shape
        }
    }

    /// ``of(_:)`` through `connection`'s memo of the shape its record calls used last
    /// (``PostgresConnection/lastShape``), checked against the type's table name and key column as the
    /// shared cache's shapes are: a loop of calls on one type takes no lock and hashes nothing.
    /// - Throws: as ``of(_:)``.
    static func of<R: Record>(_ type: R.Type, on connection: PostgresConnection) throws -> PostgresRecordShape {
        let id = ObjectIdentifier(type)
        if let last = connection.lastShape, last.type == id, last.shape.table == R.tableName,
            last.shape.primaryKeyColumn == R.primaryKeyColumn
        {
            return last.shape
        }
        let shape = try of(type)
        connection.lastShape = (id, shape)
        return shape
    }

    private static func make<R: Record>(_ type: R.Type) throws -> PostgresRecordShape {
        let probed = try R.probedColumns()
        let keyColumns = try R.probedKeyColumns()
        for key in keyColumns where !probed.contains(where: { $0.name == key }) {
            throw RecordError.missingPrimaryKey(table: R.tableName, column: key)
        }
        let key: Key
        if R.ID.self == Optional<Int64>.self {
            key = .rowID(R.primaryKeyColumn)
        } else if keyColumns == [R.primaryKeyColumn] {
            key = .single(R.primaryKeyColumn)
        } else {
            key = .composite(keyColumns)
        }
        let columns = probed.map(\.name)
        let encoderNames = probed.contains { $0.name != $0.key } ? Dictionary(probed.map { ($0.key, $0.name) }) { a, _ in a } : nil
        let decoderNames =
            probed.contains { $0.readName != $0.key } ? Dictionary(probed.map { ($0.key, $0.readName) }) { a, _ in a } : nil
        let table = R.tableName
        try SQLDialect.postgres.checkIdentifiers([table] + columns, table: table)
        let keySet = Set(keyColumns)
        let nonKey = columns.filter { !keySet.contains($0) }
        let counts = keyColumns.map { _ in 1 }
        let returning = RecordSQL.returning(keyColumns)
        let orderedKeys = probed.map { (key: $0.key, column: $0.name) }
        let columnsPlan = PostgresEncodingPlan(columns: columns, orderedKeys: orderedKeys, encoderNames: encoderNames)
        return try PostgresRecordShape(
            table: table, primaryKeyColumn: R.primaryKeyColumn, key: key, columns: columns, encoderNames: encoderNames, decoderNames: decoderNames,
            insertSQL: RecordSQL.insert(into: table, columns: columns, dialect: .postgres),
            insertWithoutKeySQL: RecordSQL.insert(into: table, columns: nonKey, dialect: .postgres) + returning,
            insertWithoutKeyIgnoringSQL: RecordSQL.insert(into: table, columns: nonKey, dialect: .postgres)
                + " ON CONFLICT DO NOTHING" + returning,
            updateSQL: nonKey.isEmpty
                ? nil
                : RecordSQL.update(table, columns: nonKey, keyColumns: keyColumns, counts: counts, dialect: .postgres),
            upsertSQL: RecordSQL.upsert(into: table, columns: columns, keyColumns: keyColumns, dialect: .postgres),
            deleteSQL: RecordSQL.delete(from: table, keyColumns: keyColumns, counts: counts, dialect: .postgres),
            selectOneSQL: RecordSQL.selectOne(from: table, keyColumns: keyColumns, counts: counts, dialect: .postgres),
            existsSQL: RecordSQL.count(
                from: table,
                condition: RecordSQL.keyCondition(columns: keyColumns, counts: counts, dialect: .postgres)),
            keyUpsert: try upsert(
                table: table, key: key, written: columns, plan: columnsPlan, onConflict: nil, updating: nil),
            nonKeyColumns: nonKey, orderedKeys: orderedKeys,
            columnsPlan: columnsPlan,
            nonKeyColumnsPlan: PostgresEncodingPlan(
                columns: nonKey, orderedKeys: orderedKeys, encoderNames: encoderNames),
            jsonEncoder: R.recordEncoder.jsonEncoder, jsonDecoder: R.rowDecoder.jsonDecoder)
    }

    /// The record's values for `plan`'s columns (``columnsPlan`` or ``nonKeyColumnsPlan``), NULL for a column
    /// its `encode(to:)` skipped (a nil Optional written with `encodeIfPresent`), so that an update clears it.
    /// - Throws: `EncodingError.invalidValue` naming the column and the table (text holding U+0000, a number
    ///   beyond BIGINT), before anything is sent.
    func parameters<R: Record>(of record: R, _ plan: PostgresEncodingPlan) throws -> PostgresParameters {
        // Room for the key an update appends after the columns too: the buffer is reserved once.
        let encoder = PostgresRecordEncoder(jsonEncoder: jsonEncoder, capacity: plan.columns.count + key.columns.count)
        _ = try namingTable { try encoder.append(record, plan: plan) }
        return encoder.takeParameters()
    }

    /// Runs `sql` with the record's values for `plan`'s columns (as ``parameters(of:_:)`` writes them), then
    /// the values of `key` (an update's `WHERE`), written into the connection's spare
    /// parameter buffer, which is handed back once libpq has copied them.
    /// - Throws: as ``parameters(of:_:)`` and ``keyValues(_:)``, before anything is sent; ``PostgresError``
    ///   from the server.
    func run<R: Record>(
        _ sql: String, _ record: R, _ plan: PostgresEncodingPlan, key: R.ID, on connection: PostgresConnection
    ) throws -> PostgresResult {
        try run(sql, record, plan, on: connection) { try appendKey(key, to: &$0) }
    }

    /// ``run(_:_:_:key:on:)`` with no key: an insert's or upsert's statement. A function of its own rather
    /// than a nil `R.ID?`: code not specialized for the record type makes the metadata of an `R.ID?` on
    /// every call.
    func run<R: Record>(
        _ sql: String, _ record: R, _ plan: PostgresEncodingPlan, on connection: PostgresConnection
    ) throws -> PostgresResult {
        try run(sql, record, plan, on: connection) { _ in }
    }

    private func run<R: Record>(
        _ sql: String, _ record: R, _ plan: PostgresEncodingPlan, on connection: PostgresConnection,
        appendingKey appendKey: (inout PostgresParameters) throws -> Void
    ) throws -> PostgresResult {
        var parameters = try self.parameters(of: record, plan, on: connection)
        try appendKey(&parameters)
        let result = try connection.forgettingArrayColumns(of: table) { try connection.run(sql, parameters) }
        connection.keepSpareParameters(parameters)
        return result
    }

    /// ``parameters(of:_:)`` written into the connection's spare parameter buffer
    /// (``PostgresConnection/takeSpareParameters()``), for the caller to hand back once they are copied; an
    /// array of scalars as JSON where its column is no array column (`writeArrays(of:into:)`).
    /// - Throws: as ``parameters(of:_:)``; ``PostgresError`` from the catalog read of a record with an array.
    func parameters<R: Record>(
        of record: R, _ plan: PostgresEncodingPlan, on connection: PostgresConnection
    ) throws -> PostgresParameters {
        let encoder = PostgresRecordEncoder(jsonEncoder: jsonEncoder, reusing: connection.takeSpareParameters())
        _ = try namingTable { try encoder.append(record, plan: plan) }
        if !encoder.arrays.isEmpty { try namingTable { try connection.writeArrays(of: encoder, into: table) } }
        return encoder.takeParameters()
    }

    /// The record's values for every column (``columns``), one ``PostgresValue`` each, as a save writes them.
    /// - Throws: as ``parameters(of:_:)``.
    func values<R: Record>(of record: R) throws -> [PostgresValue] {
        let parameters = try self.parameters(of: record, columnsPlan)
        return (0..<parameters.count).map { parameters.value(at: $0) }
    }

    /// `body`'s value; its `EncodingError.invalidValue`, whose coding path names the column only, says the
    /// table too.
    func namingTable<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch EncodingError.invalidValue(let value, let context) {
            let column = context.codingPath.first.map { "column \"\($0.stringValue)\" of " } ?? ""
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: context.codingPath,
                    debugDescription: "\(column)table \"\(table)\": \(context.debugDescription)",
                    underlyingError: context.underlyingError))
        }
    }

    /// The key's values, in key column order.
    /// - Throws: ``RecordError/recordNotSaved(table:)`` for a nil rowid, `EncodingError` for a key value
    ///   PostgreSQL cannot store.
    func keyValues<ID: Encodable>(_ id: ID) throws -> [PostgresValue] {
        try namingTable { try encodedKeyValues(id) }
    }

    /// Throws what ``keyValues(_:)`` throws for `id`, without keeping its values: a rowid is checked without
    /// encoding it.
    func checkKey<ID: Encodable>(_ id: ID) throws {
        if case .rowID = key, let rowID = SameTypeCast.cast(id, to: Int64?.self) {
            if rowID == nil { throw RecordError.recordNotSaved(table: table) }
            return
        }
        _ = try keyValues(id)
    }

    /// Appends the key's values to `parameters`, in key column order (a rowid as a BIGINT straight into the
    /// buffer).
    /// - Throws: as ``keyValues(_:)``.
    func appendKey<ID: Encodable>(_ id: ID, to parameters: inout PostgresParameters) throws {
        if case .rowID = key, let rowID = SameTypeCast.cast(id, to: Int64?.self) {
            guard let rowID else { throw RecordError.recordNotSaved(table: table) }
            parameters.set(rowID, at: parameters.appendNulls(1))
            return
        }
        for value in try keyValues(id) { parameters.append(value) }
    }

    private func encodedKeyValues<ID: Encodable>(_ id: ID) throws -> [PostgresValue] {
        switch key {
        case .rowID:
            guard let rowID = id as? Int64? , let value = rowID else { throw RecordError.recordNotSaved(table: table) }
            return [PostgresValue(value)]
        case .single(let column):
            let value = try PostgresValueWriter.value(
                id, codingPath: [PostgresColumnKey(column)], jsonEncoder: jsonEncoder)
            if value.isNull { throw RecordError.missingKey(table: table, column: column) }
            return [value]
        case .composite(let columns):
            let encoded = try PostgresRecordEncoder.encode(id, columnNames: encoderNames, jsonEncoder: jsonEncoder)
            var byName: [String: PostgresValue] = [:]
            for (name, value) in zip(encoded.columns, encoded.values) { byName[name] = value }
            return try columns.map { column in
                guard let value = byName[column], !value.isNull else {
                    throw RecordError.missingKey(table: table, column: column)
                }
                return value
            }
        }
    }
}
#endif
