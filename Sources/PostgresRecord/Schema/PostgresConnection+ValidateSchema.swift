#if PostgreSQL
import Foundation
@_spi(RecordEngine) import SQLiteRecord

extension Record {
    /// PostgreSQL's schema check: what `PostgresConnection` answers for `validateSchema(in:)`, from
    /// `pg_catalog`.
    static func validateSchema(in connection: PostgresConnection) throws {
        let probed = try probedColumns()
        let keyColumns = try probedKeyColumns()
        let rows = try connection.query(
            """
            SELECT a.attname::text, format_type(a.atttypid, a.atttypmod), a.atttypid::int8,
                coalesce(a.attnum = ANY (i.indkey), false)
            FROM pg_catalog.pg_attribute a
            LEFT JOIN pg_catalog.pg_index i ON i.indrelid = a.attrelid AND i.indisprimary
            WHERE a.attrelid = to_regclass(quote_ident($1)) AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY a.attnum
            """, [try PostgresValue(text: tableName)])
        guard rows.count > 0 else {
            throw SchemaValidationError(
                recordType: "\(Self.self)", table: tableName, mismatches: [.missingTable(tableName)])
        }
        var types: [String: (name: String, oid: UInt32)] = [:]
        var primaryKey: [String] = []
        for index in 0..<rows.count {
            let name = try rows[index].decode(String.self, at: 0)
            types[name] = (try rows[index].decode(String.self, at: 1), UInt32(try rows[index].decode(Int64.self, at: 2)))
            if try rows[index].decode(Bool.self, at: 3) { primaryKey.append(name) }
        }
        var mismatches: [SchemaMismatch] = []
        for column in probed {
            guard let type = types[column.name] else {
                mismatches.append(
                    .missingColumn(column.name, key: column.key, valueType: column.valueType, isOptional: column.isOptional))
                continue
            }
            if let reason = PostgresSchemaCheck.incompatibility(
                kind: column.kind, valueType: column.valueType, oid: type.oid, isEnum: try connection.isEnumType(type.oid))
            {
                mismatches.append(
                    .incompatibleColumn(column.name, declaredType: type.name, valueType: column.valueType, reason: reason))
            }
        }
        if Set(primaryKey) != Set(keyColumns) {
            mismatches.append(.primaryKey(keyColumns, tablePrimaryKey: primaryKey))
        }
        // The type's tableDefinition, compared by the one rule both engines share; views have no constraints.
        if !tableDefinition.isEmpty, let catalog = try connection.tableConstraintCatalog(tableName) {
            mismatches += try tableDefinitionMismatches(catalog, probed: probed)
        }
        guard mismatches.isEmpty else {
            throw SchemaValidationError(recordType: "\(Self.self)", table: tableName, mismatches: mismatches)
        }
    }

}

/// The rule the schema check and the schema diff share, so that a type that validates gets no retype.
enum PostgresSchemaCheck {
    /// Why a column of type `oid` can never hold the values of a property, or nil when it can (the read
    /// side of the value table: PostgresValueReader). An enum column (`isEnum`) reads as its labels' text.
    static func incompatibility(kind: ProbedValueKind, valueType: String, oid: UInt32, isEnum: Bool) -> String? {
        if isEnum, kind == .string { return nil }
        if kind == .nested, let element = SQLDialect.postgresArrayElement(ofValueType: valueType) {
            return arrayIncompatibility(element: element, valueType: valueType, oid: oid)
        }
        let integers: Set<UInt32> = [PostgresType.int2, PostgresType.int4, PostgresType.int8, PostgresType.oid]
        let floats: Set<UInt32> = [PostgresType.float4, PostgresType.float8]
        let texts: Set<UInt32> = [PostgresType.text, PostgresType.varchar, PostgresType.bpchar, PostgresType.identifier]
        let accepted: Set<UInt32>
        switch kind {
        case .integer: accepted = integers.union(floats).union([PostgresType.numeric])
        case .real: accepted = integers.union(floats).union([PostgresType.numeric])
        case .bool: accepted = integers.union([PostgresType.bool])
        case .string:
            accepted = texts.union(integers).union([PostgresType.numeric, PostgresType.uuid, PostgresType.json, PostgresType.jsonb])
        case .url: accepted = texts
        case .data: accepted = texts.union([PostgresType.bytea])
        case .date: accepted = [PostgresType.timestamptz, PostgresType.timestamp, PostgresType.date]
        case .uuid: accepted = texts.union([PostgresType.uuid, PostgresType.bytea])
        case .decimal: accepted = texts.union(integers).union([PostgresType.numeric, PostgresType.float8])
        case .nested: accepted = texts.union([PostgresType.json, PostgresType.jsonb])
        case .unknown: return nil
        }
        if accepted.contains(oid) { return nil }
        return "a \(PostgresType.name(oid)) column never reads as \(valueType)"
    }

    /// Why a column of type `oid` cannot hold an array property whose elements are `element` (see
    /// `SQLDialect.postgresArrayElement(ofValueType:)`), or nil when it can: an array column whose elements
    /// read as the Swift element type and take the array the writer sends by assignment (`text[]` into
    /// `varchar[]`, `bigint[]` into `integer[]`, `timestamptz[]` into `timestamp[]`); or a JSON, JSONB or
    /// text column, as for any nested value: the array is written there as JSON (a table made before arrays
    /// were array columns; see `PostgresConnection.writeArrays(of:into:)`), and read back from it.
    static func arrayIncompatibility(element: (swiftType: String, sqlType: String), valueType: String, oid: UInt32)
        -> String?
    {
        let written = element.sqlType + "[]"
        guard let stored = PostgresType.elementType(ofArray: oid) else {
            let texts: Set<UInt32> = [
                PostgresType.text, PostgresType.varchar, PostgresType.bpchar, PostgresType.identifier,
                PostgresType.json, PostgresType.jsonb,
            ]
            if texts.contains(oid) { return nil }
            return "a \(PostgresType.name(oid)) column never takes \(valueType), which is written as a \(written) "
                + "array, or as JSON into a JSON, JSONB or text column"
        }
        let integers: Set<UInt32> = [PostgresType.int2, PostgresType.int4, PostgresType.int8]
        let accepted: Set<UInt32>
        switch element.swiftType {
        case "String": accepted = [PostgresType.text, PostgresType.varchar, PostgresType.bpchar]
        case "Int64", "Int", "Int32", "Int16": accepted = integers
        case "Double", "Float": accepted = [PostgresType.float4, PostgresType.float8]
        case "Bool": accepted = [PostgresType.bool]
        case "Data": accepted = [PostgresType.bytea]
        case "Date": accepted = [PostgresType.timestamptz, PostgresType.timestamp, PostgresType.date]
        case "UUID": accepted = [PostgresType.uuid]
        case "Decimal": accepted = [PostgresType.numeric]
        default: accepted = []
        }
        if accepted.contains(stored) { return nil }
        return "a \(PostgresType.name(stored))[] column never takes \(valueType), which is written as a \(written) "
            + "array"
    }
}

/// PostgreSQL's answer to the engine-neutral schema check.
extension PostgresConnection {
    @_spi(RecordEngine)
    public func validateTable<R: Record>(of type: R.Type) throws {
        try R.validateSchema(in: self)
    }
}
#endif
