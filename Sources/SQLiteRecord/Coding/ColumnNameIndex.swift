/// A statement's result column names, found as SQLite finds a column: an exact spelling first, then ASCII
/// case-insensitively (`firstname` finds `FirstName`; `É` is not `é`, as in SQLite). See
/// <https://www.sqlite.org/lang_expr.html#identifiers>: SQLite folds only A-Z when it compares identifiers.
///
/// Built once per statement by ``ColumnLookup``, and asked once per coding key (the ``KeyTrail`` remembers the
/// answer for the rows after the first), so the folding costs nothing per row.
struct ColumnNameIndex {
    /// Each spelling to its first column: an exact match wins over a folded one, so `SELECT 1 AS ID, 2 AS id`
    /// gives key `id` the second column and key `ID` the first.
    private let exact: [String: Int32]
    /// Each ASCII-lowercased name to its first column, for keys spelled in another case.
    private let folded: [String: Int32]
    /// True when two columns' names differ only in case (`SELECT 1 AS id, 2 AS ID`).
    private let hasCaseVariants: Bool

    /// The index of `names`, or of the columns in `range` only (one table's columns in a joined row).
    init(_ names: [String], range: Range<Int>? = nil) {
        var exact: [String: Int32] = [:]
        var folded: [String: Int32] = [:]
        exact.reserveCapacity(names.count)
        for (index, name) in names.enumerated() where range?.contains(index) ?? true {
            if exact[name] == nil { exact[name] = Int32(index) }
            let key = RowLayout.asciiLowercased(name)
            if folded[key] == nil { folded[key] = Int32(index) }
        }
        self.exact = exact
        self.folded = folded
        hasCaseVariants = folded.count < exact.count
    }

    /// The column named `name`, exactly or else up to ASCII case; nil when there is none.
    func index(of name: String) -> Int32? {
        exact[name] ?? folded[RowLayout.asciiLowercased(name)]
    }

    /// True when a key asking for `name` could name the same column as another key spelled in another case:
    /// `name` is no exact column name (it matches by folding, or not at all), or two columns differ only in
    /// case. False for the common case, keys that spell their columns exactly, which then skip the check for
    /// case conflicts between keys.
    func mayConflictInCase(_ name: String) -> Bool {
        hasCaseVariants || exact[name] == nil
    }

    /// True when `a` and `b` are different spellings of one SQLite identifier: equal once A-Z are lowered.
    static func differOnlyInCase(_ a: String, _ b: String) -> Bool {
        a != b && RowLayout.asciiLowercased(a) == RowLayout.asciiLowercased(b)
    }
}
