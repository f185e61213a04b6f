import Foundation
import SQLiteRecord

/// W2-row, W3-row and W5-row: W2, W3 and W5 through ``BenchRowCity``'s row initializer, with the same calls.
extension LibraryWorkloads {
    /// Runs the row-initializer twin of a workload and times it; the records are turned into ``BenchCity``
    /// values for the checksum after the clock stops.
    /// - Throws: what the workload throws; ``BenchmarkError`` for a workload that has no twin.
    static func measureRowVariant(
        _ workload: Workload, input: WorkloadInput, in queue: DatabaseQueue
    ) throws -> (cities: [BenchCity], seconds: Double) {
        let (rows, seconds) = try MonotonicClock.measure { () throws -> [BenchRowCity] in
            switch workload {
            case .fetchAllRow: return try fetchAllRows(from: queue)
            case .lookUpRow: return try lookUpRows(input.lookupIDs, in: queue)
            case .decodeOnlyRow: return try decodeAllRows(from: queue)
            default: throw BenchmarkError("\(workload.rawValue) has no row-initializer twin")
            }
        }
        return (rows.map(\.city), seconds)
    }

    /// W2-row: every row through `fetch(_:)`.
    static func fetchAllRows(from queue: DatabaseQueue) throws -> [BenchRowCity] {
        try queue.read { db in try BenchRowCity.fetch(db) }
    }

    /// W3-row: `fetchOne(_:id:)` for each id, in one `read`.
    static func lookUpRows(_ ids: [Int64], in queue: DatabaseQueue) throws -> [BenchRowCity] {
        try queue.read { db in
            var cities: [BenchRowCity] = []
            for id in ids {
                if let city = try BenchRowCity.fetchOne(db, id: id) { cities.append(city) }
            }
            return cities
        }
    }

    /// W5-row: a statement of the caller's, stepped by hand, each row decoded by `RowDecoder`.
    static func decodeAllRows(from queue: DatabaseQueue) throws -> [BenchRowCity] {
        try queue.read { db in
            let statement = try db.makeStatement(sql: BenchSchema.selectAll)
            let decoder = RowDecoder()
            var cities: [BenchRowCity] = []
            while try statement.step() {
                cities.append(try decoder.decode(BenchRowCity.self, from: statement))
            }
            return cities
        }
    }
}
