#if PostgreSQL
import Foundation
@_spi(RecordEngine) import SQLiteRecord

/// What `pg_catalog` says about a table beyond its columns' types: its primary key, indexes, defaults, CHECK
/// constraints and foreign keys, as the engine-neutral comparison with a type's `tableDefinition` reads them.
/// See <https://www.postgresql.org/docs/current/catalogs.html>.
extension PostgresConnection {
    /// The catalog of `table` (found as an unqualified name on the search path), nil when it is not a table
    /// (a view, or no such relation).
    /// - Throws: ``PostgresError`` when the catalog cannot be read.
    func tableConstraintCatalog(_ table: String) throws -> TableConstraintCatalog? {
        let name = try PostgresValue(text: table)
        let kind = try query(
            "SELECT c.relkind::text FROM pg_catalog.pg_class c WHERE c.oid = to_regclass(quote_ident($1))", [name])
        guard kind.count == 1, ["r", "p"].contains(try kind[0].decode(String.self, at: 0)) else { return nil }
        let indexes = try tableIndexes(table)
        var defaults: [String: String] = [:]
        let defaultRows = try query(
            """
            SELECT a.attname::text, pg_catalog.pg_get_expr(d.adbin, d.adrelid)
            FROM pg_catalog.pg_attrdef d
            JOIN pg_catalog.pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
            WHERE d.adrelid = to_regclass(quote_ident($1)) AND a.attgenerated = ''
            """, [name])
        for index in 0..<defaultRows.count {
            let column = try defaultRows[index].decode(String.self, at: 0)
            defaults[TableConstraintCatalog.folded(column)] = try defaultRows[index].decode(String.self, at: 1)
        }
        let checkRows = try query(
            """
            SELECT pg_catalog.pg_get_expr(conbin, conrelid) FROM pg_catalog.pg_constraint
            WHERE conrelid = to_regclass(quote_ident($1)) AND contype = 'c'
            """, [name])
        var checks: Set<String> = []
        for index in 0..<checkRows.count {
            checks.insert(Self.normalizedExpression(try checkRows[index].decode(String.self, at: 0)))
        }
        return TableConstraintCatalog(
            primaryKey: indexes.first { $0.origin == .primaryKeyConstraint }?.columns.compactMap { $0 } ?? [],
            indexes: indexes, defaults: defaults, checks: checks, foreignKeys: try tableForeignKeys(table),
            normalizedDefault: Self.normalizedExpression, normalizedCheck: Self.normalizedExpression,
            parentPrimaryKey: { [self] parent in
                let parentIndexes = try tableIndexes(parent)
                return parentIndexes.first { $0.origin == .primaryKeyConstraint }?.columns.compactMap { $0 }
            })
    }

    /// The indexes of `table`: its key columns in order (nil for an expression), UNIQUE, partial, and
    /// whether it is the primary key's (`origin` `.primaryKeyConstraint`) or a constraint's.
    /// - Throws: ``PostgresError`` when the catalog cannot be read.
    func tableIndexes(_ table: String) throws -> [IndexInfo] {
        let rows = try query(
            """
            SELECT c.relname::text, i.indisunique, i.indisprimary, i.indpred IS NOT NULL,
                EXISTS (SELECT 1 FROM pg_catalog.pg_constraint k WHERE k.conindid = i.indexrelid AND k.contype = 'u'),
                array_to_string(ARRAY(
                    SELECT coalesce(a.attname::text, '')
                    FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)
                    LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                    WHERE k.position <= i.indnkeyatts ORDER BY k.position), E'\\x1f')
            FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid
            WHERE i.indrelid = to_regclass(quote_ident($1))
            ORDER BY c.relname
            """, [try PostgresValue(text: table)])
        return try (0..<rows.count).map { index in
            let row = rows[index]
            let columns = try row.decode(String.self, at: 5)
                .split(separator: "\u{1f}", omittingEmptySubsequences: false).map { $0.isEmpty ? nil : String($0) }
            let origin: IndexInfo.Origin =
                try row.decode(Bool.self, at: 2)
                ? .primaryKeyConstraint : try row.decode(Bool.self, at: 4) ? .uniqueConstraint : .createIndex
            return IndexInfo(
                name: try row.decode(String.self, at: 0), columns: columns, isUnique: try row.decode(Bool.self, at: 1),
                origin: origin, isPartial: try row.decode(Bool.self, at: 3))
        }
    }

