import XCTest

@testable import SQLiteRecord

final class IntrospectionTests: XCTestCase {
    static let schema = """
        CREATE TABLE countries (id INTEGER PRIMARY KEY, iso TEXT NOT NULL UNIQUE, name TEXT);
        CREATE TABLE languages (code TEXT PRIMARY KEY, name TEXT) WITHOUT ROWID;
        CREATE TABLE cities (
            id INTEGER PRIMARY KEY,
            country_id INTEGER REFERENCES countries ON DELETE CASCADE,
            country_iso TEXT,
            language TEXT REFERENCES languages(code) ON UPDATE SET NULL,
            name TEXT NOT NULL,
            population INTEGER,
            FOREIGN KEY (country_id, country_iso) REFERENCES countries(id, iso)
        );
        CREATE INDEX cities_country_id ON cities(country_id);
        CREATE UNIQUE INDEX cities_name_population ON cities(name, population DESC);
        CREATE INDEX cities_big ON cities(population) WHERE population > 1000000;
        CREATE INDEX cities_lower_name ON cities(lower(name));
        """

    func testIndexesListEveryIndexWithItsColumns() throws {
        let db = try Database()
        try db.execute(sql: Self.schema)
        XCTAssertEqual(
            try db.indexes(on: "cities"),
            [
                IndexInfo(
                    name: "cities_big", columns: ["population"], isUnique: false, origin: .createIndex,
                    isPartial: true),
                IndexInfo(
                    name: "cities_country_id", columns: ["country_id"], isUnique: false, origin: .createIndex,
                    isPartial: false),
                IndexInfo(
                    name: "cities_lower_name", columns: [nil], isUnique: false, origin: .createIndex, isPartial: false),
                IndexInfo(
                    name: "cities_name_population", columns: ["name", "population"], isUnique: true,
                    origin: .createIndex, isPartial: false),
            ])
        XCTAssertEqual(
            try db.indexes(on: "COUNTRIES"),
            [
                IndexInfo(
                    name: "sqlite_autoindex_countries_1", columns: ["iso"], isUnique: true, origin: .uniqueConstraint,
                    isPartial: false)
            ])
        XCTAssertEqual(
            try db.indexes(on: "languages"),
            [
                IndexInfo(
                    name: "sqlite_autoindex_languages_1", columns: ["code"], isUnique: true,
                    origin: .primaryKeyConstraint, isPartial: false)
            ])
        try db.execute(sql: "CREATE TABLE plain (a)")
        XCTAssertEqual(try db.indexes(on: "plain"), [])
        XCTAssertThrowsError(try db.indexes(on: "nowhere")) { error in
            XCTAssertEqual((error as? DatabaseError)?.message, "no such table: nowhere")
        }
    }

    func testForeignKeysGroupCompositeKeysAndKeepTheirActions() throws {
        let db = try Database()
        try db.execute(sql: Self.schema)
        XCTAssertEqual(
            try db.foreignKeys(in: "cities"),
            [
                ForeignKeyInfo(
                    id: 0, parentTable: "countries", columns: ["country_id", "country_iso"],
                    parentColumns: ["id", "iso"],
                    onUpdate: "NO ACTION", onDelete: "NO ACTION"),
                ForeignKeyInfo(
                    id: 1, parentTable: "languages", columns: ["language"], parentColumns: ["code"],
                    onUpdate: "SET NULL", onDelete: "NO ACTION"),
                ForeignKeyInfo(
                    id: 2, parentTable: "countries", columns: ["country_id"], parentColumns: [nil],
                    onUpdate: "NO ACTION", onDelete: "CASCADE"),
            ])
        XCTAssertEqual(try db.foreignKeys(in: "countries"), [])
        XCTAssertThrowsError(try db.foreignKeys(in: "nowhere")) { error in
            XCTAssertEqual((error as? DatabaseError)?.message, "no such table: nowhere")
        }
    }
}
