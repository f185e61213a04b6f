#if PostgreSQL
import Foundation
@_spi(RecordEngine) import SQLiteRecord

/// Eager loads on PostgreSQL: two queries for any number of parents, as on SQLite, the children's
/// `WHERE "fk" IN ($1, ...)` (`= ANY($1)` with one array beyond 512 parents) compiled by the same compiler.
/// A link of several columns matches its key rows with `("a", "b") IN (SELECT * FROM unnest($1, $2))`, one
/// array per column (<https://www.postgresql.org/docs/current/functions-array.html#ARRAY-FUNCTIONS-TABLE>):
/// one statement of two parameters however many parents there are.
extension IncludingAllRequest {
    /// PostgreSQL's eager load (`fetch(_:as:)`): also ``RecordError/invalidAssociation(association:reason:)``
    /// when a table lacks a foreign key or key column, as SQLite's says it.
    func fetch<T: Decodable>(_ connection: PostgresConnection, as type: T.Type) throws -> [T] {
        let link = association.link
        var keys = Set([link.originKey, link.key])
        for loader in more where !keys.insert(loader.link.key).inserted {
            throw RecordError.invalidAssociation(
                association: loader.link.description,
                reason: "another association of the same eager load has the key \"\(loader.link.key)\": "
                    + "give one another name with `key:`")
        }
        let loaders = try more.map { loader -> any PostgresEagerLoadedAssociation in
            guard let postgres = loader as? any PostgresEagerLoadedAssociation else {
                throw RecordError.invalidAssociation(
                    association: loader.link.description, reason: "this association does not load on PostgreSQL")
            }
            return postgres
        }
        let (parents, parentKeys) = try fetchParents(connection, links: [link] + more.map(\.link))
        let children = try association.children(connection, of: Self.distinct(parentKeys[0]))
        let others = try loaders.enumerated().map { index, loader in
            try loader.loadChildren(connection, of: Self.distinct(parentKeys[index + 1]))
        }
        return try parents.indices.map { position in
            var values: [(key: String, value: Any)] = [
                (link.originKey, parents[position]),
                (link.key, parentKeys[0][position].flatMap { children[$0.key] } ?? []),
            ]
            for (index, loader) in more.enumerated() {
                let loaded = parentKeys[index + 1][position].flatMap { others[index][$0.key] }
                values.append((loader.link.key, loaded ?? loader.noChildren))
            }
            return try link.decodeNested(T.self, values: values)
        }
    }

    /// PostgreSQL's eager load of one association (`fetchGroups(_:)`).
    func fetchGroups(_ connection: PostgresConnection) throws -> [(Base, [Child])] {
        let (parents, keys) = try fetchParents(connection, links: [association.link])
        let children = try association.children(connection, of: Self.distinct(keys[0]))
        return zip(parents, keys[0]).map { parent, key in (parent, key.flatMap { children[$0.key] } ?? []) }
    }

    /// The parents and, for each of `links`, each parent's key in the link's parent columns, in the parents'
    /// order (nil for a NULL in any of them, which matches no child).
    /// - Throws: ``RecordError/invalidQuery(table:reason:)`` for a request with a selection, what
    ///   ``AssociationLink/checkColumnCounts()`` throws, ``RecordError/invalidAssociation(association:reason:)``
    ///   for a link column a table lacks, or what the query throws.
    private func fetchParents(
        _ connection: PostgresConnection, links: [AssociationLink]
    ) throws -> ([Base], [[PostgresKey.Bound?]]) {
        guard base.parts.selectsRecords else {
            throw RecordError.invalidQuery(
                table: Base.tableName, reason: "including(all:) needs whole records: remove the select(...)")
        }
        for link in links {
            if link.isComposite { try link.checkColumnCounts() }
            try connection.checkColumns(link.foreignKeys, of: link.childTable, for: link, areForeignKeys: true)
            try connection.checkColumns(link.parentKeys, of: link.parentTable, for: link, areForeignKeys: false)
        }
        let (sql, arguments, shape) = try base.postgresSQL(connection, .select)
        let rows = try connection.query(sql, arguments)
        let parents = try Base.decodeAll(rows, shape: shape)
        let keys = try links.map { link in
            let columns = try link.parentKeys.map { try PostgresKey.index(of: $0, in: rows, table: Base.tableName) }
            return try (0..<rows.count).map {
                try PostgresKey.bound(rows, row: $0, columns: columns, association: link)
            }
        }
        return (parents, keys)
    }

    /// Each key once, in the order first met, leaving out nil.
    private static func distinct(_ keys: [PostgresKey.Bound?]) -> [PostgresKey.Bound] {
        var seen = Set<PostgresKey>()
        return keys.compactMap { $0 }.filter { seen.insert($0.key).inserted }
    }
}

