/// An association from one record type to another that a through association chains:
/// ``BelongsToAssociation``, ``HasManyAssociation`` and ``HasOneAssociation``. The two associations of
/// ``Record/hasMany(_:key:through:using:)`` (a book's tags, through its book-tag rows) are of this kind.
public protocol Association: Sendable {
    /// The record type the association is declared on.
    associatedtype Origin: Record
    /// The record type the association leads to.
    associatedtype Destination: Record
    /// The association as one step of a through association: its tables, columns, filter and order.
    var associationStep: AssociationStep { get }
}

/// An association that leads to at most one record: ``BelongsToAssociation`` and ``HasOneAssociation``, the
/// steps ``Record/hasOne(_:key:through:using:)`` chains (a city's country, then the country's continent).
public protocol AssociationToOne: Association {}

/// One association seen as a step of a through association, with its record types erased: which table holds
/// the foreign key, and how the records it leads to are read for given keys.
public struct AssociationStep: Sendable {
    package let link: AssociationLink
    /// True when the origin's table holds the foreign key (a belongs-to step), false when the destination's
    /// table does (a has-many or has-one step).
    package let originHoldsForeignKey: Bool
    /// The declaration's record type names, for errors: `BookTag`, `Tag`.
    let originType: String
    let destinationType: String
    /// The destination's request (its filter, order and limit), with its record type.
    let destination: any StepDestination

    /// The destination's request, a `QueryInterfaceRequest<Destination>`.
    var request: any Sendable { destination.erasedRequest }

    init<Origin: Record, Destination: Record>(
        link: AssociationLink, originHoldsForeignKey: Bool, request: QueryInterfaceRequest<Destination>,
        from origin: Origin.Type
    ) {
        self.link = link
        self.originHoldsForeignKey = originHoldsForeignKey
        self.originType = "\(Origin.self)"
        self.destinationType = "\(Destination.self)"
        destination = TypedStepDestination(request: request)
    }

