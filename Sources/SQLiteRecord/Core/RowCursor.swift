/// The rows of a query, read one at a time as the statement steps: memory stays flat however many rows
/// there are, where ``Database/fetchAll(sql:arguments:)`` holds them all.
///
/// ```swift
/// let cursor = try db.fetchCursor(sql: "SELECT name, population FROM cities")
/// while let row = try cursor.next() {
///     total += try row["population", as: Int.self]
/// }
/// ```
///
/// The cursor uses its connection: iterate it where the `Database` is used (inside the same
/// ``DatabaseQueue`` closure), and do not keep it beyond. While it is open the statement holds SQLite's read
/// lock; it is released when the cursor is exhausted, fails, is closed with ``close()``, or is released.
/// Writing to the table being iterated, from the same connection, is allowed but may or may not show in the
/// rows still to come (see <https://www.sqlite.org/isolation.html>).
public final class RowCursor {
    private let statement: Statement
    private let layout: RowLayout
    private var isFinished = false

    /// Takes a statement already bound and checked out of the cache.
    init(statement: Statement) {
        self.statement = statement
        self.layout = RowLayout(statement: statement)
    }

    deinit { close() }

    /// The column names of every row, in order.
    public var columnNames: [String] { layout.columnNames }

    /// The next row, or nil when there are no more (and after ``close()``). The corresponding SQLite call is
    /// `sqlite3_step`.
    /// - Throws: ``DatabaseError`` from stepping (`SQLITE_INTERRUPT` when interrupted); the cursor is then
    ///   closed and returns nil afterwards.
    public func next() throws -> Row? {
        guard !isFinished else { return nil }
        do {
            guard try statement.step() else {
                close()
                return nil
            }
        } catch {
            close()
            throw error
        }
        return Row(statement: statement, layout: layout)
    }

    /// Calls `body` with each remaining row, in order.
    /// - Throws: what ``next()`` or `body` throws; the cursor is closed either way.
    public func forEach(_ body: (Row) throws -> Void) throws {
        defer { close() }
        while let row = try next() {
            try body(row)
        }
    }

    /// Stops iterating: resets the statement, releasing its lock and bound values, and hands it back to the
    /// connection's cache. Later calls to ``next()`` return nil. Closing twice does nothing.
    public func close() {
        guard !isFinished else { return }
        isFinished = true
        statement.resetAndClearBindings()
        statement.isCheckedOut = false
    }
}
