#if PostgreSQL
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The PostgreSQL run: sets up two schemas on the server, then runs each workload through PostgresRecord
/// and through the hand-written libpq loop, interleaved as ``BenchmarkRun`` interleaves the SQLite sides,
/// checking after every run that both sides read or stored the same rows.
final class PostgresRun {
    /// One workload's timings over every repetition.
    struct Timings {
        let workload: PostgresWorkload
        let rows: Int
        let checksum: Checksum
        var librarySeconds: [Double] = []
        var baselineSeconds: [Double] = []
        /// The client's own CPU time (this process, user and system) in the same runs: what each side costs
        /// on the client whatever the server and the machine's other load do.
        var libraryCPUSeconds: [Double] = []
        var baselineCPUSeconds: [Double] = []

        /// Median library time over median hand-written time; NaN for the hand-written-only reference.
        var ratio: Double { librarySeconds.median / baselineSeconds.median }
    }

    private let input: WorkloadInput
    /// W6's parents and their cities (ids nil: new children), by code.
    private let families: [(country: BenchCountry, cities: [BenchCity])]
    private let admin: PostgresBaselineConnection
    private let libraryRead: PostgresLibraryWorkloads
    private let libraryWrite: PostgresLibraryWorkloads
    private let baselineRead: PostgresBaselineWorkloads
    private let baselineWrite: PostgresBaselineWorkloads
    /// W10's sides, on the search schema, made when W10 first runs.
    private var search: (library: PostgresLibraryWorkloads, baseline: PostgresBaselineWorkloads)?
    /// W10's words, drawn as on SQLite.
    private lazy var searchWords = FullTextSearchWorkload.words(from: input.cities, count: FullTextSearchWorkload.searches)
    private let connectionString: String

    /// Creates the schemas (dropping earlier ones of the same names), fills the read schema, and opens one
    /// connection per side and schema.
    /// - Throws: ``BenchmarkError`` or ``PostgresError`` when the server refuses.
    init(connectionString: String, input: WorkloadInput) throws {
        self.input = input
        self.connectionString = connectionString
        var byCode: [String: [BenchCity]] = [:]
        for city in input.cities {
            var child = city
            child.id = nil
            byCode[city.countryCode, default: []].append(child)
        }
        families = byCode.keys.sorted().map { (BenchCountry(id: $0, name: $0), byCode[$0] ?? []) }

        admin = try PostgresBaselineConnection(connectionString, schema: PostgresBenchSchema.writeSchema)
        try admin.execute(PostgresBenchSchema.create(in: PostgresBenchSchema.readSchema))
        try admin.execute(PostgresBenchSchema.create(in: PostgresBenchSchema.writeSchema))
        baselineRead = try PostgresBaselineWorkloads(connectionString, schema: PostgresBenchSchema.readSchema)
        baselineWrite = try PostgresBaselineWorkloads(connectionString, schema: PostgresBenchSchema.writeSchema)
        libraryRead = try PostgresLibraryWorkloads(connectionString, schema: PostgresBenchSchema.readSchema)
        libraryWrite = try PostgresLibraryWorkloads(connectionString, schema: PostgresBenchSchema.writeSchema)
        try baselineRead.copy(input.cities)
        try admin.execute(PostgresBenchSchema.createCountryCodeIndex)
        try admin.execute("VACUUM ANALYZE bench_read.cities")
    }

    /// Drops the schemas.
    func tearDown() {
        try? admin.execute(
            "DROP SCHEMA IF EXISTS bench_read CASCADE; DROP SCHEMA IF EXISTS bench_write CASCADE; "
                + "DROP SCHEMA IF EXISTS bench_search CASCADE")
    }

