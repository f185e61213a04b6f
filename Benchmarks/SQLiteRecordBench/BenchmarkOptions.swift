import Foundation

/// The command line, parsed by hand.
///
/// ```
/// sqlite-record-bench [--data CSV] [--repetitions N] [--json] [--workloads W1,W3,W8] [--w8-seconds S]
/// ```
/// `--rss-child W2-library|W2-baseline --database PATH` is internal: the parent starts itself that way to
/// measure one side's peak memory.
struct BenchmarkOptions {
    var dataPath = CitiesFile.defaultPath
    var repetitions = 5
    var json = false
    var workloads = Workload.allCases
    /// True when W8 (``ConcurrentReadsWorkload``, pool against queue) was asked for.
    var runsConcurrentReads = false
    /// True when W9 (``ObservationWorkload``, observation latency and cost) was asked for.
    var runsObservation = false
    /// True when W9-rows (``RowObservationWorkload``, observation by row) was asked for.
    var runsRowObservation = false
    /// True when W10 (``FullTextSearchWorkload``, an FTS5 index against LIKE) was asked for.
    var runsFullTextSearch = false
    /// Seconds each side of W8 runs per repetition.
    var concurrentReadSeconds = ConcurrentReadsWorkload.defaultSeconds
    /// Set in a peak-memory child: the side whose W2 it runs.
    var rssChild: Side?
    /// The database a peak-memory or scale child reads.
    var databasePath: String?
    /// `--scale N`: the scale run up to N rows instead of the workloads.
    var scale: Int?
    /// Set in a scale child: what it reads, through which side.
    var scaleChild: (read: ScaleChild.Read, side: Side)?
    var showsHelp = false
    /// `--postgres URL`: the PostgreSQL run against that server instead of the SQLite workloads (built only
    /// with the PostgreSQL trait).
    var postgresURL: String?
    /// `--postgres-standby URL`: with `--postgres`, the replica run (``PostgresReplicaRun``) against that hot
    /// standby of the `--postgres` server instead of the PostgreSQL workloads.
    var postgresStandbyURL: String?
    /// The PostgreSQL run's workloads: `--workloads` names these when `--postgres` is given.
    var postgresWorkloads = PostgresWorkload.defaultCases

    static let usage = """
        Usage: sqlite-record-bench [--data CSV] [--repetitions N] [--json] [--workloads W1,W3,W8] [--w8-seconds S]
               sqlite-record-bench [--data CSV] [--json] --scale ROWS
               sqlite-record-bench [--data CSV] [--repetitions N] [--json] [--workloads W1,W2] --postgres URL

        Runs the same workloads through SQLiteRecord and through hand-written sqlite3 calls, and prints the
        median and minimum seconds of each side and their ratio.

          --data CSV         a GeoNames cities CSV (default: \(CitiesFile.defaultPath), relative to the
                             current directory, the package root under `swift run`)
          --repetitions N    timed runs per workload and side after one warm-up (default: 5)
          --json             also print one JSON line per workload
          --workloads LIST   only these workloads, comma-separated: W1 insert, W2 fetch all, W3 lookups,
                             W3-uuid lookups by UUID, W4 fetch by country, W4-request the same through a
                             request, W5 decode only, and W2-row, W3-row, W5-row through a row initializer
                             (default: all of these); W8, run only when named: 2 threads of W4 fetches beside
                             a writer, DatabasePool against DatabaseQueue;
                             W9, run only when named: observation commit-to-delivery latency, W1 with an observer,
                             and the import in commits of 100 rows on a queue and a pool with and without one
                             observation of the newest row (µs added per commit, beside one refetch alone);
                             W9-rows, run only when named: 100 observations of 100 rows and 1,000 one-row
                             commits, observed by key, by table and not at all (reads and µs per commit);
                             W7 upsert into an empty table, W7-full upsert into the full table, W7-partial
                             update(_:columns:), W7-changes updateChanges(_:from:); W10, run only when named:
                             an FTS5 index over every city name against LIKE '%word%', 1,000 searches
          --w8-seconds S     seconds each side of W8 runs per repetition (default: \(Int(ConcurrentReadsWorkload.defaultSeconds)))
          --scale ROWS       instead of the workloads: the cities repeated with new ids up to ROWS rows (the
                             data's size, 500,000, each doubling below ROWS, then ROWS); W1, W2 and a cursor
                             over all rows at each size, once per side, with rows per second and peak memory
                             (W2 and the cursor each in a process of its own)
          --postgres URL     instead of the SQLite workloads: the PostgreSQL run against the server that the
                             libpq connection string URL names (a URI or key=value pairs; it creates and drops
                             the schemas bench_read and bench_write): W1 insert, W1-batch insertAll (pipeline),
                             W1-copy COPY FROM STDIN binary (hand-written only), W2, W3, W4, W6 save(children:),
                             W6-association save(children:for:), W7 upsert, W7-update update(_:); W9, run only
                             when named: observation commit-to-delivery latency across connections against a
                             hand-written LISTEN loop, and the writer's commit with and without the trigger (in
                             the schema bench_observe); needs a build with --traits PostgreSQL.
                             Scripts/postgres-bench.sh starts a throwaway server and runs it
          --postgres-standby URL  with --postgres: instead of its workloads, what PostgresReplicaPool adds to a
                             call (R1 lookups on this hot standby of the --postgres server, plain, through the
                             replica pool and after the last write's LSN; R2 updates on the primary);
                             Scripts/postgres-replica-bench.sh starts a primary and a standby and runs it
          --help             this text
        """

