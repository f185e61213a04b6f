import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Peak resident memory of a W2 run, measured in a child process per side (this same executable, started
/// with `--rss-child W2-library` or `--rss-child W2-baseline`), so that neither side's peak includes the
/// other's, or the parent's copy of the CSV.
enum PeakMemory {
    /// What a child reports on its standard output.
    struct ChildReport: Equatable {
        let side: Side
        let peakKilobytes: Int
        let rows: Int
        let checksum: Checksum
    }

    /// This process's peak resident set size in kilobytes: `VmHWM` in /proc/self/status on Linux,
    /// `getrusage`'s `ru_maxrss` elsewhere; nil when neither can be read.
    static func peakResidentKilobytes() -> Int? {
        #if os(Linux)
            if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) {
                for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
                    // "VmHWM:     12345 kB"
                    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                    if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes }
                }
            }
        #endif
        var usage = rusage()
        #if canImport(Glibc)
            // Glibc imports RUSAGE_SELF as an enum case; getrusage takes its raw value.
            let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
            let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return nil }
        #if canImport(Darwin)
            return Int(usage.ru_maxrss) / 1024  // bytes on Apple platforms
        #else
            return Int(usage.ru_maxrss)  // kilobytes on Linux
        #endif
    }

    /// This process's resident set size now, in kilobytes: `VmRSS` in /proc/self/status on Linux; elsewhere
    /// the peak so far, which is what the scale run's start figure needs (no row read yet).
    static func currentResidentKilobytes() -> Int? {
        #if os(Linux)
            if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) {
                for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
                    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                    if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes }
                }
            }
        #endif
        return peakResidentKilobytes()
    }

    // MARK: The child

    /// The child's whole work: W2 on the database at `path` through `side`, keeping the rows alive until the
    /// peak is read, then one line on standard output: `rss_kb=N rows=N checksum=HEX`.
    /// - Throws: what the workload throws, or ``BenchmarkError`` when the peak cannot be read.
    static func runChild(side: Side, databasePath path: String) throws -> String {
        let cities: [BenchCity]
        switch side {
        case .library:
            let queue = try LibraryWorkloads.open(path: path)
            cities = try LibraryWorkloads.fetchAll(from: queue)
        case .baseline:
            let db = try BaselineDatabase(path: path)
            cities = try db.read { try BaselineWorkloads.fetchAll(from: db) }
        }
        guard let peak = peakResidentKilobytes() else {
            throw BenchmarkError("Cannot read this process's peak resident memory")
        }
        var checksum = Checksum()
        checksum.add(cities)
        return "rss_kb=\(peak) rows=\(cities.count) checksum=\(checksum)"
    }

    // MARK: The parent

    /// Fills a database with `cities` (untimed), then starts one child per side on it and reads their
    /// reports. The children must agree with each other.
    /// - Throws: ``BenchmarkError`` when this executable cannot be found or started, a child fails, or the
    ///   children disagree.
    static func measureW2(cities: [BenchCity]) throws -> [Side: ChildReport] {
        guard let executable = Bundle.main.executableURL ?? CommandLine.arguments.first.map(URL.init(fileURLWithPath:))
        else { throw BenchmarkError("Cannot find this executable to start the peak-memory children") }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try WorkloadRunner.prepareDatabase(at: directory.databasePath, for: .fetchAll, cities: cities)

        var reports: [Side: ChildReport] = [:]
        for side in Side.allCases {
            reports[side] = try runChildProcess(executable, side: side, databasePath: directory.databasePath)
        }
        if let library = reports[.library], let baseline = reports[.baseline],
            library.rows != baseline.rows || library.checksum != baseline.checksum
        {
            throw BenchmarkError(
                "W2 peak-memory children disagree: library read \(library.rows) rows, checksum "
                    + "\(library.checksum); baseline \(baseline.rows) rows, checksum \(baseline.checksum)")
        }
        return reports
    }

    /// Starts `executable --rss-child W2-<side> --database PATH` and parses the line it prints.
    static func runChildProcess(_ executable: URL, side: Side, databasePath: String) throws -> ChildReport {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--rss-child", "W2-\(side.rawValue)", "--database", databasePath]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw BenchmarkError(
                "The W2-\(side.rawValue) peak-memory child exited with status \(process.terminationStatus): \(text)")
        }
        guard let report = parseReport(text, side: side) else {
            throw BenchmarkError("The W2-\(side.rawValue) peak-memory child printed no report: \(text)")
        }
        return report
    }

    /// Reads `rss_kb=N rows=N checksum=HEX`; nil when a field is missing or malformed.
    static func parseReport(_ text: String, side: Side) -> ChildReport? {
        var fields: [Substring: Substring] = [:]
        for pair in text.split(whereSeparator: \.isWhitespace) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        guard let peak = fields["rss_kb"].flatMap({ Int($0) }), let rows = fields["rows"].flatMap({ Int($0) }),
            let checksum = fields["checksum"].flatMap({ UInt64($0, radix: 16) })
        else { return nil }
        return ChildReport(side: side, peakKilobytes: peak, rows: rows, checksum: Checksum(value: checksum))
    }
}
