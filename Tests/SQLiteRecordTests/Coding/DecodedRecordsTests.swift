import XCTest

@testable import SQLiteRecord

/// ``DecodedRecords``: the records come out in the order they went in, across chunks; a record whose
/// making throws is not appended; records left when the fetch throws midway are destroyed, each once.
final class DecodedRecordsTests: XCTestCase {
    /// Counts the instances alive, so that a record destroyed twice or never shows.
    private final class Tracked {
        nonisolated(unsafe) static var alive = 0
        let value: Int
        init(_ value: Int) {
            self.value = value
            Self.alive += 1
        }
        deinit { Self.alive -= 1 }
    }

    private struct Failure: Error {}

    func testRecordsComeOutInOrderAcrossChunks() {
        for count in [0, 1, 8, 9, 100, 1_000] {
            var records = DecodedRecords<String>()
            for index in 0..<count { records.append { "record \(index)" } }
            XCTAssertEqual(records.count, count)
            let array = records.makeArray()
            XCTAssertEqual(array, (0..<count).map { "record \($0)" })
        }
    }

    func testARecordWhoseMakingThrowsIsNotAppended() throws {
        var records = DecodedRecords<Int>()
        records.append { 1 }
        XCTAssertThrowsError(try records.append { throw Failure() })
        records.append { 2 }
        let array = records.makeArray()
        XCTAssertEqual(array, [1, 2])
    }

    func testRecordsLeftWhenAFetchThrowsAreDestroyedOnce() {
        Tracked.alive = 0
        func fetch() throws -> [Tracked] {
            var records = DecodedRecords<Tracked>()
            for index in 0..<50 { records.append { Tracked(index) } }
            XCTAssertEqual(Tracked.alive, 50)
            try records.append { throw Failure() }
            return records.makeArray()
        }
        XCTAssertThrowsError(try fetch())
        XCTAssertEqual(Tracked.alive, 0)

        let kept: [Tracked] = {
            var records = DecodedRecords<Tracked>()
            for index in 0..<50 { records.append { Tracked(index) } }
            return records.makeArray()
        }()
        XCTAssertEqual(kept.map(\.value), Array(0..<50))
        XCTAssertEqual(Tracked.alive, 50)
    }
}
