import Foundation
import SQLiteRecord
import XCTest

@testable import SQLiteRecordGen

/// Type names that never shadow the platform's or the library's, and the options that shape the code for
/// an app: a prefix, a namespace, public types, one file per type, row initializers. That the files
/// compile and read every row is ``GeneratedModelsCompileTests``'s.
final class GeneratorOptionsTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-record-options-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: folder)
    }

    private func database(_ sql: String) throws -> URL {
        let url = folder.appendingPathComponent("fixture.sqlite")
        try GeneratorFixtures.makeDatabase(at: url, sql: sql)
        return url
    }

    func testTableNamesThatWouldShadowAPlatformTypeGetASuffix() throws {
        let tables = [
            "tasks", "results", "locales", "orderings", "timers", "dispatch_queues", "columns", "rows", "errors",
            "calendars", "units", "notifications", "operations", "processes", "predicates", "durations",
        ]
        let url = try database(tables.map { "CREATE TABLE \($0) (id INTEGER PRIMARY KEY);" }.joined())
        let file = try ModelGenerator.generate(path: url.path, tables: tables)
        XCTAssertEqual(
            file.types.map(\.typeName),
            [
                "TaskRecord", "ResultRecord", "LocaleRecord", "OrderingRecord", "TimerRecord", "DispatchQueueRecord",
                "ColumnRecord", "RowRecord", "ErrorRecord", "CalendarRecord", "UnitRecord", "NotificationRecord",
                "OperationRecord", "ProcessRecord", "PredicateRecord", "DurationRecord",
            ])
        // With a prefix nothing is shadowed, so nothing is renamed.
        let prefixed = try ModelGenerator.generate(
            path: url.path, tables: ["tasks", "results"], options: ModelGenerator.Options(prefix: "DB"))
        XCTAssertEqual(prefixed.types.map(\.typeName), ["DBTask", "DBResult"])
    }

    /// The fixed list holds every public type SQLiteRecord declares, read from its sources, so that a type
    /// added to the library is added to the list.
    func testTheReservedListHoldsEveryPublicTypeOfSQLiteRecord() throws {
        let sources = GeneratorFixtures.packageRoot.appendingPathComponent("Sources/SQLiteRecord")
        let pattern = try NSRegularExpression(
            pattern: "^public (?:final )?(?:struct|enum|class|protocol|actor|typealias) ([A-Za-z_][A-Za-z0-9_]*)",
            options: .anchorsMatchLines)
        var declared: Set<String> = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 1), in: text) { declared.insert(String(text[range])) }
            }
        }
        XCTAssertGreaterThan(declared.count, 50)
        XCTAssertEqual(declared.subtracting(SwiftNames.sqliteRecordTypes).sorted(), [])
        for name in ["Task", "Result", "Locale", "Ordering", "DispatchQueue", "Data", "URL", "Timer", "Calendar"] {
            XCTAssertTrue(SwiftNames.reservedTypes.contains(name), name)
        }
    }

    func testPrefixNamespacePublicAndRowInitializers() throws {
        let url = try database(
            """
            CREATE TABLE countries (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country_id INTEGER REFERENCES countries(id));
            INSERT INTO countries VALUES (1, 'France');
            INSERT INTO cities VALUES (1, 'Paris', 1);
            """)
        let options = ModelGenerator.Options(prefix: "Geo", namespace: "World", isPublic: true, rowInitializers: true)
        let file = try ModelGenerator.generate(path: url.path, options: options)
        XCTAssertEqual(file.types.map(\.qualifiedName), ["World.GeoCity", "World.GeoCountry"])
        XCTAssertTrue(
            file.source.contains(
                """
                /// The types of fixture.sqlite.
                public enum World {
                    /// A row of table "cities".
                    public struct GeoCity: Record, Equatable, Sendable {
                        public var id: Int64?
                        public var name: String
                        public var countryId: Int64?

                        public static let tableName = "cities"

                        public init(id: Int64?, name: String, countryId: Int64?) {
                            self.id = id
                            self.name = name
                            self.countryId = countryId
                        }
                """), file.source)
        XCTAssertTrue(
            file.source.contains(
                """
                extension World.GeoCity: FetchableRecord {
                    /// Reads each column with one call (see the Row Initializers article).
                    public init(row: borrowing FetchedRow) throws {
                        id = try row["id", as: Int64?.self]
                        name = try row["name", as: String.self]
                        countryId = try row["country_id", as: Int64?.self]
                    }
                }
                """), file.source)
        XCTAssertTrue(
            file.source.contains(
                """
                extension World.GeoCity {
                    /// The "countries" row that "country_id" references.
                    public static let geoCountry = belongsTo(World.GeoCountry.self, using: "country_id")
                """), file.source)
        // One file per type, and the namespace's own.
        XCTAssertEqual(file.files.map(\.name), ["World.swift", "GeoCity.swift", "GeoCountry.swift"])
        XCTAssertTrue(file.files[0].source.hasSuffix("/// The types of fixture.sqlite.\npublic enum World {}\n"))
        XCTAssertTrue(
            file.files[1].source.contains("extension World {\n    /// A row of table \"cities\".\n    public struct GeoCity:"))
        XCTAssertFalse(file.files[1].source.contains("struct GeoCountry"))

        let directory = folder.appendingPathComponent("Models")
        XCTAssertEqual(
            GeneratorCommand.run(arguments: [
                url.path, "--output-directory", directory.path, "--prefix", "Geo", "--namespace", "World", "--public",
                "--row-initializers",
            ]), 0)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(),
            ["GeoCity.swift", "GeoCountry.swift", "World.swift"])
        XCTAssertEqual(
            try String(contentsOf: directory.appendingPathComponent("GeoCity.swift"), encoding: .utf8),
            file.files[1].source)
    }

    func testAPrefixOrNamespaceThatIsNotATypeNameIsRefused() throws {
        let url = try database("CREATE TABLE t (id INTEGER PRIMARY KEY);")
        let cases: [(ModelGenerator.Options, String)] = [
            (ModelGenerator.Options(prefix: "1st"), "--prefix needs a Swift type name, not \"1st\""),
            (ModelGenerator.Options(namespace: "My Models"), "--namespace needs a Swift type name, not \"My Models\""),
            (ModelGenerator.Options(namespace: "Task"),
             "--namespace Task would shadow a type of Swift, Foundation, Dispatch or SQLiteRecord"),
        ]
        for (options, message) in cases {
            XCTAssertThrowsError(try ModelGenerator.generate(path: url.path, options: options)) { error in
                XCTAssertEqual(error as? GeneratorError, .usage(message))
            }
        }
    }

    /// `--postgres` takes FILE as a connection string; it needs the PostgreSQL trait, and `--schema` needs it.
    func testPostgresOptions() throws {
        XCTAssertThrowsError(try GeneratorCommand.parse(["w.sqlite", "--schema", "app"])) { error in
            XCTAssertEqual(error as? GeneratorError, .usage("--schema needs --postgres"))
        }
        let arguments = ["postgresql://app@127.0.0.1/world", "--postgres", "--schema", "app"]
        #if PostgreSQL
            var expected = GeneratorCommand.Options(path: "postgresql://app@127.0.0.1/world")
            expected.postgres = true
            expected.schema = "app"
            XCTAssertEqual(try GeneratorCommand.parse(arguments), expected)
        #else
            XCTAssertThrowsError(try GeneratorCommand.parse(arguments)) { error in
                XCTAssertEqual(
                    error as? GeneratorError,
                    .usage(
                        "--postgres needs the PostgreSQL trait: swift run --traits PostgreSQL sqlite-record-gen ..."))
            }
        #endif
    }
}
