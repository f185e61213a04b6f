/// Quotes SQL identifiers: the one place in the library where a name becomes SQL text.
///
/// Every table and column name the library writes is quoted, so `order`, `desc` and `group` are ordinary
/// column names and a name holding `"` cannot end the identifier early. See
/// <https://www.sqlite.org/lang_keywords.html>.
public enum SQLIdentifier {
    /// `name` in double quotes, with each `"` inside doubled: `order` becomes `"order"`, `a"b` becomes
    /// `"a""b"`.
    public static func quoted(_ name: String) -> String {
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        var result = "\""
        for character in name.unicodeScalars {
            result.unicodeScalars.append(character)
            if character == "\"" { result.unicodeScalars.append("\"") }
        }
        return result + "\""
    }
}
