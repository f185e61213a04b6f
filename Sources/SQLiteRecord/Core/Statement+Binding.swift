import CSQLiteRecord

extension Statement {
    /// Binds `arguments` to the statement's parameters after resetting it, replacing every earlier binding.
    ///
    /// Positional values go to the parameters in order; with named values, `:name`, `@name` and `$name`
    /// parameters are bound by name and the others take the positional values (see ``StatementArguments``).
    /// The corresponding SQLite calls are `sqlite3_bind_*`; see <https://www.sqlite.org/c3ref/bind_blob.html>.
    /// - Throws: ``DatabaseError``, before anything runs, with `SQLITE_RANGE` when the arguments do not match
    ///   the parameters (a count that differs, a named parameter with no value, a key or value left over) or a
    ///   key is given twice, with `SQLITE_MISMATCH` when an argument had no exact SQLite form (a `UInt64`
    ///   above `Int64.max`), or what `sqlite3_bind_*` reports (`SQLITE_TOOBIG`).
    public func bind(_ arguments: StatementArguments) throws {
        reset()
        boundArguments = arguments
        do {
            if let failure = arguments.conversionFailure {
                throw makeError(failure.resultCode, failure.message, arguments: arguments)
            }
            if arguments.namedValues.isEmpty {
                // The common case, on the hot path of every record call: one check, then one bind per value.
                let expected = parameterCount
                guard arguments.values.count == expected else {
                    throw makeError(
                        .range,
                        "the SQL has \(expected) parameter(s) but \(arguments.values.count) argument(s) were given",
                        arguments: arguments)
                }
                for (offset, value) in arguments.values.enumerated() {
                    try bind(value, at: Int32(offset + 1))
                }
                return
            }
            var usedNames = Set<String>()
            let consumed = try bindParameters(arguments, fromPositional: 0, usedNames: &usedNames)
            try checkNothingLeftOver(arguments, positionalUsed: consumed, usedNames: usedNames)
        } catch {
            // No stale value from an earlier use may survive a failed bind.
            sqlite3_clear_bindings(handle)
            throw error
        }
    }

