import Foundation
import SQLiteRecord

/// W8: one writer inserting batches of cities while two reader threads run W4's filtered fetches (one
/// `fetch(_:where:orderBy:limit:)` per `read`), through a `DatabasePool` and through a `DatabaseQueue`, on
/// the same data in the same run. Not a library-against-baseline workload: it measures what a pool buys.
///
/// Each side runs for a fixed time on a fresh copy of the data (every city, indexed, WAL mode, `synchronous
/// = NORMAL` on the writer). It counts the reads and the rows the writer committed, and times every read call
/// from the moment it is made (so a read that waits for the queue's write counts its wait).
enum ConcurrentReadsWorkload {
    static let name = "W8"
    static let title = "2 reader threads of W4 fetches beside a writer"
    static let readerThreads = 2
    /// Rows per write transaction.
    static let batchSize = 100
    /// Seconds each side runs per repetition, by default.
    static let defaultSeconds = 3.0

    /// What runs the reads and writes.
    enum Kind: String, CaseIterable {
        case pool, queue
    }

    /// What one side measured in one run.
    struct Measurement {
        let kind: Kind
        let seconds: Double
        let reads: Int
        let rowsRead: Int
        let rowsWritten: Int
        /// The longest a single read call took, waiting included.
        let longestRead: Double
        /// The CPU time the reader threads used, in seconds: with a queue, a read runs on its caller's thread
        /// too, so both sides count the same work. It shows what a read costs whatever else the machine runs.
        let readerCPU: Double

        var readsPerSecond: Double { Double(reads) / seconds }
        var readerCPUPerRead: Double { reads > 0 ? readerCPU / Double(reads) : .nan }
        var rowsWrittenPerSecond: Double { Double(rowsWritten) / seconds }
    }

    /// The counts the threads add to, under `lock`.
    private final class Totals: @unchecked Sendable {
        // @unchecked Sendable: every property is read and written only with `lock` held.
        private let lock = NSLock()
        private(set) var reads = 0
        private(set) var rowsRead = 0
        private(set) var rowsWritten = 0
        private(set) var longestRead = 0.0
        private(set) var readerCPU = 0.0
        private(set) var failure: (any Error)?

        func add(reads: Int, rows: Int, longest: Double, cpu: Double) {
            lock.lock()
            self.reads += reads
            rowsRead += rows
            longestRead = max(longestRead, longest)
            readerCPU += cpu
            lock.unlock()
        }
        func add(written: Int) {
            lock.lock()
            rowsWritten += written
            lock.unlock()
        }
        func fail(_ error: any Error) {
            lock.lock()
            if failure == nil { failure = error }
            lock.unlock()
        }
    }

    /// Runs one side for `seconds` on a fresh database.
    /// - Throws: ``BenchmarkError`` or the library's errors, from setting up or from any thread.
    static func run(_ kind: Kind, input: WorkloadInput, seconds: Double) throws -> Measurement {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.databasePath
        try WorkloadRunner.prepareDatabase(at: path, for: .fetchByCountry, cities: input.cities)
        let writer: any DatabaseWriter =
            kind == .pool
            ? try DatabasePool(path: path, options: .init(maximumReaderCount: readerThreads))
            : try DatabaseQueue(path: path)
        try writer.writeWithoutTransaction { db in try db.execute(sql: BenchSchema.pragmas) }

        let totals = Totals()
        let codes = input.countryCodes
        let cities = input.cities
        let start = MonotonicClock.seconds()
        let deadline = start + seconds
        let done = DispatchGroup()
        for reader in 0..<readerThreads {
            done.enter()
            Thread {
                defer { done.leave() }
                var reads = 0
                var rows = 0
                var longest = 0.0
                var index = reader * max(1, codes.count / readerThreads)
                while MonotonicClock.seconds() < deadline, !codes.isEmpty {
                    let code = codes[index % codes.count]
                    index += 1
                    let began = MonotonicClock.seconds()
                    do {
                        let page = try writer.read { db in
                            try BenchCity.fetch(
                                db, where: ["country_code": code], orderBy: [.descending("population")],
                                limit: BenchSchema.countryPageSize)
                        }
                        rows += page.count
                    } catch {
                        totals.fail(error)
                        break
                    }
                    longest = max(longest, MonotonicClock.seconds() - began)
                    reads += 1
                }
                totals.add(reads: reads, rows: rows, longest: longest, cpu: threadCPUSeconds())
            }.start()
        }
        done.enter()
        Thread {
            defer { done.leave() }
            var next = 0
            while MonotonicClock.seconds() < deadline, !cities.isEmpty {
                var batch = (0..<batchSize).map { offset in
                    var city = cities[(next + offset) % cities.count]
                    city.id = nil
                    return city
                }
                next += batchSize
                do {
                    try writer.write { db in
                        for index in batch.indices { try batch[index].insert(db) }
                    }
                } catch {
                    totals.fail(error)
                    break
                }
                totals.add(written: batch.count)
            }
        }.start()
        done.wait()
        let elapsed = MonotonicClock.seconds() - start
        if let failure = totals.failure { throw failure }
        let stored = try writer.read { db in try db.scalar(Int.self, sql: "SELECT count(*) FROM cities") ?? -1 }
        guard stored == cities.count + totals.rowsWritten else {
            throw BenchmarkError(
                "W8 (\(kind.rawValue)): \(stored) rows stored, expected \(cities.count) + \(totals.rowsWritten)")
        }
        return Measurement(
            kind: kind, seconds: elapsed, reads: totals.reads, rowsRead: totals.rowsRead,
            rowsWritten: totals.rowsWritten, longestRead: totals.longestRead, readerCPU: totals.readerCPU)
    }

