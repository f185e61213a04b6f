import Foundation

/// A request's names and values as record type `Base` stores them: coding-key columns through its key
/// strategy, values through its ``Record/recordEncoder`` (read once per type, as key lookups read it).
struct RecordRequestBinding<Base: Record>: RequestBinding {
    private var encoder: RecordEncoder?

    private mutating func recordEncoder() -> RecordEncoder {
        if let encoder { return encoder }
        let made = Base.cachedRecordEncoder()
        encoder = made
        return made
    }

    mutating func name(of column: Column) -> String {
        guard column.isCodingKey else { return column.name }
        switch recordEncoder().keyEncodingStrategy {
        case .useDefaultKeys: return column.name
        case .convertToSnakeCase: return KeyCase.snakeCase(column.name)
        }
    }

    mutating func forms(of value: QueryValue, column: String?) throws -> [SQLiteValue] {
        switch value {
        case .forms(let forms): return forms
        case .searchText(let text, let match): return [.text(match.pattern(text))]
        case .encodable(let value): return try encodedForms(value, column: column)
        }
    }

    /// The forms of one Swift value. The common types go without an encoder; an Optional is unwrapped (nil
    /// is NULL); a UUID has its three forms, the one the encoder writes first.
    mutating func encodedForms<T: Encodable>(_ value: T, column: String?) throws -> [SQLiteValue] {
        // Identity casts (SameTypeCast): a dynamic cast per value costs more than binding it.
        if let text = SameTypeCast.cast(value, to: String.self) { return [.text(text)] }
        if let integer = SameTypeCast.cast(value, to: Int.self) { return [.integer(Int64(integer))] }
        if let integer = SameTypeCast.cast(value, to: Int64.self) { return [.integer(integer)] }
        if let flag = SameTypeCast.cast(value, to: Bool.self) { return [.integer(flag ? 1 : 0)] }
        if let uuid = SameTypeCast.cast(value, to: UUID.self) {
            return Base.uuidForms(uuid, encoder: recordEncoder())
        }
        if let optional = value as? any QueryOptional {
            guard let wrapped = optional.wrappedEncodable else { return [] }
            return try encodedForms(wrapped, column: column)
        }
        let encoder = ColumnsEncoder(tableName: Base.tableName, options: recordEncoder())
        do {
            // As `save()` writes it, so that the filter compares what is stored: a nested value (a struct, an
            // array) is the record's JSON text, as PostgreSQL compares it with what it stored there too.
            return [try encoder.columnValue(value, for: ColumnCodingKey(stringValue: column ?? "value"))]
        } catch let error as EncodingError {
            let reason: String
            switch error {
            case .invalidValue(_, let context): reason = context.debugDescription
            @unknown default: reason = "\(error)"
            }
            throw RecordError.invalidQueryValue(
                table: Base.tableName, column: column, type: "\(T.self)", reason: reason)
        }
    }
}

/// An Optional whose wrapped value is `Encodable`, seen through a value of unknown type.
private protocol QueryOptional {
    var wrappedEncodable: (any Encodable)? { get }
}

extension Optional: QueryOptional where Wrapped: Encodable {
    fileprivate var wrappedEncodable: (any Encodable)? { self }
}
