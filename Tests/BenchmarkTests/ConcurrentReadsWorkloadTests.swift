import Foundation
import XCTest

@testable import SQLiteRecordBench

/// W8 runs both sides on the 200-city sample for a fraction of a second: reads happen beside the writes on
/// both, every committed row is stored (checked inside the run), and the JSON line carries every figure.
/// Rates are not asserted.
final class ConcurrentReadsWorkloadTests: XCTestCase {
    func testBothSidesReadBesideTheWriterAndReportEveryFigure() throws {
        let input = try BenchmarkAgreementTests.sampleInput()
        let results = try ConcurrentReadsWorkload.runAll(input: input, seconds: 0.3, repetitions: 1)
        for kind in ConcurrentReadsWorkload.Kind.allCases {
            let measurement = try XCTUnwrap(results[kind]?.first, kind.rawValue)
            XCTAssertGreaterThan(measurement.reads, 0, kind.rawValue)
            XCTAssertGreaterThan(measurement.rowsWritten, 0, kind.rawValue)
            XCTAssertEqual(measurement.rowsWritten % ConcurrentReadsWorkload.batchSize, 0, kind.rawValue)
            XCTAssertGreaterThan(measurement.longestRead, 0, kind.rawValue)
        }
        let summary = ConcurrentReadsWorkload.Summary(results, seconds: 0.3)
        for field in [
            "\"workload\":\"W8\"", "\"pool_reads_per_s\":", "\"queue_reads_per_s\":", "\"read_ratio\":",
            "\"pool_rows_written_per_s\":", "\"queue_rows_written_per_s\":", "\"pool_longest_read_s\":",
            "\"queue_longest_read_s\":", "\"pool_reader_cpu_s_per_read\":",
        ] {
            XCTAssertTrue(summary.json.contains(field), "\(field) in \(summary.json)")
        }
        XCTAssertTrue(summary.table.contains("reads/s pool / queue"), summary.table)
    }

    func testW8IsChosenByName() throws {
        let only = try BenchmarkOptions.parse(["--workloads", "w8", "--w8-seconds", "2"])
        XCTAssertTrue(only.runsConcurrentReads)
        XCTAssertEqual(only.workloads, [])
        XCTAssertEqual(only.concurrentReadSeconds, 2)
        let mixed = try BenchmarkOptions.parse(["--workloads", "W4,W8"])
        XCTAssertTrue(mixed.runsConcurrentReads)
        XCTAssertEqual(mixed.workloads, [.fetchByCountry])
        XCTAssertFalse(try BenchmarkOptions.parse([]).runsConcurrentReads)
        XCTAssertThrowsError(try BenchmarkOptions.parse(["--w8-seconds", "0"]))
    }
}
