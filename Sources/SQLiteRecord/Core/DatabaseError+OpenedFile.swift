import Foundation

extension DatabaseError {
    /// A failure to open `path` explained by what is at the path: a folder (SQLite says only "unable to
    /// open database file") or a file that is not an SQLite database (SQLite says "file is not a database",
    /// from the first statement the connection runs, whose SQL is the library's own and is left out). Nil
    /// when neither applies. See <https://www.sqlite.org/fileformat2.html#the_database_header>.
    func explainingOpenedFile(path: String) -> DatabaseError? {
        guard path != ":memory:", !path.isEmpty, !path.hasPrefix("file:") else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        let expected: String
        if isDirectory.boolValue, resultCode.primary == .cannotOpen {
            expected =
                " (\(path) is a folder: expected the path of a database file, such as "
                + URL(fileURLWithPath: path).appendingPathComponent("db.sqlite").path
                + ", which SQLite creates when it is missing)"
        } else if resultCode.primary == .notADatabase {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
            expected =
                " (the file" + (size.map { " of \($0) bytes" } ?? "")
                + " does not start with the header \"SQLite format 3\": expected an SQLite 3 database file, or a path "
                + "where none exists yet, which SQLite creates; an encrypted database needs the key its library "
                + "sets before the first statement)"
        } else {
            return nil
        }
        return DatabaseError(
            resultCode: resultCode, message: message + expected, sql: nil, arguments: nil,
            includesArgumentsInDescription: includesArgumentsInDescription)
    }
}
