import Foundation

/// `--scale N`: how time and memory grow with the table. At each size (``ScaleData/sizes(dataCount:largest:)``)
/// W1 runs on both sides in this process, then W2 and the cursor each in a process of its own per side, on a
/// table filled untimed; each run once.
enum ScaleRun {
    /// The figures of one size.
    struct SizeResult {
        let rows: Int
        let insert: [Side: Double]
        let reads: [ScaleChild.Read: [Side: ScaleChild.Report]]
    }

    /// Runs every size up to `largest` rows.
    /// - Throws: ``BenchmarkError`` when the sides disagree or a child fails; what a workload throws.
    static func run(cities: [BenchCity], largest: Int, progress: (String) -> Void) throws -> [SizeResult] {
        guard let executable = Bundle.main.executableURL ?? CommandLine.arguments.first.map(URL.init(fileURLWithPath:))
        else { throw BenchmarkError("Cannot find this executable to start the scale children") }
        var results: [SizeResult] = []
        for size in ScaleData.sizes(dataCount: cities.count, largest: largest) {
            let input = WorkloadInput(cities: ScaleData.cities(cities, count: size), lookupCount: 0, countryCount: 0)
            var insert: [Side: Double] = [:]
            var inserted: Measurement?
            for side in Side.allCases {
                let measurement = try WorkloadRunner.run(.insert, side: side, input: input)
                if let inserted { try BenchmarkRun.check(measurement, side: side, against: inserted, .insert) }
                inserted = inserted ?? measurement
                insert[side] = measurement.seconds
            }
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            try WorkloadRunner.prepareDatabase(at: directory.databasePath, for: .fetchAll, cities: input.cities)
            var expected = Checksum()
            expected.add(input.cities)
            var reads: [ScaleChild.Read: [Side: ScaleChild.Report]] = [:]
            for read in ScaleChild.Read.allCases {
                for side in Side.allCases {
                    let report = try ScaleChild.runProcess(
                        executable, read, side: side, databasePath: directory.databasePath)
                    guard report.rows == size, report.checksum == expected else {
                        throw BenchmarkError(
                            "scale \(size): \(read.rawValue)-\(side.rawValue) read \(report.rows) rows, checksum "
                                + "\(report.checksum); the table holds \(size), checksum \(expected)")
                    }
                    reads[read, default: [:]][side] = report
                }
            }
            results.append(SizeResult(rows: size, insert: insert, reads: reads))
            progress("scale \(size) rows done")
        }
        return results
    }

    /// The table: per size, rows per second of each workload and side, then peak memory (W2's, and the
    /// cursor's start and peak).
    static func table(_ results: [SizeResult]) -> String {
        var lines = [
            "rows       W1 lib/s  W1 base/s  W2 lib/s  W2 base/s  cur lib/s  cur base/s  W2 lib MB  W2 base MB  "
                + "cursor lib MB start>peak  cursor base MB start>peak"
        ]
        for result in results {
            func rate(_ seconds: Double?) -> String {
                guard let seconds, seconds > 0 else { return "-" }
                return String(Int((Double(result.rows) / seconds).rounded()))
            }
            func megabytes(_ kilobytes: Int?) -> String {
                kilobytes.map { String(format: "%.1f", Double($0) / 1024) } ?? "-"
            }
            let w2 = result.reads[.fetchAll] ?? [:]
            let cursor = result.reads[.cursor] ?? [:]
            let fields = [
                pad(String(result.rows), 9, right: false), pad(rate(result.insert[.library]), 9),
                pad(rate(result.insert[.baseline]), 10), pad(rate(w2[.library]?.seconds), 9),
                pad(rate(w2[.baseline]?.seconds), 10), pad(rate(cursor[.library]?.seconds), 10),
                pad(rate(cursor[.baseline]?.seconds), 11), pad(megabytes(w2[.library]?.peakKilobytes), 10),
                pad(megabytes(w2[.baseline]?.peakKilobytes), 11),
                pad(
                    megabytes(cursor[.library]?.startKilobytes) + ">" + megabytes(cursor[.library]?.peakKilobytes),
                    25),
                pad(
                    megabytes(cursor[.baseline]?.startKilobytes) + ">" + megabytes(cursor[.baseline]?.peakKilobytes),
                    26),
            ]
            lines.append(fields.joined(separator: " "))
        }
        return lines.joined(separator: "\n")
    }

    /// One JSON object per size and workload:
    /// `{"workload":"scale-W2","rows":2000000,"library_s":..,"baseline_s":..,"ratio":..,"library_rows_per_s":..,
    /// "baseline_rows_per_s":..,"library_rss_start_kb":..,"library_rss_peak_kb":..,...}`.
    static func jsonLines(_ results: [SizeResult]) -> [String] {
        var lines: [String] = []
        for result in results {
            var entries: [(String, [Side: Double], [Side: ScaleChild.Report]?)] = [
                ("W1", result.insert, nil)
            ]
            for read in ScaleChild.Read.allCases {
                let reports = result.reads[read] ?? [:]
                entries.append((read.rawValue, reports.mapValues(\.seconds), reports))
            }
            for (name, seconds, reports) in entries {
                guard let library = seconds[.library], let baseline = seconds[.baseline] else { continue }
                var fields = [
                    "\"workload\":\"scale-\(name)\"", "\"rows\":\(result.rows)",
                    "\"library_s\":\(String(format: "%.6g", library))",
                    "\"baseline_s\":\(String(format: "%.6g", baseline))",
                    "\"ratio\":\(String(format: "%.4g", library / baseline))",
                    "\"library_rows_per_s\":\(Int(Double(result.rows) / library))",
                    "\"baseline_rows_per_s\":\(Int(Double(result.rows) / baseline))",
                ]
                for side in Side.allCases {
                    if let report = reports?[side] {
                        fields.append("\"\(side.rawValue)_rss_start_kb\":\(report.startKilobytes)")
                        fields.append("\"\(side.rawValue)_rss_peak_kb\":\(report.peakKilobytes)")
                    }
                }
                lines.append("{" + fields.joined(separator: ",") + "}")
            }
        }
        return lines
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = true) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
