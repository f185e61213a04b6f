import Foundation
import SQLiteRecord

/// Takes the ``ColumnCensus`` of every column of a table or view in one scan.
///
/// The scan selects one small integer per column and row, its code: the storage class (SQLite's
/// `typeof()`, <https://www.sqlite.org/lang_corefunc.html#typeof>) times 16, plus four bits that say which
/// types would not read the value. Swift counts the codes in a table of 80 counters per column, reading each
/// as an integer, so no stored value is copied out of SQLite; an aggregate query of the same counts is
/// several times slower, since SQLite then evaluates a dozen sums per column and row.
///
/// Whether a number is 0 or 1, has a fraction or is beyond 2^53 or `Int64`'s range, whether a BLOB has 16
/// bytes and whether a TEXT is a Bool's text are SQL expressions. Whether a TEXT is a date or a UUID is the
/// library's own conversion (``SQLiteValueReadable``), called through a function registered on the
/// read-only connection, and only for texts that could be one (`NNNN-NN-NN...`, or 32 to 38 characters)
/// and are not in the two date forms SQLite's `strftime` and `date` confirm: a text the prefilter skips is
/// counted as neither, so a type chosen from the census reads every value by construction.
enum CensusQuery {
    /// The SQL function the census registers: the failure bits of its one TEXT argument (1: not a date,
    /// 2: not a UUID, 8: not in the form the encoder writes).
    static let textFormFunction = "sqliterecord_census_text_form"

    /// The storage classes in code order: a code is `class * 16 + bits`.
    private enum StorageClass: Int {
        case null = 0, integer, real, text, blob
    }

    /// Registers ``textFormFunction`` on `db`.
    /// - Throws: ``DatabaseError`` when SQLite refuses the function.
    static func register(on db: Database) throws {
        try db.createFunction(textFormFunction, argumentCount: 1, isDeterministic: true) { arguments in
            guard case .text(let text)? = arguments.first else { return Int64(11) }
            let form = ColumnCensus.TextForm(text: text)
            var bits: Int64 = 0
            if !form.contains(.date) { bits |= 1 }
            if !form.contains(.uuid) { bits |= 2 }
            if !form.contains(.canonical) { bits |= 8 }
            return bits
        }
    }

    /// The code of one column's value, as SQL: nested CASEs, which SQLite evaluates lazily, so each value
    /// takes the few comparisons its storage class needs (an `a OR b` would evaluate both sides).
    static func codeSQL(_ column: String) -> String {
        let c = SQLIdentifier.quoted(column)
        let digits = "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]"
        // The two forms nearly every stored date takes, checked by SQLite's own date functions before the
        // Swift parse: a text that `strftime` or `date` prints back unchanged is a valid date in that form,
        // which `Date(sqliteValue:)` reads too. A date is never a UUID (2) nor a Bool's text (4).
        return """
            CASE typeof(\(c)) WHEN 'null' THEN 0 \
            WHEN 'integer' THEN CASE WHEN \(c) IN (0, 1) THEN 16 \
            WHEN \(c) BETWEEN -9007199254740992 AND 9007199254740992 THEN 17 ELSE 21 END \
            WHEN 'real' THEN CASE WHEN \(c) IN (0, 1) THEN 32 WHEN \(c) <> round(\(c)) THEN 35 \
            WHEN \(c) BETWEEN -9223372036854775808.0 AND 9223372036854775000.0 THEN 33 ELSE 41 END \
            WHEN 'text' THEN CASE \
            WHEN \(c) GLOB '\(digits) [0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]' \
            AND strftime('%Y-%m-%d %H:%M:%f', \(c)) = \(c) THEN 54 \
            WHEN \(c) GLOB '\(digits)' AND date(\(c)) = \(c) THEN 62 \
            WHEN \(c) GLOB '\(digits)*' THEN 52 + \(textFormFunction)(\(c)) \
            WHEN length(\(c)) > 38 THEN 63 \
            WHEN length(\(c)) >= 32 THEN 52 + \(textFormFunction)(\(c)) \
            WHEN length(\(c)) > 5 THEN 63 \
            WHEN lower(\(c)) IN ('0', '1', 'true', 'false', 't', 'f', 'yes', 'no', 'y', 'n') THEN 59 \
            ELSE 63 END \
            ELSE 64 + (length(\(c)) <> 16) END
            """
    }

    /// The number of rows of `table` and the census of each of `columns`, in order, from one scan.
    /// - Throws: ``DatabaseError`` when the table cannot be read.
    static func census(of table: String, columns: [String], _ db: Database) throws -> (rows: Int, columns: [ColumnCensus]) {
        guard !columns.isEmpty else {
            let count = try db.scalar(Int64.self, sql: "SELECT count(*) FROM \(SQLIdentifier.quoted(table))") ?? 0
            return (Int(count), [])
        }
        let sql = "SELECT " + columns.map(codeSQL).joined(separator: ", ") + " FROM " + SQLIdentifier.quoted(table)
        let statement = try db.makeStatement(sql: sql)
        let width = columns.count
        var counters = [Int](repeating: 0, count: width * 80)
        var rows = 0
        while try statement.step() {
            rows += 1
            for index in 0..<width {
                let code = Int(statement.int64(at: Int32(index)))
                counters[index * 80 + min(max(code, 0), 79)] += 1
            }
        }
        var censuses: [ColumnCensus] = []
        for index in 0..<width {
            var census = ColumnCensus()
            for code in 0..<80 {
                let count = counters[index * 80 + code]
                guard count > 0, let storage = StorageClass(rawValue: code / 16) else { continue }
                let bits = code % 16
                switch storage {
                case .null:
                    census.nullCount += count
                case .integer:
                    census.integerCount += count
                    if bits & 1 != 0 { census.notZeroOrOneCount += count }
                    if bits & 4 != 0 { census.largeIntegerCount += count }
                case .real:
                    census.realCount += count
                    if bits & 1 != 0 { census.notZeroOrOneCount += count }
                    if bits & 2 != 0 { census.fractionalRealCount += count }
                    if bits & 8 != 0 { census.realBeyondInt64Count += count }
                case .text:
                    census.textCount += count
                    if bits & 1 != 0 { census.nonDateTextCount += count }
                    if bits & 2 != 0 { census.nonUUIDTextCount += count }
                    if bits & 4 != 0 { census.nonBoolTextCount += count }
                    if bits & 8 != 0 { census.nonCanonicalTextCount += count }
                case .blob:
                    census.blobCount += count
                    if bits & 1 != 0 { census.notSixteenByteBlobCount += count }
                }
            }
            if census.textCount > 0 {
                let column = SQLIdentifier.quoted(columns[index])
                census.firstText = try db.fetchOne(
                    sql: "SELECT substr(\(column), 1, 40) FROM \(SQLIdentifier.quoted(table)) "
                        + "WHERE typeof(\(column)) = 'text' LIMIT 1")?[0, as: String?.self]
            }
            censuses.append(census)
        }
        return (rows, censuses)
    }
}
