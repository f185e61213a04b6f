import Foundation
import SQLiteRecord

/// Generates the Swift source of Record types for the tables and views of a database: what
/// `sqlite-record-gen` prints.
public enum ModelGenerator {
    /// One type of a generated file, as a caller lists them.
    public struct TypeSummary: Sendable, Equatable {
        /// The table or view it reads.
        public let table: String
        /// The Swift type's name.
        public let typeName: String
        /// True for a `Record` (a keyed table); false for the read-only `FetchableRecord` types of views,
        /// virtual tables and tables without a key, which have a static `fetchAll(_:)`.
        public let isRecord: Bool
    }

    /// A generated Swift file and the types it declares.
    public struct File: Sendable {
        /// The Swift source: `import Foundation`, `import SQLiteRecord`, then the types.
        public let source: String
        /// The types, in the order of the source.
        public let types: [TypeSummary]
    }

    /// The default number of rows read from each table to choose its column types.
    public static let defaultSampleLimit = 1000

    /// Generates the file for the tables and views of `db` (or those named in `tables`).
    /// - Parameters:
    ///   - sourceName: the database's name for the file's header comment.
    ///   - sampleLimit: how many rows of each table to read (`LIMIT`) to choose its column types.
    /// - Throws: ``GeneratorError/unknownTables(_:available:)``; ``DatabaseError`` when the schema or a table
    ///   cannot be read.
    public static func generate(
        _ db: Database, tables: [String]? = nil, sourceName: String, sampleLimit: Int = defaultSampleLimit
    ) throws -> File {
        let schemas = try SchemaReader.read(db, tables: tables, sampleLimit: sampleLimit)
        var usedNames: Set<String> = []
        let types = schemas.enumerated().map { index, schema -> GeneratedType in
            var name = SwiftNames.typeName(for: schema.name) ?? "Table\(index + 1)"
            if SwiftNames.reservedTypes.contains(name) || SwiftNames.keywords.contains(name) {
                name += schema.kind == .table ? "Record" : "Row"
            }
            let base = name
            var suffix = 2
            while usedNames.contains(name) {
                name = base + String(suffix)
                suffix += 1
            }
            usedNames.insert(name)
            return GeneratedType.make(schema, typeName: name)
        }
        let source = ModelSourceWriter(types: types, sourceName: sourceName, sampleLimit: sampleLimit).write()
        return File(
            source: source,
            types: types.map { TypeSummary(table: $0.table.name, typeName: $0.typeName, isRecord: $0.isRecord) })
    }

    /// Opens the database file at `path` read-only and generates its file.
    /// - Throws: ``GeneratorError/fileNotFound(_:)``, ``GeneratorError/notADatabase(_:reason:)``, and what
    ///   ``generate(_:tables:sourceName:sampleLimit:)`` throws.
    public static func generate(
        path: String, tables: [String]? = nil, sampleLimit: Int = defaultSampleLimit
    ) throws -> File {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw GeneratorError.fileNotFound(path)
        }
        let db: Database
        do {
            db = try Database(path: path, options: Database.Options(readOnly: true))
        } catch let error as DatabaseError {
            throw GeneratorError.notADatabase(path, reason: reason(error, path: path))
        }
        let name = URL(fileURLWithPath: path).lastPathComponent
        do {
            // One read transaction: every table is sampled from the same snapshot.
            return try db.transaction(.deferred) {
                try generate(db, tables: tables, sourceName: name, sampleLimit: sampleLimit)
            }
        } catch let error as DatabaseError where error.resultCode == .notADatabase {
            throw GeneratorError.notADatabase(path, reason: reason(error, path: path))
        }
    }

    /// SQLite's message without the path, which ``GeneratorError/notADatabase(_:reason:)`` names already.
    private static func reason(_ error: DatabaseError, path: String) -> String {
        let prefix = "cannot open database at \(path): "
        return error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
    }
}
