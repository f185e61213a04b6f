import Foundation
import XCTest

@testable import SQLiteRecordBench

/// The command line of the PostgreSQL run: `--workloads` names its workloads when `--postgres` is given, in
/// either order, and SQLite's otherwise. The run itself needs a server and the trait: Scripts/postgres-bench.sh.
final class PostgresWorkloadTests: XCTestCase {
    func testPostgresTakesItsOwnWorkloadNamesInAnyOrderOfFlags() throws {
        let options = try BenchmarkOptions.parse([
            "--workloads", "w7-UPDATE,W1-batch,W2", "--postgres", "host=/tmp/s port=5432", "--repetitions", "3",
        ])
        XCTAssertEqual(options.postgresURL, "host=/tmp/s port=5432")
        XCTAssertEqual(options.postgresWorkloads, [.insertBatch, .fetchAll, .update])
        XCTAssertEqual(options.repetitions, 3)

        let all = try BenchmarkOptions.parse(["--postgres", "postgresql://u@127.0.0.1/db"])
        // W10 builds an index of its own first, so it runs only when named, as on SQLite.
        XCTAssertEqual(all.postgresWorkloads, PostgresWorkload.allCases.filter { $0 != .fullTextSearch })
        XCTAssertEqual(
            all.postgresWorkloads.map(\.rawValue),
            [
                "W1", "W1-batch", "W1-copy", "W2", "W2-row", "W3", "W3-row", "W4", "W4-row", "W6", "W6-association",
                "W7", "W7-update",
            ])
        XCTAssertEqual(try BenchmarkOptions.parse(["--postgres", "host=/tmp", "--workloads", "w10"]).postgresWorkloads, [
            .fullTextSearch
        ])
    }

    /// The row-initializer twins run the hand-written side of their Codable workload.
    func testTheRowInitializerTwinsParseAndNameTheirCodableWorkload() throws {
        let options = try BenchmarkOptions.parse(["--postgres", "host=/tmp", "--workloads", "w4-row,W2-ROW,W3,W3-row"])
        XCTAssertEqual(options.postgresWorkloads, [.fetchAllRow, .lookUp, .lookUpRow, .fetchByCountryRow])
        XCTAssertEqual(options.postgresWorkloads.map(\.codableTwin), [.fetchAll, nil, .lookUp, .fetchByCountry])
        XCTAssertFalse(options.postgresWorkloads.contains(where: \.writes))
    }

    func testAPostgresOnlyWorkloadWithoutPostgresIsAnUnknownSQLiteWorkload() {
        XCTAssertThrowsError(try BenchmarkOptions.parse(["--workloads", "W1-batch"])) { error in
            XCTAssertTrue("\(error)".hasPrefix("Unknown workload \"W1-BATCH\" in --workloads"), "\(error)")
        }
        XCTAssertThrowsError(try BenchmarkOptions.parse(["--postgres", "host=/tmp", "--workloads", "W5"])) { error in
            XCTAssertEqual(
                "\(error)",
                "Unknown PostgreSQL workload \"W5\" in --workloads; they are W1, W1-batch, W1-copy, W2, W2-row, W3, "
                    + "W3-row, W4, W4-row, W6, W6-association, W7, W7-update, W10")
        }
    }

    func testSQLiteWorkloadsAreParsedAsBefore() throws {
        let options = try BenchmarkOptions.parse(["--workloads", "W3,W1"])
        XCTAssertNil(options.postgresURL)
        XCTAssertEqual(options.workloads, [.insert, .lookUp])
        let special = try BenchmarkOptions.parse(["--workloads", "W8"])
        XCTAssertEqual(special.workloads, [])
        XCTAssertTrue(special.runsConcurrentReads)
    }

    func testPostgresNeedsAValue() {
        XCTAssertThrowsError(try BenchmarkOptions.parse(["--postgres"]))
    }
}
