import Foundation

extension Database {
    /// Throws when the database file at `path` is shorter than the pages its header counts: a truncated
    /// copy. SQLite reads the missing bytes as zeros, so a file cut inside its last page opens and returns
    /// changed values without any error, and `PRAGMA integrity_check` can still say "ok".
    ///
    /// The header's page count (bytes 28-31) is trusted only when its "version-valid-for" number (bytes
    /// 92-95) equals the change counter (bytes 24-27), as SQLite itself does. A file with a `-journal` or
    /// `-wal` beside it is not checked: recovery from those may legitimately change its length.
    /// See <https://www.sqlite.org/fileformat2.html#the_database_header>.
    /// - Throws: ``DatabaseError`` with `SQLITE_CORRUPT` naming the file's length and the header's.
    static func checkFileLength(path: String) throws {
        guard path != ":memory:", !path.isEmpty, !path.hasPrefix("file:") else { return }
        let fileManager = FileManager.default
        guard !fileManager.fileExists(atPath: path + "-journal"), !fileManager.fileExists(atPath: path + "-wal"),
            let attributes = try? fileManager.attributesOfItem(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.int64Value, size >= 100,
            let handle = FileHandle(forReadingAtPath: path)
        else { return }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 100), header.count == 100 else { return }
        let bytes = [UInt8](header)
        guard bytes.starts(with: Array("SQLite format 3\u{0}".utf8)) else { return }  // SQLite reports NOTADB
        func integer(at offset: Int, width: Int) -> Int64 {
            bytes[offset..<(offset + width)].reduce(0) { $0 << 8 | Int64($1) }
        }
        let storedPageSize = integer(at: 16, width: 2)
        let pageSize = storedPageSize == 1 ? 65_536 : storedPageSize
        let pageCount = integer(at: 28, width: 4)
        guard pageSize >= 512, integer(at: 92, width: 4) == integer(at: 24, width: 4), pageCount > 0 else { return }
        let expected = pageCount * pageSize
        guard size >= expected else {
            throw DatabaseError(
                resultCode: .corrupt,
                message: "cannot open database at \(path): database disk image is malformed (the file is \(size) "
                    + "bytes, shorter than the \(pageCount) pages of \(pageSize) bytes its header counts: it was "
                    + "truncated)")
        }
    }
}
