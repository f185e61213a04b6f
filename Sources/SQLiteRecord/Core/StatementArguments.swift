/// The values bound to a statement's parameters: positional (`?`, `?NNN`), named (`:name`, `@name`,
/// `$name`), or both.
///
/// Written as an array literal, `["Tokyo", 9_733_276, nil]`, bound in order, or as a dictionary literal,
/// `["name": "Tokyo", "population": 9_733_276]`, bound by name. Any ``SQLiteValueConvertible`` value and
/// `nil` (NULL) can appear. The values are converted when the literal is made, so arguments are `Sendable`
/// whatever was written; a value with no exact SQLite form (a `UInt64` above `Int64.max`) is remembered and
/// thrown as a ``DatabaseError`` when the arguments are bound, before anything runs.
///
/// How they meet the SQL's parameters (see <https://www.sqlite.org/lang_expr.html#varparam>):
/// - With no named values, every parameter, named or not, takes the next positional value in index order,
///   as `sqlite3_bind_*` numbers them; their counts must be equal.
/// - With named values, each `:name`, `@name` or `$name` parameter takes the value whose key is `name`
///   (a key may also be written with its prefix, `":name"`), and the other parameters take the positional
///   values in order. Every named parameter needs a value, and every key and positional value must be used.
///
/// Anything else is a ``DatabaseError`` with `SQLITE_RANGE` that names the parameters, thrown before the
/// statement runs.
public struct StatementArguments: Sendable, Equatable {
    /// The positional values, the first bound to the first positional parameter.
    public var values: [SQLiteValue]
    /// The named values, keyed by parameter name without its `:`, `@` or `$` prefix.
    public var namedValues: [String: SQLiteValue]
    /// The first value that could not be converted when the arguments were made; thrown at binding.
    var conversionFailure: ConversionFailure?

    /// Why an argument could not be converted, kept until binding can throw it.
    struct ConversionFailure: Sendable, Equatable {
        let resultCode: ResultCode
        let message: String
    }

    /// Arguments from values already converted, bound in order.
    public init(_ values: [SQLiteValue] = []) {
        self.values = values
        self.namedValues = [:]
    }

    /// Arguments from positional and named values already converted.
    /// - Parameters:
    ///   - values: bound in order to the parameters that have no name.
    ///   - named: bound by name; keys are parameter names with or without their `:`, `@` or `$` prefix.
    public init(_ values: [SQLiteValue], named: [String: SQLiteValue]) {
        self.values = values
        self.namedValues = [:]
        for (key, value) in named { add(value, forKey: key) }
    }

    /// Arguments from any convertible values, bound in order; `nil` binds NULL. A value that
    /// ``SQLiteValueConvertible/checkedSQLiteValue()`` refuses makes binding throw.
    public init(_ values: [(any SQLiteValueConvertible)?]) {
        self.values = []
        self.namedValues = [:]
        self.values.reserveCapacity(values.count)
        for (offset, value) in values.enumerated() {
            self.values.append(convert(value, at: .position(offset + 1)))
        }
    }

    /// Arguments bound by name from any convertible values; `nil` binds NULL. Keys are parameter names with
    /// or without their `:`, `@` or `$` prefix.
    public init(named: [String: (any SQLiteValueConvertible)?]) {
        self.values = []
        self.namedValues = [:]
        // Sorted so that the failure reported first does not depend on the dictionary's order.
        for key in named.keys.sorted() {
            add(convert(named[key] ?? nil, at: .name(key)), forKey: key)
        }
    }

    /// True when there are neither positional nor named values.
    public var isEmpty: Bool { values.isEmpty && namedValues.isEmpty }

    /// The value for the named parameter `name` (with or without its prefix), or nil when there is none.
    public subscript(name: String) -> SQLiteValue? {
        namedValues[Self.key(forParameterName: name)]
    }

    /// The key a parameter name is looked up by: the name without its `:`, `@` or `$` prefix.
    static func key(forParameterName name: String) -> String {
        guard let first = name.utf8.first,
            first == UInt8(ascii: ":") || first == UInt8(ascii: "@") || first == UInt8(ascii: "$")
        else { return name }
        return String(name.dropFirst())
    }

    private mutating func add(_ value: SQLiteValue, forKey key: String) {
        let key = Self.key(forParameterName: key)
        if namedValues.updateValue(value, forKey: key) != nil, conversionFailure == nil {
            conversionFailure = ConversionFailure(
                resultCode: .range, message: "the named argument \(key) is given twice")
        }
    }

    /// Where an argument was written, for the message of a failed conversion.
    private enum ArgumentPlace {
        case position(Int)
        case name(String)
    }

    /// `value`'s checked conversion; on failure NULL stands in and the failure is kept for binding to throw.
    /// The message is built only on failure: this runs for every argument of every call.
    private mutating func convert(_ value: (any SQLiteValueConvertible)?, at place: ArgumentPlace) -> SQLiteValue {
        guard let value else { return .null }
        do {
            return try value.checkedSQLiteValue()
        } catch {
            if conversionFailure == nil {
                let code = (error as? DatabaseError)?.resultCode ?? .mismatch
                let reason = (error as? DatabaseError)?.message ?? "\(error)"
                let label: String
                switch place {
                case .position(let position): label = "argument \(position)"
                case .name(let name): label = "argument \(name)"
                }
                conversionFailure = ConversionFailure(resultCode: code, message: "\(label): \(reason)")
            }
            return .null
        }
    }
}

extension StatementArguments: ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// Positional arguments from an array literal: `["FR", 1_000_000, nil]`.
    public init(arrayLiteral elements: (any SQLiteValueConvertible)?...) {
        self.init(elements)
    }

    /// Named arguments from a dictionary literal: `["iso": "FR", "population": 1_000_000]`. A key given
    /// twice makes binding throw.
    public init(dictionaryLiteral elements: (String, (any SQLiteValueConvertible)?)...) {
        self.init()
        for (key, value) in elements {
            add(convert(value, at: .name(key)), forKey: key)
        }
    }
}

extension StatementArguments: CustomStringConvertible {
    /// The values as written in SQL, positional first, then named by key in order:
    /// `['Tokyo', 9733276, NULL]`, `[iso: 'FR', population: 1000]`. Shows stored data: ``DatabaseError``
    /// leaves it out of its own description unless asked.
    public var description: String {
        let positional = values.map(\.shortDescription)
        let named = namedValues.keys.sorted().map { key in "\(key): \(namedValues[key]?.shortDescription ?? "NULL")" }
        return "[" + (positional + named).joined(separator: ", ") + "]"
    }
}