extension HasManyAssociation {
    /// The children of the parents whose keys are `keys`, by parent key, in one query; the association's
    /// limit applies per parent, as on SQLite. No query for no keys.
    /// - Throws: what the query throws.
    func children(
        _ connection: PostgresConnection, of keys: [PostgresKey.Bound]
    ) throws -> [PostgresKey: [Destination]] {
        guard !keys.isEmpty else { return [:] }
        var childRequest = request
        let perParent = childRequest.parts.limit
        childRequest = childRequest.unlimited
        var keyRows: (sql: String, arguments: PostgresArguments)?
        if link.isComposite {
            let binding = PostgresRequestBinding<Destination>(
                shape: try PostgresRecordShape.of(Destination.self), connection: connection)
            var arguments = PostgresArguments.empty
            for (index, column) in link.foreignKeys.enumerated() {
                if case .array(let array) = try binding.longList(keys.map { $0.values[index] }, column: column) {
                    // `unnest` of arrays of no declared type is ambiguous to the server (SQLSTATE 42725):
                    // text keys' arrays are `text[]` here.
                    arguments.append(
                        array.typeOID == 0
                            ? PostgresValue(typeOID: PostgresType.textArray, isBinary: false, bytes: array.bytes) : array)
                }
            }
            keyRows = (
                "(" + link.foreignKeys.map(SQLIdentifier.quoted).joined(separator: ", ")
                    + ") IN (SELECT * FROM unnest("
                    + SQLDialect.postgres.parameters(from: 1, count: arguments.count) + "))",
                arguments
            )
        } else {
            childRequest = childRequest.filter(
                Column(link.foreignKey).in(keys.map { PostgresQueryValue(value: $0.values[0]) }))
        }
        let (sql, arguments, shape) = try childRequest.postgresSQL(connection, .select, leadingCondition: keyRows)
        let rows = try connection.query(sql, arguments)
        let keyColumns = try link.foreignKeys.map {
            try PostgresKey.index(of: $0, in: rows, table: Destination.tableName)
        }
        var children: [PostgresKey: [Destination]] = [:]
        var decoder = PostgresRowsDecoder(rows, columnNames: shape.decoderNames, jsonDecoder: shape.jsonDecoder)
        if keyColumns.count == 1,
            case .citext(let arrayType) = try connection.ownType(rows.result.columnType(keyColumns[0]))
        {
            return try groupedByServer(
                rows, keyColumn: keyColumns[0], keys: keys, perParent: perParent, decoder: &decoder,
                connection: connection, arrayType: arrayType)
        }
        for row in 0..<rows.count {
            guard let key = try PostgresKey.bound(rows, row: row, columns: keyColumns, association: link) else {
                continue
            }
            if let perParent, children[key.key, default: []].count >= perParent { continue }
            let child = try decoder.decode(Destination.self, row: row)
            children[key.key, default: []].append(child)
        }
        return children
    }

    /// The children in `rows`, whose foreign key column `keyColumn` is of a type the server compares otherwise
    /// than by its text (`citext`, or a domain over it: `'swift'` finds the parent `'Swift'`), by parent key:
    /// the server says which of `keys` each child's key equals, as it compared them to find the children, by
    /// joining the distinct child keys with the parent keys, both bound as arrays of type `arrayType`
    /// (`citext[]`). Folding case in Swift could disagree with the server's `lower()`.
    /// - Throws: what the query or decoding a child throws.
    private func groupedByServer(
        _ rows: PostgresRows, keyColumn: Int, keys: [PostgresKey.Bound], perParent: Int?,
        decoder: inout PostgresRowsDecoder, connection: PostgresConnection, arrayType: UInt32
    ) throws -> [PostgresKey: [Destination]] {
        var childKeys: [String] = []
        var seen = Set<String>()
        for row in 0..<rows.count {
            if case .text(let text, _) = rows.result.cell(row: row, column: keyColumn), seen.insert(text).inserted {
                childKeys.append(text)
            }
        }
        guard !childKeys.isEmpty else { return [:] }
        let parentKeys = keys.map { key -> String? in
            if case .text(let text) = key.key { return text }
            return nil
        }
        let element = rows.result.columnType(keyColumn)
        func array(_ texts: [String?]) throws -> PostgresValue {
            try texts.postgresArray(codingPath: [PostgresColumnKey(link.foreignKey)])
                .textArray(as: arrayType, element: element)
        }
        let matches = try connection.query(
            "SELECT c.key, p.position FROM unnest($1) AS c(key) JOIN unnest($2) WITH ORDINALITY AS p(key, position) "
                + "ON c.key = p.key",
            [try array(childKeys), try array(parentKeys)])
        var parentsOfKey: [String: [PostgresKey]] = [:]
        for match in 0..<matches.count {
            let position = Int(try matches[match].decode(Int64.self, at: 1)) - 1
            guard keys.indices.contains(position) else { continue }
            parentsOfKey[try matches[match].decode(String.self, at: 0), default: []].append(keys[position].key)
        }
        var children: [PostgresKey: [Destination]] = [:]
        for row in 0..<rows.count {
            guard case .text(let text, _) = rows.result.cell(row: row, column: keyColumn),
                let parents = parentsOfKey[text]
            else { continue }
            let wanted = parents.filter { parent in perParent.map { children[parent, default: []].count < $0 } ?? true }
            guard !wanted.isEmpty else { continue }
            let child = try decoder.decode(Destination.self, row: row)
            for parent in wanted { children[parent, default: []].append(child) }
        }
        return children
    }
}

