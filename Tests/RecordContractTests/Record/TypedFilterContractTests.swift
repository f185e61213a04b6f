import Foundation
import SQLiteRecord
import XCTest

/// The `where:` dictionaries keyed by the record's coding keys: the same rows as the String-keyed form, on a
/// connection, through a writer and through the default store, with values of any `Encodable` type.
final class TypedFilterContractTests: RecordContractTestCase {
    enum Status: String, Codable, Sendable, CaseIterable { case open, done }

    struct Item: Record, Equatable, Sendable {
        var id: Int64?
        var name: String
        var listId: Int64
        var status: Status
        var dueAt: Date?
        static let tableName = "items"
        enum CodingKeys: String, CodingKey {
            case id, name, status
            case listId = "list_id"
            case dueAt = "due_at"
        }
    }

    /// Column names from the key strategy rather than from a `CodingKeys` enum.
    struct Entry: Record, Equatable, Sendable {
        var id: Int64?
        var listId: Int64
        var title: String
        static let tableName = "entries"
        enum CodingKeys: String, CodingKey { case id, listId, title }
        static let recordEncoder = {
            var encoder = RecordEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            return encoder
        }()
        static let rowDecoder = {
            var decoder = RowDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return decoder
        }()
    }

    static let due = Date(timeIntervalSince1970: 1_700_000_000)

    private func fill(_ engine: any ContractEngine) throws {
        try engine.createTable(Item.self)
        var items = [
            Item(id: nil, name: "x", listId: 1, status: .open, dueAt: Self.due),
            Item(id: nil, name: "y", listId: 1, status: .done, dueAt: nil),
            Item(id: nil, name: "x", listId: 2, status: .done, dueAt: nil),
            Item(id: nil, name: "z", listId: 2, status: .open, dueAt: nil),
        ]
        try engine.write { db in
            for index in items.indices { try items[index].insert(db) }
        }
    }

    func testCodingKeysAndStringsGiveTheSameRows() {
        onEachEngine { engine in
            try fill(engine)
            try engine.write { db in
                let byString = try Item.fetch(db, where: ["name": "x"], orderBy: [.ascending("id")])
                let byKey = try Item.fetch(db, where: [Item.CodingKeys.name: "x"], orderBy: [.ascending("id")])
                XCTAssertEqual(byString.map(\.id), [1, 3])
                XCTAssertEqual(byKey, byString)
                let renamed = try Item.fetch(db, where: [Item.CodingKeys.listId: 2], orderBy: [.descending("id")])
                XCTAssertEqual(renamed.map(\.id), [4, 3])
                let both = try Item.fetch(db, where: [Item.CodingKeys.listId: 1, .status: Status.done])
                XCTAssertEqual(both.map(\.name), ["y"])
                XCTAssertEqual(try Item.fetchOne(db, where: [Item.CodingKeys.dueAt: Self.due])?.id, 1)
                XCTAssertEqual(try Item.count(db, where: [Item.CodingKeys.dueAt: nil]), 3)
                XCTAssertEqual(try Item.count(db, where: [Item.CodingKeys.status: Status.open, .name: "z"]), 1)
                XCTAssertEqual(try Item.deleteAll(db, where: [Item.CodingKeys.listId: 2]), 2)
            }
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM items"), 2)
        }
    }

    func testACodingKeyGoesThroughTheKeyStrategy() {
        onEachEngine { engine in
            try engine.createTable(Entry.self)
            var entries = [Entry(id: nil, listId: 7, title: "a"), Entry(id: nil, listId: 8, title: "b")]
            try engine.write { db in
                for index in entries.indices { try entries[index].insert(db) }
            }
            let found = try engine.write { db in try Entry.fetch(db, where: [Entry.CodingKeys.listId: 8]) }
            XCTAssertEqual(found.map(\.title), ["b"])
        }
    }

    func testAKeyWithNoColumnIsRefusedBeforeAnythingRuns() {
        struct Stray: CodingKey, Hashable {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        onEachEngine { engine in
            try fill(engine)
            let thrown = error {
                _ = try engine.write { db in try Item.deleteAll(db, where: [Stray(stringValue: "nam"): "x"]) }
            }
            guard case .unknownColumn(let table, let column, _)? = thrown as? RecordError else {
                return XCTFail("expected unknownColumn, got \(String(describing: thrown))")
            }
            XCTAssertEqual([table, column], ["items", "nam"])
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM items"), 4)
        }
    }

    func testCodingKeysThroughTheWriter() async {
        await onEachEngine { engine in
            try fill(engine)
            let open = try await Item.fetch(
                engine.writer, where: [Item.CodingKeys.status: Status.open], orderBy: [.ascending("id")])
            XCTAssertEqual(open.map(\.id), [1, 4])
            let z = try await Item.fetchOne(engine.writer, where: [Item.CodingKeys.name: "z"])
            XCTAssertEqual(z?.id, 4)
            let listed = try await Item.count(engine.writer, where: [Item.CodingKeys.listId: 1])
            XCTAssertEqual(listed, 2)
            let deleted = try await Item.deleteAll(engine.writer, where: [Item.CodingKeys.status: Status.done])
            XCTAssertEqual(deleted, 2)
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM items"), 2)
        }
    }
}
