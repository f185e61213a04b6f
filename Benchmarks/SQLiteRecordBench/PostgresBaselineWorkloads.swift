#if PostgreSQL
import CPostgresRecord
import Foundation

/// The PostgreSQL workloads written by hand over libpq: the same statements, round trips and stored values
/// as the library's calls, the fastest way a careful person would write them.
final class PostgresBaselineWorkloads {
    let connection: PostgresBaselineConnection
    private var parameters = PostgresBaselineParameters()

    /// Connects to `schema` and prepares every statement once, as a long-lived connection would.
    /// - Throws: ``BenchmarkError`` with libpq's message.
    init(_ connectionString: String, schema: String) throws {
        connection = try PostgresBaselineConnection(connectionString, schema: schema)
        let statements = [
            ("insert", PostgresBenchSchema.insert), ("insert_returning", PostgresBenchSchema.insertReturningID),
            ("upsert_country", PostgresBenchSchema.upsertCountry), ("upsert", PostgresBenchSchema.upsert),
            ("update", PostgresBenchSchema.update), ("select_all", PostgresBenchSchema.selectAll),
            ("select_by_id", PostgresBenchSchema.selectByID), ("select_by_country", PostgresBenchSchema.selectByCountry),
        ]
        for (name, sql) in statements { try connection.prepare(name, sql) }
    }

    private func setCity(_ city: BenchCity, withID: Bool) {
        parameters.removeAll()
        if withID { parameters.append(city.id ?? 0) }
        parameters.append(city.name)
        parameters.append(city.latitude)
        parameters.append(city.longitude)
        parameters.append(city.countryCode)
        parameters.append(city.admin1Code)
        parameters.append(city.population)
        parameters.append(city.timezone)
        parameters.append(city.createdAt)
        parameters.append(city.isCapital)
    }

    /// W1: one prepared INSERT per city, in one transaction.
    func insert(_ cities: [BenchCity]) throws {
        try connection.execute("BEGIN")
        for city in cities {
            setCity(city, withID: true)
            try connection.expectOneRow(connection.execute("insert", parameters), "INSERT")
        }
        try connection.execute("COMMIT")
    }

    /// W1-batch: the same INSERTs in pipeline mode, one transaction: all sent, then one sync, then every
    /// answer read and checked.
    func insertPipelined(_ cities: [BenchCity]) throws {
        let handle = connection.handle
        try connection.execute("BEGIN")
        guard PQenterPipelineMode(handle) == 1 else { throw BenchmarkError("PQenterPipelineMode: \(connection.message)") }
        for city in cities {
            setCity(city, withID: true)
            try connection.send("insert", parameters)
        }
        guard PQpipelineSync(handle) == 1 else { throw BenchmarkError("PQpipelineSync: \(connection.message)") }
        for _ in cities {
            try connection.expectOneRow(PQgetResult(handle), "pipelined INSERT")
            // Each statement's answer ends with a NULL.
            if let extra = PQgetResult(handle) {
                PQclear(extra)
                throw BenchmarkError("pipelined INSERT: more than one result")
            }
        }
        let sync = PQgetResult(handle)
        defer { PQclear(sync) }
        guard PQresultStatus(sync) == PGRES_PIPELINE_SYNC, PQexitPipelineMode(handle) == 1 else {
            throw BenchmarkError("pipeline sync: \(connection.message)")
        }
        try connection.execute("COMMIT")
    }

