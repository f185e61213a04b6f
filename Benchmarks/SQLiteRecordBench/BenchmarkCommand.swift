import Foundation

/// `sqlite-record-bench`: reads the cities, runs the chosen workloads through the library and the
/// baseline, checks that both sides agree, and prints the table (and JSON lines with `--json`). Exits with
/// status 1 when the sides disagree or anything fails, 2 for a bad command line.
@main
enum BenchmarkCommand {
    static func main() {
        let options: BenchmarkOptions
        do {
            options = try BenchmarkOptions.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            printError("\(error)")
            exit(2)
        }
        if options.showsHelp {
            printLine(BenchmarkOptions.usage)
            return
        }
        do {
            if let side = options.rssChild, let path = options.databasePath {
                printLine(try PeakMemory.runChild(side: side, databasePath: path))
            } else if let child = options.scaleChild, let path = options.databasePath {
                printLine(try ScaleChild.run(child.read, side: child.side, databasePath: path).line)
            } else if let url = options.postgresURL, let standby = options.postgresStandbyURL {
                try runPostgresReplicas(options, primary: url, standby: standby)
            } else if let url = options.postgresURL {
                try runPostgres(options, url: url)
            } else if let rows = options.scale {
                try runScale(options, rows: rows)
            } else {
                try run(options)
            }
        } catch {
            printError("sqlite-record-bench: \(error)")
            exit(1)
        }
    }

    /// The parent's run: data, timings, peak memory, report.
    static func run(_ options: BenchmarkOptions) throws {
        let cities = try CitiesFile.load(path: options.dataPath)
        let input = WorkloadInput(cities: cities)
        let fileName = URL(fileURLWithPath: options.dataPath).lastPathComponent
        printLine(
            "sqlite-record-bench: \(fileName), \(cities.count) cities; W3 \(input.lookupIDs.count) lookups, "
                + "W4 \(input.countryCodes.count) country codes; 1 warm-up + \(options.repetitions) "
                + "repetitions per side, interleaved")
        #if DEBUG
            printLine("warning: a debug build; measure with -c release")
        #endif

        if !options.workloads.isEmpty {
            let timings = try BenchmarkRun.run(options.workloads, input: input, repetitions: options.repetitions) {
                printError("  \($0)")
            }
            let memory = options.workloads.contains(.fetchAll) ? try PeakMemory.measureW2(cities: cities) : nil

            printLine(BenchmarkReport.table(timings, memory: memory))
            if options.json {
                for line in BenchmarkReport.jsonLines(timings, memory: memory) { printLine(line) }
            }
        }
        if options.runsConcurrentReads {
            let results = try ConcurrentReadsWorkload.runAll(
                input: input, seconds: options.concurrentReadSeconds, repetitions: options.repetitions
            ) { printError("  \($0)") }
            let summary = ConcurrentReadsWorkload.Summary(results, seconds: options.concurrentReadSeconds)
            printLine(summary.table)
            if options.json { printLine(summary.json) }
        }
        if options.runsFullTextSearch {
            let summary = try FullTextSearchWorkload.runAll(input: input, repetitions: options.repetitions) {
                printError("  \($0)")
            }
            printLine(summary.table)
            if options.json { printLine(summary.json) }
        }
        if options.runsObservation {
            let summary = try ObservationWorkload.runAll(input: input, repetitions: options.repetitions) {
                printError("  \($0)")
            }
            printLine(summary.table)
            if options.json { printLine(summary.json) }
        }
        if options.runsRowObservation {
            let summary = try RowObservationWorkload.runAll(repetitions: options.repetitions) {
                printError("  \($0)")
            }
            printLine(summary.table)
            if options.json { printLine(summary.json) }
        }
    }

    /// The PostgreSQL run: data, W1-W7 through PostgresRecord and hand-written libpq on the server `url`
    /// names, report.
    static func runPostgres(_ options: BenchmarkOptions, url: String) throws {
        #if PostgreSQL
            let cities = try CitiesFile.load(path: options.dataPath)
            let input = WorkloadInput(cities: cities)
            let fileName = URL(fileURLWithPath: options.dataPath).lastPathComponent
            printLine(
                "sqlite-record-bench --postgres: \(fileName), \(cities.count) cities; W3 \(input.lookupIDs.count) "
                    + "lookups, W4 \(input.countryCodes.count) country codes; PostgresRecord against hand-written "
                    + "libpq; 1 warm-up + \(options.repetitions) repetitions per side, interleaved")
            #if DEBUG
                printLine("warning: a debug build; measure with -c release")
            #endif
            if !options.postgresWorkloads.isEmpty {
                let run = try PostgresRun(connectionString: url, input: input)
                defer { run.tearDown() }
                let timings = try run.run(options.postgresWorkloads, repetitions: options.repetitions) {
                    printError("  \($0)")
                }
                printLine(PostgresRun.table(timings))
                if options.json {
                    for line in PostgresRun.jsonLines(timings) { printLine(line) }
                }
            }
            if options.runsObservation {
                let summary = try PostgresObservationWorkload.runAll(
                    connectionString: url, repetitions: options.repetitions
                ) { printError("  \($0)") }
                printLine(summary.table)
                if options.json { printLine(summary.json) }
            }
        #else
            throw BenchmarkError(
                "--postgres needs a build with the PostgreSQL trait: swift run -c release --traits PostgreSQL "
                    + "sqlite-record-bench --postgres URL (or Scripts/postgres-bench.sh)")
        #endif
    }

    /// The replica run: data, R1 and R2 through a plain pool and a replica pool on `primary` and its hot
    /// standby `standby`, report.
    static func runPostgresReplicas(_ options: BenchmarkOptions, primary: String, standby: String) throws {
        #if PostgreSQL
            let input = WorkloadInput(cities: try CitiesFile.load(path: options.dataPath))
            printLine(
                "sqlite-record-bench --postgres-standby: \(PostgresReplicaRun.lookupCount) lookups by id per run on the "
                    + "standby, a tenth as many updates on the primary; each call a transaction of its own; "
                    + "1 warm-up + \(options.repetitions) repetitions, the sides interleaved call by call")
            #if DEBUG
                printLine("warning: a debug build; measure with -c release")
            #endif
            printLine(
                try PostgresReplicaRun.run(
                    primary: primary, standby: standby, input: input, repetitions: options.repetitions
                ) { printError("  \($0)") })
        #else
            throw BenchmarkError("--postgres-standby needs a build with the PostgreSQL trait")
        #endif
    }

    /// The scale run: data, one run per size and side, report.
    static func runScale(_ options: BenchmarkOptions, rows: Int) throws {
        let cities = try CitiesFile.load(path: options.dataPath)
        let fileName = URL(fileURLWithPath: options.dataPath).lastPathComponent
        printLine(
            "sqlite-record-bench --scale: \(fileName), \(cities.count) cities repeated with new ids up to \(rows) rows; "
                + "each run once per side; rows per second, memory in MB")
        #if DEBUG
            printLine("warning: a debug build; measure with -c release")
        #endif
        let results = try ScaleRun.run(cities: cities, largest: rows) { printError("  \($0)") }
        printLine(ScaleRun.table(results))
        if options.json {
            for line in ScaleRun.jsonLines(results) { printLine(line) }
        }
    }

    /// Writes a line to standard output at once, unbuffered, so it keeps its place among the progress lines
    /// on standard error.
    static func printLine(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