    /// The calling thread's CPU time so far, in seconds (`CLOCK_THREAD_CPUTIME_ID`).
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Runs both sides `repetitions` times, alternating which goes first.
    /// - Throws: what ``run(_:input:seconds:)`` throws.
    static func runAll(
        input: WorkloadInput, seconds: Double, repetitions: Int, progress: (String) -> Void = { _ in }
    ) throws -> [Kind: [Measurement]] {
        var results: [Kind: [Measurement]] = [:]
        for repetition in 0..<repetitions {
            let order: [Kind] = repetition.isMultiple(of: 2) ? [.pool, .queue] : [.queue, .pool]
            for kind in order {
                results[kind, default: []].append(try run(kind, input: input, seconds: seconds))
            }
            progress("W8 repetition \(repetition + 1) of \(repetitions) done")
        }
        return results
    }

    /// The medians of each side: reads per second, rows written per second, and the longest read of all runs.
    struct Summary {
        let poolReadsPerSecond: Double
        let queueReadsPerSecond: Double
        let poolRowsWrittenPerSecond: Double
        let queueRowsWrittenPerSecond: Double
        let poolLongestRead: Double
        let queueLongestRead: Double
        let poolCPUPerRead: Double
        let queueCPUPerRead: Double
        let seconds: Double
        let repetitions: Int

        var readRatio: Double { poolReadsPerSecond / queueReadsPerSecond }

        init(_ results: [Kind: [Measurement]], seconds: Double) {
            let pool = results[.pool] ?? []
            let queue = results[.queue] ?? []
            poolReadsPerSecond = pool.map(\.readsPerSecond).median
            queueReadsPerSecond = queue.map(\.readsPerSecond).median
            poolRowsWrittenPerSecond = pool.map(\.rowsWrittenPerSecond).median
            queueRowsWrittenPerSecond = queue.map(\.rowsWrittenPerSecond).median
            poolLongestRead = pool.map(\.longestRead).max() ?? .nan
            queueLongestRead = queue.map(\.longestRead).max() ?? .nan
            poolCPUPerRead = pool.map(\.readerCPUPerRead).median
            queueCPUPerRead = queue.map(\.readerCPUPerRead).median
            self.seconds = seconds
            self.repetitions = pool.count
        }

        /// The lines for people.
        var table: String {
            func format(_ value: Double, _ pattern: String) -> String { String(format: pattern, value) }
            return """
                W8 \(ConcurrentReadsWorkload.title), \(repetitions) × \(format(seconds, "%.0f")) s per side, \
                medians (longest read: of all runs)
                  pool:  \(format(poolReadsPerSecond, "%.0f")) reads/s, \
                \(format(poolRowsWrittenPerSecond, "%.0f")) rows written/s, longest read \
                \(format(poolLongestRead * 1000, "%.1f")) ms, reader CPU \
                \(format(poolCPUPerRead * 1000, "%.3f")) ms/read
                  queue: \(format(queueReadsPerSecond, "%.0f")) reads/s, \
                \(format(queueRowsWrittenPerSecond, "%.0f")) rows written/s, longest read \
                \(format(queueLongestRead * 1000, "%.1f")) ms, reader CPU \
                \(format(queueCPUPerRead * 1000, "%.3f")) ms/read
                  reads/s pool / queue: \(format(readRatio, "%.2f")) (goal 1.7)
                """
        }

        /// One JSON line, as the other workloads print theirs.
        var json: String {
            func number(_ value: Double, _ digits: Int) -> String {
                value.isFinite ? String(format: "%.\(digits)g", value) : "null"
            }
            let fields = [
                "\"workload\":\"W8\"",
                "\"seconds_per_side\":\(number(seconds, 4))",
                "\"repetitions\":\(repetitions)",
                "\"reader_threads\":\(ConcurrentReadsWorkload.readerThreads)",
                "\"batch_rows\":\(ConcurrentReadsWorkload.batchSize)",
                "\"pool_reads_per_s\":\(number(poolReadsPerSecond, 6))",
                "\"queue_reads_per_s\":\(number(queueReadsPerSecond, 6))",
                "\"read_ratio\":\(number(readRatio, 4))",
                "\"pool_rows_written_per_s\":\(number(poolRowsWrittenPerSecond, 6))",
                "\"queue_rows_written_per_s\":\(number(queueRowsWrittenPerSecond, 6))",
                "\"pool_longest_read_s\":\(number(poolLongestRead, 4))",
                "\"queue_longest_read_s\":\(number(queueLongestRead, 4))",
                "\"pool_reader_cpu_s_per_read\":\(number(poolCPUPerRead, 4))",
                "\"queue_reader_cpu_s_per_read\":\(number(queueCPUPerRead, 4))",
            ]
            return "{" + fields.joined(separator: ",") + "}"
        }
    }
}
