import Foundation

/// Observation by row on SQLite: the reads whose keys the library wrote into the SQL (``Record/fetchOne(_:id:)``,
/// `fetch(_:ids:)`, a `where:` dictionary and a request filtered on the key) tell the connection's
/// ``ChangeTracker`` which rows they read, by rowid, so that an observation of them reads again only after a
/// commit that changed one of those rows (or the table as a whole, or the schema).
///
/// A read is narrowed to rows only when the rows' rowids are known without reading them: the key is the
/// table's `INTEGER PRIMARY KEY`, the rowid itself, in a rowid table (not a view, not WITHOUT ROWID, whose
/// changes the update hook does not report). A key of another column (a UUID, a text) is not the rowid the
/// update hook reports; the rowid of the row found could be read too, but the row a key names may be
/// another row after an insert, a delete or an update of the key, which the hook reports under other rowids:
/// such a read observes its table. And the table must declare no REPLACE conflict resolution, nor any
/// trigger of the database use REPLACE: the rows REPLACE deletes are not reported. Anything else (SQL of
/// your own, joins, subqueries, a filter on other columns alone) observes the tables it reads.
extension Database {
    /// Tells the change tracker, during an observed read, that the next statement the library uses reads only
    /// the rows `rowIDs` of `table` through its key column `keyColumn`, when the table allows it (see above);
    /// does nothing otherwise.
    /// - Throws: ``DatabaseError`` when the table's schema cannot be read.
    func noteRowRead(of table: String, keyColumn: String, rowIDs: [Int64]) throws {
        guard changeTracker.isRecordingReads else { return }
        let shape = try tableShape(table)
        guard shape.hasRowID, !shape.isView, let alias = shape.rowIDAlias,
            alias.lowercased() == keyColumn.lowercased(), try !mayReplaceRows(in: table)
        else { return }
        changeTracker.noteRowRead(rowIDs, of: table.lowercased(), rowIDColumn: alias.lowercased())
    }

    /// True when `table`'s definition, or any trigger of the main or temp schema, says `REPLACE`: a conflict
    /// resolved by REPLACE deletes rows the update hook does not report. A word in a comment or a string
    /// counts too, which only costs the narrowing. Read once per schema, with the table's columns.
    private func mayReplaceRows(in table: String) throws -> Bool {
        try derivedSchemaValue(for: ReplaceClause.self, table: table) { _ in
            let sql = """
                SELECT count(*) FROM (SELECT type, name, sql FROM main.sqlite_master \
                UNION ALL SELECT type, name, sql FROM temp.sqlite_master) \
                WHERE ((type = 'table' AND name = ? COLLATE NOCASE) OR type = 'trigger') AND sql LIKE '%replace%'
                """
            return ReplaceClause(try integerScalar(sql: sql, arguments: [table]) ?? 0 > 0)
        }.isDeclared
    }
}

/// Whether a table may have rows deleted by REPLACE, as the schema cache keeps derived values: an object.
private final class ReplaceClause {
    let isDeclared: Bool
    init(_ isDeclared: Bool) { self.isDeclared = isDeclared }
}

extension QueryInterfaceRequest {
    /// During an observed read, tells the connection which rows the request reads when its filter limits it
    /// to rowids of its table (see ``Database/noteRowRead(of:keyColumn:rowIDs:)``): `key = value` or
    /// `key IN (values)` of integers, alone or ANDed with conditions that read no other row (no subquery, no
    /// SQL of your own), and nothing elsewhere in the request that reads more (full-text search, subqueries).
    /// - Throws: ``DatabaseError`` when the table's schema cannot be read.
    func noteRowRead(_ db: Database) throws {
        guard db.changeTracker.isRecordingReads else { return }
        let parts = self.parts
        guard parts.search == nil, let filter = parts.filter, parts.selection.allSatisfy(readsNoOtherRow),
            parts.grouping.allSatisfy(readsNoOtherRow), parts.having.map(readsNoOtherRow) ?? true,
            parts.orderings.allSatisfy({ readsNoOtherRow($0.expression) }),
            let alias = try db.tableShape(Base.tableName).rowIDAlias
        else { return }
        var binding = RecordRequestBinding<Base>()
        guard let rowIDs = Self.rowIDs(in: filter, column: alias.lowercased(), binding: &binding) else { return }
        try db.noteRowRead(of: Base.tableName, keyColumn: alias, rowIDs: rowIDs)
    }

