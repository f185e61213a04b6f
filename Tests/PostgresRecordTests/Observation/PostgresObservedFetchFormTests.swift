#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord
import XCTest

/// A `ValueObservation` that refetches one `where:` form (one SQL text, its form and decoding kept by the
/// pool's connection) while other sessions insert rows and add a column to the table: each value is the
/// rows of its commit, decoded through the new columns once they change.
final class PostgresObservedFetchFormTests: PostgresTestCase {
    struct Town: Record, Equatable {
        var id: Int64?
        var name: String
        var region: String?
        static let tableName = "towns"
    }

    func testAnObservationOfOneFormAcrossInsertsAndAnAddedColumn() async throws {
        try Town.createTable(in: connection)
        var lyon = Town(id: nil, name: "Lyon", region: "ARA")
        try lyon.insert(connection)
        let observation = ValueObservation.tracking { (connection: PostgresConnection) in
            try Town.fetch(connection, where: ["region": "ARA"], orderBy: [.ascending("name")]).map(\.name)
        }
        let seen = TestLocked<[[String]]>([])
        let pool = self.pool!
        let failure = TestLocked<String?>(nil)
        let task = Task {
            do {
                for try await names in observation.values(in: pool) { seen.withLock { $0.append(names) } }
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
        }
        defer { task.cancel() }
        func wait(for names: [String]) async throws {
            let deadline = Date().addingTimeInterval(10)
            while seen.withLock({ $0.last }) != names {
                guard Date() < deadline, failure.withLock({ $0 }) == nil else {
                    let error = failure.withLock { $0 } ?? ""
                    return XCTFail("waited for \(names); seen \(seen.withLock { $0 }), \(error)")
                }
                try await Task.sleep(nanoseconds: 5_000_000)
            }
        }
        try await wait(for: ["Lyon"])
        let other = try PostgresConnection(configuration: configuration())
        try other.execute("INSERT INTO towns (name, region) VALUES ('Annecy', 'ARA'), ('Brest', 'BRE')")
        try await wait(for: ["Annecy", "Lyon"])
        try other.execute("ALTER TABLE towns ADD COLUMN country TEXT")
        try other.execute("INSERT INTO towns (name, region, country) VALUES ('Grenoble', 'ARA', 'FR')")
        try await wait(for: ["Annecy", "Grenoble", "Lyon"])
        try other.execute("ALTER TABLE towns DROP COLUMN country")
        try other.execute("DELETE FROM towns WHERE name = 'Annecy'")
        try await wait(for: ["Grenoble", "Lyon"])
    }
}
#endif
