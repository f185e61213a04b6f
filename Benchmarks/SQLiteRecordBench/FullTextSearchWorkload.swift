import Foundation
import SQLiteRecord

/// W10: an FTS5 index over every city name, built through the library, then the same 1,000 words searched
/// through it (`search(_:)`, ranked by bm25), through `LIKE '%word%'` (a request's `contains`, ASCII case
/// folding) and through `caseInsensitiveContains` (Unicode case folding of each name), each asking for 10
/// cities. Run only when named; it reports both times, the index's build time and its size.
enum FullTextSearchWorkload {
    static let name = "W10"
    /// The number of searches each side runs.
    static let searches = 1_000
    /// The cities each search asks for.
    static let pageSize = 10
    /// The seed of the words drawn: any fixed number does.
    static let seed: UInt64 = 0xF75_5EED

    /// What a run measured.
    struct Summary {
        var buildSeconds: [Double] = []
        var indexBytes: Int64 = 0
        var ftsSeconds: [Double] = []
        var likeSeconds: [Double] = []
        var foldedSeconds: [Double] = []
        /// Cities found over all searches, per side (the same for every repetition).
        var ftsFound = 0
        var likeFound = 0
        var foldedFound = 0

        var table: String {
            let fts = median(ftsSeconds)
            let like = median(likeSeconds)
            let folded = median(foldedSeconds)
            return """
                W10 full-text search: \(searches) words, \(pageSize) cities each
                  index over every name: built in \(String(format: "%.3f", median(buildSeconds))) s, \
                \(String(format: "%.1f", Double(indexBytes) / 1_048_576)) MB on disk
                  search(_:) through the index  median \(String(format: "%.4f", fts)) s  (\(ftsFound) cities)
                  LIKE '%word%'                 median \(String(format: "%.4f", like)) s  (\(likeFound) cities)
                  caseInsensitiveContains       median \(String(format: "%.4f", folded)) s  (\(foldedFound) cities)
                  LIKE / index: \(String(format: "%.1f", fts > 0 ? like / fts : 0))x, \
                caseInsensitiveContains / LIKE: \(String(format: "%.2f", like > 0 ? folded / like : 0))x
                """
        }

        var json: String {
            "{\"workload\":\"W10\",\"build_s\":\(median(buildSeconds)),\"index_bytes\":\(indexBytes),"
                + "\"fts_s\":\(median(ftsSeconds)),\"like_s\":\(median(likeSeconds)),"
                + "\"folded_s\":\(median(foldedSeconds)),"
                + "\"fts_found\":\(ftsFound),\"like_found\":\(likeFound),\"folded_found\":\(foldedFound)}"
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// `count` words drawn with replacement from the cities' names: each name's first word of three or more
    /// letters, lowercased.
    static func words(from cities: [BenchCity], count: Int) -> [String] {
        let candidates = cities.compactMap { city in
            city.name.split(whereSeparator: { !$0.isLetter }).first { $0.count >= 3 }.map { $0.lowercased() }
        }
        guard !candidates.isEmpty else { return [] }
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in candidates[Int(generator.next() % UInt64(candidates.count))] }
    }

    /// Runs `repetitions` rounds, each in a fresh database: build the index, then both searches.
    /// - Throws: what the library throws.
    static func runAll(input: WorkloadInput, repetitions: Int, progress: (String) -> Void) throws -> Summary {
        var summary = Summary()
        let words = words(from: input.cities, count: searches)
        for repetition in 0..<repetitions {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            try WorkloadRunner.prepareDatabase(at: directory.databasePath, for: .fetchAll, cities: input.cities)
            let queue = try LibraryWorkloads.open(path: directory.databasePath)
            let before = try queue.read(databaseBytes)
            let (_, build) = try MonotonicClock.measure {
                try queue.write { db in try SearchCity.createFullTextIndex(in: db) }
            }
            summary.buildSeconds.append(build)
            summary.indexBytes = try queue.read(databaseBytes) - before
            let (ftsFound, fts) = try MonotonicClock.measure {
                try queue.read { db in
                    try words.reduce(0) { $0 + (try SearchCity.search($1).limit(pageSize).fetch(db).count) }
                }
            }
            let (likeFound, like) = try MonotonicClock.measure {
                try queue.read { db in
                    try words.reduce(0) {
                        $0 + (try SearchCity.filter(Column("name").contains($1)).limit(pageSize).fetch(db).count)
                    }
                }
            }
            let (foldedFound, folded) = try MonotonicClock.measure {
                try queue.read { db in
                    try words.reduce(0) {
                        $0
                            + (try SearchCity.filter(Column("name").caseInsensitiveContains($1)).limit(pageSize)
                                .fetch(db).count)
                    }
                }
            }
            summary.ftsSeconds.append(fts)
            summary.foldedSeconds.append(folded)
            summary.foldedFound = foldedFound
            summary.likeSeconds.append(like)
            summary.ftsFound = ftsFound
            summary.likeFound = likeFound
            progress("W10 repetition \(repetition + 1) of \(repetitions) done")
        }
        return summary
    }

    /// The database's size: its pages times the page size (the WAL's pages included).
    private static func databaseBytes(_ db: Database) throws -> Int64 {
        let pages = try db.scalar(Int64.self, sql: "PRAGMA page_count") ?? 0
        let size = try db.scalar(Int64.self, sql: "PRAGMA page_size") ?? 0
        return pages * size
    }
}

/// The benchmark's cities, searchable by name (unicode61, diacritics removed).
struct SearchCity: FullTextSearchable, Sendable {
    var id: Int64?
    var name: String
    var population: Int64
    static let tableName = "cities"
    static let fullTextIndex = FullTextIndex(columns: ["name"])
}
