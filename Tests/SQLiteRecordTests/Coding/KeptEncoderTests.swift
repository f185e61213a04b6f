import Foundation
import XCTest

@testable import SQLiteRecord

/// What the test records below keep from one write for a later one; the lock makes the global safe.
private final class Shelf<Value>: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var values: [Value] = []

    func put(_ value: Value) { lock.withLock { values.append(value) } }
    var all: [Value] { lock.withLock { values } }
    var last: Value? { lock.withLock { values.last } }
    func clear() { lock.withLock { values.removeAll() } }
}

private let keptEncoders = Shelf<any Encoder>()
private let keptColumnEncoders = Shelf<any Encoder>()
private let keptContainers = Shelf<KeyedEncodingContainer<NoteKeys>>()
/// What encoding into the previous record's encoder or container gave during a later record's encode(to:).
private let laterOutcomes = Shelf<String>()

private enum NoteKeys: String, CodingKey {
    case id, text, tag
}

/// How a ``Note`` misbehaves in its encode(to:).
private enum Keeping: Int, Codable {
    /// Keeps nothing.
    case nothing
    /// Keeps its encoder.
    case encoder
    /// Keeps its keyed container.
    case container
    /// Encodes `text` into the encoder the previous record kept, then keeps its own.
    case previousEncoder
    /// Encodes `text` into the keyed container the previous record kept, then keeps its own.
    case previousContainer
    /// Keeps the encoder its container's `superEncoder()` gives.
    case superEncoder
}

private struct Note: Record {
    var id: Int64?
    var text: String
    var tag: Tag
    var keeping: Keeping

    static let tableName = "notes"

    init(id: Int64? = nil, text: String, tag: String = "t", keeping: Keeping) {
        self.id = id
        self.text = text
        self.tag = Tag(text: tag)
        self.keeping = keeping
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: NoteKeys.self)
        id = try container.decode(Int64?.self, forKey: .id)
        text = try container.decode(String.self, forKey: .text)
        tag = try container.decode(Tag.self, forKey: .tag)
        keeping = .encoder
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: NoteKeys.self)
        switch keeping {
        case .nothing:
            break
        case .encoder:
            keptEncoders.put(encoder)
        case .container:
            keptContainers.put(container)
        case .previousEncoder:
            if let previous = keptEncoders.last {
                var earlier = previous.container(keyedBy: NoteKeys.self)
                laterOutcomes.put(outcome { try earlier.encode("from a later record", forKey: .text) })
            }
            keptEncoders.put(encoder)
        case .previousContainer:
            if var previous = keptContainers.last {
                laterOutcomes.put(outcome { try previous.encode("from a later record", forKey: .text) })
            }
            keptContainers.put(container)
        case .superEncoder:
            keptEncoders.put(container.superEncoder())
        }
        try container.encode(id, forKey: .id)
        try container.encode(text, forKey: .text)
        try container.encode(tag, forKey: .tag)
    }
}

/// A column value whose own encode(to:) keeps the encoder it is given (one column's encoder).
private struct Tag: Codable {
    var text: String

    init(text: String) { self.text = text }

    init(from decoder: any Decoder) throws { text = try decoder.singleValueContainer().decode(String.self) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
        keptColumnEncoders.put(encoder)
    }
}

/// "ok", or the error's kind and message. A container of a retired encoder names the value as the column value
/// it converted it to (`TEXT 'late'`); a finished container, which converts nothing, as given (`late`).
private func outcome(_ body: () throws -> Void) -> String {
    do {
        try body()
        return "ok"
    } catch EncodingError.invalidValue(let value, let context) {
        return "invalidValue(\(value)) at \(context.codingPath.map(\.stringValue)): \(context.debugDescription)"
    } catch {
        return "\(error)"
    }
}

/// An encoder or container that user code keeps past the record it was made for throws an EncodingError
/// saying the record is done: it never binds a value into the statement of a later write (the write plans
/// reuse one encoder and container per record type and connection), nor touches what a finished write let
/// go of.
final class KeptEncoderTests: XCTestCase {
    private let done =
        "The record this encoder wrote is done: encode values inside encode(to:), not after it returns (an "
        + "encoder or container is valid only during the encode(to:) it was passed to)"

    override func setUp() {
        super.setUp()
        keptEncoders.clear()
        keptColumnEncoders.clear()
        keptContainers.clear()
        laterOutcomes.clear()
    }

