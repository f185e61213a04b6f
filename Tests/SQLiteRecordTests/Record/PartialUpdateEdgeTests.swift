import Foundation
import XCTest

@testable import SQLiteRecord

/// Partial updates (`update(_:columns:)`) under column lists that alternate, mutate and repeat, records whose
/// `encode(to:)` throws, ignores errors, encodes a column twice or changes its key order, types that share a
/// table, refused columns, triggers and schema changes, held to the rows a plain SELECT reads back after each
/// write.
final class PartialUpdateEdgeTests: XCTestCase {
    struct Dial: Record, Equatable {
        var id: Int64?
        var level: Int
        var label: String
        var ratio: Double
        static let tableName = "dials"
    }

    /// The rows of `dials` as text, in key order: `id|level|label|ratio`.
    private func rows(_ db: Database, _ table: String = "dials") throws -> [String] {
        try db.fetchAll(
            Line.self, sql: "SELECT id || '|' || level || '|' || label || '|' || ratio AS line FROM \(table) ORDER BY id"
        ).map(\.line)
    }

    private struct Line: Decodable { var line: String }

    private func makeDials() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE dials (id INTEGER PRIMARY KEY, level INTEGER NOT NULL, label TEXT NOT NULL,
                        ratio REAL NOT NULL);
                    INSERT INTO dials VALUES (1, 0, 'one', 0.5), (2, 0, 'two', 0.5);
                    """)
        }
        return queue
    }

    func testColumnListsAlternatingOnOneConnection() throws {
        let queue = try makeDials()
        try queue.write { db in
            let reused = ["label"]
            var mutated = ["level"]
            let steps: [([String], Dial, String)] = [
                (["level"], Dial(id: 1, level: 1, label: "x1", ratio: 9), "1|1|one|0.5"),
                (["label"], Dial(id: 1, level: 2, label: "a", ratio: 9), "1|1|a|0.5"),
                (["level", "label"], Dial(id: 1, level: 3, label: "b", ratio: 9), "1|3|b|0.5"),
                (["label", "level"], Dial(id: 1, level: 4, label: "c", ratio: 9), "1|4|c|0.5"),
                (reused, Dial(id: 1, level: 5, label: "d", ratio: 9), "1|4|d|0.5"),
                (["ratio"], Dial(id: 1, level: 6, label: "e", ratio: 0.25), "1|4|d|0.25"),
                (reused, Dial(id: 1, level: 7, label: "f", ratio: 9), "1|4|f|0.25"),
                (["level"], Dial(id: 1, level: 8, label: "g", ratio: 9), "1|8|f|0.25"),
                (["label"], Dial(id: 1, level: 9, label: "h", ratio: 9), "1|8|h|0.25"),
            ]
            for (index, (columns, dial, expected)) in steps.enumerated() {
                try dial.update(db, columns: columns)
                XCTAssertEqual(try rows(db).first, expected, "step \(index) \(columns)")
            }
            // One array mutated in place between calls: each call writes what the array names then.
            for (round, name) in ["level", "label", "ratio", "level"].enumerated() {
                mutated[0] = name
                try Dial(id: 2, level: 10 + round, label: "m\(round)", ratio: Double(round)).update(db, columns: mutated)
            }
            XCTAssertEqual(try rows(db).last, "2|13|m1|2.0")
            mutated.append("label")
            try Dial(id: 2, level: 20, label: "n", ratio: 7).update(db, columns: mutated)
            mutated.removeAll()
            try Dial(id: 2, level: 30, label: "o", ratio: 8).update(db, columns: mutated)
            XCTAssertEqual(try rows(db), ["1|8|h|0.25", "2|20|n|2.0"])
        }
    }

    /// A second record type on the same table, with another column order and fewer columns.
    struct DialLabel: Record, Equatable {
        var label: String
        var id: Int64?
        static let tableName = "dials"
    }

    func testTwoTypesOnOneTableAlternatingInOneTransaction() throws {
        let queue = try makeDials()
        try queue.write { db in
            for round in 0..<3 {
                try Dial(id: 1, level: round + 1, label: "dial\(round)", ratio: 1).update(db, columns: ["level"])
                try DialLabel(label: "label\(round)", id: 1).update(db, columns: ["label"])
                try Dial(id: 2, level: round + 5, label: "d\(round)", ratio: 1).update(db, columns: ["label"])
                try DialLabel(label: "l\(round)", id: 2).update(db, columns: ["label"])
            }
            XCTAssertEqual(try rows(db), ["1|3|label2|0.5", "2|0|l2|0.5"])
        }
    }

    /// Encodes its key last, through a super encoder (a nested value, which a column cannot hold).
    struct Twice: Record, Equatable {
        var id: Int64?
        var level: Int
        var label: String
        var ratio: Double
        static let tableName = "dials"
        enum CodingKeys: String, CodingKey { case id, level, label, ratio }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(label, forKey: .label)
            try container.encode(level, forKey: .level)
            try container.encode(ratio, forKey: .ratio)
            try id.encode(to: container.superEncoder(forKey: .id))
        }
    }

    func testColumnsThatCannotBeWrittenAreRefusedBeforeAnythingIsWritten() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE dials (id INTEGER PRIMARY KEY, level INTEGER NOT NULL, label TEXT NOT NULL,
                        ratio REAL NOT NULL, twice INTEGER GENERATED ALWAYS AS (level * 2));
                    INSERT INTO dials VALUES (1, 0, 'one', 0.5), (2, 0, 'two', 0.5);
                    """)
            let dial = Dial(id: 1, level: 5, label: "new", ratio: 1)
            let refused: [([String], String)] = [
                (["LEVEL"], "LEVEL"), (["Label", "level"], "Label"), (["nope"], "nope"), (["level", "nope"], "nope"),
                (["twice"], "twice"), (["id"], "id"), (["level", "id"], "id"),
            ]
            for (columns, column) in refused {
                // The second after a plan of the type for other columns was made.
                for round in 0..<2 {
                    XCTAssertThrowsError(try dial.update(db, columns: columns), "\(columns) round \(round)") {
                        XCTAssertEqual(
                            $0 as? RecordError,
                            .unknownColumn(table: "dials", column: column, columns: ["level", "label", "ratio"]))
                    }
                    try Dial(id: 2, level: round, label: "two", ratio: 0).update(db, columns: ["level"])
                }
            }
            try dial.update(db, columns: [])
            XCTAssertThrowsError(try Dial(id: 3, level: 1, label: "", ratio: 0).update(db, columns: [])) { error in
                XCTAssertEqual(error as? RecordError, .recordNotFound(table: "dials", id: "3"))
            }
            XCTAssertEqual(try rows(db), ["1|0|one|0.5", "2|1|two|0.5"])
            XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT twice FROM dials WHERE id = 2"), 2)
        }
    }

    struct Lamp: Record, Equatable {
        var id: UUID
        var name: String
        var watts: Int
        static let tableName = "lamps"
    }

    func testAnUppercaseUUIDKeyRetriedWithEachColumnList() throws {
        let queue = try DatabaseQueue()
        let upper = UUID()
        let lower = UUID()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE lamps (id TEXT PRIMARY KEY, name TEXT NOT NULL, watts INTEGER NOT NULL)")
            try db.execute(
                sql: "INSERT INTO lamps VALUES (?, 'up', 1), (?, 'low', 2)",
                arguments: [upper.uuidString, lower.uuidString.lowercased()])
            for round in 0..<2 {
                try Lamp(id: upper, name: "u\(round)", watts: 10 + round).update(db, columns: ["watts"])
                try Lamp(id: lower, name: "l\(round)", watts: 20 + round).update(db, columns: ["name"])
                try Lamp(id: upper, name: "n\(round)", watts: 30 + round).update(db, columns: ["name"])
            }
            let stored = try db.fetchAll(
                Line.self, sql: "SELECT id || '|' || name || '|' || watts AS line FROM lamps ORDER BY name"
            ).map(\.line)
            XCTAssertEqual(
                stored.sorted(), ["\(lower.uuidString.lowercased())|l1|2", "\(upper.uuidString)|n1|11"].sorted())
            XCTAssertThrowsError(try Lamp(id: UUID(), name: "", watts: 0).update(db, columns: ["watts"])) { error in
                guard case .recordNotFound(table: "lamps", _)? = error as? RecordError else {
                    return XCTFail("\(error)")
                }
            }
        }
    }

    func testADeletedRowAndATriggerThatIgnoresTheUpdate() throws {
        let queue = try makeDials()
        try queue.write { db in
            try Dial(id: 2, level: 1, label: "", ratio: 0).update(db, columns: ["level"])
            try db.execute(sql: "DELETE FROM dials WHERE id = 2")
            XCTAssertThrowsError(try Dial(id: 2, level: 2, label: "", ratio: 0).update(db, columns: ["level"])) {
                XCTAssertEqual($0 as? RecordError, .recordNotFound(table: "dials", id: "2"))
            }
            var dial = Dial(id: 2, level: 0, label: "two", ratio: 0.5)
            XCTAssertThrowsError(try dial.updateChanges(db) { $0.level = 4 }) {
                XCTAssertEqual($0 as? RecordError, .recordNotFound(table: "dials", id: "2"))
            }
            XCTAssertEqual(dial, Dial(id: 2, level: 0, label: "two", ratio: 0.5))
            try db.execute(
                sql: """
                    CREATE TRIGGER frozen BEFORE UPDATE ON dials WHEN old.label = 'one'
                    BEGIN SELECT RAISE(IGNORE); END;
                    """)
            for columns in [["level"], ["label"], ["level"]] {
                XCTAssertThrowsError(try Dial(id: 1, level: 3, label: "x", ratio: 0).update(db, columns: columns)) {
                    XCTAssertEqual($0 as? RecordError, .rowNotUpdated(table: "dials", id: "1"))
                }
            }
            XCTAssertEqual(try rows(db), ["1|0|one|0.5"])
        }
    }

    func testASchemaChangeBetweenCallsRebuildsThePlans() throws {
        let queue = try makeDials()
        try queue.write { db in
            for level in 1...2 { try Dial(id: 1, level: level, label: "", ratio: 0).update(db, columns: ["level"]) }
            // The same names in another order, and a column more.
            try db.execute(
                sql: """
                    DROP TABLE dials;
                    CREATE TABLE dials (label TEXT NOT NULL, ratio REAL NOT NULL, extra TEXT, level INTEGER NOT NULL,
                        id INTEGER PRIMARY KEY);
                    INSERT INTO dials VALUES ('one', 0.5, 'e', 0, 1);
                    """)
            for level in 3...4 { try Dial(id: 1, level: level, label: "no", ratio: 9).update(db, columns: ["level"]) }
            XCTAssertEqual(try rows(db), ["1|4|one|0.5"])
            try db.execute(sql: "ALTER TABLE dials RENAME COLUMN level TO lvl")
            XCTAssertThrowsError(try Dial(id: 1, level: 5, label: "", ratio: 0).update(db, columns: ["level"]))
            try db.execute(sql: "ALTER TABLE dials RENAME COLUMN lvl TO level")
            try Dial(id: 1, level: 6, label: "six", ratio: 0).update(db, columns: ["label", "level"])
            XCTAssertEqual(try rows(db), ["1|6|six|0.5"])
            XCTAssertEqual(try db.scalar(String.self, sql: "SELECT extra FROM dials"), "e")
        }
    }

    func testAnUpdateInsideATransactionThatThrowsIsRolledBack() throws {
        let queue = try makeDials()
        struct Late: Error {}
        XCTAssertThrowsError(
            try queue.write { db in
                try Dial(id: 1, level: 7, label: "", ratio: 0).update(db, columns: ["level"])
                var two = Dial(id: 2, level: 0, label: "two", ratio: 0.5)
                try two.updateChanges(db) { $0.label = "changed" }
                throw Late()
            }
        ) { XCTAssertTrue($0 is Late) }
        try queue.write { db in
            XCTAssertEqual(try rows(db), ["1|0|one|0.5", "2|0|two|0.5"])
            XCTAssertThrowsError(
                try db.transaction {
                    try Dial(id: 1, level: 8, label: "", ratio: 0).update(db, columns: ["level"])
                    throw Late()
                })
            try Dial(id: 2, level: 9, label: "", ratio: 0).update(db, columns: ["level"])
            XCTAssertEqual(try rows(db), ["1|0|one|0.5", "2|9|two|0.5"])
        }
    }

    struct Snake: Record, Equatable {
        var id: Int64?
        var fillLevel: Int
        var imageURL: String
        var seenAt: Date
        static let tableName = "snakes"
        static let recordEncoder = {
            var encoder = RecordEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.dateEncodingStrategy = .unixSeconds
            return encoder
        }()
        static let rowDecoder = {
            var decoder = RowDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            decoder.dateDecodingStrategy = .unixSeconds
            return decoder
        }()
    }

    func testSnakeCaseColumnsAndADateStrategy() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE snakes (id INTEGER PRIMARY KEY, fill_level INTEGER NOT NULL, image_url TEXT NOT NULL,
                        seen_at INTEGER NOT NULL);
                    INSERT INTO snakes VALUES (1, 0, 'a', 0);
                    """)
            func stored() throws -> String? {
                try db.fetchOne(
                    Line.self, sql: "SELECT fill_level || '|' || image_url || '|' || seen_at AS line FROM snakes"
                )?.line
            }
            for round in 1...2 {
                let snake = Snake(id: 1, fillLevel: round, imageURL: "u\(round)", seenAt: Date(timeIntervalSince1970: 100))
                try snake.update(db, columns: ["fill_level"])
                XCTAssertEqual(try stored(), "\(round)|a|0")
            }
            for round in 1...2 {
                let seen = Date(timeIntervalSince1970: Double(1000 * round))
                try Snake(id: 1, fillLevel: 9, imageURL: "v", seenAt: seen).update(db, columns: ["seen_at"])
                XCTAssertEqual(try stored(), "2|a|\(1000 * round)")
            }
            XCTAssertThrowsError(try Snake(id: 1, fillLevel: 9, imageURL: "v", seenAt: Date()).update(db, columns: ["fillLevel"]))
            guard let fetched = try Snake.fetchOne(db, id: 1) else { return XCTFail("no row") }
            var changed = fetched
            changed.imageURL = "w"
            changed.seenAt = Date(timeIntervalSince1970: 2000.5)
            XCTAssertTrue(try changed.updateChanges(db, from: fetched))
            XCTAssertEqual(try stored(), "2|w|2000.5")
        }
    }

    struct Guarded: Record, Equatable {
        var id: Int64?
        var level: Int
        var label: String
        var ratio: Double
        static let tableName = "dials"
        struct Refused: Error {}
        func willSave(_ db: some DatabaseConnection) throws {
            if level < 0 { throw Refused() }
        }
    }

    func testWillSaveThrowingWritesNothing() throws {
        let queue = try makeDials()
        try queue.write { db in
            for round in 0..<3 {
                XCTAssertThrowsError(
                    try Guarded(id: 1, level: -1, label: "", ratio: 0).update(db, columns: ["level"]), "round \(round)"
                ) { XCTAssertTrue($0 is Guarded.Refused) }
                try Guarded(id: 2, level: round, label: "", ratio: 0).update(db, columns: ["level"])
            }
            var one = Guarded(id: 1, level: 0, label: "one", ratio: 0.5)
            XCTAssertThrowsError(try one.updateChanges(db) { $0.level = -5 }) { XCTAssertTrue($0 is Guarded.Refused) }
            XCTAssertEqual(one.level, 0)
            XCTAssertEqual(try rows(db), ["1|0|one|0.5", "2|2|two|0.5"])
        }
    }

    /// Ignores each value's error, and encodes "label" a second time after the key.
    struct Stubborn: Record, Equatable {
        var id: Int64?
        var level: Int
        var label: String
        var ratio: Double
        static let tableName = "dials"
        enum CodingKeys: String, CodingKey { case id, level, label, ratio }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try? container.encode(level, forKey: .level)
            try? container.encode(label, forKey: .label)
            try? container.encode(ratio, forKey: .ratio)
            try? container.encode(id, forKey: .id)
            try? container.encode("late", forKey: .label)
        }
    }

    func testARecordThatEncodesAColumnAgainAfterItsKey() throws {
        let queue = try makeDials()
        try queue.write { db in
            for round in 1...3 {
                try Stubborn(id: 1, level: round, label: "s", ratio: 3).update(db, columns: ["level"])
                try Stubborn(id: 2, level: 0, label: "s\(round)", ratio: 3).update(db, columns: ["label"])
            }
            // The whole record is encoded: "label" is written twice, and SQLite keeps the last, "late", as
            // a full update of the record would store it.
            XCTAssertEqual(try rows(db), ["1|3|one|0.5", "2|0|late|0.5"])
        }
    }

    /// Synthesized: a nil optional is encoded through `encodeIfPresent`.
    struct Tagged: Record, Equatable {
        var id: Int64?
        var level: Int
        var tag: String?
        static let tableName = "tagged"
    }

    /// Leaves its optional out when it is nil.
    struct Sparse: Record, Equatable {
        var id: Int64?
        var level: Int
        var tag: String?
        static let tableName = "tagged"
        enum CodingKeys: String, CodingKey { case id, level, tag }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            if let tag { try container.encode(tag, forKey: .tag) }
            try container.encode(level, forKey: .level)
        }
    }

    func testANilOptionalNamedIsWrittenOrRefused() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE tagged (id INTEGER PRIMARY KEY, level INTEGER NOT NULL, tag TEXT);
                    INSERT INTO tagged VALUES (1, 0, 'a'), (2, 0, 'b'), (3, 0, 'c');
                    """)
            func stored() throws -> [String] {
                try db.fetchAll(
                    Line.self, sql: "SELECT id || '|' || level || '|' || ifnull(tag, 'NULL') AS line FROM tagged ORDER BY id"
                ).map(\.line)
            }
            try Tagged(id: 1, level: 5, tag: "x").update(db, columns: ["tag"])
            try Tagged(id: 2, level: 5, tag: nil).update(db, columns: ["tag"])
            XCTAssertEqual(try stored(), ["1|0|x", "2|0|NULL", "3|0|c"])
            try Sparse(id: 1, level: 6, tag: "y").update(db, columns: ["tag"])
            // A named column the record leaves out is refused, not skipped, through the plan or not.
            for columns in [["tag"], ["tag", "level"]] {
                XCTAssertThrowsError(try Sparse(id: 3, level: 6, tag: nil).update(db, columns: columns)) {
                    XCTAssertEqual(
                        $0 as? RecordError, .unknownColumn(table: "tagged", column: "tag", columns: ["level"]))
                }
            }
            XCTAssertEqual(try stored(), ["1|0|y", "2|0|NULL", "3|0|c"])
        }
    }

    /// Wraps each error its values throw in one of its own, as an app that reports encoding failures might.
    struct Wrapping: Record, Equatable {
        var id: Int64?
        var level: Int
        var label: String
        var ratio: Double
        static let tableName = "dials"
        enum CodingKeys: String, CodingKey { case id, level, label, ratio }
        struct Wrapped: Error { let error: any Error }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            do {
                try container.encode(id, forKey: .id)
                try container.encode(level, forKey: .level)
                try container.encode(label, forKey: .label)
                try container.encode(ratio, forKey: .ratio)
            } catch {
                throw Wrapped(error: error)
            }
        }
    }

    /// Encodes its key first or last, by its value.
    struct Flipping: Record, Equatable {
        var id: Int64?
        var level: Int
        var label: String
        var ratio: Double
        static let tableName = "dials"
        enum CodingKeys: String, CodingKey { case id, level, label, ratio }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if level.isMultiple(of: 2) { try container.encode(id, forKey: .id) }
            try container.encode(level, forKey: .level)
            try container.encode(label, forKey: .label)
            try container.encode(ratio, forKey: .ratio)
            if !level.isMultiple(of: 2) { try container.encode(id, forKey: .id) }
        }
    }

    func testAKeyOrderThatChangesByValueAndAListNamingAColumnTwice() throws {
        let queue = try makeDials()
        try queue.write { db in
            for level in 1...5 {
                try Flipping(id: Int64(level % 2 + 1), level: level, label: "f\(level)", ratio: 9)
                    .update(db, columns: ["level"])
            }
            XCTAssertEqual(try rows(db), ["1|4|one|0.5", "2|5|two|0.5"])
            for level in 6...7 {
                try Flipping(id: 1, level: level, label: "g\(level)", ratio: Double(level))
                    .update(db, columns: ["label", "label"])
            }
            XCTAssertEqual(try rows(db), ["1|4|g7|0.5", "2|5|two|0.5"])
        }
    }

    func testARecordThatWrapsTheErrorsOfItsValues() throws {
        let queue = try makeDials()
        try queue.write { db in
            try Wrapping(id: 2, level: 1, label: "full", ratio: 1).update(db)
            // A first write and through the kept plan: the whole record is encoded, only "level" is written.
            for round in 0..<3 {
                try Wrapping(id: 1, level: 3 + round, label: "w", ratio: 2).update(db, columns: ["level"])
                XCTAssertEqual(try rows(db), ["1|\(3 + round)|one|0.5", "2|1|full|1.0"], "round \(round)")
            }
            guard let fetched = try Wrapping.fetchOne(db, id: 2) else { return XCTFail("no row") }
            var changed = fetched
            changed.label = "changed"
            XCTAssertTrue(try changed.updateChanges(db, from: fetched))
            XCTAssertEqual(try rows(db), ["1|5|one|0.5", "2|1|changed|1.0"])
            // The error of a value comes back wrapped, as the record throws it.
            XCTAssertThrowsError(try Wrapping(id: 1, level: 9, label: "", ratio: .nan).update(db, columns: ["ratio"])) {
                XCTAssertTrue(($0 as? Wrapping.Wrapped)?.error is EncodingError, "\($0)")
            }
        }
    }

    struct Upper: Record, Equatable {
        var id: Int64?
        var level: Int
        static let tableName = "upper"
    }

    func testAKeyColumnDeclaredInAnotherCase() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE upper (ID INTEGER PRIMARY KEY, Level INTEGER NOT NULL); INSERT INTO upper VALUES (1, 0)")
            for round in 1...2 {
                try Upper(id: 1, level: round).update(db, columns: ["level"])
                XCTAssertEqual(try Upper.fetchOne(db, id: 1), Upper(id: 1, level: round))
            }
            XCTAssertThrowsError(try Upper(id: 1, level: 9).update(db, columns: ["id"])) {
                XCTAssertEqual($0 as? RecordError, .unknownColumn(table: "upper", column: "id", columns: ["level"]))
            }
            XCTAssertEqual(try Upper.fetchOne(db, id: 1), Upper(id: 1, level: 2))
        }
    }

    func testTheKeyThroughASuperEncoderIsRefusedAsAFullUpdateRefusesIt() throws {
        let queue = try makeDials()
        try queue.write { db in
            var errors: [String] = []
            for columns in [nil, ["level"], ["level"]] as [[String]?] {
                XCTAssertThrowsError(
                    try columns.map { try Twice(id: 1, level: 1, label: "t", ratio: 2).update(db, columns: $0) }
                        ?? Twice(id: 1, level: 1, label: "t", ratio: 2).update(db)
                ) { errors.append("\($0)") }
            }
            XCTAssertEqual(Set(errors).count, 1, "\(errors)")
            XCTAssertTrue(errors[0].contains("column \"id\" of table \"dials\" holds one value"), errors[0])
            XCTAssertEqual(try rows(db), ["1|0|one|0.5", "2|0|two|0.5"])
        }
    }

    /// A date through a formatter, which the plan binds as another kind of value than a number or text.
    struct Stamp: Record, Equatable {
        var id: Int64?
        var when: Date?
        var note: String
        static let tableName = "stamps"
        static let recordEncoder = {
            var encoder = RecordEncoder()
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy/MM/dd HH:mm"
            encoder.dateEncodingStrategy = .formatted(formatter)
            return encoder
        }()
    }

    func testAFormattedDateWrittenNilAndAgainThroughThePlan() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: "CREATE TABLE stamps (id INTEGER PRIMARY KEY, \"when\" TEXT, note TEXT NOT NULL); INSERT INTO stamps VALUES (1, 'x', 'n'), (2, 'y', 'm')"
            )
            func stored() throws -> [String] {
                try db.fetchAll(
                    Line.self, sql: "SELECT id || '|' || ifnull(\"when\", 'NULL') || '|' || note AS line FROM stamps ORDER BY id"
                ).map(\.line)
            }
            let day = Date(timeIntervalSince1970: 86_400 * 365)
            try Stamp(id: 1, when: day, note: "a").update(db, columns: ["when"])
            try Stamp(id: 2, when: nil, note: "b").update(db, columns: ["when"])
            XCTAssertEqual(try stored(), ["1|1971/01/01 00:00|n", "2|NULL|m"])
            try Stamp(id: 2, when: day.addingTimeInterval(90), note: "c").update(db, columns: ["when", "note"])
            try Stamp(id: 1, when: nil, note: "d").update(db, columns: ["note"])
            try Stamp(id: 1, when: day.addingTimeInterval(3600), note: "e").update(db, columns: ["when"])
            XCTAssertEqual(try stored(), ["1|1971/01/01 01:00|d", "2|1971/01/01 00:01|c"])
        }
    }
}

