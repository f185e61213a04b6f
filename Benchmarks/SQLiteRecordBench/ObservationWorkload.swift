import Dispatch
import Foundation
import SQLiteRecord

/// W9: what observation costs. Commit-to-delivery latency: 1,000 single-row commits on a DatabaseQueue
/// with one observer (of `count(*)` on the table written), each commit waited for until its value arrives,
/// timed from the moment `write` returned (the commit is durable) to the moment the iterating task has the
/// value. W1 (every city inserted in one transaction) with and without one observer of the cities
/// table, interleaved, to show what an observer adds to a write. And the import of every city in commits
/// of ``importBatchSize`` (2,350 commits for cities500.csv), on a ``DatabaseQueue`` and on a
/// ``DatabasePool``, in id order, with and without one observation of the newest row (the highest id), as microseconds
/// added per commit, beside what one read of that row costs alone: an observation must cost a commit a few
/// times its refetch, not more.
enum ObservationWorkload {
    static let name = "W9"
    static let commits = 1_000
    /// Rows per commit of the import.
    static let importBatchSize = 100

    /// What the import runs on.
    enum Kind: String, CaseIterable {
        case queue, pool
    }

    /// One kind's import timings, in seconds, over all repetitions.
    struct ImportTimings {
        var alone: [Double] = []
        var observed: [Double] = []
        /// The process's CPU seconds (every thread: the writer's, the observation's, the iterating task's)
        /// during each import.
        var aloneCPU: [Double] = []
        var observedCPU: [Double] = []
        /// Seconds of one read of the newest row (the observation's refetch) on the full table, and the
        /// process's CPU seconds for it.
        var refetch: [Double] = []
        var refetchCPU: [Double] = []
        /// The median seconds of one commit (one `write` call) of each import: robust against the
        /// checkpoints and preemptions that make a whole import's time vary on a shared machine.
        var commitAlone: [Double] = []
        var commitObserved: [Double] = []
        /// The median CPU seconds the writing thread spent in one commit (`CLOCK_THREAD_CPUTIME_ID` around
        /// each `write` call), per run: the work a commit does, without the waits for a core that a shared
        /// machine adds to its wall-clock time. On a queue it holds the observation's read and the hand-off
        /// of its value; on a pool those run on other threads.
        var commitCPUAlone: [Double] = []
        var commitCPUObserved: [Double] = []
        /// The median seconds of one read of the newest row, per run.
        var refetchMedian: [Double] = []
    }

    /// The figures of all repetitions.
    struct Summary {
        var latencies: [Double] = []
        var insertAlone: [Double] = []
        var insertObserved: [Double] = []
        var imports: [Kind: ImportTimings] = [:]
        /// The number of commits of one import.
        var importCommits = 0

        /// Microseconds an observation adds to each commit of the import on `kind`, in wall-clock time or in
        /// the process's CPU time: the difference of the medians, divided by the commits.
        func addedPerCommit(_ kind: Kind, cpu: Bool = false) -> Double {
            let timings = imports[kind] ?? ImportTimings()
            guard importCommits > 0 else { return 0 }
            let observed = ObservationWorkload.median(cpu ? timings.observedCPU : timings.observed)
            let alone = ObservationWorkload.median(cpu ? timings.aloneCPU : timings.alone)
            return (observed - alone) / Double(importCommits) * 1e6
        }

        /// Microseconds an observation adds to the median commit on `kind`.
        func addedToMedianCommit(_ kind: Kind) -> Double {
            let timings = imports[kind] ?? ImportTimings()
            return
                (ObservationWorkload.median(timings.commitObserved) - ObservationWorkload.median(timings.commitAlone))
                * 1e6
        }

        /// Microseconds of the writing thread's CPU time an observation adds to the median commit on `kind`.
        func addedCPUToMedianCommit(_ kind: Kind) -> Double {
            let timings = imports[kind] ?? ImportTimings()
            return
                (ObservationWorkload.median(timings.commitCPUObserved)
                - ObservationWorkload.median(timings.commitCPUAlone)) * 1e6
        }