/// A has-many association that an eager load on PostgreSQL can load, its child type erased.
protocol PostgresEagerLoadedAssociation {
    func loadChildren(_ connection: PostgresConnection, of keys: [PostgresKey.Bound]) throws -> [PostgresKey: Any]
}

extension HasManyAssociation: PostgresEagerLoadedAssociation {
    func loadChildren(_ connection: PostgresConnection, of keys: [PostgresKey.Bound]) throws -> [PostgresKey: Any] {
        try children(connection, of: keys)
    }
}

/// A parent key as read from a row, comparable across PostgreSQL's integer widths (an INTEGER foreign key
/// finds its BIGINT parent), with the value that binds it.
enum PostgresKey: Hashable {
    case integer(Int64)
    case text(String)
    case uuid(UUID)
    case bytes(Data)
    case numeric(String)
    /// The key of a link of several columns: one key per column, in the link's order.
    case row([PostgresKey])

    /// A key and the values that find it, one per key column.
    struct Bound {
        let key: PostgresKey
        let values: [PostgresValue]
    }

    /// The key in the cells of `row` at `columns`: one column's key, or a ``row(_:)`` of several; nil when
    /// any of them is NULL, as SQL's `=` matches no NULL.
    /// - Throws: as ``bound(_:association:)``.
    static func bound(_ rows: PostgresRows, row: Int, columns: [Int], association: AssociationLink) throws -> Bound? {
        if columns.count == 1 {
            return try bound(rows.result.cell(row: row, column: columns[0]), association: association)
        }
        var keys: [PostgresKey] = []
        var values: [PostgresValue] = []
        for column in columns {
            guard let part = try bound(rows.result.cell(row: row, column: column), association: association) else {
                return nil
            }
            keys.append(part.key)
            values += part.values
        }
        return Bound(key: .row(keys), values: values)
    }

    /// The key in `cell`; nil for NULL.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` for a key of a type no key has.
    static func bound(_ cell: PostgresCell, association: AssociationLink) throws -> Bound? {
        switch cell {
        case .null: return nil
        case .integer(let value, _): return Bound(key: .integer(value), values: [PostgresValue(value)])
        case .text(let text, _): return Bound(key: .text(text), values: [try PostgresValue(text: text)])
        case .uuid(let uuid): return Bound(key: .uuid(uuid), values: [PostgresValue(uuid)])
        case .bytea(let data): return Bound(key: .bytes(data), values: [PostgresValue(data)])
        case .numeric(let text):
            return Bound(
                key: .numeric(text),
                values: [PostgresValue(typeOID: PostgresType.numeric, isBinary: false, bytes: Array(text.utf8))])
        default:
            throw RecordError.invalidAssociation(
                association: association.description, reason: "a key holds \(cell.summary), which no key type is")
        }
    }

    /// The index of result column `name`.
    /// - Throws: ``RecordError/unknownColumn(table:column:columns:)``.
    static func index(of name: String, in rows: PostgresRows, table: String) throws -> Int {
        guard let index = rows.columnIndex(name) else {
            throw RecordError.unknownColumn(table: table, column: name, columns: rows.columnNames)
        }
        return index
    }
}

/// PostgreSQL's answers to the engine-neutral eager loads.
extension PostgresConnection {
    @_spi(RecordEngine)
    public func fetchGroups<Base: Record, Child: Record>(_ request: IncludingAllRequest<Base, Child>) throws
        -> [(Base, [Child])]
    {
        try request.fetchGroups(self)
    }

    @_spi(RecordEngine)
    public func fetchNested<Base: Record, Child: Record, T: Decodable>(
        _ request: IncludingAllRequest<Base, Child>, as type: T.Type
    ) throws -> [T] {
        try request.fetch(self, as: T.self)
    }
}
#endif
