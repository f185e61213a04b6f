import SQLiteRecord

/// What one run of one workload on one side measured.
struct Measurement: Equatable {
    /// Rows stored after a write workload (W1, W7...), or read (W2 to W5).
    let rows: Int
    /// Over the rows read, or over the stored table after a write workload.
    let checksum: Checksum
    /// The timed part alone: opening the connection, filling the table and computing the checksum are not
    /// timed.
    let seconds: Double
}

/// Runs one workload once on one side, in a database of its own.
enum WorkloadRunner {
    /// Creates a database in a fresh temporary directory (filled with every city and indexed, untimed, for
    /// the read workloads), opens it through `side`, times the workload, and checksums what it read or
    /// wrote.
    /// - Throws: ``BenchmarkError`` or the library's errors, from setting up or from the workload.
    static func run(_ workload: Workload, side: Side, input: WorkloadInput) throws -> Measurement {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.databasePath
        try prepareDatabase(at: path, for: workload, cities: input.cities)

        let (cities, seconds): ([BenchCity], Double)
        switch side {
        case .library:
            // The queue is released (the connection closed) at the end of this scope, before a written table is
            // read back.
            let queue = try LibraryWorkloads.open(path: path)
            if workload.readsRowInitializer {
                (cities, seconds) = try LibraryWorkloads.measureRowVariant(workload, input: input, in: queue)
            } else {
                (cities, seconds) = try measureLibrary(workload, input: input, in: queue)
            }
        case .baseline:
            // Every read workload in one transaction, as the library's `read` runs it: a lookup then pays
            // for no transaction of its own (see BaselineDatabase.read(_:)).
            let db = try BaselineDatabase(path: path)
            (cities, seconds) = try MonotonicClock.measure { () throws -> [BenchCity] in
                switch workload {
                case .insert:
                    try BaselineWorkloads.insert(input.cities, into: db)
                    return []
                case .fetchAll, .decodeOnly, .fetchAllRow, .decodeOnlyRow:
                    return try db.read { try BaselineWorkloads.fetchAll(from: db) }
                case .lookUp, .lookUpRow: return try db.read { try BaselineWorkloads.lookUp(input.lookupIDs, in: db) }
                case .lookUpUUID: return try db.read { try BaselineWorkloads.lookUp(input.lookupUUIDs, in: db) }
                case .fetchByCountry, .fetchByCountryRequest:
                    return try db.read { try BaselineWorkloads.fetchByCountry(input.countryCodes, in: db) }
                case .eagerLoad: return try db.read { try BaselineWorkloads.eagerLoad(in: db) }
                case .upsertIntoEmpty:
                    try BaselineWorkloads.upsert(input.cities, into: db)
                    return []
                case .upsertIntoFull:
                    try BaselineWorkloads.upsert(input.reimportedCities, into: db)
                    return []
                case .updateColumn, .updateChanges:
                    try BaselineWorkloads.updatePopulation(input.updatedCities, in: db)
                    return []
                }
            }
        }

        if workload.writes {
            let stored = try StoredTable.checksum(path: path)
            return Measurement(rows: stored.rows, checksum: stored.checksum, seconds: seconds)
        }
        var checksum = Checksum()
        checksum.add(cities)
        return Measurement(rows: cities.count, checksum: checksum, seconds: seconds)
    }

    /// Times one of the library's Codable workloads (the row-initializer twins go through
    /// ``LibraryWorkloads/measureRowVariant(_:input:in:)``).
    private static func measureLibrary(
        _ workload: Workload, input: WorkloadInput, in queue: DatabaseQueue
    ) throws -> (result: [BenchCity], seconds: Double) {
        try MonotonicClock.measure { () throws -> [BenchCity] in
            switch workload {
            case .insert:
                try LibraryWorkloads.insert(input.cities, into: queue)
                return []
            case .fetchAll: return try LibraryWorkloads.fetchAll(from: queue)
            case .lookUp: return try LibraryWorkloads.lookUp(input.lookupIDs, in: queue)
            case .lookUpUUID: return try LibraryWorkloads.lookUp(input.lookupUUIDs, in: queue)
            case .fetchByCountry: return try LibraryWorkloads.fetchByCountry(input.countryCodes, in: queue)
            case .fetchByCountryRequest:
                return try LibraryWorkloads.fetchByCountryRequest(input.countryCodes, in: queue)
            case .decodeOnly: return try LibraryWorkloads.decodeAll(from: queue)
            case .eagerLoad: return try LibraryWorkloads.eagerLoad(in: queue)
            case .upsertIntoEmpty:
                try LibraryWorkloads.upsert(input.cities, into: queue)
                return []
            case .upsertIntoFull:
                try LibraryWorkloads.upsert(input.reimportedCities, into: queue)
                return []
            case .updateColumn:
                try LibraryWorkloads.updatePopulation(input.updatedCities, in: queue)
                return []
            case .updateChanges:
                try LibraryWorkloads.updateChanges(input.updatedCities, from: input.updateOriginals, in: queue)
                return []
            case .fetchAllRow, .lookUpRow, .decodeOnlyRow:
                throw BenchmarkError("\(workload.rawValue) runs through LibraryWorkloads.measureRowVariant")
            }
        }
    }

    /// Creates the table (W1), or creates, fills and indexes it (the read workloads), through a baseline
    /// connection that is closed before the workload opens its own, so both sides start with a cold SQLite
    /// page cache.
    /// - Throws: ``BenchmarkError`` from SQLite.
    static func prepareDatabase(at path: String, for workload: Workload, cities: [BenchCity]) throws {
        let db = try BaselineDatabase(path: path)
        try db.execute(BenchSchema.createTable)
        if workload.readsPopulatedTable {
            try BaselineWorkloads.insert(cities, into: db)
            try db.execute(BenchSchema.createCountryCodeIndex)
            if workload == .lookUpUUID { try BaselineWorkloads.fillUUIDTable(cities, in: db) }
            if workload == .eagerLoad { try db.execute(BenchSchema.createCountries) }
        }
    }
}
