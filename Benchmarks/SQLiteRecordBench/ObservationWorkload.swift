import Dispatch
import Foundation
import SQLiteRecord

/// W9: what observation costs. Commit-to-delivery latency: 1,000 single-row commits on a DatabaseQueue
/// with one observer (of `count(*)` on the table written), each commit waited for until its value arrives,
/// timed from the moment `write` returned (the commit is durable) to the moment the iterating task has the
/// value. And W1 (every city inserted in one transaction) with and without one observer of the cities
/// table, interleaved, to show what an observer adds to a write.
enum ObservationWorkload {
    static let name = "W9"
    static let commits = 1_000

    /// The figures of all repetitions.
    struct Summary {
        var latencies: [Double] = []
        var insertAlone: [Double] = []
        var insertObserved: [Double] = []

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
                """
        }

        var json: String {
            let sorted = latencies.sorted()
            let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
            let p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
            return "{\"workload\":\"W9\",\"latency_median_s\":\(median),\"latency_p99_s\":\(p99),"
                + "\"w1_alone_s\":\(ObservationWorkload.median(insertAlone)),"
                + "\"w1_observed_s\":\(ObservationWorkload.median(insertObserved))}"
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
}
