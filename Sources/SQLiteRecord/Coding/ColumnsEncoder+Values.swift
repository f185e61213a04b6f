import Foundation

/// How a ``ColumnsEncoder`` puts each value of a record: collected into ``ColumnsEncoder/columns``, or bound
/// straight to the statement's parameter when it has a ``StatementBinding``.
extension ColumnsEncoder {
    // These take the key as a generic, not `any CodingKey`: an existential would box the key for every
    // column of every record.

    /// Adds `value` to the columns (collecting), or binds it (with a binding).
    func put<Key: CodingKey>(_ value: SQLiteValue, for key: Key) throws {
        guard let binding else {
            // A retired encoder has no binding, so every value it is given ends here.
            if isRetired { throw FinishedEncoding.recordIsDone(value, codingPath: [key]) }
            columns.names.append(columnName(for: key))
            columns.values.append(value)
            keys.append(key.stringValue)
            return
        }
        let parameter = binding.parameter(for: key)
        if parameter != StatementBinding.leftOut { try binding.bind(value, at: parameter) }
    }

    /// ``put(_:for:)`` for NULL.
    @inline(__always)
    func putNull<Key: CodingKey>(for key: Key) throws {
        guard let binding = guaranteedBinding else { return try put(.null, for: key) }
        try binding.bindNull(for: key)
    }

    /// ``put(_:for:)`` for an INTEGER.
    @inline(__always)
    func put<Key: CodingKey>(integer: Int64, for key: Key) throws {
        guard let binding = guaranteedBinding else { return try put(.integer(integer), for: key) }
        try binding.bind(integer: integer, for: key)
    }

    /// ``put(_:for:)`` for TEXT.
    @inline(__always)
    func put<Key: CodingKey>(text: String, for key: Key) throws {
        guard let binding = guaranteedBinding else { return try put(.text(text), for: key) }
        try binding.bind(text: text, for: key)
    }

    /// ``put(_:for:)`` for a REAL, refusing NaN as ``real(_:type:for:)`` does.
    @inline(__always)
    func put<Key: CodingKey>(real: Double, type: Any.Type, for key: Key) throws {
        guard let binding = guaranteedBinding else {
            return try put(try self.real(real, type: type, for: key), for: key)
        }
        // The key is checked before the value: once a record's keys differ from the binding's, nothing is
        // converted, so the encoding without a binding that makes the record's own plan next throws the
        // record's first error. A value the statement leaves out is converted all the same, as that encoding
        // converts it.
        try binding.withBinding { binding in
            let parameter = binding.parameter(for: key)
            guard !binding.hasDiverged else { return }
            _ = try self.real(real, type: type, for: key)
            if parameter != StatementBinding.leftOut { try binding.bind(real: real, at: parameter) }
        }
    }

    /// ``put(_:for:)`` for an unsigned integer, refused above `Int64.max` as ``integer(_:for:)`` does.
    func put<T: FixedWidthInteger, Key: CodingKey>(unsigned value: T, for key: Key) throws {
        guard let binding else { return try put(try integer(value, for: key), for: key) }
        // As for reals: the key first, then the conversion that may throw.
        let parameter = binding.parameter(for: key)
        guard !binding.hasDiverged else { return }
        let converted = try integer(value, for: key)
        if parameter != StatementBinding.leftOut { try binding.bind(converted, at: parameter) }
    }

    /// ``put(_:for:)`` for any other value, converted by ``columnValue(_:for:)``. A Date stored as SQLite
    /// text is bound from a buffer on the stack: its 23 bytes would otherwise allocate a `String`.
    func put<T: Encodable, Key: CodingKey>(_ value: T, for key: Key) throws {
        if let binding, T.self == Date.self, case .sqliteText = options.dateEncodingStrategy {
            let parameter = binding.parameter(for: key)
            guard !binding.hasDiverged else { return }
            let date = try SameTypeCast.cast(checked: value, to: Date.self)
            if parameter == StatementBinding.leftOut {
                // Converted all the same, as an encoding without a binding converts it: a date with no text
                // form throws.
                if !SQLiteDateFormat.hasTextForm(date) { _ = try dateValue(date, for: key) }
                return
            }
            if binding.keepsCurrentText {
                // Rare (a date in a numeric column): through a String, which is kept.
                return try binding.bind(try columnValue(value, for: key), at: parameter)
            }
            // No text form: dateValue throws the error an encoding without a binding throws.
            if try !binding.bind(sqliteTextOf: date, at: parameter) {
                try binding.bind(try dateValue(date, for: key), at: parameter)
            }
            return
        }
        guard let binding else { return try put(try columnValue(value, for: key), for: key) }
        let parameter = binding.parameter(for: key)
        guard !binding.hasDiverged else { return }
        let converted = try columnValue(value, for: key)
        if parameter != StatementBinding.leftOut { try binding.bind(converted, at: parameter) }
    }
}
