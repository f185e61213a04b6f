import CSQLiteRecord
import Foundation
import SQLiteRecord

/// One read of the scale run, timed in a process of its own (`--scale-child W2-library --database PATH`), so
/// that its peak memory is its own: W2, every row fetched into an array, or the cursor, every row read one at
/// a time and folded into a checksum without being kept.
enum ScaleChild {
    /// What a scale child reads.
    enum Read: String, CaseIterable {
        case fetchAll = "W2"
        case cursor = "cursor"
    }

    /// What a child reports: `seconds=S rows=N checksum=HEX rss_start_kb=N rss_peak_kb=N`.
    struct Report: Equatable {
        let seconds: Double
        let rows: Int
        let checksum: Checksum
        /// Resident memory once the connection is open, before the first row.
        let startKilobytes: Int
        /// The process's peak resident memory, read after the last row (with W2's array still alive).
        let peakKilobytes: Int

        var line: String {
            "seconds=\(seconds) rows=\(rows) checksum=\(checksum) rss_start_kb=\(startKilobytes) "
                + "rss_peak_kb=\(peakKilobytes)"
        }

        /// Reads ``line``; nil when a field is missing or malformed.
        init?(line: String) {
            var fields: [Substring: Substring] = [:]
            for pair in line.split(whereSeparator: \.isWhitespace) {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { fields[parts[0]] = parts[1] }
            }
            guard let seconds = fields["seconds"].flatMap({ Double($0) }),
                let rows = fields["rows"].flatMap({ Int($0) }),
                let checksum = fields["checksum"].flatMap({ UInt64($0, radix: 16) }),
                let start = fields["rss_start_kb"].flatMap({ Int($0) }),
                let peak = fields["rss_peak_kb"].flatMap({ Int($0) })
            else { return nil }
            self.init(
                seconds: seconds, rows: rows, checksum: Checksum(value: checksum), startKilobytes: start,
                peakKilobytes: peak)
        }

        init(seconds: Double, rows: Int, checksum: Checksum, startKilobytes: Int, peakKilobytes: Int) {
            self.seconds = seconds
            self.rows = rows
            self.checksum = checksum
            self.startKilobytes = startKilobytes
            self.peakKilobytes = peakKilobytes
        }
    }

    /// Parses `W2-library`, `cursor-baseline` and the like.
    static func parse(_ text: String) -> (Read, Side)? {
        guard let dash = text.lastIndex(of: "-"), let read = Read(rawValue: String(text[..<dash])),
            let side = Side(rawValue: String(text[text.index(after: dash)...]))
        else { return nil }
        return (read, side)
    }

    /// The child's whole work: `read` through `side` on the database at `path`, in one read transaction.
    /// - Throws: what the read throws, or ``BenchmarkError`` when memory cannot be read.
    static func run(_ read: Read, side: Side, databasePath path: String) throws -> Report {
        var checksum = Checksum()
        var rows = 0
        let start: Int?
        let seconds: Double
        switch side {
        case .library:
            let queue = try LibraryWorkloads.open(path: path)
            start = PeakMemory.currentResidentKilobytes()
            switch read {
            case .fetchAll:
                let (cities, elapsed) = try MonotonicClock.measure { try LibraryWorkloads.fetchAll(from: queue) }
                seconds = elapsed
                (rows, checksum) = try summary(cities)
            case .cursor:
                seconds = try MonotonicClock.measure {
                    try queue.read { db in
                        // A cursor of records: the statement stepped one row at a time, each row decoded and
                        // dropped. Memory stays what one row needs, whatever the table's size.
                        let statement = try db.makeStatement(sql: BenchSchema.selectAll)
                        let decoder = RowDecoder()
                        while try statement.step() {
                            checksum.add(try decoder.decode(BenchCity.self, from: statement))
                            rows += 1
                        }
                    }
                }.seconds
            }
        case .baseline:
            let db = try BaselineDatabase(path: path)
            start = PeakMemory.currentResidentKilobytes()
            switch read {
            case .fetchAll:
                let (cities, elapsed) = try MonotonicClock.measure {
                    try db.read { try BaselineWorkloads.fetchAll(from: db) }
                }
                seconds = elapsed
                (rows, checksum) = try summary(cities)
            case .cursor:
                seconds = try MonotonicClock.measure {
                    try db.read {
                        let statement = try db.prepare(BenchSchema.selectAll)
                        while true {
                            let code = sqlite3_step(statement.handle)
                            if code == SQLITE_DONE { break }
                            guard code == SQLITE_ROW else { throw db.error(code, BenchSchema.selectAll) }
                            checksum.add(try BaselineWorkloads.readCity(statement.handle))
                            rows += 1
                        }
                    }
                }.seconds
            }
        }
        guard let start, let peak = PeakMemory.peakResidentKilobytes() else {
            throw BenchmarkError("Cannot read this process's resident memory")
        }
        return Report(seconds: seconds, rows: rows, checksum: checksum, startKilobytes: start, peakKilobytes: peak)
    }

    /// The number of cities and their checksum, computed while the array is alive (its memory is in the peak).
    private static func summary(_ cities: [BenchCity]) throws -> (Int, Checksum) {
        var checksum = Checksum()
        checksum.add(cities)
        return (cities.count, checksum)
    }

    /// Starts `executable --scale-child READ-SIDE --database PATH` and parses its report.
    /// - Throws: ``BenchmarkError`` when the child cannot start, fails, or prints no report.
    static func runProcess(_ executable: URL, _ read: Read, side: Side, databasePath: String) throws -> Report {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--scale-child", "\(read.rawValue)-\(side.rawValue)", "--database", databasePath]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0, let report = Report(line: text) else {
            throw BenchmarkError(
                "The \(read.rawValue)-\(side.rawValue) scale child (status \(process.terminationStatus)) printed: \(text)"
            )
        }
        return report
    }
}
