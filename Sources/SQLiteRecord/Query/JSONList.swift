/// A long list as two JSON arrays: the INTEGER, REAL and TEXT values, and the BLOBs in upper-case hex
/// (as SQLite's `hex()` writes them).
enum JSONList {
    static func arrays(_ values: [SQLiteValue]) -> (scalars: String, blobs: String) {
        var scalars = "["
        var blobs = "["
        for value in values {
            switch value {
            case .null: append("null", to: &scalars)
            case .integer(let integer): append(String(integer), to: &scalars)
            case .real(let real):
                append(real.isFinite ? "\(real)" : (real < 0 ? "-9e999" : "9e999"), to: &scalars)
            case .text(let text): append(quoted(text), to: &scalars)
            case .blob(let data):
                var hex = "\""
                for byte in data {
                    hex.unicodeScalars.append(digits[Int(byte >> 4)])
                    hex.unicodeScalars.append(digits[Int(byte & 0xF)])
                }
                append(hex + "\"", to: &blobs)
            }
        }
        return (scalars + "]", blobs + "]")
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
