import Foundation

/// The printed results: a table for people, and with `--json` one line per workload for scripts.
enum BenchmarkReport {
    /// The table: per workload, median and minimum seconds of each side, rows per second (from the
    /// medians) and the ratio library/baseline of the medians; then W2's peak memory when measured.
    static func table(_ timings: [WorkloadTimings], memory: [Side: PeakMemory.ChildReport]?) -> String {
        let header = [
            "workload", "rows", "lib median s", "lib min s", "base median s", "base min s", "lib rows/s",
            "base rows/s", "ratio",
        ]
        var rows = [header]
        for timing in timings {
            let library = timing.librarySeconds
            let baseline = timing.baselineSeconds
            rows.append([
                "\(timing.workload.rawValue) \(timing.workload.title)", "\(timing.rows)",
                seconds(library.median), seconds(library.minimum), seconds(baseline.median),
                seconds(baseline.minimum), rate(timing.rows, library.median), rate(timing.rows, baseline.median),
                String(format: "%.2f", timing.ratio),
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = rows.map { row in
            row.indices.map { column in
                // The workload's name reads left-aligned, numbers right-aligned.
                column == 0 ? padded(row[column], widths[column], right: false) : padded(row[column], widths[column])
            }.joined(separator: "  ")
        }
        if let memory, let library = memory[.library], let baseline = memory[.baseline] {
            let ratio = Double(library.peakKilobytes) / Double(baseline.peakKilobytes)
            lines.append(
                "W2 peak RSS (separate processes): library \(library.peakKilobytes) kB, baseline "
                    + "\(baseline.peakKilobytes) kB, ratio \(String(format: "%.2f", ratio))")
        }
        return lines.joined(separator: "\n")
    }

    /// One JSON object per workload, as the issue specifies:
    /// `{"workload":"W2","rows":234908,"library_median_s":0.21,"baseline_median_s":0.18,"ratio":1.17}`, with
    /// `"library_rss_kb"` and `"baseline_rss_kb"` on the W2 line when memory was measured.
    static func jsonLines(_ timings: [WorkloadTimings], memory: [Side: PeakMemory.ChildReport]?) -> [String] {
        timings.map { timing in
            var fields = [
                "\"workload\":\"\(timing.workload.rawValue)\"",
                "\"rows\":\(timing.rows)",
                "\"library_median_s\":\(json(timing.librarySeconds.median, digits: 6))",
                "\"baseline_median_s\":\(json(timing.baselineSeconds.median, digits: 6))",
                "\"ratio\":\(json(timing.ratio, digits: 4))",
            ]
            if timing.workload == .fetchAll, let memory, let library = memory[.library],
                let baseline = memory[.baseline]
            {
                fields.append("\"library_rss_kb\":\(library.peakKilobytes)")
                fields.append("\"baseline_rss_kb\":\(baseline.peakKilobytes)")
            }
            return "{" + fields.joined(separator: ",") + "}"
        }
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.4f", value) }

    private static func rate(_ rows: Int, _ seconds: Double) -> String {
        guard seconds > 0 else { return "-" }
        return String(Int((Double(rows) / seconds).rounded()))
    }

    /// A JSON number with `digits` significant digits (`0.21`, not `0.210000`); null when not finite.
    private static func json(_ value: Double, digits: Int) -> String {
        value.isFinite ? String(format: "%.\(digits)g", value) : "null"
    }

    private static func padded(_ text: String, _ width: Int, right: Bool = true) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