    /// A warm-up of each workload on both sides, then `repetitions` timed runs per side, alternating which
    /// side goes first. Every run is checked against the library's warm-up (the hand-written side's, for
    /// the reference): same rows, same checksum; every W1 variant against W1's, as they store the same rows.
    /// - Throws: ``BenchmarkError`` when two runs disagree, or what a workload throws.
    func run(_ workloads: [PostgresWorkload], repetitions: Int, progress: (String) -> Void) throws -> [Timings] {
        var timings: [Timings] = []
        var insertReference: Measurement?
        for workload in workloads {
            let baseline = try measure(workload, .baseline)
            let library = try measure(workload, .library)
            try check(baseline, .baseline, against: library, workload)
            if [.insert, .insertBatch, .copy].contains(workload) {
                if let insertReference { try check(baseline, .baseline, against: insertReference, workload) }
                insertReference = insertReference ?? baseline
            }
            timings.append(Timings(workload: workload, rows: baseline.rows, checksum: baseline.checksum))
        }
        progress("warm-up done")
        for repetition in 0..<repetitions {
            let sides: [Side] = repetition.isMultiple(of: 2) ? [.library, .baseline] : [.baseline, .library]
            for index in timings.indices {
                let workload = timings[index].workload
                for side in sides {
                    let (measurement, cpu) = try measureWithCPU(workload, side)
                    let reference = Measurement(rows: timings[index].rows, checksum: timings[index].checksum, seconds: 0)
                    try check(measurement, side, against: reference, workload)
                    switch side {
                    case .library:
                        timings[index].librarySeconds.append(measurement.seconds)
                        timings[index].libraryCPUSeconds.append(cpu)
                    case .baseline:
                        timings[index].baselineSeconds.append(measurement.seconds)
                        timings[index].baselineCPUSeconds.append(cpu)
                    }
                }
            }
            progress("repetition \(repetition + 1) of \(repetitions) done")
        }
        return timings
    }

    private func check(_ measurement: Measurement, _ side: Side, against reference: Measurement, _ workload: PostgresWorkload)
        throws
    {
        guard measurement.rows != reference.rows || measurement.checksum != reference.checksum else { return }
        throw BenchmarkError(
            "PostgreSQL \(workload.rawValue) (\(workload.title)): the sides disagree. The reference gave "
                + "\(reference.rows) rows, checksum \(reference.checksum); a \(side.rawValue) run gave "
                + "\(measurement.rows) rows, checksum \(measurement.checksum)")
    }

    /// ``measure(_:_:)`` with the client CPU seconds of its timed part.
    private func measureWithCPU(_ workload: PostgresWorkload, _ side: Side) throws -> (Measurement, Double) {
        var cpuSeconds = 0.0
        let measurement = try measure(workload, side, cpuSeconds: &cpuSeconds)
        return (measurement, cpuSeconds)
    }

    /// One run of one side: the untimed set-up, the timed workload, the untimed checksum.
    func measure(_ workload: PostgresWorkload, _ side: Side) throws -> Measurement {
        var cpuSeconds = 0.0
        return try measure(workload, side, cpuSeconds: &cpuSeconds)
    }

    /// W10's schema: the cities copied, then the library's index built on them (`createFullTextIndex`: the
    /// `unaccent` extension and configuration, the generated `tsvector` column, its GIN index), its time
    /// reported; and both sides' connections.
    /// - Throws: what the server throws.
    private func searchSides() throws -> (library: PostgresLibraryWorkloads, baseline: PostgresBaselineWorkloads) {
        if let search { return search }
        let schema = PostgresBenchSchema.searchSchema
        try admin.execute(PostgresBenchSchema.create(in: schema))
        let baseline = try PostgresBaselineWorkloads(connectionString, schema: schema)
        let library = try PostgresLibraryWorkloads(connectionString, schema: schema)
        try baseline.copy(input.cities)
        let start = MonotonicClock.seconds()
        try BenchCity.createFullTextIndex(in: library.connection)
        let build = MonotonicClock.seconds() - start
        try admin.execute("VACUUM ANALYZE \(schema).cities")
        let size = try library.connection.query(
            "SELECT pg_relation_size('\(schema).cities_fts_index')::text, "
                + "(SELECT sum(pg_column_size(cities_fts)) FROM \(schema).cities)::text")
        BenchmarkCommand.printLine(
            "W10 index over \(input.cities.count) names: built in \(String(format: "%.2f", build)) s; GIN index "
                + "\(try size[0].decode(String.self, at: 0)) bytes, tsvector column \(try size[0].decode(String.self, at: 1)) bytes")
        search = (library, baseline)
        return (library, baseline)
    }

