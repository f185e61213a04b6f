import Foundation
import SQLiteRecord
import XCTest

@testable import SQLiteRecordGen

/// What `sqlite-record-gen` writes for a database, and the errors it reports; that the files compile and
/// read every row is ``GeneratedModelsCompileTests``'s.
final class ModelGeneratorTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-record-gen-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: folder)
    }

    private func generate(_ sql: String, tables: [String]? = nil) throws -> ModelGenerator.File {
        let url = folder.appendingPathComponent("fixture.sqlite")
        try GeneratorFixtures.makeDatabase(at: url, sql: sql)
        return try ModelGenerator.generate(path: url.path, tables: tables)
    }

    /// The block of `source` from the line starting `start` up to the next line that is exactly "}".
    private func block(_ start: String, in source: String) -> String? {
        let lines = source.components(separatedBy: "\n")
        guard let first = lines.firstIndex(where: { $0.hasPrefix(start) }),
            let end = lines[first...].firstIndex(of: "}")
        else { return nil }
        return lines[first...end].joined(separator: "\n")
    }

    func testEveryDeclaredTypeGetsTheSwiftTypeItsStoredValuesRead() throws {
        let file = try generate(GeneratorFixtures.allTypesSQL)
        XCTAssertEqual(
            block("struct Author:", in: file.source),
            """
            struct Author: Record, Equatable, Sendable {
                var id: Int64?
                var name: String
                // note: born: each of the 1 TEXT values parses as a date (1970-01-02); saves write "YYYY-MM-DD HH:MM:SS.SSS" in UTC; a later text that is not a date would not read.
                var born: Date?
                var email: String?
                var active: Bool
                var rating: Double?
                // note: balance: declared DECIMAL(10,2) holding 1 INTEGER and 1 REAL: Decimal reads a REAL through its shortest text.
                var balance: Decimal?
                var photo: Data?
                // note: code: holds 1 INTEGER and 1 TEXT (declared INTEGER_OR_TEXT): String reads numbers as their text; a save of numeric-looking text into a column whose affinity turns it into a number is refused.
                var code: String?
                // note: token: each of the 2 TEXT values parses as a UUID (a1b2c3d4-0000-4000-8000-000000000001); saves write lowercase hyphenated text; a later text that is not a UUID would not read.
                var token: UUID?
                // note: extra: holds 1 INTEGER and 1 TEXT (no declared type): String reads numbers as their text; a save of numeric-looking text into a column whose affinity turns it into a number is refused.
                var extra: String?
                var visits: Int64
                // note: joined_at: holds dates as TEXT and as unix seconds (1 INTEGER and 1 TEXT); saves write TEXT.
                var joinedAt: Date?
                // note: flag: Bools stored as TEXT (yes): saves write 0 and 1.
                var flag: Bool?

                static let tableName = "authors"

                enum CodingKeys: String, CodingKey {
                    case id, name, born, email, active, rating, balance, photo, code, token, extra, visits, flag
                    case joinedAt = "joined_at"
                }
            }
            """)
        // A table with no rows: the declared types alone, each with a note.
        XCTAssertEqual(
            block("struct EmptyThing:", in: file.source),
            """
            struct EmptyThing: Record, Equatable, Sendable {
                var id: Int64?
                // note: done: the table is empty: Bool from the declared BOOLEAN alone.
                var done: Bool
                // note: due: the table is empty: Date from the declared DATE alone.
                var due: Date?
                // note: amount: the table is empty: Decimal from the declared DECIMAL(8,2) alone.
                var amount: Decimal?
                // note: ratio: the table is empty: Double from the declared DOUBLE alone.
                var ratio: Double?
                // note: label: the table is empty: String from the declared VARCHAR(10) alone.
                var label: String?
                // note: raw: the table is empty: Data from the declared BLOB alone.
                var raw: Data?
                // note: anything: the table is empty: String from the no declared type alone.
                var anything: String?

                static let tableName = "empty_things"
            }
            """)
        // A TEXT key, generated columns, and two foreign keys to one parent.
        let book = try XCTUnwrap(block("struct Book:", in: file.source))
        XCTAssertTrue(book.contains("    var id: String\n    var authorId: Int64\n    var coAuthorId: Int64?\n"), book)
        XCTAssertTrue(
            book.contains(
                "    /// A generated column: SQLite computes it, and saves leave it out.\n    var titleUpper: String?"))
        XCTAssertTrue(book.contains("    static let primaryKeyColumn = \"isbn\"\n"))
        XCTAssertTrue(book.contains("        case id = \"isbn\"\n"))
        XCTAssertTrue(
            file.source.contains(
                """
                extension Book {
                    /// The "authors" row that "author_id" references.
                    static let author = belongsTo(Author.self, using: "author_id", onDelete: .cascade)
                    /// The "authors" row that "co_author_id" references.
                    static let coAuthor = belongsTo(Author.self, key: "coAuthor", using: "co_author_id")
                    /// So that a parent's `save(children:)` sets each child's foreign key.
                    static let parentAssociations: [any ParentAssociation] = [author, coAuthor]
                }
                """), file.source)
        XCTAssertTrue(
            file.source.contains(
                """
                    static let booksByAuthor = hasMany(Book.self, key: "booksByAuthor", using: "author_id")
                """))
        // INT PRIMARY KEY is not the rowid: a key of one column, not Optional.
        XCTAssertTrue(file.source.contains("struct Reading: Record, Equatable, Sendable {\n    var id: Int64\n"))
        // A UNIQUE NOT NULL column is the key of a table that declares none.
        XCTAssertTrue(file.source.contains("struct Tag: Record, Equatable, Sendable {\n    var id: String\n"))
        XCTAssertTrue(file.source.contains("    static let primaryKeyColumn = \"label\"\n"))
        // Neither: read-only, saying why.
        XCTAssertTrue(
            file.source.contains(
                "// note: the table declares no primary key and no UNIQUE column without NULLs: a Record needs a key "
                    + "(add `id INTEGER PRIMARY KEY` in a migration to make it one).\n/// A row of table \"logs\", "
                    + "read-only.\nstruct Log: FetchableRecord, Equatable, Sendable {\n"))
        // A composite key, as the Keys article declares one, and the composite foreign key as requests.
        XCTAssertEqual(
            block("struct UnitRecord:", in: file.source),
            """
            struct UnitRecord: Record, Equatable, Sendable {
                /// The primary key ("auth_name", "code").
                struct Key: Codable, Hashable, Sendable {
                    var authName: String
                    var code: String

                    enum CodingKeys: String, CodingKey {
                        case code
                        case authName = "auth_name"
                    }
                }

                /// Part of the primary key (see `id`).
                var authName: String
                /// Part of the primary key (see `id`).
                var code: String
                var name: String

                static let tableName = "units"
                static let withoutRowID = true

                enum CodingKeys: String, CodingKey {
                    case code, name
                    case authName = "auth_name"
                }

                /// The composite primary key, over the stored properties of its columns.
                var id: Key {
                    get { Key(authName: authName, code: code) }
                    set {
                        authName = newValue.authName
                        code = newValue.code
                    }
                }
            }
            """)
        XCTAssertTrue(
            file.source.contains(
                """
                    func unitRecordRequest() -> QueryInterfaceRequest<UnitRecord> {
                        UnitRecord.filter(Column("auth_name") == unitAuth && Column("code") == unitCode)
                    }
                """))
        XCTAssertTrue(
            file.source.contains(
                "        Conversion.filter(Column(\"unit_auth\") == authName && Column(\"unit_code\") == code)\n"))
        // A foreign key to its own table.
        XCTAssertTrue(
            file.source.contains(
                "    static let manager = belongsTo(Employee.self, key: \"manager\", using: \"manager_id\")\n"))
        XCTAssertTrue(
            file.source.contains(
                "    static let employeesByManager = hasMany(Employee.self, key: \"employeesByManager\", using: \"manager_id\")\n"
            ))
        XCTAssertEqual(
            file.types.map(\.typeName),
            ["AuthorBook", "Author", "Book", "Conversion", "Employee", "EmptyThing", "Log", "Reading", "Tag", "UnitRecord"])
        XCTAssertEqual(file.types.filter { !$0.isRecord }.map(\.table), ["author_books", "logs"])
    }

    func testQuotedReservedAndNonASCIIIdentifiersBecomeSwiftNames() throws {
        let file = try generate(GeneratorFixtures.identifiersSQL)
        XCTAssertEqual(file.types.map(\.typeName), ["DataRecord", "StraßenNamen", "Order", "Select"])
        XCTAssertEqual(
            block("struct Order:", in: file.source),
            """
            struct Order: Record, Equatable, Sendable {
                var id: Int64?
                var `default`: String?
                var select: Int64?
                var firstName: String?
                // note: self: "self" is taken by the type or its CodingKeys: renamed.
                var selfColumn: String?
                // note: id: "id" is taken by the type or its CodingKeys: renamed.
                var idColumn: String?
                var größe: Double?
                var 名前: String?
                var `class`: String?
                var quoTe: String?
                var _1st: Int64?
                // note: 🙂: the column name has no letter Swift accepts: named by its position.
                var column12: String?
                // note: stringValue: "stringValue" is taken by the type or its CodingKeys: renamed.
                var stringValueColumn: String?
                var description: String?
                // note: first_name: another column is also named firstName in Swift: renamed.
                var firstName2: String?

                static let tableName = "order"
                static let primaryKeyColumn = "key"

                enum CodingKeys: String, CodingKey {
                    case `default`, select, größe, 名前, `class`, description
                    case id = "key"
                    case firstName = "first name"
                    case selfColumn = "self"
                    case idColumn = "id"
                    case quoTe = "quo\\"te"
                    case _1st = "1st"
                    case column12 = "🙂"
                    case stringValueColumn = "stringValue"
                    case firstName2 = "first_name"
                }
            }
            """)
        XCTAssertTrue(
            file.source.contains(
                "    static let tableName = \"Straßen Namen\"\n    static let primaryKeyColumn = \"straße\"\n    static let withoutRowID = true\n"
            ))
        XCTAssertTrue(file.source.contains("    var `protocol`: String\n"))
        XCTAssertTrue(
            file.source.contains("        try db.fetchAll(Select.self, sql: \"SELECT * FROM \\\"select\\\"\")\n"))
        XCTAssertTrue(file.source.contains("        `default` = try row[\"default\", as: String?.self]\n"))
    }

    func testAnEmptyDatabaseGivesAFileWithNoTypes() throws {
        let url = folder.appendingPathComponent("empty.sqlite")
        _ = try DatabaseQueue(path: url.path)
        let file = try ModelGenerator.generate(path: url.path)
        XCTAssertEqual(file.types, [])
        XCTAssertEqual(
            file.source,
            """
            // Generated by sqlite-record-gen from empty.sqlite: 0 types.
            // Types are chosen from each column's declared type and every value stored in it.
            // Read every `// note:` and check the types against the database at launch with validateSchema(in:).

            import Foundation
            import SQLiteRecord

            """)
    }

    func testAFileThatIsNotADatabaseIsAClearErrorAndStaysAsItWas() throws {
        let url = folder.appendingPathComponent("notes.txt")
        try Data("just some text, not a database at all, long enough to fill a header......................".utf8)
            .write(to: url)
        XCTAssertThrowsError(try ModelGenerator.generate(path: url.path)) { error in
            let reason =
                "file is not a database (the file of 89 bytes does not start with the header \"SQLite format 3\":"
                + " expected an SQLite 3 database file, or a path where none exists yet, which SQLite creates; an"
                + " encrypted database needs the key its library sets before the first statement)"
            XCTAssertEqual(error as? GeneratorError, .notADatabase(url.path, reason: reason))
            XCTAssertEqual("\(error)", "\(url.path) is not a SQLite database: " + reason)
        }
        XCTAssertEqual(
            try String(contentsOf: url, encoding: .utf8),
            "just some text, not a database at all, long enough to fill a header......................")
        XCTAssertEqual(GeneratorCommand.run(arguments: [url.path]), 1)
    }

    func testAMissingFileIsAnErrorAndIsNotCreated() throws {
        let path = folder.appendingPathComponent("missing.sqlite").path
        XCTAssertThrowsError(try ModelGenerator.generate(path: path)) { error in
            XCTAssertEqual("\(error)", "no file at \(path)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testTablesSelectsTheNamedTablesAndRefusesUnknownOnes() throws {
        let file = try generate(GeneratorFixtures.allTypesSQL, tables: ["UNITS", "conversions"])
        XCTAssertEqual(file.types.map(\.typeName), ["UnitRecord", "Conversion"])
        XCTAssertThrowsError(try generate(GeneratorFixtures.identifiersSQL, tables: ["order", "orders"])) { error in
            XCTAssertEqual(
                "\(error)",
                "no table or view \"orders\" in the database; it has \"Data\", \"Straßen Namen\", \"order\", \"select\""
            )
        }
        // A foreign key to a table left out is a note, not an association to a type that does not exist.
        let books = try generate(GeneratorFixtures.allTypesSQL, tables: ["books"])
        XCTAssertTrue(
            books.source.contains(
                "    // note: foreign key (\"author_id\") references \"authors\", which is not generated: no association.\n"
            ))
        XCTAssertFalse(books.source.contains("belongsTo"))
    }

    func testTheCommandLineIsParsedWithClearErrors() throws {
        XCTAssertEqual(
            try GeneratorCommand.parse(["db.sqlite", "--tables", "a, b", "--output", "M.swift"]),
            GeneratorCommand.Options(path: "db.sqlite", tables: ["a", "b"], output: "M.swift"))
        XCTAssertEqual(
            try GeneratorCommand.parse([
                "db.sqlite", "--output-directory", "Models", "--prefix", "DB", "--namespace", "World", "--public",
                "--row-initializers",
            ]),
            GeneratorCommand.Options(
                path: "db.sqlite", outputDirectory: "Models",
                generation: ModelGenerator.Options(
                    prefix: "DB", namespace: "World", isPublic: true, rowInitializers: true)))
        XCTAssertNil(try GeneratorCommand.parse(["--help"]))
        let cases: [([String], String)] = [
            ([], "no database file given"),
            (["a.sqlite", "b.sqlite"], "one database file only: \"a.sqlite\" and \"b.sqlite\""),
            (["a.sqlite", "--tables"], "--tables needs a value"),
            (["a.sqlite", "--tables", ","], "--tables needs at least one name"),
            (["a.sqlite", "--sample", "50"], "unknown option --sample"),
            (["a.sqlite", "--prefix"], "--prefix needs a value"),
            (["a.sqlite", "--output", "a.swift", "--output-directory", "M"], "--output and --output-directory: one or the other"),
            (["a.sqlite", "--verbose"], "unknown option --verbose"),
        ]
        for (arguments, message) in cases {
            XCTAssertThrowsError(try GeneratorCommand.parse(arguments), "\(arguments)") { error in
                XCTAssertEqual(error as? GeneratorError, .usage(message))
                XCTAssertEqual("\(error)", message + "\n" + GeneratorCommand.usage)
            }
        }
        XCTAssertEqual(GeneratorCommand.run(arguments: ["--verbose"]), 64)
    }

    func testOutputWritesTheFile() throws {
        let url = folder.appendingPathComponent("fixture.sqlite")
        try GeneratorFixtures.makeDatabase(at: url, sql: GeneratorFixtures.allTypesSQL)
        let output = folder.appendingPathComponent("Models.swift")
        XCTAssertEqual(GeneratorCommand.run(arguments: [url.path, "--output", output.path, "--tables", "tags"]), 0)
        XCTAssertEqual(
            try String(contentsOf: output, encoding: .utf8),
            try ModelGenerator.generate(path: url.path, tables: ["tags"]).source)
    }
}
