import Foundation
import SQLiteRecord

@testable import CountriesCities

/// The databases the generator's tests read: one of every declared type, key kind, view, generated column
/// and foreign key; one of quoted, reserved and non-ASCII identifiers; and the GeoNames sample's.
enum GeneratorFixtures {
    /// Every declared type the value table covers (with the storage classes each may hold), every key kind
    /// (rowid, one TEXT column, `INT PRIMARY KEY`, a UNIQUE column of a table without a key, a composite key
    /// WITHOUT ROWID, none), a view, two generated columns, and foreign keys of one and two columns, with a
    /// cascade, two to the same parent and one to the table itself.
    static let allTypesSQL = """
        CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL, born DATE, email VARCHAR(80) UNIQUE,
            active BOOLEAN NOT NULL DEFAULT 1, rating REAL, balance DECIMAL(10,2), photo BLOB, code INTEGER_OR_TEXT,
            token UUID, extra, visits INTEGER NOT NULL DEFAULT 0, joined_at DATETIME, flag BOOL);
        CREATE TABLE books (isbn TEXT PRIMARY KEY, author_id INTEGER NOT NULL REFERENCES authors(id) ON DELETE CASCADE,
            co_author_id INTEGER REFERENCES authors(id), title TEXT NOT NULL, pages INT, price NUMERIC,
            published_at DATETIME, title_upper TEXT GENERATED ALWAYS AS (upper(title)) VIRTUAL,
            weight_kg REAL GENERATED ALWAYS AS (pages * 0.002) STORED);
        CREATE TABLE units (auth_name TEXT NOT NULL, code TEXT NOT NULL, name TEXT NOT NULL,
            PRIMARY KEY (auth_name, code)) WITHOUT ROWID;
        CREATE TABLE conversions (id INTEGER PRIMARY KEY, unit_auth TEXT, unit_code TEXT, factor REAL NOT NULL,
            FOREIGN KEY (unit_auth, unit_code) REFERENCES units(auth_name, code));
        CREATE TABLE tags (label TEXT NOT NULL UNIQUE, weight INTEGER);
        CREATE TABLE logs (message TEXT, at TEXT);
        CREATE TABLE employees (id INTEGER PRIMARY KEY, name TEXT NOT NULL, manager_id INTEGER REFERENCES employees(id));
        CREATE TABLE readings (sensor INT PRIMARY KEY, value REAL NOT NULL, payload BLOB NOT NULL);
        CREATE TABLE empty_things (id INTEGER PRIMARY KEY, done BOOLEAN NOT NULL, due DATE, amount DECIMAL(8,2),
            ratio DOUBLE, label VARCHAR(10), raw BLOB, anything);
        CREATE VIEW author_books AS SELECT authors.name AS author, books.title, books.pages
            FROM books JOIN authors ON authors.id = books.author_id;
        INSERT INTO authors VALUES (1, 'Ann', '1970-01-02', 'ann@example.com', 1, 4.5, 19.99, x'0102', 9001,
            'a1b2c3d4-0000-4000-8000-000000000001', 'x', 3, 1700000000, 'yes');
        INSERT INTO authors VALUES (2, 'Bob', NULL, NULL, 0, NULL, 5, NULL, 'EPSG',
            'A1B2C3D4-0000-4000-8000-000000000002', 3, 0, '2023-11-14 22:13:20', 'no');
        INSERT INTO books (isbn, author_id, co_author_id, title, pages, price, published_at)
            VALUES ('978-0', 1, 2, 'Dune', 412, 9.5, '2001-02-03 04:05:06');
        INSERT INTO books (isbn, author_id, title, pages, price, published_at) VALUES ('978-1', 2, 'Emma', NULL, 12, NULL);
        INSERT INTO units VALUES ('EPSG', '9001', 'metre'), ('EPSG', '9002', 'foot');
        INSERT INTO conversions VALUES (1, 'EPSG', '9001', 1.0), (2, NULL, NULL, 0.3048), (3, 'EPSG', '9002', 0.3048);
        INSERT INTO tags VALUES ('red', 1), ('blue', NULL);
        INSERT INTO logs VALUES ('started', '2020-01-01T10:00:00Z'), (NULL, '2020-01-01 10:00:01.5');
        INSERT INTO employees VALUES (1, 'Boss', NULL), (2, 'Worker', 1);
        INSERT INTO readings VALUES (7, 1.5, x'00'), (8, 2, x'0102');
        """

