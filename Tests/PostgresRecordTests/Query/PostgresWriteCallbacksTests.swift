#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// `willSave` and `willDelete` on PostgreSQL writes (the Record callbacks, with the connection), and
/// `didInsert`/`didDelete`.
final class PostgresWriteCallbacksTests: PostgresTestCase {
    struct Invalid: Error, Equatable { let name: String }

    struct Note: Record, Equatable {
        var id: Int64?
        var text: String
        var insertedRowID: Int64?
        static let tableName = "notes"
        enum CodingKeys: String, CodingKey { case id, text }

        func willSave(_ db: some DatabaseConnection) throws {
            if text.isEmpty { throw Invalid(name: "empty") }
            let connection = try XCTUnwrap(db as? PostgresConnection)
            _ = try connection.execute("INSERT INTO log (event) VALUES ($1)", [try PostgresValue(text: "save " + text)])
        }

        func willDelete(_ db: some DatabaseConnection) throws {
            if text == "keep" { throw Invalid(name: "keep") }
            let connection = try XCTUnwrap(db as? PostgresConnection)
            _ = try connection.execute("INSERT INTO log (event) VALUES ($1)", [try PostgresValue(text: "delete " + text)])
        }

        mutating func didInsert(rowID: Int64) { insertedRowID = rowID }
    }

    struct Tag: Record {
        var id: String
        func willSave(_ db: some DatabaseConnection) throws {
            if id.contains(" ") { throw Invalid(name: id) }
        }
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try Note.createTable(in: connection)
        try Tag.createTable(in: connection)
        try connection.execute("CREATE TABLE log (n SERIAL PRIMARY KEY, event TEXT NOT NULL)")
    }

    func testWillSaveRunsBeforeInsertAndUpdateAndAThrowWritesNothing() throws {
        var note = Note(id: nil, text: "first")
        try note.save(connection)
        XCTAssertEqual(note.insertedRowID, 1)
        note.text = "second"
        try note.save(connection)
        var bad = Note(id: nil, text: "")
        XCTAssertThrowsError(try bad.insert(connection)) { XCTAssertEqual($0 as? Invalid, Invalid(name: "empty")) }
        XCTAssertNil(bad.id)
        var tag = Tag(id: "a b")
        XCTAssertThrowsError(try tag.save(connection)) { XCTAssertEqual($0 as? Invalid, Invalid(name: "a b")) }
        XCTAssertEqual(try text("SELECT string_agg(event, ',' ORDER BY n) FROM log"), "save first,save second")
        XCTAssertEqual(try text("SELECT string_agg(id || ':' || text, ',') FROM notes"), "1:second")
        XCTAssertEqual(try text("SELECT count(*)::text FROM tag"), "0")
    }

    func testWillDeleteRunsBeforeDeleteAndAThrowDeletesNothing() throws {
        var keep = Note(id: nil, text: "keep")
        try keep.save(connection)
        var gone = Note(id: nil, text: "gone")
        try gone.save(connection)
        XCTAssertThrowsError(try keep.delete(connection)) { XCTAssertEqual($0 as? Invalid, Invalid(name: "keep")) }
        XCTAssertTrue(try gone.delete(connection))
        XCTAssertEqual(try text("SELECT string_agg(text, ',') FROM notes"), "keep")
        XCTAssertEqual(try text("SELECT string_agg(event, ',' ORDER BY n) FROM log"), "save keep,save gone,delete gone")
    }

    func testBatchAndChildrenSavesCallWillSaveForEachRecordAllOrNothing() throws {
        var notes = [Note(id: nil, text: "a"), Note(id: nil, text: ""), Note(id: nil, text: "c")]
        XCTAssertThrowsError(try Note.save(connection, &notes))
        XCTAssertEqual(notes.map(\.id), [nil, nil, nil])
        XCTAssertThrowsError(try Note.insertAll(connection, &notes))
        XCTAssertEqual(try text("SELECT count(*)::text FROM notes"), "0")
        notes[1].text = "b"
        try Note.insertAll(connection, &notes)
        XCTAssertEqual(try text("SELECT string_agg(text, ',' ORDER BY id) FROM notes"), "a,b,c")
    }
}
#endif
