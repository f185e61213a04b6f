#if PostgreSQL
import Foundation
import SQLiteRecord

/// A request's names and values as record type `Base` stores them on PostgreSQL: coding-key columns by the
/// names its probe found (its key strategy), values as ``PostgresValueWriter`` writes them for
/// `insert(_:)`, so that a filter compares a column with what `save` stored there.
struct PostgresRequestBinding<Base: Record>: RequestBinding {
    typealias Arguments = PostgresArguments

    static var dialect: SQLDialect { .postgres }

    let shape: PostgresRecordShape
    /// The connection the request runs on: an array compared with a column that is no array column is
    /// written as `save()` writes it there (``PostgresConnection/filterForm(of:written:table:column:jsonEncoder:)``).
    let connection: PostgresConnection

    func name(of column: Column) -> String {
        guard column.isCodingKey else { return column.name }
        return shape.encoderNames?[column.name] ?? column.name
    }

    func forms(of value: QueryValue, column: String?) throws -> [PostgresValue] {
        switch value {
        case .forms(let forms):
            return try forms.map { try PostgresArguments.value($0, table: shape.table, column: column) }
        case .searchText(let text, let match):
            guard !text.utf8.contains(0) else {
                throw RecordError.invalidQueryValue(
                    table: shape.table, column: column, type: "String",
                    reason: "the search text holds U+0000, which PostgreSQL's text cannot hold, so no row could match")
            }
            return [PostgresValue(typeOID: PostgresType.text, isBinary: false, bytes: Array(match.pattern(text).utf8))]
        case .encodable(let value):
            if let bound = value as? PostgresQueryValue { return bound.value.isNull ? [] : [bound.value] }
            let written: PostgresValue
            do {
                written = try connection.filterForm(
                    of: value,
                    written: PostgresValueWriter.value(
                        value, codingPath: [PostgresColumnKey(column ?? "value")], jsonEncoder: shape.jsonEncoder),
                    table: shape.table, column: column, jsonEncoder: shape.jsonEncoder)
            } catch let EncodingError.invalidValue(_, context) {
                throw RecordError.invalidQueryValue(
                    table: shape.table, column: column, type: "\(type(of: value))", reason: context.debugDescription)
            }
            return written.isNull ? [] : [written]
        }
    }

    /// An array of a through association's filter as a filter of its own binds it
    /// (``PostgresConnection/filterForm(of:written:table:column:jsonEncoder:)``): a PostgreSQL array where its
    /// column is an array column; nil (its JSON text, of no declared type) elsewhere.
    /// - Throws: ``PostgresError`` from the catalog read; ``RecordError/invalidQueryValue(table:column:type:reason:)``
    ///   for a value PostgreSQL cannot hold.
    func subqueryArrayForm(_ array: PostgresSubqueryArray) throws -> PostgresValue? {
        let written: PostgresValue
        do {
            written = try PostgresValueWriter.value(
                array.value, codingPath: [PostgresColumnKey(array.column)], jsonEncoder: shape.jsonEncoder)
        } catch let EncodingError.invalidValue(_, context) {
            throw RecordError.invalidQueryValue(
                table: array.table, column: array.column, type: "\(type(of: array.value))",
                reason: context.debugDescription)
        }
        guard PostgresType.elementType(ofArray: written.typeOID) != nil,
            try connection.arrayColumns(of: array.table)[array.column]?.isArray == true
        else { return nil }
        return try connection.filterForm(
            of: array.value, written: written, table: array.table, column: array.column, jsonEncoder: shape.jsonEncoder)
    }

