/// Swift names for SQL identifiers: UpperCamelCase singular type names for tables, lowerCamelCase property
/// names for columns, keywords escaped with backticks, and string literals for the SQL names themselves.
///
/// SQL identifiers may hold any character (`"first name"`, `"größe"`, `"order"`); Swift identifiers may hold
/// letters, digits and `_`, and must not start with a digit
/// ([Identifiers](https://docs.swift.org/swift-book/documentation/the-swift-programming-language/lexicalstructure/#Identifiers)).
/// Letters outside ASCII are kept (Swift accepts them), everything else separates words.
enum SwiftNames {
    /// Swift's keywords: a property with one of these names is written in backticks (`` `default` ``).
    /// From the Swift book's "Keywords and Punctuation", the keywords reserved in declarations, statements
    /// and expressions.
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
        "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil",
        "self", "Self", "super", "throws", "true", "try", "Type", "Protocol",
    ]

    /// Keywords that backticks do not make usable as a stored property or enum case name in every position
    /// (`self`, `init`, `Type` after a dot): a property is renamed instead.
    static let unusableMembers: Set<String> = ["self", "Self", "super", "init", "Type", "Protocol", "_"]

    /// Members every generated record type or its `CodingKeys` already has: a column property of that name
    /// would clash with them (`stringValue` is CodingKey's requirement, `id` is the record's key).
    static let reservedMembers: Set<String> = [
        "id", "stringValue", "intValue", "rawValue", "hashValue", "allCases", "init",
    ]

    /// Type names a generated type must never take: a type of that name in the app's module would shadow
    /// the standard library's, Foundation's, Dispatch's or SQLiteRecord's everywhere in the module (a table
    /// `tasks` as `struct Task` breaks every `Task { }` of the app). A table whose name becomes one of these
    /// gets `Record` (a view `Row`) appended: `TaskRecord`. A fixed list, which the tests check:
    /// ``swiftTypes``, ``foundationTypes``, ``dispatchTypes`` and ``sqliteRecordTypes``.
    static var reservedTypes: Set<String> {
        swiftTypes.union(foundationTypes).union(dispatchTypes).union(sqliteRecordTypes).union([
            "Foundation", "Dispatch", "SQLiteRecord", "Swift", "Self", "Type", "Protocol", "Key", "CodingKeys",
        ])
    }

    /// The Swift standard library's and concurrency's public types and protocols that app code names.
    static let swiftTypes: Set<String> = [
        "Any", "AnyObject", "AnyHashable", "AnyIterator", "AnySequence", "AnyCollection", "AnyKeyPath", "Array",
        "ArraySlice", "Actor", "AsyncSequence", "AsyncIteratorProtocol", "AsyncStream", "AsyncThrowingStream",
        "BidirectionalCollection", "BinaryInteger", "BinaryFloatingPoint", "Bool", "CaseIterable", "Character",
        "CheckedContinuation", "ClosedRange", "Clock", "Codable", "CodingKey", "Collection", "CommandLine",
        "Comparable", "ContiguousArray", "ContinuousClock", "CustomStringConvertible", "CustomDebugStringConvertible",
        "Decodable", "Decoder", "DecodingError", "Dictionary", "DiscardingTaskGroup", "Double", "Duration",
        "Encodable", "Encoder", "EncodingError", "Equatable", "Error", "ExpressibleByStringLiteral", "Float",
        "Float16", "Float80", "FloatingPoint", "GlobalActor", "Hashable", "Hasher", "Identifiable", "IndexingIterator",
        "Int", "Int8", "Int16", "Int32", "Int64", "Int128", "IteratorProtocol", "KeyPath", "KeyValuePairs",
        "LazySequence", "MainActor", "ManagedBuffer", "Mirror", "MutableCollection", "Never", "Numeric",
        "ObjectIdentifier", "OpaquePointer", "Optional", "OptionSet", "Range", "RangeExpression",
        "RandomAccessCollection", "RandomNumberGenerator", "RawRepresentable", "Result", "Sendable",
        "SendableMetatype", "Sequence", "Set", "SetAlgebra", "SignedInteger", "SIMD", "Slice", "StaticString",
        "Strideable", "String", "StringProtocol", "Substring", "SuspendingClock", "SystemRandomNumberGenerator",
        "Task", "TaskGroup", "TaskLocal", "TaskPriority", "ThrowingTaskGroup", "UInt", "UInt8", "UInt16", "UInt32",
        "UInt64", "UInt128", "Unicode", "UnicodeScalar",
        "UnownedJob", "Void", "WritableKeyPath", "Zip2Sequence",
        "Mutex", "Atomic", "InlineArray", "Span",
    ]

    /// Foundation's value and class types that app code names.
    static let foundationTypes: Set<String> = [
        "AttributedString", "Bundle", "Calendar", "CharacterSet", "ComparisonResult", "Data", "Date",
        "DateComponents", "DateFormatter", "DateInterval", "Decimal", "Dimension", "FileHandle", "FileManager",
        "Formatter", "Host", "IndexPath", "IndexSet", "InputStream", "ISO8601DateFormatter", "JSONDecoder",
        "JSONEncoder", "JSONSerialization", "Locale", "Measurement", "Morphology", "Notification",
        "NotificationCenter", "NSError", "NSLock", "NSNumber", "NSObject", "NSRange", "NSRecursiveLock", "NSString",
        "NumberFormatter", "Operation", "OperationQueue", "OutputStream", "PersonNameComponents", "Pipe", "Predicate",
        "Process", "ProcessInfo", "Progress", "PropertyListDecoder", "PropertyListEncoder", "RunLoop", "Scanner",
        "SortDescriptor", "SortOrder", "Stream", "Thread", "TimeInterval", "TimeZone", "Timer", "Unit", "UnitLength",
        "UnitMass", "UnitDuration", "URL", "URLComponents", "URLQueryItem", "URLRequest", "URLResponse", "URLSession",
        "HTTPURLResponse", "UserDefaults", "UUID", "Expression", "FormatStyle", "Port",
    ]

    /// Dispatch's types.
    static let dispatchTypes: Set<String> = [
        "DispatchData", "DispatchGroup", "DispatchIO", "DispatchQoS", "DispatchQueue", "DispatchSemaphore",
        "DispatchSource", "DispatchSpecificKey", "DispatchTime", "DispatchTimeInterval", "DispatchWallTime",
        "DispatchWorkItem", "DispatchWorkItemFlags",
    ]

    /// SQLiteRecord's public types, which the generated file names (`Column`, `Row`, `Ordering`,
    /// `Database`); a test checks the list against the library's sources.
    static let sqliteRecordTypes: Set<String> = [
        "Association", "AssociationStep", "AssociationToOne", "AsyncDatabaseWriter", "AsyncValueObservation",
        "BelongsToAssociation", "Column", "ColumnAffinity",
        "ColumnAssignment",
        "ColumnExpression", "ColumnInfo", "ConflictResolution", "Database", "DatabaseConnection", "DatabaseError",
        "DatabaseFuture", "DatabaseMigrator", "DatabasePool", "DatabaseQueue", "DatabaseReader", "DatabaseWriter",
        "EncodedColumns", "EngineRowReader",
        "FTS", "FTS5Pattern", "FetchableRecord", "FetchedRow", "FetchedRowReadable", "ForeignKeyAction", "ForeignKeyInfo",
        "FullTextExcerpt", "FullTextIndex", "FullTextMatch", "FullTextSearchable", "FullTextTokenizer",
        "HasManyAssociation", "HasManyThroughAssociation", "HasOneAssociation", "HasOneThroughAssociation",
        "IncludingAllRequest", "IncludingThroughRequest", "IndexInfo", "JoinedRequest",
        "LiveFetch", "LiveQuery", "MigrationError", "MigrationForeignKeyChecks", "ObservedValues", "Ordering",
        "ParentAssociation", "QueryInterfaceRequest", "Record", "RecordCursor",
        "RecordEncoder", "RecordError", "RecordStore", "ResultCode", "Row", "RowCursor", "RowDecoder",
        "RowInitializerMismatch", "SQLCollation", "SQLExpressible", "SQLExpression", "SQLIdentifier", "SQLOrdering",
        "SQLOrderingTerm", "SQLiteDateFormat", "SQLiteValue", "SQLiteValueConvertible", "SQLiteValueReadable",
        "SchemaChange", "SchemaChangeError", "SchemaChangeOptions", "SchemaChangePlan", "SchemaMismatch",
        "SchemaProbeError", "SchemaValidationError", "Statement", "StatementArguments", "TableDefinition",
        "TransactionKind", "UpsertOutcome", "ValueObservation",
    ]

    /// The words of an SQL identifier: split at every character that cannot be in a Swift identifier, and
    /// where a lowercase letter or digit is followed by an uppercase one (`geonameId` is `geoname`, `Id`).
    static func words(of identifier: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for character in identifier {
            guard isIdentifierCharacter(character), character != "_" else {
                if !current.isEmpty { words.append(current) }
                current = ""
                previous = nil
                continue
            }
            if let previous, character.isUppercase, previous.isLowercase || previous.isNumber, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(character)
            previous = character
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// True for a letter or digit Swift accepts in an identifier: ASCII letters and digits, and letters and
    /// digits outside ASCII (`é`, `ß`, `名`), but not symbols or emoji.
    static func isIdentifierCharacter(_ character: Character) -> Bool {
        if character.isASCII { return character.isLetter || character.isNumber || character == "_" }
        return character.isLetter || (character.isNumber && character.unicodeScalars.count == 1)
    }

    /// `word` with its first character uppercased and, when it is all uppercase (`ISO`, `ID`), the rest
    /// lowercased: `iso3` -> `Iso3`, `ID` -> `Id`.
    static func capitalized(_ word: String) -> String {
        guard let first = word.first else { return word }
        let rest = word.dropFirst()
        let allUpper = !rest.isEmpty && rest.allSatisfy { !$0.isLowercase } && first.isUppercase
        return first.uppercased() + (allUpper ? rest.lowercased() : String(rest))
    }

    /// A lowerCamelCase name for a column: `country_id` -> `countryId`, `ISO` -> `iso`, `first name` ->
    /// `firstName`; nil when the name holds no letter or digit Swift accepts.
    static func propertyName(for column: String) -> String? {
        let parts = words(of: column)
        guard let first = parts.first else { return nil }
        let head = first.allSatisfy { !$0.isLowercase } ? first.lowercased() : lowercasedFirst(first)
        var name = head + parts.dropFirst().map(capitalized).joined()
        if let initial = name.first, initial.isNumber { name = "_" + name }
        return name
    }

    /// An UpperCamelCase singular name for a table: `cities` -> `City`, `geo_names` -> `GeoName`,
    /// `Order Items` -> `OrderItem`; nil when the name holds no letter or digit Swift accepts.
    static func typeName(for table: String) -> String? {
        var parts = words(of: table)
        guard let last = parts.last else { return nil }
        parts[parts.count - 1] = singular(last)
        var name = parts.map(capitalized).joined()
        if let initial = name.first, initial.isNumber { name = "Table" + name }
        return name
    }

    /// The singular of an English plural, for the common forms table names take: `cities` -> `city`,
    /// `boxes` -> `box`, `countries` -> `country`, `statuses` -> `status`, `units` -> `unit`. A word that is
    /// not such a plural (`status`, `data`, `news`, `fts`) is returned as it is.
    static func singular(_ word: String) -> String {
        let lower = word.lowercased()
        // Words of three letters or fewer (`fts`, `gps`, `bus`) are abbreviations more often than plurals.
        guard lower.count > 3, lower.allSatisfy(\.isASCII) else { return word }
        if lower.hasSuffix("ies") { return String(word.dropLast(3)) + (word.last?.isUppercase == true ? "Y" : "y") }
        if lower.hasSuffix("sses") || lower.hasSuffix("xes") || lower.hasSuffix("ches") || lower.hasSuffix("shes")
            || lower.hasSuffix("uses") || lower.hasSuffix("zzes")
        {
            return String(word.dropLast(2))
        }
        if lower.hasSuffix("ss") || lower.hasSuffix("us") || lower.hasSuffix("is") || lower.hasSuffix("news") {
            return word
        }
        if lower.hasSuffix("s") { return String(word.dropLast()) }
        return word
    }

    /// `name` as Swift code: in backticks when it is a keyword.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// A Swift string literal holding `text` exactly: quotes, backslashes and control characters escaped.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `text` for a `//` comment on one line: line breaks become spaces.
    static func commentText(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    private static func lowercasedFirst(_ word: String) -> String {
        guard let first = word.first else { return word }
        // A leading acronym is lowered as a whole: `URLPath` is one word here only when all uppercase.
        return first.lowercased() + word.dropFirst()
    }
}
