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
            SELECT a.attname::text, format_type(a.atttypid, a.atttypmod), \(PostgresSchemaCheck.valueTypeOID)::int8,
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
            let read = try connection.schemaReadType(of: type.oid)
            if let reason = PostgresSchemaCheck.incompatibility(
                kind: column.kind, valueType: column.valueType, oid: read.oid, isEnum: read.isEnum)
            {
                mismatches.append(
                    .incompatibleColumn(column.name, declaredType: type.name, valueType: column.valueType, reason: reason))
            }
        }
        if Set(primaryKey) != Set(keyColumns), try !connection.hasUniqueIndex(on: keyColumns, of: tableName) {
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
    /// The SQL of the type OID a column's values have, for a `pg_attribute a`: a domain's base type, through
    /// domains over domains (`CREATE DOMAIN positive AS integer` reads and writes as `integer`), else the
    /// column's own type. See <https://www.postgresql.org/docs/current/catalog-pg-type.html> (`typbasetype`).
    static let valueTypeOID = """
        (WITH RECURSIVE d(oid, typtype, base) AS (
            SELECT t.oid, t.typtype, t.typbasetype FROM pg_catalog.pg_type t WHERE t.oid = a.atttypid
            UNION ALL
            SELECT t.oid, t.typtype, t.typbasetype FROM pg_catalog.pg_type t JOIN d ON t.oid = d.base
            WHERE d.typtype = 'd')
        SELECT d.oid FROM d WHERE d.typtype <> 'd')
        """

    /// True when a column of type `oid` reads into some Swift type (the value table: an integer, float,
    /// numeric, boolean, text, bytea, UUID, date or JSON type, an enum, or a one-dimensional array of the
    /// scalars the library writes arrays of). A column of any other type (`time`, `interval`, `inet`, a
    /// range, an array of JSONB or of an enum) can be no property of a record type, so a type that lacks it
    /// says nothing about it: the schema diff keeps it (see `sqlite-record-gen`, which leaves it out).
    static func readsIntoSwiftType(oid: UInt32, isEnum: Bool) -> Bool {
        if isEnum { return true }
        let scalars: Set<UInt32> = [
            PostgresType.int2, PostgresType.int4, PostgresType.int8, PostgresType.oid, PostgresType.float4,
            PostgresType.float8, PostgresType.numeric, PostgresType.bool, PostgresType.text, PostgresType.varchar,
            PostgresType.bpchar, PostgresType.identifier, PostgresType.bytea, PostgresType.uuid,
            PostgresType.timestamptz, PostgresType.timestamp, PostgresType.date, PostgresType.json, PostgresType.jsonb,
        ]
        if scalars.contains(oid) { return true }
        let elements: Set<UInt32> = [
            PostgresType.int2, PostgresType.int4, PostgresType.int8, PostgresType.float4, PostgresType.float8,
            PostgresType.numeric, PostgresType.bool, PostgresType.text, PostgresType.varchar, PostgresType.bpchar,
            PostgresType.bytea, PostgresType.uuid, PostgresType.timestamptz, PostgresType.timestamp, PostgresType.date,
        ]
        return PostgresType.elementType(ofArray: oid).map(elements.contains) ?? false
    }

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
    /// True when `table` has a UNIQUE index, neither partial nor over expressions, on exactly `columns`: a
    /// key as good as the primary key for calls by key, as SQLite's check accepts too.
    /// - Throws: ``PostgresError`` reading the catalog.
    func hasUniqueIndex(on columns: [String], of table: String) throws -> Bool {
        let rows = try query(
            """
            SELECT i.indexrelid::int8, a.attname::text
            FROM pg_catalog.pg_index i
            JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
            WHERE i.indrelid = to_regclass(quote_ident($1)) AND i.indisunique AND i.indpred IS NULL
                AND i.indexprs IS NULL
            """, [try PostgresValue(text: table)])
        var indexes: [Int64: Set<String>] = [:]
        for index in 0..<rows.count {
            indexes[try rows[index].decode(Int64.self, at: 0), default: []].insert(try rows[index].decode(String.self, at: 1))
        }
        return indexes.values.contains(Set(columns))
    }


    @_spi(RecordEngine)
    public func validateTable<R: Record>(of type: R.Type) throws {
        try R.validateSchema(in: self)
    }
}
#endif