    private func measure(_ workload: PostgresWorkload, _ side: Side, cpuSeconds: inout Double) throws -> Measurement {
        let searching = workload == .fullTextSearch ? try searchSides() : nil
        let words = workload == .fullTextSearch ? searchWords : []
        if workload.writes {
            try admin.execute(PostgresBenchSchema.truncateWrites)
            // W7-update changes rows that are there.
            if workload == .update { try baselineWrite.copy(input.cities) }
        }
        let library = side == .library
        var read: [BenchCity] = []
        // The row-initializer twins' records, turned into cities once the clock stops; their hand-written
        // side is their twin's.
        var rowRead: [BenchRowCity]?
        if !library, let twin = workload.codableTwin { return try measure(twin, side, cpuSeconds: &cpuSeconds) }
        let start = MonotonicClock.seconds()
        let cpuStart = Self.processCPUSeconds()
        switch workload {
        case .insert: try library ? libraryWrite.insert(input.cities) : baselineWrite.insert(input.cities)
        case .insertBatch:
            try library ? libraryWrite.insertAll(input.cities) : baselineWrite.insertPipelined(input.cities)
        case .copy: try library ? libraryWrite.copyIn(input.cities) : baselineWrite.copy(input.cities)
        case .fetchAll: read = try library ? libraryRead.fetchAll() : baselineRead.fetchAll()
        case .fetchAllRow: rowRead = try library ? libraryRead.fetchAllRows() : nil
        case .lookUp: read = try library ? libraryRead.lookUp(input.lookupIDs) : baselineRead.lookUp(input.lookupIDs)
        case .lookUpRow: rowRead = try library ? libraryRead.lookUpRows(input.lookupIDs) : nil
        case .fetchByCountry:
            read =
                try library
                ? libraryRead.fetchByCountry(input.countryCodes) : baselineRead.fetchByCountry(input.countryCodes)
        case .fetchByCountryRow: rowRead = try library ? libraryRead.fetchByCountryRows(input.countryCodes) : nil
        case .saveChildren:
            read = try library ? libraryWrite.saveChildren(families) : baselineWrite.saveChildren(families)
        case .saveChildrenAssociation:
            read =
                try library
                ? libraryWrite.saveChildren(families, for: BenchCountry.cities) : baselineWrite.saveChildren(families)
        case .upsert: try library ? libraryWrite.upsert(input.cities) : baselineWrite.upsert(input.cities)
        case .update:
            try library ? libraryWrite.update(input.updatedCities) : baselineWrite.update(input.updatedCities)
        case .fullTextSearch:
            if let searching { read = try library ? searching.library.search(words) : searching.baseline.search(words) }
        }
        let seconds = MonotonicClock.seconds() - start
        cpuSeconds = Self.processCPUSeconds() - cpuStart
        if let rowRead { read = rowRead.map(\.city) }
        var checksum = Checksum()
        checksum.add(read)
        var rows = read.count
        if workload.writes {
            let stored = try baselineWrite.storedCities()
            checksum.add(stored)
            rows = workload == .update ? input.updatedCities.count : stored.count
            if workload == .saveChildren || workload == .saveChildrenAssociation {
                for line in try baselineWrite.storedCountries() {
                    var hash = RowHash()
                    hash.mix(line)
                    checksum.add(hash)
                }
            }
        }
        return Measurement(rows: rows, checksum: checksum, seconds: seconds)
    }