    /// The rowids `node` limits the rows to, through `column` (lowercased, the rowid's); nil when it does not.
    private static func rowIDs(
        in node: ExpressionNode, column: String, binding: inout RecordRequestBinding<Base>
    ) -> [Int64]? {
        switch node {
        case .binary(.equal, .column(let named), .value(let value)),
            .binary(.equal, .value(let value), .column(let named)):
            guard binding.name(of: named).lowercased() == column, let rowID = integer(value, &binding) else {
                return nil
            }
            return [rowID]
        case .list(.column(let named), let values, negated: false):
            guard binding.name(of: named).lowercased() == column else { return nil }
            var rowIDs: [Int64] = []
            for value in values {
                guard let rowID = integer(value, &binding) else { return nil }
                rowIDs.append(rowID)
            }
            return rowIDs
        case .binary(.and, let left, let right):
            if readsNoOtherRow(right), let rowIDs = rowIDs(in: left, column: column, binding: &binding) {
                return rowIDs
            }
            if readsNoOtherRow(left), let rowIDs = rowIDs(in: right, column: column, binding: &binding) {
                return rowIDs
            }
            return nil
        default:
            return nil
        }
    }

    /// The integer `value` binds as, when it binds as one integer.
    private static func integer(_ value: QueryValue, _ binding: inout RecordRequestBinding<Base>) -> Int64? {
        guard let forms = try? binding.forms(of: value, column: nil), forms.count == 1,
            case .integer(let integer) = forms[0]
        else { return nil }
        return integer
    }

}

/// True when `node` reads nothing but the columns of the row it is evaluated on: no subquery and no SQL
/// of your own, which could read other rows of the same table.
private func readsNoOtherRow(_ node: ExpressionNode) -> Bool {
    switch node {
    case .column, .value, .null, .countAll: return true
    case .literal, .subquery: return false
    case .unary(_, let operand), .isNull(let operand, _), .collate(let operand, _), .alias(let operand, _),
        .textMatch(let operand, _, _, _), .list(let operand, _, _):
        return readsNoOtherRow(operand)
    case .binary(_, let left, let right), .like(let left, let right, _, _):
        return readsNoOtherRow(left) && readsNoOtherRow(right)
    case .between(let operand, let lower, let upper, _):
        return readsNoOtherRow(operand) && readsNoOtherRow(lower) && readsNoOtherRow(upper)
    case .function(_, let arguments, _):
        return arguments.allSatisfy(readsNoOtherRow)
    }
}

extension Record {
    /// During an observed read, tells the connection which rows a `where:` dictionary reads when one of its
    /// columns is the table's rowid, compared with one integer (see
    /// ``Database/noteRowRead(of:keyColumn:rowIDs:)``); equalities on other columns read no other row.
    /// - Throws: ``DatabaseError`` when the table's schema cannot be read.
    static func noteRowRead(_ db: Database, equalities: [String: FilterValue]) throws {
        guard let alias = try db.tableShape(tableName).rowIDAlias?.lowercased(),
            let (column, value) = equalities.first(where: { $0.key.lowercased() == alias }),
            value.forms.count == 1, case .integer(let rowID) = value.forms[0]
        else { return }
        try db.noteRowRead(of: tableName, keyColumn: column, rowIDs: [rowID])
    }

    /// The integers of `values`, which are all integers (the rowids of `fetch(_:ids:)`).
    static func integers(_ values: [SQLiteValue]) -> [Int64] {
        values.compactMap { value in
            if case .integer(let integer) = value { return integer }
            return nil
        }
    }
}
