/// Eager loads whose parent keys are rows of values: a link of several columns (a region keyed by its
/// country code and its own code), or associations of one load that refer to different parent columns.
///
/// The children's query matches `("a", "b") IN (VALUES (?, ?), ...)`, SQLite's row values
/// (<https://www.sqlite.org/rowvalue.html>), which the index on the foreign key columns serves. The key rows
/// are bound as arguments, split over as many statements as SQLite's limit on bound values
/// (``Database/maximumBoundValues``, read from the connection, at most 32,766) needs, less the arguments of the
/// association's own filter: a parent's children all come from one statement, so the association's order
/// and its per-parent limit hold however many statements the load takes.
extension IncludingAllRequest {
    /// ``fetch(_:as:)`` for a load whose parent keys are rows (``readsKeyRows``).
    func fetchByKeyRows<T: Decodable>(_ db: Database, as type: T.Type) throws -> [T] {
        let link = association.link
        return try Base.explainingMissingTable {
            try link.check(db)
            try checkAddedAssociations(db)
            let (parents, rows) = try fetchParents(db, keyColumns: [link.parentKeys] + more.map(\.link.parentKeys))
            let children = try association.children(db, ofKeyRows: Self.distinctRows(rows[0]))
            let others = try more.enumerated().map { index, loader in
                try loader.loadChildren(db, ofKeyRows: Self.distinctRows(rows[index + 1]))
            }
            return try parents.indices.map { position in
                var values: [(key: String, value: Any)] = [
                    (link.originKey, parents[position]), (link.key, children[rows[0][position]] ?? []),
                ]
                for (index, loader) in more.enumerated() {
                    values.append((loader.link.key, others[index][rows[index + 1][position]] ?? loader.noChildren))
                }
                return try T(from: NestedResultDecoder(values: values, association: link, resultType: T.self))
            }
        }
    }

    /// ``fetchGroups(_:)`` for an association of several columns.
    func fetchGroupsByKeyRows(_ db: Database) throws -> [(Base, [Child])] {
        try Base.explainingMissingTable {
            try association.link.check(db)
            let (parents, rows) = try fetchParents(db, keyColumns: [association.link.parentKeys])
            let children = try association.children(db, ofKeyRows: Self.distinctRows(rows[0]))
            return zip(parents, rows[0]).map { parent, row in (parent, children[row] ?? []) }
        }
    }

    /// The parents, and for each of `keyColumns` (one list of parent columns per association) each parent's
    /// values in those columns, in the parents' order.
    /// - Throws: ``RecordError/invalidQuery(table:reason:)`` for a request with a selection,
    ///   ``RecordError/unknownColumn(table:column:columns:)`` for a key column the rows lack, or what the
    ///   query throws.
    private func fetchParents(
        _ db: Database, keyColumns: [[String]]
    ) throws -> ([Base], [[[SQLiteValue]]]) {
        guard base.selection.isEmpty else {
            throw RecordError.invalidQuery(
                table: Base.tableName, reason: "including(all:) needs whole records: remove the select(...)")
        }
        let parentQuery = try base.compiled(db, .select)
        var parents: [Base] = []
        var rows = [[[SQLiteValue]]](repeating: [], count: keyColumns.count)
        try db.withStatement(sql: parentQuery.sql, arguments: parentQuery.arguments) { statement in
            let indexes = try keyColumns.map { columns in
                try columns.map { try Self.index(of: $0, in: statement, table: Base.tableName) }
            }
            let context = RowDecodingContext(
                statement: statement, tableName: Base.tableName, missingOptionalColumnIsNil: false,
                decoder: Base.rowDecoder)
            while try statement.step() {
                parents.append(try context.decodeRow(Base.self))
                for (association, columnIndexes) in indexes.enumerated() {
                    rows[association].append(columnIndexes.map { statement.value(at: $0) })
                }
            }
        }
        return (parents, rows)
    }

    /// Each key row once, in the order first met, leaving out rows with a NULL, which match no child (as
    /// SQL's `=` matches no NULL, and SQLite does not enforce a foreign key with a NULL column).
    static func distinctRows(_ rows: [[SQLiteValue]]) -> [[SQLiteValue]] {
        var seen = Set<[SQLiteValue]>()
        return rows.filter { !$0.contains(.null) && seen.insert($0).inserted }
    }
}

extension HasManyAssociation {
    /// The children of the parents whose key rows are `rows` (distinct, with no NULL), by key row: the
    /// association's filter and order, its limit per parent. No query for no rows. A child whose foreign key
    /// column holds a parent key's value in another storage class, which the row-value IN matched through the
    /// column's affinity, is under the parent's key row (``ParentKeyForms``, column by column). The caller has
    /// checked the link (``AssociationLink/check(_:)``).
    /// - Throws: what the queries throw.
    func children(_ db: Database, ofKeyRows rows: [[SQLiteValue]]) throws -> [[SQLiteValue]: [Destination]] {
        guard !rows.isEmpty else { return [:] }
        var request = self.request
        let perParent = request.limitCount
        request.limitCount = nil
        request.offsetCount = nil
        let columns = link.foreignKeys
        let width = columns.count
        // The association's own filter binds values too, in every statement. At most 32,766 values (the
        // default limit since SQLite 3.32) even where a build allows more, as fetch(_:ids:) binds them: that
        // keeps each statement's text (3 to 4 bytes a value) far under SQLite's default limit on SQL length,
        // 1,000,000 bytes (https://www.sqlite.org/limits.html#max_sql_length).
        let ownArguments = try request.compiled(db, .select).arguments.values.count
        let rowsPerStatement = max(1, (min(db.maximumBoundValues, 32_766) - ownArguments) / width)
        var forms = (0..<width).map { column in
            var seen = Set<SQLiteValue>()
            return ParentKeyForms(rows.map { $0[column] }.filter { seen.insert($0).inserted })
        }
        let operand = "(" + columns.map(SQLIdentifier.quoted).joined(separator: ", ") + ") IN (VALUES "
        let tuple = "(" + repeatElement("?", count: width).joined(separator: ", ") + ")"
        var children: [[SQLiteValue]: [Destination]] = [:]
        var start = 0
        while start < rows.count {
            let part = rows[start..<min(start + rowsPerStatement, rows.count)]
            var arguments = StatementArguments()
            arguments.values.reserveCapacity(part.count * width)
            for row in part { arguments.values += row }
            let condition = operand + repeatElement(tuple, count: part.count).joined(separator: ", ") + ")"
            let query = try request.filter(SQLExpression(sql: condition, arguments: arguments)).compiled(db, .select)
            try db.withStatement(sql: query.sql, arguments: query.arguments) { statement in
                let indexes = try columns.map {
                    try IncludingAllRequest<Origin, Destination>.index(
                        of: $0, in: statement, table: Destination.tableName)
                }
                let context = RowDecodingContext(
                    statement: statement, tableName: Destination.tableName, missingOptionalColumnIsNil: false,
                    decoder: Destination.rowDecoder)
                var key = [SQLiteValue](repeating: .null, count: width)
                while try statement.step() {
                    for (column, index) in indexes.enumerated() {
                        key[column] = forms[column].parentKey(for: statement.value(at: index))
                    }
                    if let perParent, children[key]?.count ?? 0 >= perParent { continue }
                    children[key, default: []].append(try context.decodeRow(Destination.self))
                }
            }
            start += part.count
        }
        return children
    }
}
