#if PostgreSQL
    import Foundation
    import PostgresRecord
    import SQLiteRecord

    /// One column of a PostgreSQL table or view as `pg_catalog` describes it: what
    /// ``PostgresTypeChoice`` decides from.
    struct PostgresColumn: Sendable, Decodable {
        /// The column's name (`pg_attribute.attname`).
        let name: String
        /// The type as `format_type` writes it: `numeric(12,2)`, `timestamp with time zone`, `text[]`.
        let formattedType: String
        /// The type's name in `pg_type` (`int8`, `timestamptz`, `_text` for an array of text), of the domain's
        /// base type for a column of a domain: the first type down its chain of domains that is none (a domain
        /// over a domain reads as that domain's base type does: a result names it by that type).
        let typeName: String
        /// `pg_type.typtype`: `b` base, `e` enum, `c` composite, `r` range, `m` multirange, `p` pseudo.
        let typeKind: String
        /// `pg_type.typcategory`: `A` for an array (<https://www.postgresql.org/docs/current/catalog-pg-type.html>).
        let typeCategory: String
        /// For an array, its element type's `pg_type.typtype` (`e` for an array of an enum); empty otherwise.
        let elementKind: String
        let isNotNull: Bool
        /// The DEFAULT as SQL (`nextval('cities_id_seq'::regclass)`), nil for none.
        let defaultSQL: String?
        /// `pg_attribute.attidentity`: `a` for GENERATED ALWAYS AS IDENTITY, `d` for BY DEFAULT, empty otherwise.
        let identity: String
        /// `pg_attribute.attgenerated`: `s` for a stored generated column, empty otherwise.
        let generated: String

        /// True for an identity column or a `serial`'s (a DEFAULT drawn from a sequence): the server gives the
        /// key, which a record leaves nil until the insert returns it.
        var isServerKey: Bool {
            !identity.isEmpty || (defaultSQL?.hasPrefix("nextval(") ?? false)
        }
    }

    /// Reads the ``TableSchema`` of the tables, partitioned tables, views and materialized views of one
    /// PostgreSQL schema from `pg_catalog` (<https://www.postgresql.org/docs/current/catalogs.html>), skipping
    /// PostgresRecord's own tables (`postgresrecord_%`). Types come from the catalog, which the server enforces,
    /// so there is no census of stored values: ``TableSchema/censuses`` are empty ones.
    enum PostgresSchemaReader {
        private struct Relation: Decodable {
            let oid: Int64
            let name: String
            let kind: String
        }

        private struct KeyColumn: Decodable {
            let index: Int64
            let ord: Int64
            let name: String
        }

        private struct ForeignKeyColumn: Decodable {
            let id: Int64
            let parent: String
            let column: String
            let parentColumn: String
            let onUpdate: String
            let onDelete: String
        }

        /// The relations of `schema`, ordered by name, or those named in `tables` (in the order given); each
        /// with its columns as ``PostgresColumn``s, in the same order as the schema's columns.
        /// - Throws: ``GeneratorError/unknownTables(_:available:)`` for a name in `tables` that is not a table
        ///   or view of `schema`; ``PostgresError`` when the catalog cannot be read.
        static func read(
            _ connection: PostgresConnection, schema: String, tables: [String]?
        ) throws -> [(table: TableSchema, columns: [PostgresColumn])] {
            let listSQL = """
                SELECT c.oid::int8 AS oid, c.relname::text AS name, c.relkind::text AS kind FROM pg_class c \
                JOIN pg_namespace n ON n.oid = c.relnamespace \
                WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm') AND c.relname NOT LIKE 'postgresrecord\\_%' \
                AND NOT c.relispartition ORDER BY c.relname
                """
            let listed = try connection.query(listSQL, [try PostgresValue(text: schema)]).decode(Relation.self)
            var chosen = listed
            if let tables {
                let unknown = tables.filter { name in !listed.contains { $0.name == name } }
                guard unknown.isEmpty else {
                    throw GeneratorError.unknownTables(unknown, available: listed.map(\.name))
                }
                chosen = tables.compactMap { name in listed.first { $0.name == name } }
            }
            return try chosen.map { try readRelation($0, connection) }
        }

        private static func readRelation(
            _ relation: Relation, _ connection: PostgresConnection
        ) throws -> (table: TableSchema, columns: [PostgresColumn]) {
            let oid = relation.oid
            let columnsSQL = """
                SELECT a.attname::text AS name, format_type(a.atttypid, a.atttypmod) AS "formattedType", \
                (CASE WHEN t.typtype = 'd' THEN b.typname ELSE t.typname END)::text AS "typeName", \
                (CASE WHEN t.typtype = 'd' THEN b.typtype ELSE t.typtype END)::text AS "typeKind", \
                (CASE WHEN t.typtype = 'd' THEN b.typcategory ELSE t.typcategory END)::text AS "typeCategory", \
                COALESCE((SELECT e.typtype FROM pg_type e \
                WHERE e.oid = (CASE WHEN t.typtype = 'd' THEN b.typelem ELSE t.typelem END)), '')::text \
                AS "elementKind", \
                (a.attnotnull OR (t.typtype = 'd' AND t.typnotnull)) AS "isNotNull", \
                pg_get_expr(d.adbin, d.adrelid) AS "defaultSQL", a.attidentity::text AS identity, \
                a.attgenerated::text AS generated \
                FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid \
                LEFT JOIN LATERAL (WITH RECURSIVE chain(base) AS (SELECT t.typbasetype WHERE t.typtype = 'd' \
                UNION ALL SELECT p.typbasetype FROM chain c JOIN pg_type p ON p.oid = c.base AND p.typtype = 'd') \
                SELECT x.* FROM chain c JOIN pg_type x ON x.oid = c.base AND x.typtype <> 'd') b ON true \
                LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum \
                WHERE a.attrelid = \(oid) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
                """
            let columns = try connection.query(columnsSQL).decode(PostgresColumn.self)
            let isTable = relation.kind == "r" || relation.kind == "p"
            // The primary key first, then the unique indexes that are neither partial nor over expressions.
            let keysSQL = """
                SELECT i.indexrelid::int8 AS index, k.ord AS ord, a.attname::text AS name \
                FROM pg_index i CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord) \
                JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum \
                WHERE i.indrelid = \(oid) AND i.indisunique AND i.indpred IS NULL AND i.indexprs IS NULL \
                ORDER BY i.indisprimary DESC, i.indexrelid, k.ord
                """
            let primarySQL = "SELECT indexrelid::int8 FROM pg_index WHERE indrelid = \(oid) AND indisprimary"
            let keyColumns = isTable ? try connection.query(keysSQL).decode(KeyColumn.self) : []
            let primaryIndex = isTable ? try connection.query(primarySQL).decode(Int64.self).first : nil
            var indexes: [(index: Int64, columns: [String])] = []
            for column in keyColumns {
                if indexes.last?.index == column.index {
                    indexes[indexes.count - 1].columns.append(column.name)
                } else {
                    indexes.append((column.index, [column.name]))
                }
            }
            let primaryKey = indexes.first { $0.index == primaryIndex }?.columns ?? []
            func isNotNull(_ name: String) -> Bool { columns.first { $0.name == name }?.isNotNull ?? false }
            // A UNIQUE index over nullable columns is no key: NULLs are distinct in it.
            let uniqueKeys = indexes.filter { $0.index != primaryIndex && $0.columns.allSatisfy(isNotNull) }.map(
                \.columns)

            let foreignKeysSQL = """
                SELECT c.oid::int8 AS id, p.relname::text AS parent, a.attname::text AS "column", \
                pa.attname::text AS "parentColumn", c.confupdtype::text AS "onUpdate", \
                c.confdeltype::text AS "onDelete" \
                FROM pg_constraint c JOIN pg_class p ON p.oid = c.confrelid \
                CROSS JOIN LATERAL unnest(c.conkey, c.confkey) WITH ORDINALITY AS k(child, parent, ord) \
                JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.child \
                JOIN pg_attribute pa ON pa.attrelid = c.confrelid AND pa.attnum = k.parent \
                WHERE c.conrelid = \(oid) AND c.contype = 'f' ORDER BY c.conname, k.ord
                """
            let foreignKeyColumns = isTable ? try connection.query(foreignKeysSQL).decode(ForeignKeyColumn.self) : []
            var foreignKeys: [ForeignKeyInfo] = []
            for (position, id) in foreignKeyColumns.map(\.id).reduce(
                into: [Int64](), { if !$0.contains($1) { $0.append($1) } }
            )
            .enumerated() {
                let parts = foreignKeyColumns.filter { $0.id == id }
                foreignKeys.append(
                    ForeignKeyInfo(
                        id: position, parentTable: parts[0].parent, columns: parts.map(\.column),
                        parentColumns: parts.map(\.parentColumn), onUpdate: action(parts[0].onUpdate),
                        onDelete: action(parts[0].onDelete)))
            }

            // The server's key: one integer column drawn from an identity or a sequence, read as `Int64?`.
            var serverKey: String?
            if primaryKey.count == 1, let column = columns.first(where: { $0.name == primaryKey[0] }),
                column.isServerKey,
                ["int2", "int4", "int8"].contains(column.typeName)
            {
                serverKey = column.name
            }
            let infos = columns.map { column in
                ColumnInfo(
                    name: column.name, declaredType: column.formattedType, isNotNull: column.isNotNull,
                    defaultValueSQL: column.defaultSQL,
                    primaryKeyIndex: (primaryKey.firstIndex(of: column.name) ?? -1) + 1,
                    isGenerated: column.generated == "s")
            }
            let table = TableSchema(
                name: relation.name, kind: isTable ? .table : .view, withoutRowID: false, columns: infos,
                censuses: columns.map { _ in ColumnCensus() }, rowCount: 0, foreignKeys: foreignKeys,
                uniqueKeys: uniqueKeys, primaryKey: primaryKey, rowIDAlias: serverKey)
            return (table, columns)
        }

        /// A foreign key action's code in `pg_constraint` as SQL names it.
        private static func action(_ code: String) -> String {
            switch code {
            case "r": return "RESTRICT"
            case "c": return "CASCADE"
            case "n": return "SET NULL"
            case "d": return "SET DEFAULT"
            default: return "NO ACTION"
            }
        }
    }
#endif
