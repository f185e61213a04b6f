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
        /// The name code outside the namespace uses: `World.City` with a namespace, else ``typeName``.
        public let qualifiedName: String
        /// True for a `Record` (a keyed table); false for the read-only `FetchableRecord` types of views,
        /// virtual tables and tables without a key, which have a static `fetchAll(_:)`.
        public let isRecord: Bool
    }

    /// A generated Swift file and the types it declares.
    public struct File: Sendable {
        /// The Swift source: `import Foundation`, `import SQLiteRecord`, then the types.
        public let source: String
        /// The same types as one file per type (`City.swift`, with its associations), and the namespace's
        /// own file (`World.swift`, declaring the enum) when there is one: file names and sources.
        public let files: [(name: String, source: String)]
        /// The types, in the order of the source.
        public let types: [TypeSummary]
    }

    /// How the generated code is shaped, for the app it goes into.
    public struct Options: Sendable, Equatable {
        /// Put before every type name (`DB` makes `DBCity`), so that the types never clash with the app's own.
        public var prefix: String
        /// The name of an enum the types are nested in (`enum World { struct City ... }`, used as
        /// `World.City`), or nil for types at the top level.
        public var namespace: String?
        /// True to declare the types, their properties, keys, initializers and associations `public`, for
        /// a module of their own.
        public var isPublic: Bool
        /// True to give every `Record` a row initializer too (`extension City: FetchableRecord {
        /// init(row:) }`), so that fetches read each column with one call (see the Row Initializers
        /// article); read-only types always have one.
        public var rowInitializers: Bool

        /// Options; each defaults to the plain form: no prefix, no namespace, internal, Codable only.
        public init(prefix: String = "", namespace: String? = nil, isPublic: Bool = false, rowInitializers: Bool = false) {
            self.prefix = prefix
            self.namespace = namespace
            self.isPublic = isPublic
            self.rowInitializers = rowInitializers
        }
    }

    /// Generates the file for the tables and views of `db` (or those named in `tables`), reading every row
    /// of each once to choose its column types (``CensusQuery``).
    /// - Parameters:
    ///   - sourceName: the database's name for the file's header comment.
    /// - Throws: ``GeneratorError/unknownTables(_:available:)``; ``GeneratorError/usage(_:)`` for a prefix or
    ///   namespace that is not a Swift type name; ``DatabaseError`` when the schema or a table cannot be read.
    public static func generate(
        _ db: Database, tables: [String]? = nil, sourceName: String, options: Options = Options()
    ) throws -> File {
        try checkNames(options)
        let schemas = try SchemaReader.read(db, tables: tables)
        var usedNames: Set<String> = options.namespace.map { [$0] } ?? []
        let types = schemas.enumerated().map { index, schema -> GeneratedType in
            let name = typeName(for: schema.name, kind: schema.kind, index: index, options: options, used: &usedNames)
            return GeneratedType.make(schema, typeName: name)
        }
        let writer = ModelSourceWriter(types: types, sourceName: sourceName, options: options)
        return File(
            source: writer.write(), files: writer.writeFiles(),
            types: types.map {
                TypeSummary(
                    table: $0.table.name, typeName: $0.typeName,
                    qualifiedName: (options.namespace.map { ns in ns + "." } ?? "") + $0.typeName,
                    isRecord: $0.isRecord)
            })
    }

    /// Checks that the prefix and the namespace are Swift type names, and that the namespace shadows none.
    /// - Throws: ``GeneratorError/usage(_:)``.
    static func checkNames(_ options: Options) throws {
        for (flag, name) in [("--prefix", options.prefix), ("--namespace", options.namespace ?? "")]
        where !name.isEmpty {
            guard SwiftNames.typeName(for: name) != nil, name.allSatisfy(SwiftNames.isIdentifierCharacter),
                name.first?.isNumber == false, !SwiftNames.keywords.contains(name)
            else { throw GeneratorError.usage("\(flag) needs a Swift type name, not \"\(name)\"") }
        }
        if let namespace = options.namespace, SwiftNames.reservedTypes.contains(namespace) {
            throw GeneratorError.usage(
                "--namespace \(namespace) would shadow a type of Swift, Foundation, Dispatch or SQLiteRecord")
        }
    }

    /// The type name of table `table` (the `index`th listed), with the prefix, never a reserved name or a
    /// keyword, and not in `used`, which it joins.
    static func typeName(
        for table: String, kind: TableSchema.Kind, index: Int, options: Options, used: inout Set<String>
    ) -> String {
        var name = options.prefix + (SwiftNames.typeName(for: table) ?? "Table\(index + 1)")
        if SwiftNames.reservedTypes.contains(name) || SwiftNames.keywords.contains(name) {
            name += kind == .table ? "Record" : "Row"
        }
        let base = name
        var suffix = 2
        while used.contains(name) {
            name = base + String(suffix)
            suffix += 1
        }
        used.insert(name)
        return name
    }

    /// Opens the database file at `path` read-only and generates its file.
    /// - Throws: ``GeneratorError/fileNotFound(_:)``, ``GeneratorError/notADatabase(_:reason:)``, and what
    ///   ``generate(_:tables:sourceName:options:)`` throws.
    public static func generate(
        path: String, tables: [String]? = nil, options: Options = Options()
    ) throws -> File {
        let db = try open(path)
        let name = URL(fileURLWithPath: path).lastPathComponent
        do {
            // One read transaction: every table is counted from the same snapshot.
            return try db.transaction(.deferred) {
                try generate(db, tables: tables, sourceName: name, options: options)
            }
        } catch let error as DatabaseError where error.resultCode == .notADatabase {
            throw GeneratorError.notADatabase(path, reason: reason(error, path: path))
        }
    }

    /// Opens the database file at `path` read-only, never creating one.
    /// - Throws: ``GeneratorError/fileNotFound(_:)``, ``GeneratorError/notADatabase(_:reason:)``.
    static func open(_ path: String) throws -> Database {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw GeneratorError.fileNotFound(path)
        }
        do {
            let db = try Database(path: path, options: Database.Options(readOnly: true))
            // SQLite reads the header at the first statement: a file that is not a database fails here.
            _ = try db.scalar(Int64.self, sql: "SELECT count(*) FROM sqlite_schema")
            return db
        } catch let error as DatabaseError {
            throw GeneratorError.notADatabase(path, reason: reason(error, path: path))
        }
    }

    /// SQLite's message without the path, which ``GeneratorError/notADatabase(_:reason:)`` names already.
    private static func reason(_ error: DatabaseError, path: String) -> String {
        let prefix = "cannot open database at \(path): "
        return error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
    }
}