        var importTable: String {
            var lines = [
                "W9 import: \(importCommits) commits of \(ObservationWorkload.importBatchSize) cities, "
                    + "with and without one observation of the newest row (file, WAL)"
            ]
            for kind in Kind.allCases {
                let timings = imports[kind] ?? ImportTimings()
                let alone = ObservationWorkload.median(timings.alone)
                let observed = ObservationWorkload.median(timings.observed)
                let overhead = alone > 0 ? (observed / alone - 1) * 100 : 0
                let name = kind.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0)
                lines.append(
                    "  \(name) alone median \(String(format: "%.4f", alone)) s, observed median "
                        + "\(String(format: "%.4f", observed)) s (\(String(format: "%+.1f", overhead))%): "
                        + "\(String(format: "%+.1f", addedPerCommit(kind))) µs per commit, CPU "
                        + "\(String(format: "%+.1f", addedPerCommit(kind, cpu: true))) µs per commit; refetch alone "
                        + "\(String(format: "%.1f", ObservationWorkload.median(timings.refetch) * 1e6)) µs, CPU "
                        + "\(String(format: "%.1f", ObservationWorkload.median(timings.refetchCPU) * 1e6)) µs")
                lines.append(
                    "  \(name) median commit alone \(String(format: "%.1f", ObservationWorkload.median(timings.commitAlone) * 1e6)) µs, "
                        + "observed \(String(format: "%.1f", ObservationWorkload.median(timings.commitObserved) * 1e6)) µs: "
                        + "\(String(format: "%+.1f", addedToMedianCommit(kind))) µs per commit; median refetch alone "
                        + "\(String(format: "%.1f", ObservationWorkload.median(timings.refetchMedian) * 1e6)) µs")
                lines.append(
                    "  \(name) writer thread CPU, median commit alone "
                        + "\(String(format: "%.1f", ObservationWorkload.median(timings.commitCPUAlone) * 1e6)) µs, "
                        + "observed \(String(format: "%.1f", ObservationWorkload.median(timings.commitCPUObserved) * 1e6)) µs: "
                        + "\(String(format: "%+.1f", addedCPUToMedianCommit(kind))) µs per commit")
            }
            return lines.joined(separator: "\n")
        }

        var table: String {
            let sorted = latencies.sorted()
            let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
            let p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
            let alone = ObservationWorkload.median(insertAlone)
            let observed = ObservationWorkload.median(insertObserved)
            let overhead = alone > 0 ? (observed / alone - 1) * 100 : 0
            return """
                W9 observation: \(sorted.count) single-row commits, one observer (DatabaseQueue, file, WAL)
                  commit-to-delivery latency  median \(String(format: "%.1f", median * 1e6)) µs, \
                99th percentile \(String(format: "%.1f", p99 * 1e6)) µs
                  W1 insert alone     median \(String(format: "%.4f", alone)) s
                  W1 insert observed  median \(String(format: "%.4f", observed)) s  (\(String(format: "%+.1f", overhead))%)
                \(importTable)
                """
        }

