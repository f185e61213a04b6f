/// Why `sqlite-record-gen` could not generate a file: each case names what was wrong.
public enum GeneratorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The command line is wrong; the message says how, followed by the usage.
    case usage(String)
    /// No file at the path (the generator never creates one).
    case fileNotFound(String)
    /// The file is not a SQLite database (SQLite's `SQLITE_NOTADB`, or a file it cannot open); `reason` is
    /// SQLite's message.
    case notADatabase(String, reason: String)
    /// Names given to `--tables` that are neither tables nor views of the database.
    case unknownTables([String], available: [String])
    /// The output file could not be written.
    case cannotWrite(String, reason: String)

    /// One message for the terminal.
    public var description: String {
        switch self {
        case .usage(let message):
            return message + "\n" + GeneratorCommand.usage
        case .fileNotFound(let path):
            return "no file at \(path)"
        case .notADatabase(let path, let reason):
            return "\(path) is not a SQLite database: \(reason)"
        case .unknownTables(let names, let available):
            let listed = names.map { "\"\($0)\"" }.joined(separator: ", ")
            let tables =
                available.isEmpty ? "it has none" : "it has " + available.map { "\"\($0)\"" }.joined(separator: ", ")
            return "no table or view \(listed) in the database; \(tables)"
        case .cannotWrite(let path, let reason):
            return "cannot write \(path): \(reason)"
        }
    }
}