    /// Tables, columns and a view whose names are Swift keywords, SQL keywords, hold spaces, quotes or
    /// letters outside ASCII, start with a digit, or clash with the generated types' own members.
    static let identifiersSQL = """
        CREATE TABLE "order" ("key" INTEGER PRIMARY KEY, "default" TEXT, "select" INTEGER, "first name" TEXT,
            "self" TEXT, "id" TEXT, "größe" REAL, "名前" TEXT, "class" TEXT, "quo""te" TEXT, "1st" INTEGER,
            "🙂" TEXT, "stringValue" TEXT, "description" TEXT, "first_name" TEXT);
        CREATE TABLE "Data" (id INTEGER PRIMARY KEY, "protocol" TEXT NOT NULL,
            "order_key" INTEGER REFERENCES "order"("key"));
        CREATE TABLE "Straßen Namen" ("straße" TEXT PRIMARY KEY NOT NULL, "for" INTEGER) WITHOUT ROWID;
        CREATE VIEW "select" AS SELECT "key", "default" FROM "order";
        INSERT INTO "order" VALUES (1, 'd', 2, 'Ann', 's', 'i', 1.5, '名', 'c', 'q"', 1, ':)', 'sv', 'desc', 'A');
        INSERT INTO "Data" VALUES (1, 'http', 1);
        INSERT INTO "Straßen Namen" VALUES ('Hauptstraße', 1);
        """

    /// A database file at `url` from `sql`.
    static func makeDatabase(at url: URL, sql: String) throws {
        try? FileManager.default.removeItem(at: url)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: sql) }
    }

    /// The package's root folder, from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The GeoNames sample database at `url`, built by the sample's own import from its CSV files.
    /// - Returns: the number of countries and cities imported.
    @discardableResult
    static func makeGeoNamesDatabase(at url: URL) throws -> (countries: Int, cities: Int) {
        try? FileManager.default.removeItem(at: url)
        let resources = packageRoot.appendingPathComponent("Examples/CountriesCities/Resources")
        let queue = try DatabaseQueue(path: url.path)
        let summary = try queue.write { db in
            try GeoNamesImport.run(
                db, countriesFile: resources.appendingPathComponent("countries.csv"),
                citiesFile: resources.appendingPathComponent("cities15000.csv"))
        }
        return (summary.countries, summary.cities)
    }

    /// Writes `text` to `url` unless the file holds it already.
    static func write(_ text: String, to url: URL) throws {
        // Unchanged files keep their dates, so that a second run rebuilds nothing.
        if (try? String(contentsOf: url, encoding: .utf8)) == text { return }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// Runs `arguments` (the first through `/usr/bin/env`), returning its exit status and its standard output
    /// and error together.
    static func run(_ arguments: [String], in folder: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

extension GeneratorFixtures {
    /// 2,000 rows whose last row holds what the first thousand do not: a text among dates, a 2 in a
    /// BOOLEAN column of 0 and 1, a fraction in an INTEGER column, a text that is not a UUID among UUIDs.
    /// A type chosen from a sample of the first rows would throw at `fetch()` on that row.
    static let pastTheSampleSQL = """
        CREATE TABLE readings (id INTEGER PRIMARY KEY, taken DATE NOT NULL, ok BOOLEAN NOT NULL,
            count INTEGER NOT NULL, token UUID NOT NULL, label TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
        INSERT INTO readings SELECT i, date('2024-01-01', '+' || (i % 300) || ' days'), i % 2, i,
            printf('%08x-0000-4000-8000-000000000000', i), 'r' || i FROM n;
        UPDATE readings SET taken = 'unknown', ok = 2, count = 2.5, token = 'not-a-uuid' WHERE id = 2000;
        """
}