    override func tearDown() {
        keptEncoders.clear()
        keptColumnEncoders.clear()
        keptContainers.clear()
        laterOutcomes.clear()
        super.tearDown()
    }

    private func notesDatabase() throws -> Database {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT NOT NULL, tag TEXT NOT NULL)")
        return db
    }

    /// Inserts three notes that keep something the way `keeping` says; the second and third go through the
    /// connection's write plan.
    private func insertNotes(_ keeping: Keeping, into db: Database) throws {
        for text in ["one", "two", "three"] {
            var note = Note(text: text, tag: "tag-\(text)", keeping: keeping)
            try note.insert(db)
        }
        XCTAssertEqual(RecordConnectionCache.of(db).writes, 2, "the later notes were written through a plan")
    }

    private func rows(_ db: Database) throws -> [String] {
        try db.fetchAll(String.self, sql: "SELECT id || '|' || text || '|' || tag FROM notes ORDER BY id")
    }

    func testEncoderKeptPastTheWriteThrows() throws {
        let db = try notesDatabase()
        try insertNotes(.encoder, into: db)
        let kept = keptEncoders.all
        XCTAssertEqual(kept.count, 3)
        for encoder in kept {
            var container = encoder.container(keyedBy: NoteKeys.self)
            XCTAssertEqual(
                outcome { try container.encode("late", forKey: .text) }, "invalidValue(late) at [\"text\"]: \(done)")
            XCTAssertEqual(outcome { try container.encodeNil(forKey: .tag) }, "invalidValue(nil) at [\"tag\"]: \(done)")
            var single = encoder.singleValueContainer()
            XCTAssertTrue(outcome { try single.encode("late") }.hasSuffix(done))
            var unkeyed = encoder.unkeyedContainer()
            XCTAssertTrue(outcome { try unkeyed.encode(1) }.hasSuffix(done))
            XCTAssertTrue(encoder.userInfo.isEmpty)
        }
        // A later write of the type binds its own values.
        var four = Note(text: "four", tag: "tag-four", keeping: .container)
        try four.insert(db)
        XCTAssertEqual(
            try rows(db), ["1|one|tag-one", "2|two|tag-two", "3|three|tag-three", "4|four|tag-four"])
    }

    func testEncoderKeptFromThePreviousRecordThrowsDuringTheNextWrite() throws {
        let db = try notesDatabase()
        try insertNotes(.previousEncoder, into: db)
        XCTAssertEqual(
            laterOutcomes.all,
            Array(repeating: "invalidValue(from a later record) at [\"text\"]: \(done)", count: 2))
        XCTAssertEqual(try rows(db), ["1|one|tag-one", "2|two|tag-two", "3|three|tag-three"])
    }

    func testKeyedContainerKeptPastTheWriteThrows() throws {
        let db = try notesDatabase()
        try insertNotes(.container, into: db)
        let kept = keptContainers.all
        XCTAssertEqual(kept.count, 3)
        for var container in kept {
            XCTAssertEqual(
                outcome { try container.encode("late", forKey: .text) },
                "invalidValue(TEXT 'late') at [\"text\"]: \(done)")
            XCTAssertEqual(
                outcome { try container.encode(7, forKey: .id) }, "invalidValue(INTEGER 7) at [\"id\"]: \(done)")
            XCTAssertEqual(
                outcome { try container.encodeNil(forKey: .tag) }, "invalidValue(NULL) at [\"tag\"]: \(done)")
        }
        var four = Note(text: "four", tag: "tag-four", keeping: .container)
        try four.insert(db)
        XCTAssertEqual(RecordConnectionCache.of(db).writes, 3)
        XCTAssertEqual(
            try rows(db), ["1|one|tag-one", "2|two|tag-two", "3|three|tag-three", "4|four|tag-four"])
    }

    func testKeyedContainerKeptFromThePreviousRecordThrowsDuringTheNextWrite() throws {
        let db = try notesDatabase()
        try insertNotes(.previousContainer, into: db)
        XCTAssertEqual(
            laterOutcomes.all,
            Array(repeating: "invalidValue(TEXT 'from a later record') at [\"text\"]: \(done)", count: 2))
        XCTAssertEqual(try rows(db), ["1|one|tag-one", "2|two|tag-two", "3|three|tag-three"])
    }

    func testNestedContainersOfAKeptContainerThrow() throws {
        let db = try notesDatabase()
        try insertNotes(.container, into: db)
        for var container in keptContainers.all {
            var nested = container.nestedContainer(keyedBy: NoteKeys.self, forKey: .tag)
            XCTAssertEqual(
                outcome { try nested.encode("x", forKey: .text) }, "invalidValue(x) at [\"tag\", \"text\"]: \(done)")
            var unkeyed = container.nestedUnkeyedContainer(forKey: .tag)
            XCTAssertEqual(outcome { try unkeyed.encode("x") }, "invalidValue(x) at [\"tag\"]: \(done)")
            var forKey = container.superEncoder(forKey: .tag).singleValueContainer()
            XCTAssertEqual(outcome { try forKey.encode("x") }, "invalidValue(x) at [\"tag\"]: \(done)")
            var viaSuper = container.superEncoder().container(keyedBy: NoteKeys.self)
            XCTAssertEqual(
                outcome { try viaSuper.encode("x", forKey: .text) }, "invalidValue(x) at [\"text\"]: \(done)")
        }
    }

    func testSuperEncoderKeptPastTheWriteThrows() throws {
        let db = try notesDatabase()
        try insertNotes(.superEncoder, into: db)
        let supers = keptEncoders.all
        XCTAssertEqual(supers.count, 3)
        for encoder in supers {
            var container = encoder.container(keyedBy: NoteKeys.self)
            XCTAssertEqual(
                outcome { try container.encode("late", forKey: .text) }, "invalidValue(late) at [\"text\"]: \(done)")
        }
        XCTAssertEqual(try rows(db), ["1|one|tag-one", "2|two|tag-two", "3|three|tag-three"])
    }

    func testColumnEncoderKeptByAValueTypeThrows() throws {
        let db = try notesDatabase()
        try insertNotes(.container, into: db)
        let columnEncoders = keptColumnEncoders.all
        XCTAssertEqual(columnEncoders.count, 3)
        for encoder in columnEncoders {
            XCTAssertEqual(encoder.codingPath.map(\.stringValue), ["tag"])
            var single = encoder.singleValueContainer()
            XCTAssertEqual(outcome { try single.encode("late") }, "invalidValue(late) at [\"tag\"]: \(done)")
            XCTAssertEqual(outcome { try single.encode(5) }, "invalidValue(5) at [\"tag\"]: \(done)")
            var keyed = encoder.container(keyedBy: NoteKeys.self)
            XCTAssertEqual(
                outcome { try keyed.encode(1, forKey: .id) }, "invalidValue(1) at [\"tag\", \"id\"]: \(done)")
        }
    }

    /// The plan's encoder and its keyed container serve record after record while no record keeps them; a
    /// record that keeps its container leaves the plan a new encoder for the next one.
    func testPlanKeepsItsEncoderUnlessARecordKeptItsContainer() throws {
        let db = try notesDatabase()
        try insertNotes(.nothing, into: db)
        let key = RecordConnectionCache.WritePlanKey(type: ObjectIdentifier(Note.self), kind: .insertWithoutID)
        let plan = try XCTUnwrap(RecordConnectionCache.of(db).writePlans[key])
        let encoder = plan.encoder
        var four = Note(text: "four", keeping: .nothing)
        try four.insert(db)
        XCTAssertTrue(plan.encoder === encoder)
        XCTAssertFalse(encoder.isRetired)
        var five = Note(text: "five", keeping: .container)
        try five.insert(db)
        XCTAssertFalse(plan.encoder === encoder)
        XCTAssertTrue(encoder.isRetired)
        XCTAssertEqual(RecordConnectionCache.of(db).writes, 4)
    }

    func testContainerKeptPastACollectedEncodingThrows() throws {
        let columns = try RecordEncoder().encode(Note(text: "one", keeping: .container))
        XCTAssertEqual(columns.values, [.null, .text("one"), .text("t")])
        var container = try XCTUnwrap(keptContainers.last)
        XCTAssertEqual(
            outcome { try container.encode("late", forKey: .text) }, "invalidValue(TEXT 'late') at [\"text\"]: \(done)")
        _ = try RecordEncoder().encode(Note(text: "two", keeping: .encoder))
        let encoder = try XCTUnwrap(keptEncoders.last)
        var keyed = encoder.container(keyedBy: NoteKeys.self)
        XCTAssertEqual(outcome { try keyed.encode("late", forKey: .text) }, "invalidValue(late) at [\"text\"]: \(done)")
    }
}