    /// Parses `arguments`, without the executable's name.
    /// - Throws: ``BenchmarkError`` naming the argument that is unknown, misses its value, or has a bad one.
    static func parse(_ arguments: [String]) throws -> BenchmarkOptions {
        var options = BenchmarkOptions()
        var remaining = arguments[...]
        var workloadText = ""
        var otherWorkloads: String?

        func value(for flag: String) throws -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw BenchmarkError("\(flag) needs a value\n\n\(usage)")
            }
            return value
        }

        while let argument = remaining.popFirst() {
            switch argument {
            case "--data":
                options.dataPath = try value(for: argument)
            case "--repetitions":
                let text = try value(for: argument)
                guard let count = Int(text), count >= 1 else {
                    throw BenchmarkError("--repetitions needs a whole number of at least 1, not \"\(text)\"")
                }
                options.repetitions = count
            case "--json":
                options.json = true
            case "--workloads":
                workloadText = try value(for: argument)
                let names = workloadText.split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces).uppercased()
                }
                options.runsConcurrentReads = names.contains(ConcurrentReadsWorkload.name)
                options.runsObservation = names.contains(ObservationWorkload.name)
                options.runsFullTextSearch = names.contains(FullTextSearchWorkload.name)
                options.runsRowObservation = names.contains(RowObservationWorkload.name)
                let special = [
                    ConcurrentReadsWorkload.name, ObservationWorkload.name, FullTextSearchWorkload.name,
                    RowObservationWorkload.name,
                ]
                let others = names.filter { !special.contains($0) }
                let onlyNamed =
                    others.isEmpty
                    && (options.runsConcurrentReads || options.runsObservation || options.runsFullTextSearch
                        || options.runsRowObservation)
                // Checked below, once it is known whether they name SQLite or PostgreSQL workloads.
                otherWorkloads = onlyNamed ? nil : others.joined(separator: ",")
            case "--w8-seconds":
                let text = try value(for: argument)
                guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                    throw BenchmarkError("--w8-seconds needs a positive number of seconds, not \"\(text)\"")
                }
                options.concurrentReadSeconds = seconds
            case "--rss-child":
                let text = try value(for: argument)
                guard text.hasPrefix("W2-"), let side = Side(rawValue: String(text.dropFirst(3))) else {
                    throw BenchmarkError("--rss-child takes W2-library or W2-baseline, not \"\(text)\"")
                }
                options.rssChild = side
            case "--scale":
                let text = try value(for: argument)
                guard let rows = Int(text.replacingOccurrences(of: "_", with: "")), rows >= 1 else {
                    throw BenchmarkError("--scale needs a number of rows of at least 1, not \"\(text)\"")
                }
                options.scale = rows
            case "--scale-child":
                let text = try value(for: argument)
                guard let child = ScaleChild.parse(text) else {
                    throw BenchmarkError(
                        "--scale-child takes W2 or cursor, a dash and library or baseline, not \"\(text)\"")
                }
                options.scaleChild = child
            case "--postgres":
                options.postgresURL = try value(for: argument)
            case "--postgres-standby":
                options.postgresStandbyURL = try value(for: argument)
            case "--database":
                options.databasePath = try value(for: argument)
            case "--help", "-h":
                options.showsHelp = true
            default:
                throw BenchmarkError("Unknown argument \"\(argument)\"\n\n\(usage)")
            }
        }
        if options.postgresURL != nil {
            // W9 runs beside the others, and alone runs none of them; W10 is one of PostgreSQL's own workloads.
            let names = workloadText.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let others = names.filter { $0.uppercased() != ObservationWorkload.name }
            if !others.isEmpty {
                options.postgresWorkloads = try PostgresWorkload.parse(others.joined(separator: ","))
            } else if !workloadText.isEmpty {
                options.postgresWorkloads = []
            }
        } else if let otherWorkloads {
            options.workloads = try parseWorkloads(otherWorkloads)
        } else if !workloadText.isEmpty {
            options.workloads = []
        }
        if (options.rssChild != nil || options.scaleChild != nil) && options.databasePath == nil {
            throw BenchmarkError("--rss-child and --scale-child need --database PATH")
        }
        return options
    }

    /// `W1,W3` as workloads, in the order of ``Workload/allCases`` whatever the order given.
    static func parseWorkloads(_ text: String) throws -> [Workload] {
        var chosen: Set<Workload> = []
        for name in text.split(separator: ",") {
            // Any case: W2-ROW and w3-uuid name W2-row and W3-uuid.
            let trimmed = name.trimmingCharacters(in: .whitespaces).uppercased()
            // Any case: `w3` and `W3-uuid` (whose raw value is not all capitals) both name theirs.
            guard let workload = Workload.allCases.first(where: { $0.rawValue.uppercased() == trimmed }) else {
                let names = Workload.allCases.map(\.rawValue).joined(separator: ", ")
                throw BenchmarkError("Unknown workload \"\(name)\" in --workloads; the workloads are \(names)")
            }
            chosen.insert(workload)
        }
        guard !chosen.isEmpty else { throw BenchmarkError("--workloads needs at least one workload, such as W2") }
        return Workload.allCases.filter(chosen.contains)
    }
}
