#if PostgreSQL
import Foundation
import SQLiteRecord

/// Eager loads on PostgreSQL: two queries for any number of parents, as on SQLite, the children's
/// `WHERE "fk" IN ($1, ...)` (`= ANY($1)` with one array beyond 512 parents) compiled by the same compiler.
extension IncludingAllRequest {
    /// The parents with their children, each as a value of `type` (see ``fetch(_:as:)``).
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` when two associations have one key or
    ///   `type`'s keys are not the ones the request provides; ``RecordError/unknownColumn(table:column:columns:)``
    ///   when a table lacks the foreign key or key column; otherwise as
    ///   ``QueryInterfaceRequest/fetch(_:)-(PostgresConnection)``.
    public func fetch<T: Decodable>(_ connection: PostgresConnection, as type: T.Type) throws -> [T] {
        let link = association.link
        var keys = Set([link.originKey, link.key])
        for loader in more where !keys.insert(loader.link.key).inserted {
            throw RecordError.invalidAssociation(
                association: loader.link.description,
                reason: "another association of the same eager load has the key \"\(loader.link.key)\": "
                    + "give one another name with `key:`")
        }
        let (parents, parentKeys, distinctKeys) = try fetchParents(connection)
        let children = try association.children(connection, of: distinctKeys)
        let others = try more.map { loader -> [PostgresKey: Any] in
            guard let postgres = loader as? any PostgresEagerLoadedAssociation else {
                throw RecordError.invalidAssociation(
                    association: loader.link.description, reason: "this association does not load on PostgreSQL")
            }
            return try postgres.loadChildren(connection, of: distinctKeys)
        }
        return try zip(parents, parentKeys).map { parent, key in
            var values: [(key: String, value: Any)] = [
                (link.originKey, parent), (link.key, key.flatMap { children[$0.key] } ?? []),
            ]
            for (loader, loaded) in zip(more, others) {
                values.append((loader.link.key, key.flatMap { loaded[$0.key] } ?? loader.noChildren))
            }
            return try link.decodeNested(T.self, values: values)
        }
    }

    /// The parents with their children, as pairs (the children of the association this request was made
    /// with).
    /// - Throws: as ``fetch(_:as:)-(PostgresConnection,_)``.
    public func fetchGroups(_ connection: PostgresConnection) throws -> [(Base, [Child])] {
        let (parents, keys, distinctKeys) = try fetchParents(connection)
        let children = try association.children(connection, of: distinctKeys)
        return zip(parents, keys).map { parent, key in (parent, key.flatMap { children[$0.key] } ?? []) }
    }

    /// The parents, their keys in the same order (nil for NULL), and the distinct keys.
    private func fetchParents(
        _ connection: PostgresConnection
    ) throws -> ([Base], [PostgresKey.Bound?], [PostgresKey.Bound]) {
        let link = association.link
        guard base.parts.selectsRecords else {
            throw RecordError.invalidQuery(
                table: Base.tableName, reason: "including(all:) needs whole records: remove the select(...)")
        }
        guard !link.isComposite else {
            throw RecordError.invalidQuery(
                table: Base.tableName,
                reason: "including(all:) over a key of several columns is SQLite only for now: \(link.description)")
        }
        try connection.checkColumns([link.parentKey], of: link.parentTable)
        try connection.checkColumns([link.foreignKey], of: link.childTable)
        let (sql, arguments, shape) = try base.postgresSQL(connection, .select)
        let rows = try connection.query(sql, arguments)
        let parents = try Base.decodeAll(rows, shape: shape)
        let keyIndex = try PostgresKey.index(of: link.parentKey, in: rows, table: Base.tableName)
        var keys: [PostgresKey.Bound?] = []
        var distinct: [PostgresKey.Bound] = []
        var seen = Set<PostgresKey>()
        for row in 0..<rows.count {
            let key = try PostgresKey.bound(rows.result.cell(row: row, column: keyIndex), association: link)
            keys.append(key)
            if let key, seen.insert(key.key).inserted { distinct.append(key) }
        }
        return (parents, keys, distinct)
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
        childRequest = childRequest.filter(
            Column(link.foreignKey).in(keys.map { PostgresQueryValue(value: $0.value) }))
        let (sql, arguments, shape) = try childRequest.postgresSQL(connection, .select)
        let rows = try connection.query(sql, arguments)
        let keyIndex = try PostgresKey.index(of: link.foreignKey, in: rows, table: Destination.tableName)
        var children: [PostgresKey: [Destination]] = [:]
        for row in 0..<rows.count {
            guard let key = try PostgresKey.bound(rows.result.cell(row: row, column: keyIndex), association: link)
            else { continue }
            if let perParent, children[key.key, default: []].count >= perParent { continue }
            let child = try Destination(
                from: PostgresRowDecoder(rows: rows, row: row, columnNames: shape.decoderNames))
            children[key.key, default: []].append(child)
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

    /// A key and the value that finds it.
    struct Bound {
        let key: PostgresKey
        let value: PostgresValue
    }

    /// The key in `cell`; nil for NULL.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` for a key of a type no key has.
    static func bound(_ cell: PostgresCell, association: AssociationLink) throws -> Bound? {
        switch cell {
        case .null: return nil
        case .integer(let value, _): return Bound(key: .integer(value), value: PostgresValue(value))
        case .text(let text, _): return Bound(key: .text(text), value: try PostgresValue(text: text))
        case .uuid(let uuid): return Bound(key: .uuid(uuid), value: PostgresValue(uuid))
        case .bytea(let data): return Bound(key: .bytes(data), value: PostgresValue(data))
        case .numeric(let text):
            return Bound(
                key: .numeric(text),
                value: PostgresValue(typeOID: PostgresType.numeric, isBinary: false, bytes: Array(text.utf8)))
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
#endif
