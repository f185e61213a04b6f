/// The records of a request, decoded one at a time as the statement steps: memory stays flat however many
/// rows there are, where ``QueryInterfaceRequest/fetch(_:)`` holds them all.
///
/// ```swift
/// let cursor = try City.filter(Column("population") > 100_000).fetchCursor(db)
/// while let city = try cursor.next() { print(city.name) }
/// ```
///
/// Use it where its `Database` is used (inside the same ``DatabaseQueue`` closure) and do not keep it
/// beyond: while open, the statement holds SQLite's read lock. It is released when the cursor is
/// exhausted, fails, is closed with ``close()``, or is released.
public final class RecordCursor<Base: Record> {
    private let statement: Statement
    private let context: RowDecodingContext
    private let tableName: String?
    private var isFinished = false

    /// Takes a statement already bound and checked out of the cache. `tableName` nil marks a selection of
    /// some columns, where a missing Optional column decodes as nil.
    init(statement: Statement, tableName: String?) {
        self.statement = statement
        self.tableName = tableName
        context = RowDecodingContext(
            statement: statement, tableName: tableName, missingOptionalColumnIsNil: tableName == nil,
            decoder: Base.rowDecoder)
    }

    deinit { close() }

    /// The next record, or nil when there are no more (and after ``close()``). The corresponding SQLite
    /// call is `sqlite3_step`.
    /// - Throws: ``DatabaseError`` from stepping, or `DecodingError` for a row that does not decode (naming
    ///   its key); the cursor is then closed and returns nil afterwards.
    public func next() throws -> Base? {
        guard !isFinished else { return nil }
        do {
            guard try statement.step() else {
                close()
                return nil
            }
            return try context.decodeRow(Base.self)
        } catch let error as DecodingError where tableName != nil {
            let located = Base.locatingRow(error, of: statement)
            close()
            throw located
        } catch {
            close()
            throw error
        }
    }

    /// Calls `body` with each remaining record, in order.
    /// - Throws: what ``next()`` or `body` throws; the cursor is closed either way.
    public func forEach(_ body: (Base) throws -> Void) throws {
        defer { close() }
        while let record = try next() {
            try body(record)
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
