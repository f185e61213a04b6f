import Foundation

/// Refuses TEXT that SQLite would silently turn into a number.
///
/// A column whose declared type gives it INTEGER, REAL or NUMERIC affinity converts well-formed numeric text
/// to a number on the way in: '00120' bound into a column declared `STRING` (NUMERIC affinity) is stored as
/// INTEGER 120 and reads back as "120". Text whose number reads back as the same text ("120" into an
/// INTEGER column) is harmless and allowed; any other numeric-looking text into such a column is refused
/// before anything is written. See <https://www.sqlite.org/datatype3.html#type_affinity>.
///
/// A write plan reads the table's declared types once, when it is made (``numericColumns(_:table:db:)``);
/// then only text bound to a column of numeric affinity that looks like a number costs anything.
enum TextAffinityGuard {
    /// A column of the table whose affinity (INTEGER, REAL or NUMERIC) may store text as a number.
    struct NumericColumn {
        let name: String
        let declaredType: String
        let affinity: ColumnAffinity
    }

    /// For each of `names`, columns of `table`, the column when its affinity may store text as a number; nil
    /// for TEXT and BLOB affinity, and for names the table does not have (SQLite then refuses the statement).
    /// What a prepared INSERT or UPDATE keeps, so that only text bound to these columns is checked.
    /// - Throws: ``DatabaseError`` when the table's columns cannot be read.
    static func numericColumns(_ names: [String], table: String, db: Database) throws -> [NumericColumn?] {
        let plan = try db.derivedSchemaValue(for: AffinityPlan.self, table: table) { AffinityPlan($0) }
        return names.indices.map { position in
            guard let column = plan.column(at: position, of: names), column.affinity != .text,
                column.affinity != .blob
            else { return nil }
            return NumericColumn(name: names[position], declaredType: column.declaredType, affinity: column.affinity)
        }
    }

    /// Throws when SQLite would store `text` in `column` of `table` as a number that reads back as other text.
    /// - Throws: `EncodingError.invalidValue` naming the table, column, declared type, value and what SQLite
    ///   would store.
    static func check(_ text: String, in column: NumericColumn, table: String) throws {
        guard let number = NumericText(text), let stored = number.stored(under: column.affinity),
            stored.readBack != text
        else { return }
        throw EncodingError.invalidValue(
            text,
            .init(
                codingPath: [ColumnCodingKey(stringValue: column.name)],
                debugDescription: "Cannot store TEXT '\(text)' in column \"\(column.name)\" of table \"\(table)\": "
                    + "its declared type \(column.declaredType.isEmpty ? "(none)" : column.declaredType) gives it "
                    + "\(column.affinity) affinity, so SQLite would store \(stored.value) and it would read back "
                    + "as \"\(stored.readBack)\". Declare the column TEXT to keep the text as written"))
    }
}

/// A table's columns by name, with their affinities computed once, kept in the connection's schema cache.
/// It also remembers the last list of encoded column names it was asked about, so that the records of
/// one type (which encode the same names every time) find their columns by position.
private final class AffinityPlan {
    private let columnsByName: [String: (declaredType: String, affinity: ColumnAffinity)]
    private var alignedNames: [String] = []
    private var aligned: [(declaredType: String, affinity: ColumnAffinity)?] = []

    init(_ columns: [ColumnInfo]) {
        var byName: [String: (declaredType: String, affinity: ColumnAffinity)] = [:]
        for column in columns where byName[RowLayout.asciiLowercased(column.name)] == nil {
            byName[RowLayout.asciiLowercased(column.name)] = (column.declaredType, column.affinity)
        }
        columnsByName = byName
    }

    func column(at position: Int, of names: [String]) -> (declaredType: String, affinity: ColumnAffinity)? {
        if names != alignedNames {
            alignedNames = names
            aligned = names.map { columnsByName[RowLayout.asciiLowercased($0)] }
        }
        return aligned[position]
    }
}

/// Text that is a well-formed SQL number literal once surrounding spaces are dropped, which is what SQLite
/// converts under numeric affinity.
private struct NumericText {
    let integer: Int64?
    let real: Double

    /// False for most text, cheaply: the first byte that is not a space must start a number.
    static func mayStartNumber(_ text: String) -> Bool {
        guard let first = text.utf8.first(where: { !isSpace($0) }) else { return false }
        return (first >= 48 && first <= 57) || first == UInt8(ascii: "+") || first == UInt8(ascii: "-")
            || first == UInt8(ascii: ".")
    }

    init?(_ text: String) {
        guard Self.mayStartNumber(text) else { return nil }
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

    static func isSpace(_ byte: UInt8) -> Bool {
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
