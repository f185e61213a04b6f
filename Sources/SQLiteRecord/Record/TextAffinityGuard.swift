import Foundation

/// Refuses TEXT that SQLite would silently turn into a number.
///
/// A column whose declared type gives it INTEGER, REAL or NUMERIC affinity converts well-formed numeric text
/// to a number on the way in: '00120' bound into a column declared `STRING` (NUMERIC affinity) is stored as
/// INTEGER 120 and reads back as "120". Text whose number reads back as the same text ("120" into an
/// INTEGER column) is harmless and allowed; any other numeric-looking text into such a column is refused
/// before anything is written. See <https://www.sqlite.org/datatype3.html#type_affinity>.
///
/// Only text that looks like a number costs anything: the table's declared types are read then, and never
/// for ordinary text.
enum TextAffinityGuard {
    /// Throws when a TEXT value in `columns` would be rewritten by its column's affinity in `table`.
    /// - Throws: `EncodingError.invalidValue` naming the table, column, declared type, value and what SQLite
    ///   would store; ``DatabaseError`` when the table's columns cannot be read.
    static func check(_ columns: EncodedColumns, table: String, db: Database) throws {
        var declared: [String: ColumnInfo]?
        for (name, value) in zip(columns.names, columns.values) {
            guard case .text(let text) = value, let number = NumericText(text) else { continue }
            if declared == nil {
                declared = Dictionary(
                    try db.columns(in: table).map { ($0.name.lowercased(), $0) },
                    uniquingKeysWith: { first, _ in first })
            }
            guard let column = declared?[name.lowercased()] else { continue }
            let stored = number.stored(under: column.affinity)
            guard let stored, stored.readBack != text else { continue }
            throw EncodingError.invalidValue(
                text,
                .init(
                    codingPath: [ColumnCodingKey(stringValue: name)],
                    debugDescription: "Cannot store TEXT '\(text)' in column \"\(name)\" of table \"\(table)\": "
                        + "its declared type \(column.declaredType.isEmpty ? "(none)" : column.declaredType) gives it "
                        + "\(column.affinity) affinity, so SQLite would store \(stored.value) and it would read back "
                        + "as \"\(stored.readBack)\". Declare the column TEXT to keep the text as written"))
        }
    }
}

/// Text that is a well-formed SQL number literal once surrounding spaces are dropped, which is what SQLite
/// converts under numeric affinity.
private struct NumericText {
    let integer: Int64?
    let real: Double

    init?(_ text: String) {
        // Fast exit for ordinary text: the first byte that is not a space must start a number.
        guard let first = text.utf8.first(where: { !Self.isSpace($0) }),
            (first >= 48 && first <= 57) || first == UInt8(ascii: "+") || first == UInt8(ascii: "-")
                || first == UInt8(ascii: ".")
        else { return nil }
        let trimmed = text.trimmingCharacters(in: CharacterSet(charactersIn: " \t\n\r\u{0B}\u{0C}"))
        var bytes = trimmed.utf8[...]
        guard !bytes.isEmpty else { return nil }
        if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let isDigit = { (byte: UInt8) in byte >= 48 && byte <= 57 }
        let wholeDigits = bytes.prefix(while: isDigit).count
        bytes = bytes.dropFirst(wholeDigits)
        var fractionDigits = 0
        var isInteger = true
        if bytes.first == UInt8(ascii: ".") {
            isInteger = false
            bytes = bytes.dropFirst()
            fractionDigits = bytes.prefix(while: isDigit).count
            bytes = bytes.dropFirst(fractionDigits)
        }
        guard wholeDigits + fractionDigits > 0 else { return nil }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            isInteger = false
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            let exponentDigits = bytes.prefix(while: isDigit).count
            guard exponentDigits > 0 else { return nil }
            bytes = bytes.dropFirst(exponentDigits)
        }
        guard bytes.isEmpty, let real = Double(trimmed.hasPrefix("+") ? String(trimmed.dropFirst()) : trimmed) else {
            return nil
        }
        self.real = real
        self.integer = isInteger ? Int64(trimmed.hasPrefix("+") ? String(trimmed.dropFirst()) : trimmed) : nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    /// What SQLite stores for this text under `affinity`, and how the library reads it back as a String;
    /// nil when the text stays text.
    func stored(under affinity: ColumnAffinity) -> (value: SQLiteValue, readBack: String)? {
        switch affinity {
        case .text, .blob:
            return nil
        case .real:
            return (.real(real), String(real))
        case .integer, .numeric:
            if let integer { return (.integer(integer), String(integer)) }
            // A REAL with no fractional part that fits is stored as INTEGER under these affinities.
            if real.rounded(.towardZero) == real, let integer = Int64(exactly: real) {
                return (.integer(integer), String(integer))
            }
            return (.real(real), String(real))
        }
    }
}
