import Foundation
import SQLiteRecord

/// W9-rows: what observation by row saves. 100 observations, each of one row of a 100-row table, and 1,000
/// commits on a DatabaseQueue, each updating one row (in turn): the observed reads per commit and the
/// writer's cost per commit (the median `write` call, in wall-clock time and in the writing thread's CPU
/// time: on a queue each commit's observed reads run inside its `write`). Three ways, interleaved: no
/// observer; each row observed by key (`fetchOne(_:id:)`, narrowed to its row: one read per commit); each
/// row observed through SQL of its own (`SELECT ... WHERE id = ?`, which observes the table: 100 reads per
/// commit, as every observation did before reads were narrowed to rows).
enum RowObservationWorkload {
    static let name = "W9-ROWS"
    static let rows = 100
    static let commits = 1_000

    /// How the rows are observed.
    enum Mode: String, CaseIterable {
        case alone, byKey = "by key", byTable = "by table"
    }

    /// One mode's figures over all repetitions: reads per commit, and the medians of each run.
    struct Timings {
        var readsPerCommit: [Double] = []
        var medianCommit: [Double] = []
        var medianCommitCPU: [Double] = []
    }

    struct Summary {
        var modes: [Mode: Timings] = [:]

        var table: String {
            var lines = [
                "W9-rows: \(RowObservationWorkload.rows) observations of \(RowObservationWorkload.rows) rows, "
                    + "\(RowObservationWorkload.commits) commits of one row each (DatabaseQueue, file, WAL)"
            ]
            for mode in Mode.allCases {
                let timings = modes[mode] ?? Timings()
                let name = mode.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
                lines.append(
                    "  \(name) reads per commit \(String(format: "%.2f", median(timings.readsPerCommit))), "
                        + "median commit \(String(format: "%.1f", median(timings.medianCommit) * 1e6)) µs, "
                        + "writer thread CPU \(String(format: "%.1f", median(timings.medianCommitCPU) * 1e6)) µs")
            }
            return lines.joined(separator: "\n")
        }

        var json: String {
            "{\"workload\":\"W9-rows\","
                + Mode.allCases.map { mode in
                    let timings = modes[mode] ?? Timings()
                    let key = mode.rawValue.replacingOccurrences(of: " ", with: "_")
                    return "\"\(key)_reads_per_commit\":\(median(timings.readsPerCommit)),"
                        + "\"\(key)_median_commit_us\":\(median(timings.medianCommit) * 1e6),"
                        + "\"\(key)_median_commit_cpu_us\":\(median(timings.medianCommitCPU) * 1e6)"
                }.joined(separator: ",") + "}"
        }
    }

    static func median(_ values: [Double]) -> Double { ObservationWorkload.median(values) }

    /// A row of the observed table.
    struct Tick: Record, Sendable, Equatable {
        var id: Int64?
        var value: Int
        static let tableName = "ticks"
    }

    /// Counts the observed reads; NSLock guards `count`.
    private final class ReadCount: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() {
            lock.lock()
            count += 1
            lock.unlock()
        }
        var value: Int {
            lock.lock()
            defer { lock.unlock() }
            return count
        }
    }

    /// Runs `repetitions` rounds of the three modes, in an order that alternates.
    /// - Throws: what the database throws, or ``BenchmarkError`` when the first values do not arrive or the
    ///   reads are not the ones expected.
    static func runAll(repetitions: Int, progress: (String) -> Void) throws -> Summary {
        var summary = Summary()
        for repetition in 0..<repetitions {
            let modes = repetition.isMultiple(of: 2) ? Mode.allCases : Mode.allCases.reversed()
            for mode in modes {
                let run = try measure(mode)
                var timings = summary.modes[mode] ?? Timings()
                timings.readsPerCommit.append(run.readsPerCommit)
                timings.medianCommit.append(run.medianCommit)
                timings.medianCommitCPU.append(run.medianCommitCPU)
                summary.modes[mode] = timings
            }
            progress("W9-rows repetition \(repetition + 1) of \(repetitions) done")
        }
        return summary
    }

    private static func measure(
        _ mode: Mode
    ) throws -> (
        readsPerCommit: Double, medianCommit: Double, medianCommitCPU: Double
    ) {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let queue = try LibraryWorkloads.open(path: directory.databasePath)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE ticks(id INTEGER PRIMARY KEY, value INTEGER NOT NULL)")
            for id in 1...rows { try db.execute(sql: "INSERT INTO ticks(id, value) VALUES (?, 0)", arguments: [id]) }
        }
        let reads = ReadCount()
        let started = DispatchSemaphore(value: 0)
        var tasks: [Task<Void, any Error>] = []
        defer { for task in tasks { task.cancel() } }
        if mode != .alone {
            for id in 1...Int64(rows) {
                let observation = ValueObservation.tracking { (db: Database) -> Tick? in
                    reads.increment()
                    if mode == .byKey { return try Tick.fetchOne(db, id: id) }
                    return try Tick.fetch(db, sql: "SELECT * FROM ticks WHERE id = ?", arguments: [id]).first
                }.checkingOtherConnections(every: nil)
                tasks.append(
                    Task {
                        var first = true
                        for try await _ in observation.values(in: queue) where first {
                            first = false
                            started.signal()
                        }
                    })
            }
            for _ in 1...rows {
                guard started.wait(timeout: .now() + 10) == .success else {
                    throw BenchmarkError("W9-rows: the first values did not arrive within 10 s")
                }
            }
        }
        let readsBefore = reads.value
        var commitSeconds: [Double] = []
        var commitCPUSeconds: [Double] = []
        commitSeconds.reserveCapacity(commits)
        commitCPUSeconds.reserveCapacity(commits)
        for index in 0..<commits {
            let id = index % rows + 1
            let began = MonotonicClock.seconds()
            let cpuBegan = ObservationWorkload.threadCPUSeconds()
            try queue.write { db in
                try db.execute(sql: "UPDATE ticks SET value = ? WHERE id = ?", arguments: [index + 1, id])
            }
            commitCPUSeconds.append(ObservationWorkload.threadCPUSeconds() - cpuBegan)
            commitSeconds.append(MonotonicClock.seconds() - began)
        }
        // On a queue each commit's reads ran inside its write: the count is final.
        let readsPerCommit = Double(reads.value - readsBefore) / Double(commits)
        let expected: Double = mode == .alone ? 0 : mode == .byKey ? 1 : Double(rows)
        guard readsPerCommit == expected else {
            throw BenchmarkError("W9-rows (\(mode.rawValue)): \(readsPerCommit) reads per commit, expected \(expected)")
        }
        return (readsPerCommit, median(commitSeconds), median(commitCPUSeconds))
    }
}
