import Foundation
import XCTest

@testable import SQLiteRecordBench

/// W10 on the 200-city sample, one repetition: the index is built and has a size, both sides run every
/// search, and every word (drawn from the names) finds its city through the index. Timings are not asserted.
final class FullTextSearchWorkloadTests: XCTestCase {
    func testBothSearchesRunAndTheIndexFindsEveryWord() throws {
        let input = try BenchmarkAgreementTests.sampleInput()
        let words = FullTextSearchWorkload.words(from: input.cities, count: FullTextSearchWorkload.searches)
        XCTAssertEqual(words.count, 1_000)
        XCTAssertTrue(words.allSatisfy { $0.count >= 3 && $0 == $0.lowercased() })
        let summary = try FullTextSearchWorkload.runAll(input: input, repetitions: 1) { _ in }
        XCTAssertEqual(summary.buildSeconds.count, 1)
        XCTAssertGreaterThan(summary.indexBytes, 0)
        // Each word is a word of some city's name: the index finds at least one city for every search.
        XCTAssertGreaterThanOrEqual(summary.ftsFound, 1_000)
        XCTAssertGreaterThanOrEqual(summary.likeFound, 1_000)
        // Unicode folding finds at least what ASCII LIKE finds.
        XCTAssertGreaterThanOrEqual(summary.foldedFound, summary.likeFound)
        let fields = [
            "\"workload\":\"W10\"", "\"build_s\":", "\"index_bytes\":", "\"fts_s\":", "\"like_s\":", "\"folded_s\":",
        ]
        for field in fields {
            XCTAssertTrue(summary.json.contains(field), "\(field) in \(summary.json)")
        }
        XCTAssertTrue(summary.table.contains("LIKE '%word%'"), summary.table)
    }

    func testW10IsChosenByName() throws {
        let only = try BenchmarkOptions.parse(["--workloads", "w10"])
        XCTAssertTrue(only.runsFullTextSearch)
        XCTAssertEqual(only.workloads, [])
        let mixed = try BenchmarkOptions.parse(["--workloads", "W1,W10"])
        XCTAssertTrue(mixed.runsFullTextSearch)
        XCTAssertEqual(mixed.workloads, [.insert])
    }
}
