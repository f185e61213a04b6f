#if PostgreSQL
import Foundation
@_spi(RecordEngine) import SQLiteRecord

/// Joined fetches on PostgreSQL (``QueryInterfaceRequest/including(required:)-(BelongsToAssociation<Base,Parent>)``
/// and the others): one query, `LEFT JOIN` or `JOIN` as on SQLite. The joined record's columns are selected
/// under names of their own (`"#country.name"`), since PostgreSQL's rows keep both tables' `"id"`.
extension JoinedRequest {
    /// PostgreSQL's joined fetch (`fetchPairs(_:)`); also throws `RecordError.identifierTooLong` when a
    /// joined column's name under its association key (`"#country.name"`) is longer than PostgreSQL's 63 bytes.
    func fetchPairs(_ connection: PostgresConnection) throws -> [(Base, Associated?)] {
        guard base.parts.selectsRecords else {
            throw RecordError.invalidQuery(
                table: Base.tableName, reason: "a joined fetch needs whole records: remove the select(...)")
        }
        if link.isComposite { try link.checkColumnCounts() }
        let baseShape = try PostgresRecordShape.of(Base.self)
        let joinedShape = try PostgresRecordShape.of(Associated.self)
        let table = joinsChild ? link.childTable : link.parentTable
        try connection.checkColumns(
            link.foreignKeys, of: joinsChild ? table : Base.tableName, for: link, areForeignKeys: true)
        try connection.checkColumns(
            link.parentKeys, of: joinsChild ? Base.tableName : table, for: link, areForeignKeys: false)
        let (joinedTable, joinedKey, joinOn) = joinColumns
        var on = joinOn
        var onArguments = PostgresArguments.empty
        var joinFilter: (sql: String, arguments: PostgresArguments)?
        var filter = RequestCompiler(
            binding: PostgresRequestBinding<Associated>(shape: joinedShape, connection: connection), table: table, isWriting: true)
        filter.qualifier = table
        try filter.condition(of: joined.parts)
        if !filter.sql.isEmpty {
            try connection.checkColumns(filter.columns, of: table)
            if isRequired && !joinsChild {
                // In WHERE, after a LEFT JOIN: a parent the filter leaves out leaves its child out, and a
                // missing parent is still seen, and reported.
                joinFilter = (filter.sql, filter.arguments)
            } else {
                on += " AND (" + filter.sql + ")"
                onArguments = filter.arguments
            }
        }
        // The joined record's columns by the names its decoder reads, each under "#key.name".
        let prefix = Self.marker(link) + "."
        let readNames = joinedShape.decoderNames ?? Dictionary(joinedShape.columns.map { ($0, $0) }) { a, _ in a }
        let names = readNames.values.sorted()
        try SQLDialect.postgres.checkIdentifiers([Self.marker(link)] + names.map { prefix + $0 }, table: table)
        var selection = joinedKey + " AS " + SQLIdentifier.quoted(Self.marker(link))
        for name in names {
            selection +=
                ", " + joinedTable + "." + SQLIdentifier.quoted(name) + " AS " + SQLIdentifier.quoted(prefix + name)
        }
        var writer = RequestCompiler(
            binding: PostgresRequestBinding<Base>(shape: baseShape, connection: connection), table: Base.tableName, isWriting: true)
        writer.qualifier = Base.tableName
        writer.join = (
            sql: (isRequired && joinsChild ? " JOIN " : " LEFT JOIN ") + joinedTable + " ON " + on,
            selection: selection, arguments: onArguments
        )
        writer.joinFilter = joinFilter
        try writer.compile(base.parts, as: .select)
        let arguments = try writer.arguments.checked(table: Base.tableName)
        try connection.checkColumns(writer.columns.filter { !writer.aliases.contains($0) }, of: Base.tableName)
        let rows = try connection.query(writer.sql, arguments)
        guard let marker = rows.columnIndex(Self.marker(link)) else {
            throw RecordError.invalidQuery(
                table: Base.tableName, reason: "no \(Self.marker(link)) column in the join")
        }
        let joinedNames = readNames.mapValues { prefix + $0 }
        var pairs: [(Base, Associated?)] = []
        pairs.reserveCapacity(rows.count)
        var baseDecoder = PostgresRowsDecoder(
            rows, columnNames: baseShape.decoderNames, jsonDecoder: baseShape.jsonDecoder)
        var joinedDecoder = PostgresRowsDecoder(rows, columnNames: joinedNames, jsonDecoder: joinedShape.jsonDecoder)
        for row in 0..<rows.count {
            let record = try baseDecoder.decode(Base.self, row: row)
            if case .null = rows.result.cell(row: row, column: marker) {
                if isRequired {
                    throw missingParent(
                        foreignKeyValues: link.foreignKeys.map { column in
                            rows.columnIndex(column).map { rows.result.cell(row: row, column: $0).summary }
                                ?? "NULL"
                        })
                }
                pairs.append((record, nil))
            } else {
                pairs.append(
                    (
                        record,
                        try joinedDecoder.decode(Associated.self, row: row)
                    ))
            }
        }
        return pairs
    }
}

/// PostgreSQL's answer to the engine-neutral joined fetch.
extension PostgresConnection {
    @_spi(RecordEngine)
    public func fetchJoinedPairs<Base: Record, Associated: Record>(_ request: JoinedRequest<Base, Associated>)
        throws -> [(Base, Associated?)]
    {
        try request.fetchPairs(self)
    }
}
#endif