    /// The destination records whose ``destinationColumns`` hold one of `keys`, in the step's order (at most
    /// its limit per key), each as its key and its values of `columns` (the columns of `next`, the step after).
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` for a column a record or table lacks;
    ///   what the query throws.
    func destinations(
        _ db: any DatabaseConnection, _ keys: [[SQLiteValue]], _ columns: [String], _ next: AssociationLink
    ) throws -> [DestinationRow] {
        try destination.rows(db, keys, matching: destinationColumns, link: link, columns: columns, next: next)
    }

    /// The step's filter in SQL, its columns written after `qualifier`, in `dialect`'s spelling, with its
    /// arguments and, on PostgreSQL, the arrays among them (``PostgresSubqueryArray``); nil for none.
    /// - Throws: what compiling the filter throws.
    func filterSQL(
        _ qualifier: String, _ dialect: SQLDialect
    ) throws -> (String, StatementArguments, [PostgresSubqueryArray])? {
        try destination.filterSQL(qualifier, dialect, table: destinationTable)
    }

    /// One destination record as a step reads it: the values of its columns that match the origin's key, and of
    /// the columns the next step starts from.
    struct DestinationRow {
        let key: [SQLiteValue]
        let values: [SQLiteValue]
    }

    /// The table the step starts from, and the one it leads to.
    package var originTable: String { originHoldsForeignKey ? link.childTable : link.parentTable }
    package var destinationTable: String { originHoldsForeignKey ? link.parentTable : link.childTable }
    /// The origin's columns that the destination's ``destinationColumns`` match, pair by pair.
    package var originColumns: [String] { originHoldsForeignKey ? link.foreignKeys : link.parentKeys }
    package var destinationColumns: [String] { originHoldsForeignKey ? link.parentKeys : link.foreignKeys }

    /// `"destination"."column" = "origin"."column"` for every pair, the tables named as given (aliases).
    func joinCondition(origin: String, destination: String) -> String {
        originHoldsForeignKey
            ? link.joinCondition(origin, destination) : link.joinCondition(destination, origin)
    }

    /// The records of `request` whose `columns` hold one of `keys` (every column equal, for a key of several),
    /// in the request's order, at most its limit per key. No query for no keys. A column the table lacks is
    /// ``RecordError/invalidAssociation(association:reason:)``, saying to name a foreign key with `using:`.
    static func fetch<Destination: Record>(
        _ request: QueryInterfaceRequest<Destination>, _ db: any DatabaseConnection, matching columns: [String],
        keys: [[SQLiteValue]], link: AssociationLink
    ) throws -> [Destination] {
        guard !keys.isEmpty else { return [] }
        var request = request
        let perKey = request.limitCount
        request.limitCount = nil
        request.offsetCount = nil
        request = request.filter(matching(columns, keys, Destination.self))
        let records: [Destination]
        do {
            records = try request.fetch(db)
        } catch RecordError.unknownColumn(let table, let column, let names)
            where columns.contains(where: { RowLayout.asciiLowercased($0) == RowLayout.asciiLowercased(column) })
        {
            throw RecordError.invalidAssociation(
                association: link.description,
                reason: AssociationLink.missingColumnReason(
                    column, table: table, columns: names, isForeignKey: table == link.childTable))
        }
        guard let perKey else { return records }
        var counts: [[SQLiteValue]: Int] = [:]
        return try records.filter { record in
            let key = try record.encodedValues(of: columns, for: link)
            counts[key, default: 0] += 1
            return counts[key, default: 0] <= perKey
        }
    }

    /// `"c" IN (?, ...)` for keys of one column; `("a" = ? AND "b" = ?) OR ...` for keys of several (not
    /// empty), each key's columns bound as many values (at most SQLite's limit on bound values, 32,766 by
    /// default, in all).
    static func matching<R: Record>(_ columns: [String], _ keys: [[SQLiteValue]], _ type: R.Type) -> SQLExpression {
        if columns.count == 1 {
            return SQLExpression(.list(.column(Column(columns[0])), keys.map { .forms([$0[0]]) }, negated: false))
        }
        return SQLExpression(anyOf(keys.map { R.equalities(columns, $0).node }[...]))
    }

    /// The terms joined by OR as a balanced tree: its depth grows as the logarithm of the number of keys, far
    /// under SQLite's limit on an expression's depth (1,000: <https://www.sqlite.org/limits.html#max_expr_depth>),
    /// which a chain of one OR per key would pass at a thousand keys.
    private static func anyOf(_ terms: ArraySlice<ExpressionNode>) -> ExpressionNode {
        guard terms.count > 1 else { return terms[terms.startIndex] }
        let middle = terms.startIndex + terms.count / 2
        return .binary(.or, anyOf(terms[..<middle]), anyOf(terms[middle...]))
    }
}

extension BelongsToAssociation: AssociationToOne {
    /// The association as a step of a through association: the origin holds the foreign key.
    public var associationStep: AssociationStep {
        AssociationStep(link: link, originHoldsForeignKey: true, request: request, from: Origin.self)
    }
}

extension HasManyAssociation: Association {
    /// The association as a step of a through association: the destination holds the foreign key.
    public var associationStep: AssociationStep {
        AssociationStep(link: link, originHoldsForeignKey: false, request: request, from: Origin.self)
    }
}

extension HasOneAssociation: AssociationToOne {
    /// The association as a step of a through association: the destination holds the foreign key.
    public var associationStep: AssociationStep {
        AssociationStep(link: link, originHoldsForeignKey: false, request: request, from: Origin.self)
    }
}

/// A step's destination request with its record type: what ``AssociationStep`` erases.
protocol StepDestination: Sendable {
    var erasedRequest: any Sendable { get }
    func rows(
        _ db: any DatabaseConnection, _ keys: [[SQLiteValue]], matching matched: [String], link: AssociationLink,
        columns: [String], next: AssociationLink
    ) throws -> [AssociationStep.DestinationRow]
    func filterSQL(
        _ qualifier: String, _ dialect: SQLDialect, table: String
    ) throws -> (String, StatementArguments, [PostgresSubqueryArray])?
}

struct TypedStepDestination<Destination: Record>: StepDestination {
    let request: QueryInterfaceRequest<Destination>

    var erasedRequest: any Sendable { request }

    func rows(
        _ db: any DatabaseConnection, _ keys: [[SQLiteValue]], matching matched: [String], link: AssociationLink,
        columns: [String], next: AssociationLink
    ) throws -> [AssociationStep.DestinationRow] {
        let records = try AssociationStep.fetch(request, db, matching: matched, keys: keys, link: link)
        return try records.map { record in
            AssociationStep.DestinationRow(
                key: try record.encodedValues(of: matched, for: link),
                values: try record.encodedValues(of: columns, for: next))
        }
    }

    func filterSQL(
        _ qualifier: String, _ dialect: SQLDialect, table: String
    ) throws -> (String, StatementArguments, [PostgresSubqueryArray])? {
        guard let filter = request.filter else { return nil }
        if dialect == .postgres {
            var compiler = RequestCompiler(
                binding: PostgresSpelledBinding(RecordRequestBinding<Destination>(), table: table), table: table,
                isWriting: true)
            compiler.qualifier = qualifier
            try compiler.condition(filter)
            return (compiler.sql, compiler.arguments, compiler.binding.arrays)
        }
        var compiler = RequestCompiler(binding: RecordRequestBinding<Destination>(), table: table, isWriting: true)
        compiler.qualifier = qualifier
        try compiler.condition(filter)
        return (compiler.sql, compiler.arguments, [])
    }
}

/// A request binding that writes PostgreSQL's spellings (`$1`, `ILIKE`) while binding values as SQLite's
/// record binding stores them: the filter of a through association's `EXISTS` subquery on PostgreSQL, whose
/// values the outer compiler binds as text of no declared type, so that the server reads each as the type of
/// the column it is compared with. A value whose SQLite form is a JSON array is also kept in ``arrays``, so
/// that the outer compiler binds it as a PostgreSQL array where its column is an array column.
struct PostgresSpelledBinding<Base: Record>: RequestBinding {
    private var base: RecordRequestBinding<Base>
    /// The table the filter's columns belong to.
    private let table: String
    /// The values whose form is a JSON array, in the order their forms were made.
    private(set) var arrays: [PostgresSubqueryArray] = []

    init(_ base: RecordRequestBinding<Base>, table: String) {
        self.base = base
        self.table = table
    }

    static var dialect: SQLDialect { .postgres }

    mutating func name(of column: Column) -> String { base.name(of: column) }

    mutating func forms(of value: QueryValue, column: String?) throws -> [SQLiteValue] {
        let forms = try base.forms(of: value, column: column)
        if case .encodable(let encodable) = value, let column, forms.count == 1, case .text(let text) = forms[0],
            text.utf8.first == UInt8(ascii: "["), !(encodable is any StringProtocol)
        {
            arrays.append(PostgresSubqueryArray(form: forms[0], value: encodable, table: table, column: column))
        }
        return forms
    }

    /// - Throws: ``RecordError/invalidQueryValue(table:column:type:reason:)``: a list this long is not bound
    ///   in a subquery on PostgreSQL.
    mutating func longList(_ forms: [SQLiteValue], column: String?) throws -> RequestListForm<SQLiteValue> {
        throw RecordError.invalidQueryValue(
            table: Base.tableName, column: column, type: "list",
            reason: "a list of more than \(RequestCompiler<Self>.jsonListThreshold) values in a through "
                + "association's filter is not bound on PostgreSQL: filter the records you fetch instead")
    }
}

/// A value of a PostgreSQL subquery's filter whose SQLite form, `form`, is JSON text of an array, compared
/// with `column` of `table`: the outer compiler's binding may bind it as a PostgreSQL array instead
/// (``RequestBinding/subqueryArrayForm(_:)``), as a filter of its own binds an array compared with an array
/// column.
package struct PostgresSubqueryArray: Sendable {
    package let form: SQLiteValue
    package let value: any Encodable & Sendable
    package let table: String
    package let column: String
}

extension SQLiteValue {
    /// A number as its decimal text (other values as they are): what a PostgreSQL subquery of SQLite's values
    /// binds, as text of no declared type that the server reads as the column's type (`1` for a `boolean`
    /// is true, for a `bigint` 1).
    var untypedText: SQLiteValue {
        switch self {
        case .integer(let integer): return .text(String(integer))
        case .real(let real): return .text(String(real))
        case .null, .text, .blob: return self
        }
    }
}
