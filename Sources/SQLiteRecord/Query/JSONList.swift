/// A long list as three JSON arrays: the INTEGER, REAL and TEXT values; the BLOBs in upper-case hex (as
/// SQLite's `hex()` writes them); and the TEXT values that hold U+0000, as the hex of their UTF-8, because
/// `json_each` ends a string at an escaped `\u0000` (`["a\u0000b"]` reads as `'a'`) while `hex()` reads a
/// value whole, both as stored and with their 26 ASCII upper-case letters lowered, as SQLite's `lower()`
/// lowers them (for a NOCASE comparison, see ``RequestCompiler/nulTextTerm(_:name:texts:folded:)``).
/// `nulTexts` is nil when no text holds U+0000.
enum JSONList {
    static func arrays(
        _ values: [SQLiteValue]
    ) -> (scalars: String, blobs: String, nulTexts: (stored: String, folded: String)?) {
        var scalars = "["
        var blobs = "["
        var nulTexts = "["
        var foldedNULTexts = "["
        for value in values {
            switch value {
            case .null: append("null", to: &scalars)
            case .integer(let integer): append(String(integer), to: &scalars)
            case .real(let real):
                append(real.isFinite ? "\(real)" : (real < 0 ? "-9e999" : "9e999"), to: &scalars)
            case .text(let text) where text.utf8.contains(0):
                append(hexString(text.utf8), to: &nulTexts)
                append(hexString(text.utf8.lazy.map { (65...90).contains($0) ? $0 + 32 : $0 }), to: &foldedNULTexts)
            case .text(let text): append(quoted(text), to: &scalars)
            case .blob(let data): append(hexString(data), to: &blobs)
            }
        }
        let nul = nulTexts.utf8.count > 1 ? (nulTexts + "]", foldedNULTexts + "]") : nil
        return (scalars + "]", blobs + "]", nul)
    }

    /// `bytes` as a JSON string of upper-case hex digits.
    private static func hexString(_ bytes: some Sequence<UInt8>) -> String {
        var hex = "\""
        for byte in bytes {
            hex.unicodeScalars.append(digits[Int(byte >> 4)])
            hex.unicodeScalars.append(digits[Int(byte & 0xF)])
        }
        return hex + "\""
    }

    private static let digits: [Unicode.Scalar] = Array("0123456789ABCDEF".unicodeScalars)

    private static func append(_ element: String, to array: inout String) {
        if array.utf8.count > 1 { array += "," }
        array += element
    }

    /// `text` as a JSON string: `"` and `\` escaped, control characters as `\u00XX`.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20:
                result += "\\u00"
                result.unicodeScalars.append(digits[Int(scalar.value >> 4)])
                result.unicodeScalars.append(digits[Int(scalar.value & 0xF)])
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
