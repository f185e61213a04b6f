import Foundation

/// The command line, parsed by hand.
///
/// ```
/// sqlite-record-bench [--data CSV] [--repetitions N] [--json] [--workloads W1,W3]
/// ```
/// `--rss-child W2-library|W2-baseline --database PATH` is internal: the parent starts itself that way to
/// measure one side's peak memory.
struct BenchmarkOptions: Equatable {
    var dataPath = CitiesFile.defaultPath
    var repetitions = 5
    var json = false
    var workloads = Workload.allCases
    /// Set in a peak-memory child: the side whose W2 it runs.
    var rssChild: Side?
    /// The database a peak-memory child reads.
    var databasePath: String?
    var showsHelp = false

    static let usage = """
        Usage: sqlite-record-bench [--data CSV] [--repetitions N] [--json] [--workloads W1,W3]

        Runs the same workloads through SQLiteRecord and through hand-written sqlite3 calls, and prints the
        median and minimum seconds of each side and their ratio.

          --data CSV         a GeoNames cities CSV (default: \(CitiesFile.defaultPath), relative to the
                             current directory, the package root under `swift run`)
          --repetitions N    timed runs per workload and side after one warm-up (default: 5)
          --json             also print one JSON line per workload
          --workloads LIST   only these workloads, comma-separated: W1 insert, W2 fetch all, W3 lookups,
                             W4 fetch by country, W5 decode only, W7 upsert into an empty table,
                             W7-full upsert into the full table, W7-partial update(_:columns:),
                             W7-changes updateChanges(_:from:) (default: all)
          --help             this text
        """

    /// Parses `arguments`, without the executable's name.
    /// - Throws: ``BenchmarkError`` naming the argument that is unknown, misses its value, or has a bad one.
    static func parse(_ arguments: [String]) throws -> BenchmarkOptions {
        var options = BenchmarkOptions()
        var remaining = arguments[...]

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
                options.workloads = try parseWorkloads(try value(for: argument))
            case "--rss-child":
                let text = try value(for: argument)
                guard text.hasPrefix("W2-"), let side = Side(rawValue: String(text.dropFirst(3))) else {
                    throw BenchmarkError("--rss-child takes W2-library or W2-baseline, not \"\(text)\"")
                }
                options.rssChild = side
            case "--database":
                options.databasePath = try value(for: argument)
            case "--help", "-h":
                options.showsHelp = true
            default:
                throw BenchmarkError("Unknown argument \"\(argument)\"\n\n\(usage)")
            }
        }
        if options.rssChild != nil && options.databasePath == nil {
            throw BenchmarkError("--rss-child needs --database PATH")
        }
        return options
    }

    /// `W1,W3` as workloads, in the order of ``Workload/allCases`` whatever the order given.
    static func parseWorkloads(_ text: String) throws -> [Workload] {
        var chosen: Set<Workload> = []
        for name in text.split(separator: ",") {
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
