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

    /// Type names the generated file uses or its readers expect unshadowed: a table named `data`, `date`
    /// or `record` gets `DataRecord`, not a `Data` that hides Foundation's.
    static let reservedTypes: Set<String> = [
        "Record", "FetchableRecord", "Data", "Date", "UUID", "URL", "Decimal", "String", "Int", "Int64", "Double",
        "Float", "Bool", "Character", "Array", "Set", "Dictionary", "Optional", "Error", "Row", "Column", "Database",
        "DatabaseQueue", "Statement", "Key", "CodingKeys", "CodingKey", "Codable", "Decodable", "Encodable",
        "Sendable", "Equatable", "Hashable", "Identifiable", "Never", "Void", "Any", "AnyObject", "Self", "Type",
        "Protocol", "Foundation", "SQLiteRecord", "SQLiteValue", "QueryInterfaceRequest", "SQLExpression",
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
