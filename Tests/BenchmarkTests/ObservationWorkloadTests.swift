import Foundation
import XCTest

@testable import SQLiteRecordBench

/// W9 on the 200-city sample, one repetition: every one of the 1,000 commits is delivered (checked inside
/// the run, value by value), and the report carries every figure. Timings are not asserted.
final class ObservationWorkloadTests: XCTestCase {
    func testEveryCommitIsDeliveredAndEveryFigureReported() throws {
        let input = try BenchmarkAgreementTests.sampleInput()
        let summary = try ObservationWorkload.runAll(input: input, repetitions: 1) { _ in }
        XCTAssertEqual(summary.latencies.count, ObservationWorkload.commits)
        XCTAssertEqual(summary.insertAlone.count, 1)
        XCTAssertEqual(summary.insertObserved.count, 1)
        for field in [
            "\"workload\":\"W9\"", "\"latency_median_s\":", "\"latency_p99_s\":", "\"w1_alone_s\":",
            "\"w1_observed_s\":", "\"queue_median_commit_cpu_alone_us\":", "\"pool_median_commit_cpu_observed_us\":",
        ] {
            XCTAssertTrue(summary.json.contains(field), "\(field) in \(summary.json)")
        }
        XCTAssertTrue(summary.table.contains("commit-to-delivery latency"), summary.table)
        XCTAssertTrue(summary.table.contains("queue writer thread CPU, median commit alone"), summary.table)
        XCTAssertEqual(summary.imports[.queue]?.commitCPUObserved.count, 1)
        XCTAssertEqual(summary.imports[.pool]?.commitCPUAlone.count, 1)
    }

    func testW9IsChosenByName() throws {
        let only = try BenchmarkOptions.parse(["--workloads", "w9"])
        XCTAssertTrue(only.runsObservation)
        XCTAssertEqual(only.workloads, [])
        let mixed = try BenchmarkOptions.parse(["--workloads", "W1,W8,W9"])
        XCTAssertTrue(mixed.runsObservation)
        XCTAssertTrue(mixed.runsConcurrentReads)
        XCTAssertEqual(mixed.workloads, [.insert])
    }
}
