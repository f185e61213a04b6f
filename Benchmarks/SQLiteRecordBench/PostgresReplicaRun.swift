#if PostgreSQL
import Dispatch
import Foundation
import PostgresRecord
import SQLiteRecord

/// The replica run (`--postgres URL --postgres-standby URL`): what a ``PostgresReplicaPool`` adds to a call,
/// against a plain ``PostgresPool`` on the same server in the same run. `Scripts/postgres-replica-bench.sh`
/// starts a primary and a hot standby of it and runs this.
///
/// - R1 `fetchOne(_:id:)` through a `PostgresPool` on the standby, each lookup in a read-only transaction of
///   its own: the reference.
/// - R1-replica: the same lookups through the replica pool's `read`, which picks the standby.
/// - R1-after: the same through `read(after: pool.lastWriteLSN)` on the caught-up standby: one more
///   statement, `pg_last_wal_replay_lsn()`, before each read. Its excess over R1 is a read-your-write
///   read's added latency.
/// - R2 `update(_:)` of one city through a `PostgresPool` on the primary: the reference for writes.
/// - R2-replica: the same through the replica pool's `write`, which reads `pg_current_wal_lsn()` after
///   `COMMIT`.
enum PostgresReplicaRun {
    /// The lookups per run of R1, R1-replica and R1-after; R2 and R2-replica make a tenth as many updates.
    static let lookupCount = 2_000

    /// Fills `bench_replica.cities` on the primary, waits for the standby to replay it, and times the five
    /// workloads `repetitions` times each, call by call, the sides interleaved. Returns the table.
    /// - Throws: ``BenchmarkError`` when a lookup finds another city than the one stored or the standby does
    ///   not catch up, or what the library throws.
    static func run(
        primary: String, standby: String, input: WorkloadInput, repetitions: Int,
        progress: @escaping @Sendable (String) -> Void
    ) throws -> String {
        let setUp = try PostgresBaselineConnection(primary, schema: "public")
        try setUp.execute(PostgresBenchSchema.create(in: schema))
        let filler = try PostgresBaselineWorkloads(primary, schema: schema)
        try filler.copy(input.cities)
        defer { try? setUp.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE") }
        let box = ResultBox()
        let ids = Array(input.lookupIDs.prefix(lookupCount))
        let expected = Dictionary(input.cities.map { ($0.id ?? 0, $0) }, uniquingKeysWith: { first, _ in first })
        let signal = DispatchSemaphore(value: 0)
        Task {
            do {
                let table = try await measure(
                    primary: inSchema(primary), standby: inSchema(standby), ids: ids, expected: expected,
                    repetitions: repetitions, progress: progress)
                box.set(.success(table))
            } catch {
                box.set(.failure(error))
            }
            signal.signal()
        }
        signal.wait()
        return try box.get()
    }

    private static let schema = "bench_replica"

    private static func inSchema(_ connectionString: String) -> String {
        if connectionString.contains("://") {
            let separator = connectionString.contains("?") ? "&" : "?"
            return connectionString + separator + "options=-csearch_path%3D\(schema)"
        }
        return connectionString + " options=-csearch_path=\(schema)"
    }

    private static func measure(
        primary: String, standby: String, ids: [Int64], expected: [Int64: BenchCity], repetitions: Int,
        progress: @Sendable (String) -> Void
    ) async throws -> String {
        let primaryPool = PostgresPool(primary, maximumConnections: 1)
        let standbyPool = PostgresPool(standby, maximumConnections: 1)
        let pool = PostgresReplicaPool(
            primary: PostgresPool(primary, maximumConnections: 1),
            replicas: [PostgresPool(standby, maximumConnections: 1)],
            options: .init(replayTimeout: 30))
        try await pool.write { try $0.execute("ANALYZE cities") }
        let caughtUp = try await pool.read(after: pool.lastWriteLSN) { connection in
            try connection.query("SELECT pg_is_in_recovery()")[0].decode(Bool.self, at: 0)
        }
        guard caughtUp else { throw BenchmarkError("R1: the standby did not replay the cities within 30 s") }

        let names = ["R1", "R1-replica", "R1-after", "R2", "R2-replica"]
        let titles = [
            "fetchOne(_:id:), PostgresPool on the standby", "fetchOne(_:id:), replica pool read",
            "fetchOne(_:id:), replica pool read(after: lastWriteLSN)", "update(_:), PostgresPool on the primary",
            "update(_:), replica pool write",
        ]
        let updated = Array(ids.prefix(lookupCount / 10)).compactMap { expected[$0] }
        func lookUp(_ side: Int, _ id: Int64) async throws -> Double {
            let start = MonotonicClock.seconds()
            let city: BenchCity?
            switch side {
            case 0: city = try await BenchCity.fetchOne(standbyPool, id: id)
            case 1: city = try await pool.read { try BenchCity.fetchOne($0, id: id) }
            default: city = try await pool.read(after: pool.lastWriteLSN) { try BenchCity.fetchOne($0, id: id) }
            }
            let seconds = MonotonicClock.seconds() - start
            guard let city, city.id == id, city.name == expected[id]?.name else {
                throw BenchmarkError("\(names[side]): the lookup of \(id) found \(String(describing: city))")
            }
            return seconds
        }
        func update(_ side: Int, _ city: BenchCity) async throws -> Double {
            let start = MonotonicClock.seconds()
            if side == 3 { try await city.update(primaryPool) } else { try await city.update(pool) }
            return MonotonicClock.seconds() - start
        }
        // One repetition: every id looked up by each side in turn (the sides' order rotated from one id to the
        // next), then every update, so that the machine's changing load falls on all sides alike; each side's
        // calls summed.
        func repetition() async throws -> [Double] {
            var seconds = Array(repeating: 0.0, count: names.count)
            for (index, id) in ids.enumerated() {
                for offset in 0..<3 {
                    let side = (index + offset) % 3
                    seconds[side] += try await lookUp(side, id)
                }
            }
            for (index, city) in updated.enumerated() {
                for offset in 0..<2 {
                    let side = 3 + (index + offset) % 2
                    seconds[side] += try await update(side, city)
                }
            }
            return seconds
        }
        _ = try await repetition()
        progress("warm-up done")
        var seconds = Array(repeating: [Double](), count: names.count)
        for number in 1...max(1, repetitions) {
            for (side, time) in try await repetition().enumerated() { seconds[side].append(time) }
            progress("repetition \(number) of \(repetitions) done")
        }
        var lines = [
            "| workload | calls | median ms | µs per call | ratio | added µs per call |",
            "| --- | ---: | ---: | ---: | ---: | ---: |",
        ]
        for side in names.indices {
            let calls = side < 3 ? ids.count : updated.count
            let reference = side < 3 ? 0 : 3
            let median = seconds[side].median
            let perCall = median / Double(calls) * 1e6
            let referencePerCall = seconds[reference].median / Double(calls) * 1e6
            lines.append(
                "| \(names[side]) \(titles[side]) | \(calls) | \(format(median * 1e3)) | \(format(perCall)) | "
                    + "\(String(format: "%.2f", median / seconds[reference].median)) | "
                    + "\(side == reference ? "-" : format(perCall - referencePerCall)) |")
        }
        return lines.joined(separator: "\n")
    }

    private static func format(_ value: Double) -> String { String(format: "%.0f", value) }

    /// The async run's result, handed to the waiting thread; the lock guards `result`.
    private final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<String, any Error> = .failure(BenchmarkError("the replica run did not finish"))

        func set(_ value: Result<String, any Error>) { lock.withLock { result = value } }
        func get() throws -> String { try lock.withLock { result }.get() }
    }
}
#endif