    /// The table: per workload, median milliseconds of each side, the ratio, rows per second; then the batch
    /// insert's comparison.
    static func table(_ timings: [Timings]) -> String {
        let header = [
            "workload", "rows", "lib median ms", "hand median ms", "ratio", "lib rows/s", "hand rows/s", "lib CPU ms",
            "hand CPU ms", "CPU ratio",
        ]
        var rows = [header]
        for timing in timings {
            let library = timing.librarySeconds.median
            let baseline = timing.baselineSeconds.median
            rows.append([
                "\(timing.workload.rawValue) \(timing.workload.title)", "\(timing.rows)",
                milliseconds(library), milliseconds(baseline),
                timing.ratio.isFinite ? String(format: "%.2f", timing.ratio) : "-", rate(timing.rows, library),
                rate(timing.rows, baseline), milliseconds(timing.libraryCPUSeconds.median),
                milliseconds(timing.baselineCPUSeconds.median),
                timing.libraryCPUSeconds.isEmpty
                    ? "-" : String(format: "%.2f", timing.libraryCPUSeconds.median / timing.baselineCPUSeconds.median),
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = rows.map { row in
            row.indices.map { column in
                let text = row[column]
                let padding = String(repeating: " ", count: max(0, widths[column] - text.count))
                return column == 0 ? text + padding : padding + text
            }.joined(separator: "  ")
        }
        func find(_ workload: PostgresWorkload) -> Timings? { timings.first { $0.workload == workload } }
        if let rowByRow = find(.insert), let batch = find(.insertBatch) {
            let perTenThousand = 10_000 / Double(batch.rows) * 1_000
            var line =
                "batch insert, ms per 10,000 rows: library insertAll "
                + String(format: "%.0f", batch.librarySeconds.median * perTenThousand) + ", library insert() row by row "
                + String(format: "%.0f", rowByRow.librarySeconds.median * perTenThousand)
                + "; hand-written pipeline " + String(format: "%.0f", batch.baselineSeconds.median * perTenThousand)
                + ", row by row " + String(format: "%.0f", rowByRow.baselineSeconds.median * perTenThousand)
            if let copy = find(.copy) {
                line +=
                    ", COPY binary " + String(format: "%.0f", copy.baselineSeconds.median * perTenThousand)
                    + "; library copyIn " + String(format: "%.0f", copy.librarySeconds.median * perTenThousand)
            }
            lines.append(line)
            lines.append(
                "insertAll is " + String(format: "%.2f", rowByRow.baselineSeconds.median / batch.librarySeconds.median)
                    + " times as fast as the hand-written row-by-row loop")
        }
        return lines.joined(separator: "\n")
    }

    /// One JSON object per workload: `{"engine":"postgresql","workload":"W2","rows":...,"ratio":...}`.
    static func jsonLines(_ timings: [Timings]) -> [String] {
        timings.map { timing in
            let ratio = timing.ratio.isFinite ? String(format: "%.4g", timing.ratio) : "null"
            let library = timing.librarySeconds.isEmpty ? "null" : String(format: "%.6g", timing.librarySeconds.median)
            let cpu =
                timing.libraryCPUSeconds.isEmpty ? "null" : String(format: "%.6g", timing.libraryCPUSeconds.median)
            return "{\"engine\":\"postgresql\",\"workload\":\"\(timing.workload.rawValue)\",\"rows\":\(timing.rows),"
                + "\"library_median_s\":\(library),\"library_cpu_s\":\(cpu),"
                + "\"baseline_cpu_s\":\(String(format: "%.6g", timing.baselineCPUSeconds.median)),"
                + "\"baseline_median_s\":\(String(format: "%.6g", timing.baselineSeconds.median)),\"ratio\":\(ratio)}"
        }
    }

    /// This process's CPU time, user and system, in seconds (`CLOCK_PROCESS_CPUTIME_ID`).
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static func milliseconds(_ seconds: Double) -> String {
        seconds.isFinite ? String(format: "%.1f", seconds * 1_000) : "-"
    }

    private static func rate(_ rows: Int, _ seconds: Double) -> String {
        guard seconds.isFinite, seconds > 0 else { return "-" }
        return String(Int((Double(rows) / seconds).rounded()))
    }
}
#endif
