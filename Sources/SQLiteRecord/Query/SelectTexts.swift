/// The SELECT texts of the `fetch(_:where:orderBy:limit:offset:)` forms of both engines, kept for the life of
/// the process by everything that decides them (the dialect, the table, the `where:` columns and how many
/// stored forms each is compared with, the ordering, whether there is a limit and an offset), so that a call
/// repeated with other values builds no SQL, and a type whose table name is chosen at run time gets the
/// text of the table it names now.
///
/// A text does not depend on the table's columns, so it is shared by every connection; the `where:` and
/// `orderBy:` columns are checked against the table by the caller, on every call, before the text runs.
package enum SelectTexts {
    /// What decides a text. `forms` has one count per column of `columns`: 0 for `IS NULL`, 1 for `= ?`,
    /// more for `IN (?, ...)` (a UUID in its stored forms).
    package struct Form: Hashable {
        package let dialect: SQLDialect
        package let table: String
        package let columns: [String]
        package let forms: [Int]
        package let ordering: [Ordering]
        package let hasLimit: Bool
        package let hasOffset: Bool

        /// `columns` and `forms` are in the order their arguments are bound.
        package init(
            dialect: SQLDialect, table: String, columns: [String], forms: [Int], ordering: [Ordering],
            hasLimit: Bool, hasOffset: Bool
        ) {
            self.dialect = dialect
            self.table = table
            self.columns = columns
            self.forms = forms
            self.ordering = ordering
            self.hasLimit = hasLimit
            self.hasOffset = hasOffset
        }
    }

    private static let texts = Locked<[Form: String]>([:])

    /// How many texts are kept at most: a program that builds forms without end keeps a few, not all.
    static let keptTexts = 1024

    /// `SELECT * FROM "table" WHERE "a" = ? AND "b" IS NULL ORDER BY "c" DESC LIMIT ? OFFSET ?` for
    /// `form`, parameters numbered in the form's dialect: the kept text, else a new one, kept from now on.
    package static func text(for form: Form) -> String {
        if let kept = texts.withLock({ $0[form] }) { return kept }
        var next = 1
        let condition = zip(form.columns, form.forms).map { column, count in
            let name = SQLIdentifier.quoted(column)
            defer { next += count }
            switch count {
            case 0: return name + " IS NULL"
            case 1: return name + " = " + form.dialect.parameter(next)
            default: return name + " IN (" + form.dialect.parameters(from: next, count: count) + ")"
            }
        }.joined(separator: " AND ")
        var sql = "SELECT * FROM " + SQLIdentifier.quoted(form.table)
        if !condition.isEmpty { sql += " WHERE " + condition }
        if !form.ordering.isEmpty {
            sql += " ORDER BY " + form.ordering.map { $0.sql(form.dialect) }.joined(separator: ", ")
        }
        if form.hasLimit {
            sql += " LIMIT " + form.dialect.parameter(next)
            next += 1
        }
        if form.hasOffset { sql += " OFFSET " + form.dialect.parameter(next) }
        texts.withLock { texts in
            if texts.count >= keptTexts { texts.removeAll() }
            texts[form] = sql
        }
        return sql
    }
}