    /// Binds one value to parameter `index` (1-based). The corresponding SQLite calls are `sqlite3_bind_*`;
    /// text and blobs are copied (`SQLITE_TRANSIENT`). See <https://www.sqlite.org/c3ref/bind_blob.html>.
    /// - Throws: ``DatabaseError`` when the index is out of range (`SQLITE_RANGE`), the value too big
    ///   (`SQLITE_TOOBIG`), or a NaN (`SQLITE_MISMATCH`: SQLite would store NULL in its place).
    public func bind(_ value: SQLiteValue, at index: Int32) throws {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let integer): try bind(integer: integer, at: index)
        case .real(let real): try bind(real: real, at: index)
        case .text(let text): try bind(text: text, at: index)
        case .blob(let data):
            let code = ByteView.withBytes(of: data) { $0.bindBlob(to: handle, at: index) }
            if code != SQLITE_OK { throw makeError(code) }
        }
    }

    // The typed binds below are what ``bind(_:at:)`` does for each storage class. The record encoder calls
    // them straight, value by value, so a record's values never pass through `SQLiteValue` or an array.

    /// Binds NULL to parameter `index` (`sqlite3_bind_null`).
    /// - Throws: ``DatabaseError`` with `SQLITE_RANGE` when there is no such parameter.
    @inline(__always)
    func bindNull(at index: Int32) throws {
        let code = sqlite3_bind_null(handle, index)
        if code != SQLITE_OK { throw makeError(code) }
    }

    /// Binds an INTEGER to parameter `index` (`sqlite3_bind_int64`).
    /// - Throws: ``DatabaseError`` with `SQLITE_RANGE` when there is no such parameter.
    @inline(__always)
    func bind(integer: Int64, at index: Int32) throws {
        let code = sqlite3_bind_int64(handle, index, integer)
        if code != SQLITE_OK { throw makeError(code) }
    }

    /// Binds a REAL to parameter `index` (`sqlite3_bind_double`).
    /// - Throws: ``DatabaseError`` with `SQLITE_MISMATCH` for NaN, which SQLite would store as NULL, and
    ///   `SQLITE_RANGE` when there is no such parameter.
    @inline(__always)
    func bind(real: Double, at index: Int32) throws {
        guard !real.isNaN else {
            throw DatabaseError(
                resultCode: .mismatch,
                message: "parameter \(index) is NaN, which SQLite would store as NULL; bind nil for NULL",
                sql: sql)
        }
        let code = sqlite3_bind_double(handle, index, real)
        if code != SQLITE_OK { throw makeError(code) }
    }

    /// Binds TEXT to parameter `index`, copied by SQLite (`sqlite3_bind_text64` with `SQLITE_TRANSIENT`).
    /// - Throws: ``DatabaseError`` with `SQLITE_TOOBIG` for text over SQLite's length limit, `SQLITE_RANGE`
    ///   when there is no such parameter.
    @inline(__always)
    func bind(text: String, at index: Int32) throws {
        // A native string lends its UTF-8 in place; only a bridged one (Apple platforms) is copied first.
        try ByteView.withUTF8(of: text) { bytes in try bind(utf8: bytes, at: index) }
    }

    /// Binds the UTF-8 `bytes` as TEXT to parameter `index`, copied by SQLite before the call returns, so
    /// the buffer need only live for the call.
    /// - Throws: as ``bind(text:at:)``.
    func bind(utf8 bytes: ByteView, at index: Int32) throws {
        let code = bytes.bindText(to: handle, at: index)
        if code != SQLITE_OK { throw makeError(code) }
    }

    /// The name of parameter `index` (1-based) as written in the SQL, prefix included (`:name`, `@name`,
    /// `$name`, `?2`); nil for a bare `?`. The corresponding SQLite call is `sqlite3_bind_parameter_name`.
    public func parameterName(at index: Int32) -> String? {
        sqlite3_bind_parameter_name(handle, index).map { String(cString: $0) }
    }

    /// The lookup key of each parameter bound by name (its name without the prefix), nil for the
    /// parameters bound by position (`?` and `?NNN`); index 0 is parameter 1. Read once per statement.
    var parameterKeys: [String?] {
        if let parameterNamesCache { return parameterNamesCache }
        let keys: [String?] = (0..<Int32(parameterCount)).map { offset in
            guard let name = parameterName(at: offset + 1), !name.hasPrefix("?") else { return nil }
            return StatementArguments.key(forParameterName: name)
        }
        parameterNamesCache = keys
        return keys
    }

    /// Binds every parameter, taking positional values from `arguments.values[start...]` and named ones by
    /// key (recorded in `usedNames`), without checking for leftovers: ``Database/execute(sql:arguments:)``
    /// spreads one set of arguments over several statements.
    /// - Returns: the number of positional values taken.
    /// - Throws: ``DatabaseError`` with `SQLITE_RANGE` when too few positional values remain or a named
    ///   parameter has no value, or what `sqlite3_bind_*` reports.
    func bindParameters(
        _ arguments: StatementArguments, fromPositional start: Int, usedNames: inout Set<String>
    ) throws -> Int {
        let remaining = arguments.values.count - start
        if arguments.namedValues.isEmpty {
            // No names given: every parameter is positional, as sqlite3_bind_* numbers them.
            let count = parameterCount
            guard remaining >= count else {
                let given =
                    start == 0
                    ? "\(remaining) argument(s) were given"
                    : "only \(remaining) of the \(arguments.values.count) argument(s) remain for it (the statements "
                        + "before it took \(start))"
                throw makeError(.range, "the SQL has \(count) parameter(s) but \(given)", arguments: arguments)
            }
            for offset in 0..<count {
                try bind(arguments.values[start + offset], at: Int32(offset + 1))
            }
            return count
        }
        let keys = parameterKeys
        let positionalCount = keys.lazy.filter { $0 == nil }.count
        guard remaining >= positionalCount else {
            throw makeError(
                .range,
                "the SQL has \(positionalCount) positional parameter(s) but only \(remaining) of the "
                    + "\(arguments.values.count) positional argument(s) remain for it",
                arguments: arguments)
        }
        if let missing = keys.lazy.compactMap({ $0 }).first(where: { arguments.namedValues[$0] == nil }) {
            let given = arguments.namedValues.keys.sorted().joined(separator: ", ")
            throw makeError(
                .range, "no value for the named parameter \(missing); the named arguments are: \(given)",
                arguments: arguments)
        }
        var position = start
        for (offset, key) in keys.enumerated() {
            let value: SQLiteValue
            if let key, let named = arguments.namedValues[key] {
                usedNames.insert(key)
                value = named
            } else {
                value = arguments.values[position]
                position += 1
            }
            try bind(value, at: Int32(offset + 1))
        }
        return position - start
    }

    /// Throws when positional values or named keys of `arguments` were not used by any parameter.
    func checkNothingLeftOver(_ arguments: StatementArguments, positionalUsed: Int, usedNames: Set<String>) throws {
        if positionalUsed < arguments.values.count {
            throw makeError(
                .range,
                "\(arguments.values.count) positional argument(s) were given but the SQL has \(positionalUsed) "
                    + "positional parameter(s)",
                arguments: arguments)
        }
        if usedNames.count < arguments.namedValues.count {
            let unused = arguments.namedValues.keys.filter { !usedNames.contains($0) }.sorted()
            let known = Set(parameterKeys.compactMap { $0 }).union(usedNames).sorted()
            throw makeError(
                .range,
                "the named argument(s) \(unused.joined(separator: ", ")) match no parameter; the SQL's named "
                    + "parameters are: \(known.isEmpty ? "none" : known.joined(separator: ", "))",
                arguments: arguments)
        }
    }
}
