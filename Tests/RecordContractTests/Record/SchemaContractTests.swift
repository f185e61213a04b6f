import Foundation
import SQLiteRecord
import XCTest

/// `validateSchema(in:)` on a connection and through a writer: the same mismatches on every engine.
final class SchemaContractTests: RecordContractTestCase {
    func testAMissingTableAndAMissingColumnAreReportedAlike() async {
        await onEachEngine { engine in
            let missing = error { try engine.write { db in try Book.validateSchema(in: db) } }
            XCTAssertEqual((missing as? SchemaValidationError)?.mismatches, [.missingTable("books")])
            try engine.execute("CREATE TABLE books (id BIGINT PRIMARY KEY, title TEXT NOT NULL, pages BIGINT)")
            do {
                try await Book.validateSchema(in: engine.writer)
                XCTFail("a table without isbn validated")
            } catch let error as SchemaValidationError {
                XCTAssertEqual(error.table, "books")
                let missingColumns = error.mismatches.compactMap { mismatch -> String? in
                    if case .missingColumn(let column, _, _, _) = mismatch { return column }
                    return nil
                }
                XCTAssertEqual(missingColumns, ["isbn"])
            }
            try engine.execute("ALTER TABLE books ADD COLUMN isbn TEXT")
            // Both engines also check the type's tableDefinition (UNIQUE isbn).
            try engine.execute("CREATE UNIQUE INDEX books_isbn ON books (isbn)")
            try await Book.validateSchema(in: engine.writer)
        }
    }
}
