#if PostgreSQL
import Foundation
@_spi(RecordEngine) import SQLiteRecord

/// How `save(_:children:)` sets a child's foreign key on PostgreSQL: the parent's key values encoded as
/// PostgreSQL stores them, set in the child's encoded columns, and the child read back by its decoder.
extension PostgresConnection {
    @_spi(RecordEngine)
    public func foreignKeySetter<Parent: Record, Child: Record>(
        _ childType: Child.Type, setting foreignKeys: [String], to parentKeys: [String], of parent: Parent,
        association: String
    ) throws -> (Child) throws -> Child {
        let parentShape = try PostgresRecordShape.of(Parent.self)
        let parentValues = try parentShape.values(of: parent)
        let key = try parentKeys.map {
            parentValues[try Parent.index(of: $0, in: parentShape.columns, association: association)]
        }
        // Found on the first child and kept for the others: where the foreign key goes, and one column
        // layout that every child's one-row result is read through. Used on this connection's thread alone.
        var setting: PostgresForeignKeySetting<Child>?
        return { child in
            let current = try setting ?? PostgresForeignKeySetting<Child>(foreignKeys, to: key, association: association)
            setting = current
            return try child.withForeignKey(current, on: self)
        }
    }
}

extension Record {
    /// This record with the columns of `setting` set to its values: encoded as a save encodes it (every
    /// column, NULL for a nil optional), the values replaced, and read back by its decoder from a result of
    /// one row made in this process (``PostgresResult/row(nameBytes:_:)``, no round trip), so that the values
    /// reach the properties as a fetch would put them there (a `CodingKeys` rename, a key strategy) and every
    /// other property comes back as stored.
    /// - Throws: `EncodingError`, ``PostgresError``, or the `DecodingError` of a value its type does not read.
    fileprivate func withForeignKey(
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
    /// - Parameter isForeignKey: true for a child's foreign key column, which the error then says to name
    ///   with `using:`.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` naming the columns there are.
    fileprivate static func index(
        of column: String, in columns: [String], association: String, isForeignKey: Bool = false
    ) throws -> Int {
        guard let index = index(of: column, inNames: columns) else {
            throw RecordError.invalidAssociation(
                association: association,
                reason: isForeignKey ? encodesNoForeignKey(column, columns) : encodesNoColumn(column, columns))
        }
        return index
    }
}

/// Foreign key values to set in records of type `Child`: at which of its shape's columns each value goes, and
/// the column layout of the one-row results a record is read back from. Made once per `save(_:children:)`,
/// and used on its connection's thread alone, as the layout is.
private struct PostgresForeignKeySetting<Child: Record> {
    let shape: PostgresRecordShape
    /// Each value's column, an index in the shape's columns.
    let indexes: [Int]
    let values: [PostgresValue]
    let layout: PostgresColumnLayout

    /// Each of `columns` to be set to the value at the same place in `values`.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` when `Child` encodes no such column,
    ///   or `SchemaProbeError` when the type cannot be probed.
    init(_ columns: [String], to values: [PostgresValue], association: String) throws {
        let shape = try PostgresRecordShape.of(Child.self)
        self.shape = shape
        indexes = try columns.map { 
            try Child.index(of: $0, in: shape.columns, association: association, isForeignKey: true)
        }
        self.values = values
        layout = PostgresColumnLayout(names: shape.columns)
    }
}
#endif
