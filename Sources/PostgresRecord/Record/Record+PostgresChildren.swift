#if PostgreSQL
import Foundation
import SQLiteRecord

/// Parent-child saves on PostgreSQL: which foreign key a child gets, and in which order `bind(to:)` runs, is
/// SQLiteRecord's rule (`bindChild(_:link:setForeignKey:)`); the key's values are encoded and set as
/// PostgreSQL stores them.
extension Record {
    /// Saves the record, then each child after setting its foreign key to this record's key, in one
    /// transaction (a savepoint inside the caller's), as on SQLite: the foreign key of the one
    /// ``BelongsToAssociation`` to this type that the child type lists in ``Record/parentAssociations``, then
    /// the child's ``Record/bind(to:)``, which has the last word (a type that lists none is bound by its
    /// `bind(to:)` alone). All or nothing, in the database and in memory (on a throw the records keep the
    /// values they came with).
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` when the child type lists two or more
    ///   associations to this type (name one with ``save(_:children:for:)-(PostgresConnection,_,_)``) or a
    ///   record encodes no such key column; otherwise the first error of a save, or `CancellationError` when
    ///   the task of the async pool call was cancelled. Nothing stays written.
    public mutating func save<Child: Record>(_ connection: PostgresConnection, children: inout [Child]) throws {
        try save(connection, children: &children, link: Self.declaredLink(to: Child.self))
    }

    /// ``save(_:children:)-(PostgresConnection,_)`` with the association named, for a child type with two
    /// links to this type or one that does not list its parent in ``Record/parentAssociations``.
    /// - Throws: as ``save(_:children:)-(PostgresConnection,_)``.
    public mutating func save<Child: Record>(
        _ connection: PostgresConnection, children: inout [Child], for association: HasManyAssociation<Self, Child>
    ) throws {
        try save(connection, children: &children, link: association.link)
    }

    /// The save of ``save(_:children:)-(PostgresConnection,_)``, setting each child's foreign key by `link`
    /// when there is one.
    mutating func save<Child: Record>(
        _ connection: PostgresConnection, children: inout [Child], link: AssociationLink?
    ) throws {
        let originalSelf = self
        let originalChildren = children
        do {
            try connection.transaction {
                try save(connection)
                let parent = self
                let key = try link.map { try parent.postgresValues(of: $0.parentKeys, for: $0) }
                // Found once for every child: where the foreign key goes, and one column layout that every
                // child's one-row result is read through (its decoder's keys then found in order).
                var setting: PostgresForeignKeySetting<Child>?
                for index in children.indices {
                    try connection.checkCancellation()
                    try parent.bindChild(&children[index], link: link) { child, link in
                        let current =
                            try setting ?? PostgresForeignKeySetting<Child>(link.foreignKeys, to: key ?? [], for: link)
                        setting = current
                        return try child.withForeignKey(current, on: connection)
                    }
                    try children[index].save(connection)
                }
            }
        } catch {
            self = originalSelf
            children = originalChildren
            throw error
        }
    }

    /// The values this record encodes for `columns` (matched as SQLite matches names, A-Z in either case),
    /// in their order, as PostgreSQL stores them.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` when `link`'s column counts differ or
    ///   this record encodes no such column, or `EncodingError`.
    private func postgresValues(of columns: [String], for link: AssociationLink) throws -> [PostgresValue] {
        if link.isComposite { try link.checkColumnCounts() }
        let shape = try PostgresRecordShape.of(Self.self)
        let values = try shape.values(of: self)
        return try columns.map { values[try Self.index(of: $0, in: shape.columns, for: link)] }
    }

    /// This record with the columns of `setting` set to its values: encoded as a save encodes it (every
    /// column, NULL for a nil optional), the values replaced, and read back by its decoder from a result of
    /// one row made in this process (``PostgresResult/row(nameBytes:_:)``, no round trip), so that the values reach
    /// the properties as a fetch would put them there (a `CodingKeys` rename, a key strategy) and every
    /// other property comes back as stored.
    /// - Throws: `EncodingError`, ``PostgresError``, or the `DecodingError` of a value its type does not read.
    private func withForeignKey(
        _ setting: PostgresForeignKeySetting<Self>, on connection: PostgresConnection
    ) throws -> Self {
        let shape = setting.shape
        var parameters = try shape.parameters(of: self, shape.columnsPlan, on: connection)
        for (index, value) in zip(setting.indexes, setting.values) { parameters.set(value, at: index) }
        let result = try PostgresResult.row(nameBytes: setting.layout.nameBytes, parameters)
        connection.keepSpareParameters(parameters)
        let rows = PostgresRows(result: result, sql: "", layout: setting.layout)
        return try Self(
            from: PostgresRowDecoder(
                rows: rows, row: 0, columnNames: shape.decoderNames, jsonDecoder: shape.jsonDecoder))
    }

    /// The index of `column` in `columns`, an exact match first, then A-Z in either case.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` naming the columns there are.
    fileprivate static func index(of column: String, in columns: [String], for link: AssociationLink) throws -> Int {
        guard let index = index(of: column, inNames: columns) else {
            throw RecordError.invalidAssociation(
                association: link.description, reason: encodesNoColumn(column, columns))
        }
        return index
    }
}

/// Foreign key values to set in records of type `Child`: at which of its shape's columns each value goes, and
/// the column layout of the one-row results a record is read back from. Made once per `save(_:children:)`,
/// and used on its connection's thread alone, as the layout is.
struct PostgresForeignKeySetting<Child: Record> {
    let shape: PostgresRecordShape
    /// Each value's column, an index in the shape's columns.
    let indexes: [Int]
    let values: [PostgresValue]
    let layout: PostgresColumnLayout

    /// Each of `columns` to be set to the value at the same place in `values`.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` when `Child` encodes no such column,
    ///   or `SchemaProbeError` when the type cannot be probed.
    init(_ columns: [String], to values: [PostgresValue], for link: AssociationLink) throws {
        let shape = try PostgresRecordShape.of(Child.self)
        self.shape = shape
        indexes = try columns.map { try Child.index(of: $0, in: shape.columns, for: link) }
        self.values = values
        layout = PostgresColumnLayout(names: shape.columns)
    }
}
#endif
