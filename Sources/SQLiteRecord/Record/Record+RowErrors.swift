extension Record {
    /// `error`, thrown while the current row of `statement` (a fetch from ``tableName``) decoded, with that
    /// row named by its primary key: `... holds TEXT 'soon' (row id 6)`, so that the person who reads the
    /// log can find the row and fix it. Unchanged when the row has no primary key value (a view, or a
    /// SELECT that leaves the key out).
    static func locatingRow(_ error: DecodingError, of statement: Statement) -> DecodingError {
        guard let index = ColumnNameIndex(statement.columnNames).index(of: primaryKeyColumn) else { return error }
        let key: String
        switch statement.value(at: index) {
        case .null: return error
        case .integer(let value): key = String(value)
        case let value: key = value.shortDescription
        }
        return error.appendingToDescription(" (row \(primaryKeyColumn) \(key))")
    }
}

extension DecodingError {
    /// The same error, of the same kind and coding path, with `suffix` added to its description.
    func appendingToDescription(_ suffix: String) -> DecodingError {
        func extended(_ context: Context) -> Context {
            Context(
                codingPath: context.codingPath, debugDescription: context.debugDescription + suffix,
                underlyingError: context.underlyingError)
        }
        switch self {
        case .typeMismatch(let type, let context): return .typeMismatch(type, extended(context))
        case .valueNotFound(let type, let context): return .valueNotFound(type, extended(context))
        case .keyNotFound(let key, let context): return .keyNotFound(key, extended(context))
        case .dataCorrupted(let context): return .dataCorrupted(extended(context))
        @unknown default: return self
        }
    }
}