    /// One PostgreSQL array of the forms' type, for `= ANY($n)`: in binary form when every element has one
    /// (numbers, booleans, bytes, UUIDs, timestamps), as text (`{"19.99","5"}`) for `numeric`, and as text of
    /// no declared type when every element is text of none (a `String`), so that the server gives the array
    /// the column's type, as it gives each `$n` of a short `IN` list: strings compared with a `uuid` or
    /// `bigint` column match the same rows in a list of 40,000 as in a list of 4. See
    /// <https://www.postgresql.org/docs/current/arrays.html#ARRAYS-IO>.
    func longList(_ forms: [PostgresValue], column: String?) throws -> RequestListForm<PostgresValue> {
        if let slices = try slices(of: forms, column: column) { return slices }
        let types = Set(forms.filter { !$0.isNull }.map { $0.typeOID == 0 ? PostgresType.text : $0.typeOID })
        guard types.count <= 1 else {
            throw RecordError.invalidQueryValue(
                table: shape.table, column: column, type: "list",
                reason: "a list of values of several PostgreSQL types ("
                    + types.sorted().map(PostgresType.name).joined(separator: ", ") + ") is not one array")
        }
        let element = types.first ?? PostgresType.text
        guard let arrayType = PostgresType.arrayType(of: element) else {
            throw RecordError.invalidQueryValue(
                table: shape.table, column: column, type: "list",
                reason: "PostgresRecord writes no array of \(PostgresType.name(element)) values")
        }
        let untyped = forms.allSatisfy { $0.isNull || $0.typeOID == 0 }
        if untyped || forms.contains(where: { !$0.isNull && !$0.isBinary && $0.typeOID != 0 && $0.typeOID != PostgresType.text }) {
            var text = "{"
            for (index, form) in forms.enumerated() {
                if index > 0 { text += "," }
                guard let bytes = form.bytes else {
                    text += "NULL"
                    continue
                }
                text += "\""
                for character in String(decoding: bytes, as: UTF8.self) {
                    if character == "\"" || character == "\\" { text.append("\\") }
                    text.append(character)
                }
                text += "\""
            }
            text += "}"
            return .array(PostgresValue(typeOID: untyped ? 0 : arrayType, isBinary: false, bytes: Array(text.utf8)))
        }
        // Binary array: dimensions, whether a NULL is in it, element type, then length and lower bound of the
        // one dimension, then each element's length (-1 for NULL) and bytes.
        var bytes: [UInt8] = []
        bytes += PostgresValue.bigEndian(Int32(1))
        bytes += PostgresValue.bigEndian(Int32(forms.contains(where: \.isNull) ? 1 : 0))
        bytes += PostgresValue.bigEndian(element)
        bytes += PostgresValue.bigEndian(Int32(forms.count))
        bytes += PostgresValue.bigEndian(Int32(1))
        for form in forms {
            guard let elementBytes = form.bytes else {
                bytes += PostgresValue.bigEndian(Int32(-1))
                continue
            }
            bytes += PostgresValue.bigEndian(Int32(elementBytes.count))
            bytes += elementBytes
        }
        return .array(PostgresValue(typeOID: arrayType, isBinary: true, bytes: bytes))
    }
}

extension PostgresRequestBinding {
    /// A list of arrays as ``RequestListForm/slices(elements:lowers:uppers:)``, when its values are arrays in
    /// binary form (as a filter binds an array compared with an array column); nil for a list of other values.
    /// - Throws: ``RecordError/invalidQueryValue(table:column:type:reason:)`` for arrays of several types, of
    ///   several dimensions, or of bytes that break `array_send`'s form.
    func slices(of forms: [PostgresValue], column: String?) throws -> RequestListForm<PostgresValue>? {
        guard let first = forms.first(where: { !$0.isNull }), first.isBinary,
            PostgresType.elementType(ofArray: first.typeOID) != nil
                || first.typeOID >= PostgresConnection.firstUserTypeOID
        else { return nil }
        func refuse(_ reason: String) -> RecordError {
            RecordError.invalidQueryValue(table: shape.table, column: column, type: "list", reason: reason)
        }
        var elementType: UInt32?
        var elements: [UInt8] = []
        var count: Int32 = 0
        var hasNull = false
        var lowers: [Int32?] = []
        var uppers: [Int32?] = []
        for form in forms {
            guard let bytes = form.bytes else {
                lowers.append(nil)
                uppers.append(nil)
                continue
            }
            guard form.isBinary, form.typeOID == first.typeOID else {
                throw refuse("a list of arrays of several PostgreSQL types is not one array")
            }
            guard let array = OneDimensionalArray(bytes), elementType == nil || elementType == array.elementType else {
                throw refuse("a list of arrays of several element types or dimensions is not one array")
            }
            let (total, overflow) = count.addingReportingOverflow(array.count)
            guard !overflow else { throw refuse("a list of arrays of more than 2^31 - 1 elements in all") }
            elementType = array.elementType
            lowers.append(count + 1)
            count = total
            uppers.append(count)
            hasNull = hasNull || array.hasNull
            elements += bytes[array.elementsStart...]
        }
        // `array_send`'s form: dimensions (none when empty), NULL flag, element type, then length and lower
        // bound, then the elements as each array held them.
        var header: [UInt8] = []
        header += PostgresValue.bigEndian(Int32(count > 0 ? 1 : 0))
        header += PostgresValue.bigEndian(Int32(hasNull ? 1 : 0))
        header += PostgresValue.bigEndian(elementType ?? PostgresType.text)
        if count > 0 {
            header += PostgresValue.bigEndian(count)
            header += PostgresValue.bigEndian(Int32(1))
        }
        let path = [PostgresColumnKey(column ?? "value")]
        return .slices(
            elements: PostgresValue(typeOID: first.typeOID, isBinary: true, bytes: header + elements),
            lowers: try lowers.postgresArray(codingPath: path), uppers: try uppers.postgresArray(codingPath: path))
    }
}

/// The header of a one-dimensional array (or an empty one) in `array_send`'s binary form, its elements checked
/// to end where the bytes end. See <https://www.postgresql.org/docs/current/arrays.html>.
struct OneDimensionalArray {
    let elementType: UInt32
    let count: Int32
    let hasNull: Bool
    /// Where the first element's length begins.
    let elementsStart: Int

