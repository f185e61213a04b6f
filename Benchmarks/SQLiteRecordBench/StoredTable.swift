import CSQLiteRecord

/// Reads back, untimed, what W1 (or another write workload) stored, value by value with its storage class, so the two sides' inserts
/// are compared on the bytes in the file: the same date text, Bool as the same integer, NULL where NULL.
enum StoredTable {
    /// The number of rows in the table at `path` and a checksum of every stored value.
    /// - Throws: ``BenchmarkError`` when the file cannot be read.
    static func checksum(path: String) throws -> (rows: Int, checksum: Checksum) {
        let db = try BaselineDatabase(path: path)
        let statement = try db.prepare(BenchSchema.selectStored)
        let handle = statement.handle
        let columnCount = sqlite3_column_count(handle)
        var checksum = Checksum()
        var rows = 0
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw db.error(code, BenchSchema.selectStored) }
            var row = RowHash()
            for column in 0..<columnCount {
                let type = sqlite3_column_type(handle, column)
                row.mix(UInt64(type))
                switch type {
                case SQLITE_INTEGER:
                    row.mix(UInt64(bitPattern: sqlite3_column_int64(handle, column)))
                case SQLITE_FLOAT:
                    row.mix(sqlite3_column_double(handle, column).bitPattern)
                case SQLITE_TEXT, SQLITE_BLOB:
                    let bytes = sqlite3_column_blob(handle, column)?.assumingMemoryBound(to: UInt8.self)
                    let count = Int(sqlite3_column_bytes(handle, column))
                    row.mix(UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : count))
                default:
                    break
                }
            }
            checksum.add(row)
            rows += 1
        }
        return (rows, checksum)
    }
}