        var json: String {
            let sorted = latencies.sorted()
            let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
            let p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
            return "{\"workload\":\"W9\",\"latency_median_s\":\(median),\"latency_p99_s\":\(p99),"
                + "\"w1_alone_s\":\(ObservationWorkload.median(insertAlone)),"
                + "\"w1_observed_s\":\(ObservationWorkload.median(insertObserved)),"
                + "\"import_commits\":\(importCommits),"
                + Kind.allCases.map { kind in
                    let timings = imports[kind] ?? ImportTimings()
                    return "\"\(kind.rawValue)_import_alone_s\":\(ObservationWorkload.median(timings.alone)),"
                        + "\"\(kind.rawValue)_import_observed_s\":\(ObservationWorkload.median(timings.observed)),"
                        + "\"\(kind.rawValue)_added_per_commit_us\":\(addedPerCommit(kind)),"
                        + "\"\(kind.rawValue)_added_cpu_per_commit_us\":\(addedPerCommit(kind, cpu: true)),"
                        + "\"\(kind.rawValue)_refetch_cpu_us\":\(ObservationWorkload.median(timings.refetchCPU) * 1e6),"
                        + "\"\(kind.rawValue)_refetch_us\":\(ObservationWorkload.median(timings.refetch) * 1e6),"
                        + "\"\(kind.rawValue)_median_commit_alone_us\":\(ObservationWorkload.median(timings.commitAlone) * 1e6),"
                        + "\"\(kind.rawValue)_median_commit_observed_us\":\(ObservationWorkload.median(timings.commitObserved) * 1e6),"
                        + "\"\(kind.rawValue)_median_commit_cpu_alone_us\":\(ObservationWorkload.median(timings.commitCPUAlone) * 1e6),"
                        + "\"\(kind.rawValue)_median_commit_cpu_observed_us\":"
                        + "\(ObservationWorkload.median(timings.commitCPUObserved) * 1e6),"
                        + "\"\(kind.rawValue)_median_refetch_us\":\(ObservationWorkload.median(timings.refetchMedian) * 1e6)"
                }.joined(separator: ",") + "}"
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// Runs `repetitions` rounds of both measurements.
    /// - Throws: what the database throws, or ``BenchmarkError`` when a value does not arrive within 10 s.
    static func runAll(input: WorkloadInput, repetitions: Int, progress: (String) -> Void) throws -> Summary {
        var summary = Summary()
        for repetition in 0..<repetitions {
            summary.latencies += try measureLatencies()
            let order = repetition.isMultiple(of: 2) ? [false, true] : [true, false]
            for observed in order {
                let seconds = try measureInsert(input.cities, observed: observed)
                if observed { summary.insertObserved.append(seconds) } else { summary.insertAlone.append(seconds) }
            }
            let kinds = repetition.isMultiple(of: 2) ? Kind.allCases : Kind.allCases.reversed()
            for kind in kinds {
                for observed in order {
                    let run = try measureImport(input.cities, on: kind, observed: observed)
                    summary.importCommits = run.commits
                    var timings = summary.imports[kind] ?? ImportTimings()
                    if observed {
                        timings.observed.append(run.seconds)
                        timings.commitObserved.append(run.medianCommit)
                        timings.commitCPUObserved.append(run.medianCommitCPU)
                        timings.observedCPU.append(run.cpu)
                    } else {
                        timings.alone.append(run.seconds)
                        timings.aloneCPU.append(run.cpu)
                        timings.refetch.append(run.refetch)
                        timings.refetchCPU.append(run.refetchCPU)
                        timings.commitAlone.append(run.medianCommit)
                        timings.commitCPUAlone.append(run.medianCommitCPU)
                        timings.refetchMedian.append(run.medianRefetch)
                    }
                    summary.imports[kind] = timings
                }
            }
            progress("W9 repetition \(repetition + 1) of \(repetitions) done")
        }
        return summary
    }

    /// The values an observation delivered and when, handed from the iterating task to the writer's thread.
    /// NSLock guards `arrivals`.
    private final class Arrivals: @unchecked Sendable {
        private let lock = NSLock()
        private var arrivals: [(value: Int, seconds: Double)] = []
        let signal = DispatchSemaphore(value: 0)

        func add(_ value: Int) {
            let now = MonotonicClock.seconds()
            lock.lock()
            arrivals.append((value, now))
            lock.unlock()
            signal.signal()
        }

        /// Waits for the next value; nil after 10 s.
        func next() -> (value: Int, seconds: Double)? {
            guard signal.wait(timeout: .now() + 10) == .success else { return nil }
            lock.lock()
            defer { lock.unlock() }
            return arrivals.removeFirst()
        }
    }

    private static func measureLatencies() throws -> [Double] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let queue = try LibraryWorkloads.open(path: directory.databasePath)
        try queue.write { db in try db.execute(sql: "CREATE TABLE ticks(id INTEGER PRIMARY KEY, at REAL NOT NULL)") }
        let arrivals = Arrivals()
        let observation = ValueObservation.tracking { db in
            try db.scalar(Int.self, sql: "SELECT count(*) FROM ticks") ?? -1
        }.checkingOtherConnections(every: nil)
        let task = Task {
            for try await count in observation.values(in: queue) { arrivals.add(count) }
        }
        defer { task.cancel() }
        guard arrivals.next()?.value == 0 else { throw BenchmarkError("W9: the first value did not arrive") }
        var latencies: [Double] = []
        latencies.reserveCapacity(commits)
        for index in 1...commits {
            try queue.write { db in
                try db.execute(sql: "INSERT INTO ticks(at) VALUES (?)", arguments: [Double(index)])
            }
            let committed = MonotonicClock.seconds()
            guard let arrival = arrivals.next(), arrival.value == index else {
                throw BenchmarkError("W9: the value after commit \(index) did not arrive within 10 s")
            }
            latencies.append(arrival.seconds - committed)
        }
        return latencies
    }

    private static func measureInsert(_ cities: [BenchCity], observed: Bool) throws -> Double {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try WorkloadRunner.prepareDatabase(at: directory.databasePath, for: .insert, cities: cities)
        let queue = try LibraryWorkloads.open(path: directory.databasePath)
        var task: Task<Void, any Error>?
        if observed {
            let arrivals = Arrivals()
            let observation = ValueObservation.tracking { db in
                try db.scalar(Int.self, sql: "SELECT count(*) FROM cities") ?? -1
            }.checkingOtherConnections(every: nil)
            task = Task { for try await count in observation.values(in: queue) { arrivals.add(count) } }
            guard arrivals.next() != nil else { throw BenchmarkError("W9: the observer did not start") }
        }
        defer { task?.cancel() }
        return try MonotonicClock.measure { try LibraryWorkloads.insert(cities, into: queue) }.seconds
    }

    /// The observation of the import: the city with the highest id, read as an observation reads.
    static func newestCity(_ db: Database) throws -> BenchCity? {
        try BenchCity.fetchOne(db, where: [:], orderBy: [.descending("id")])
    }