    /// Nil for bytes of several dimensions, a lower bound other than 1, or bytes that break the form.
    init?(_ bytes: [UInt8]) {
        func int32(at offset: Int) -> Int32? {
            guard offset >= 0, offset + 4 <= bytes.count else { return nil }
            return Int32(bitPattern: bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        guard let dimensions = int32(at: 0), dimensions == 0 || dimensions == 1, let flags = int32(at: 4),
            let element = int32(at: 8)
        else { return nil }
        elementType = UInt32(bitPattern: element)
        hasNull = flags != 0
        if dimensions == 0 {
            guard bytes.count == 12 else { return nil }
            (count, elementsStart) = (0, 12)
            return
        }
        guard let length = int32(at: 12), length >= 0, int32(at: 16) == 1 else { return nil }
        count = length
        elementsStart = 20
        var offset = 20
        for _ in 0..<length {
            guard let size = int32(at: offset), size >= -1 else { return nil }
            offset += 4 + max(Int(size), 0)
        }
        guard offset == bytes.count else { return nil }
    }
}

/// A value already in PostgreSQL's form, for a filter the library builds itself (the parents' keys of an
/// eager load): the binding passes it through.
struct PostgresQueryValue: Encodable, Sendable {
    let value: PostgresValue

    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(
            value, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "bound by PostgresRecord"))
    }
}

/// The arguments of a compiled request on PostgreSQL, in `$n` order. A value the compiler adds that
/// PostgreSQL cannot take (text holding U+0000, a named argument) is kept as a failure, thrown by
/// ``checked(table:)`` before anything runs.
struct PostgresArguments: RequestArguments {
    private(set) var values: [PostgresValue] = []
    private var failure: String?

    static var empty: PostgresArguments { PostgresArguments() }
    static var null: PostgresValue { .null }
    var count: Int { values.count }

    mutating func reserveCapacity(_ count: Int) { values.reserveCapacity(count) }
    mutating func append(_ value: PostgresValue) { values.append(value) }
    mutating func append(contentsOf values: [PostgresValue]) { self.values += values }
    mutating func append(arguments other: PostgresArguments) {
        values += other.values
        if failure == nil { failure = other.failure }
    }

    mutating func append(sqlite value: SQLiteValue) {
        do {
            values.append(try Self.value(value, table: "", column: nil))
        } catch {
            values.append(.null)
            if failure == nil { failure = "a value of the SQL holds U+0000, which PostgreSQL's text cannot hold" }
        }
    }

    /// `LIMIT NULL` is `LIMIT ALL` (<https://www.postgresql.org/docs/current/sql-select.html#SQL-LIMIT>), so
    /// nil and a negative count, which SQLite reads as no limit, are bound as NULL.
    mutating func append(limit: Int?) {
        values.append(limit.map { $0 >= 0 ? PostgresValue(Int64($0)) : .null } ?? .null)
    }

    mutating func append(literal arguments: StatementArguments) {
        if !arguments.namedValues.isEmpty && failure == nil {
            failure = "SQL of your own on PostgreSQL takes positional arguments ($1, $2...), not named ones"
        }
        for value in arguments.values { append(sqlite: value) }
    }

    /// The values, or the failure kept while compiling.
    /// - Throws: ``RecordError/invalidQuery(table:reason:)``.
    func checked(table: String) throws -> [PostgresValue] {
        if let failure { throw RecordError.invalidQuery(table: table, reason: failure) }
        return values
    }

    /// An SQLite value as PostgreSQL's: INTEGER `bigint`, REAL `double precision`, BLOB `bytea`, TEXT as
    /// text of the type the statement gives it (a UUID's text compared with a `uuid` column is a `uuid`).
    /// - Throws: ``RecordError/invalidQueryValue(table:column:type:reason:)`` for text holding U+0000.
    static func value(_ value: SQLiteValue, table: String, column: String?) throws -> PostgresValue {
        switch value {
        case .null: return .null
        case .integer(let integer): return PostgresValue(integer)
        case .real(let real): return PostgresValue(real)
        case .blob(let data): return PostgresValue(data)
        case .text(let text):
            guard !text.utf8.contains(0) else {
                throw RecordError.invalidQueryValue(
                    table: table, column: column, type: "String",
                    reason: "the text holds U+0000, which PostgreSQL's text cannot hold")
            }
            return PostgresValue(typeOID: 0, isBinary: false, bytes: Array(text.utf8))
        }
    }
}

extension PostgresType {
    /// `text[]`.
    static let textArray: UInt32 = 1009

    /// The OID of the array type whose elements are of type `element`; nil for a type without one here.
    static func arrayType(of element: UInt32) -> UInt32? {
        switch element {
        case bool: return 1000
        case bytea: return 1001
        case int2: return 1005
        case int4: return 1007
        case text: return textArray
        case varchar: return 1015
        case int8: return 1016
        case float4: return 1021
        case float8: return 1022
        case timestamp: return 1115
        case date: return 1182
        case timestamptz: return 1185
        case numeric: return 1231
        case uuid: return 2951
        default: return nil
        }
    }
}
#endif