    /// The foreign keys of `table`, with their actions spelled as SQL writes them (`NO ACTION`, `CASCADE`...).
    /// - Throws: ``PostgresError`` when the catalog cannot be read.
    func tableForeignKeys(_ table: String) throws -> [ForeignKeyInfo] {
        let columnList = { (relation: String, keys: String) in
            """
            array_to_string(ARRAY(
                SELECT a.attname::text FROM unnest(con.\(keys)) WITH ORDINALITY AS k(attnum, position)
                JOIN pg_catalog.pg_attribute a ON a.attrelid = con.\(relation) AND a.attnum = k.attnum
                ORDER BY k.position), E'\\x1f')
            """
        }
        let rows = try query(
            """
            SELECT p.relname::text, \(columnList("conrelid", "conkey")), \(columnList("confrelid", "confkey")),
                con.confupdtype::text, con.confdeltype::text
            FROM pg_catalog.pg_constraint con JOIN pg_catalog.pg_class p ON p.oid = con.confrelid
            WHERE con.conrelid = to_regclass(quote_ident($1)) AND con.contype = 'f'
            ORDER BY con.conname
            """, [try PostgresValue(text: table)])
        let actions = ["a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"]
        return try (0..<rows.count).map { index in
            let row = rows[index]
            let split = { (text: String) in text.split(separator: "\u{1f}").map(String.init) }
            return ForeignKeyInfo(
                id: index, parentTable: try row.decode(String.self, at: 0),
                columns: split(try row.decode(String.self, at: 1)),
                parentColumns: split(try row.decode(String.self, at: 2)),
                onUpdate: actions[try row.decode(String.self, at: 3)] ?? "NO ACTION",
                onDelete: actions[try row.decode(String.self, at: 4)] ?? "NO ACTION")
        }
    }

    /// An expression as written (`population >= 0`, `'x'`) or as PostgreSQL deparses it
    /// (`(population >= 0)`, `'x'::text`, `'-1'::integer`), reduced to one form to compare: casts, double quotes,
    /// parentheses and whitespace outside string literals dropped, the rest lowercased, a quoted number
    /// unquoted. Two expressions that differ only by grouping compare equal; one PostgreSQL rewrites
    /// (`x IN ('a', 'b')` into `x = ANY (ARRAY[...])`) does not.
    static func normalizedExpression(_ text: String) -> String {
        let characters = Array(text)
        var output = ""
        var index = 0
        let typeContinuations = ["varying", "precision", "without", "with", "time", "zone"]
        while index < characters.count {
            let character = characters[index]
            if character == "'" {
                // A literal, copied as it is ('' inside is an escaped quote).
                var end = index + 1
                while end < characters.count {
                    if characters[end] == "'" {
                        if end + 1 < characters.count, characters[end + 1] == "'" {
                            end += 2
                            continue
                        }
                        break
                    }
                    end += 1
                }
                output += String(characters[index...min(end, characters.count - 1)])
                index = end + 1
                continue
            }
            if character == ":", index + 1 < characters.count, characters[index + 1] == ":" {
                // A cast: the type's name, its words ("character varying"), modifiers and array brackets.
                index += 2
                func skipName() {
                    while index < characters.count,
                        characters[index].isLetter || characters[index].isNumber || "_.\"".contains(characters[index])
                    {
                        index += 1
                    }
                }
                skipName()
                while index < characters.count, characters[index] == " " {
                    let rest = String(characters[(index + 1)...]).lowercased()
                    guard let word = typeContinuations.first(where: { rest.hasPrefix($0) }) else { break }
                    index += 1 + word.count
                }
                if index < characters.count, characters[index] == "(" {
                    var end = index + 1
                    while end < characters.count, characters[end].isNumber || characters[end] == "," { end += 1 }
                    if end < characters.count, characters[end] == ")" { index = end + 1 }
                }
                while index + 1 < characters.count, characters[index] == "[", characters[index + 1] == "]" {
                    index += 2
                }
                continue
            }
            if !character.isWhitespace && !"()\"".contains(character) { output += character.lowercased() }
            index += 1
        }
        // '-1'::integer is how PostgreSQL deparses a negative constant.
        if output.count > 2, output.hasPrefix("'"), output.hasSuffix("'"),
            Double(output.dropFirst().dropLast()) != nil
        {
            output = String(output.dropFirst().dropLast())
        }
        return output
    }
}
#endif