    /// W1-copy: `COPY ... FROM STDIN (FORMAT binary)`, the rows written in PostgreSQL's binary copy format
    /// (<https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.4>) and sent 64 KiB at a time.
    func copy(_ cities: [BenchCity]) throws {
        let handle = connection.handle
        let started = PQexec(handle, PostgresBenchSchema.copy)
        let status = PQresultStatus(started)
        PQclear(started)
        guard status == PGRES_COPY_IN else { throw BenchmarkError("COPY: \(connection.message)") }
        var buffer: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]
        buffer.reserveCapacity(70_000)
        func int16(_ value: Int16) {
            buffer.append(UInt8(truncatingIfNeeded: value >> 8))
            buffer.append(UInt8(truncatingIfNeeded: value))
        }
        func int32(_ value: Int32) {
            for shift in stride(from: 24, through: 0, by: -8) { buffer.append(UInt8(truncatingIfNeeded: value >> Int32(shift))) }
        }
        func int64(_ value: Int64) {
            int32(8)
            for shift in stride(from: 56, through: 0, by: -8) { buffer.append(UInt8(truncatingIfNeeded: value >> Int64(shift))) }
        }
        func text(_ value: String?) {
            guard let value else { return int32(-1) }
            int32(Int32(value.utf8.count))
            buffer.append(contentsOf: value.utf8)
        }
        func flush() throws {
            let sent = buffer.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
            }
            guard sent == 1 else { throw BenchmarkError("PQputCopyData: \(connection.message)") }
            buffer.removeAll(keepingCapacity: true)
        }
        for city in cities {
            int16(10)
            int64(city.id ?? 0)
            text(city.name)
            int64(Int64(bitPattern: city.latitude.bitPattern))
            int64(Int64(bitPattern: city.longitude.bitPattern))
            text(city.countryCode)
            text(city.admin1Code)
            int64(city.population)
            text(city.timezone)
            int64(PostgresBaselineParameters.microseconds(city.createdAt))
            int32(1)
            buffer.append(city.isCapital ? 1 : 0)
            if buffer.count >= 65_536 { try flush() }
        }
        int16(-1)
        try flush()
        guard PQputCopyEnd(handle, nil) == 1 else { throw BenchmarkError("PQputCopyEnd: \(connection.message)") }
        let finished = PQgetResult(handle)
        let finalStatus = PQresultStatus(finished)
        PQclear(finished)
        while let extra = PQgetResult(handle) { PQclear(extra) }
        guard finalStatus == PGRES_COMMAND_OK else { throw BenchmarkError("COPY: \(connection.message)") }
    }

    /// W2: every row, in a read-only transaction.
    func fetchAll() throws -> [BenchCity] {
        try connection.execute("BEGIN READ ONLY")
        let raw = PQexecPrepared(connection.handle, "select_all", 0, nil, nil, nil, 1)
        try connection.expectRows(raw, "SELECT")
        defer { PQclear(raw) }
        let result = PostgresBaselineResult(handle: raw)
        var cities: [BenchCity] = []
        cities.reserveCapacity(Int(result.rowCount))
        for row in 0..<result.rowCount { cities.append(result.city(row)) }
        try connection.execute("ROLLBACK")
        return cities
    }

    /// W3: one prepared lookup by id per id, in one read-only transaction.
    func lookUp(_ ids: [Int64]) throws -> [BenchCity] {
        try connection.execute("BEGIN READ ONLY")
        var cities: [BenchCity] = []
        cities.reserveCapacity(ids.count)
        for id in ids {
            parameters.removeAll()
            parameters.append(id)
            let raw = connection.execute("select_by_id", parameters)
            try connection.expectRows(raw, "SELECT by id")
            let result = PostgresBaselineResult(handle: raw)
            if result.rowCount == 1 { cities.append(result.city(0)) }
            PQclear(raw)
        }
        try connection.execute("ROLLBACK")
        return cities
    }

    /// W4: the most populous cities of each code, in one read-only transaction.
    func fetchByCountry(_ codes: [String]) throws -> [BenchCity] {
        try connection.execute("BEGIN READ ONLY")
        var cities: [BenchCity] = []
        for code in codes {
            parameters.removeAll()
            parameters.append(code)
            parameters.append(Int64(BenchSchema.countryPageSize))
            let raw = connection.execute("select_by_country", parameters)
            try connection.expectRows(raw, "SELECT by country")
            let result = PostgresBaselineResult(handle: raw)
            for row in 0..<result.rowCount { cities.append(result.city(row)) }
            PQclear(raw)
        }
        try connection.execute("ROLLBACK")
        return cities
    }

    /// W10: the search prepared once (on first use: it names the index's column, which only the search
    /// schema has), then run for each word, 10 cities each, in one read-only transaction.
    func search(_ words: [String]) throws -> [BenchCity] {
        if !preparedSearch {
            try connection.prepare("search", PostgresBenchSchema.search)
            preparedSearch = true
        }
        try connection.execute("BEGIN READ ONLY")
        var cities: [BenchCity] = []
        for word in words {
            parameters.removeAll()
            parameters.append(word)
            parameters.append(Int64(FullTextSearchWorkload.pageSize))
            let raw = connection.execute("search", parameters)
            try connection.expectRows(raw, "search")
            let result = PostgresBaselineResult(handle: raw)
            for row in 0..<result.rowCount { cities.append(result.city(row)) }
            PQclear(raw)
        }
        try connection.execute("ROLLBACK")
        return cities
    }

    private var preparedSearch = false

    /// W6: each country upserted, then its cities inserted with the ids the identity column chooses read
    /// from `RETURNING`, one transaction per country.
    func saveChildren(_ groups: [(country: BenchCountry, cities: [BenchCity])]) throws -> [BenchCity] {
        var saved: [BenchCity] = []
        for group in groups {
            try connection.execute("BEGIN")
            parameters.removeAll()
            parameters.append(group.country.id)
            parameters.append(group.country.name)
            try connection.expectOneRow(connection.execute("upsert_country", parameters), "upsert country")
            for var city in group.cities {
                setCity(city, withID: false)
                let raw = connection.execute("insert_returning", parameters)
                try connection.expectRows(raw, "INSERT RETURNING")
                let result = PostgresBaselineResult(handle: raw)
                guard result.rowCount == 1 else {
                    PQclear(raw)
                    throw BenchmarkError("INSERT RETURNING returned \(result.rowCount) rows")
                }
                city.id = result.int64(0, 0)
                PQclear(raw)
                saved.append(city)
            }
            try connection.execute("COMMIT")
        }
        return saved
    }

    /// W7: one prepared upsert per city, in one transaction.
    func upsert(_ cities: [BenchCity]) throws {
        var inserted = 0
        try connection.execute("BEGIN")
        for city in cities {
            setCity(city, withID: true)
            let result = connection.execute("upsert", parameters)
            // The outcome, read as `upsert(_:)` reads it: one binary boolean, true for an inserted row.
            if PQntuples(result) == 1, let outcome = PQgetvalue(result, 0, 0) { inserted += Int(outcome.pointee) }
            try connection.expectOneRow(result, "upsert")
        }
        guard inserted == cities.count else {
            throw BenchmarkError("upsert: \(inserted) of \(cities.count) cities inserted into the empty table")
        }
        try connection.execute("COMMIT")
    }

    /// W7-update: one prepared UPDATE of every column per city, in one transaction.
    func update(_ cities: [BenchCity]) throws {
        try connection.execute("BEGIN")
        for city in cities {
            setCity(city, withID: false)
            parameters.append(city.id ?? 0)
            try connection.expectOneRow(connection.execute("update", parameters), "UPDATE")
        }
        try connection.execute("COMMIT")
    }

    /// What the write schema holds, read untimed after a run: every city by id.
    func storedCities() throws -> [BenchCity] {
        let raw = PQexecParams(connection.handle, PostgresBenchSchema.selectStored, 0, nil, nil, nil, nil, 1)
        try connection.expectRows(raw, "SELECT stored")
        defer { PQclear(raw) }
        let result = PostgresBaselineResult(handle: raw)
        return (0..<result.rowCount).map(result.city)
    }

    /// The countries the write schema holds, as `code=name` lines.
    func storedCountries() throws -> [String] {
        let raw = PQexecParams(connection.handle, PostgresBenchSchema.selectStoredCountries, 0, nil, nil, nil, nil, 1)
        try connection.expectRows(raw, "SELECT countries")
        defer { PQclear(raw) }
        let result = PostgresBaselineResult(handle: raw)
        return (0..<result.rowCount).map { result.string($0, 0) + "=" + result.string($0, 1) }
    }
}
#endif