    /// Imports every city in commits of ``importBatchSize`` on a fresh file, through a queue or a pool, with
    /// or without one observation of the newest row; an observed import ends when the observation has
    /// delivered the newest row of the last commit. Without the observation, it also times reads of the
    /// newest row on the full table, one `read` each, as the observation refetches it.
    /// - Throws: what the database throws, or ``BenchmarkError`` when the last value does not arrive within
    ///   10 s or the table does not hold every city.
    static func measureImport(
        _ cities: [BenchCity], on kind: Kind, observed: Bool
    ) throws -> (
        seconds: Double, cpu: Double, commits: Int, refetch: Double, refetchCPU: Double, medianCommit: Double,
        medianCommitCPU: Double, medianRefetch: Double
    ) {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try WorkloadRunner.prepareDatabase(at: directory.databasePath, for: .insert, cities: cities)
        let writer: any DatabaseWriter =
            kind == .pool
            ? try DatabasePool(path: directory.databasePath) : try DatabaseQueue(path: directory.databasePath)
        try writer.writeWithoutTransaction { db in try db.execute(sql: BenchSchema.pragmas) }
        // In id order, so that every commit changes the newest row, and the highest id arrives only with
        // the last commit's value.
        let sorted = cities.sorted { ($0.id ?? 0) < ($1.id ?? 0) }
        let newestID = sorted.last?.id
        let batches = stride(from: 0, to: sorted.count, by: importBatchSize).map {
            Array(sorted[$0..<min($0 + importBatchSize, sorted.count)])
        }
        var task: Task<Void, any Error>?
        let arrivals = Arrivals()
        if observed {
            let observation = ValueObservation.tracking(newestCity).checkingOtherConnections(every: nil)
            task = Task {
                for try await city in observation.values(in: writer) { arrivals.add(Int(city?.id ?? -1)) }
            }
            guard arrivals.next()?.value == -1 else { throw BenchmarkError("W9: the first value was not nil") }
        }
        defer { task?.cancel() }
        var commitSeconds: [Double] = []
        commitSeconds.reserveCapacity(batches.count)
        var commitCPUSeconds: [Double] = []
        commitCPUSeconds.reserveCapacity(batches.count)
        let cpuStart = processCPUSeconds()
        let seconds = try MonotonicClock.measure {
            for batch in batches {
                let began = MonotonicClock.seconds()
                let cpuBegan = threadCPUSeconds()
                try writer.write { db in
                    for var city in batch { try city.insert(db) }
                }
                commitCPUSeconds.append(threadCPUSeconds() - cpuBegan)
                commitSeconds.append(MonotonicClock.seconds() - began)
            }
            if observed {
                // Every final state is delivered: the import ends when the last commit's value arrives.
                while true {
                    guard let arrival = arrivals.next() else {
                        throw BenchmarkError("W9: the newest city after the last commit did not arrive within 10 s")
                    }
                    if arrival.value == Int(newestID ?? -1) { break }
                }
            }
        }.seconds
        let cpu = processCPUSeconds() - cpuStart
        let stored = try writer.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM cities") ?? -1 }
        guard stored == cities.count else {
            throw BenchmarkError("W9 import (\(kind.rawValue)): \(stored) rows stored, expected \(cities.count)")
        }
        var refetch = 0.0
        var refetchCPU = 0.0
        var refetchSeconds: [Double] = []
        if !observed {
            let reads = batches.count
            let refetchCPUStart = processCPUSeconds()
            refetch =
                try MonotonicClock.measure {
                    for _ in 0..<reads {
                        let began = MonotonicClock.seconds()
                        let newest = try writer.read(newestCity)
                        refetchSeconds.append(MonotonicClock.seconds() - began)
                        guard newest?.id == newestID else {
                            throw BenchmarkError("W9: the newest city read back is not the one with the highest id")
                        }
                    }
                }.seconds / Double(max(reads, 1))
            refetchCPU = (processCPUSeconds() - refetchCPUStart) / Double(max(reads, 1))
        }
        return (
            seconds, cpu, batches.count, refetch, refetchCPU, median(commitSeconds), median(commitCPUSeconds),
            median(refetchSeconds)
        )
    }

    /// The CPU seconds every thread of the process used so far (`CLOCK_PROCESS_CPUTIME_ID`): on a shared
    /// machine, what the work cost whatever else runs, where wall-clock time also counts waits for a core.
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The CPU seconds the calling thread used so far (`CLOCK_THREAD_CPUTIME_ID`). A queue's `write` runs
    /// its block on the calling thread (`DispatchQueue.sync`), so this counts a commit's own work.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
