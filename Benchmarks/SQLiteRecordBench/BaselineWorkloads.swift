import CSQLiteRecord
import Foundation

/// The workloads written by hand on the sqlite3 C API: each statement prepared once per workload, values
/// bound with `sqlite3_bind_*` and read with `sqlite3_column_*` straight into ``BenchCity``, dates as the
/// same text the library stores. This is the floor the library is measured against.
enum BaselineWorkloads {
    /// `SQLITE_TRANSIENT`: SQLite copies the text before the bind call returns, which is what hand-written
    /// Swift does with a string whose buffer is only lent for the call. The C macro is not imported.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    // MARK: W1

    /// Inserts every city in one IMMEDIATE transaction, as the library's `write` does.
    static func insert(_ cities: [BenchCity], into db: BaselineDatabase) throws {
        try bindEach(cities, into: BenchSchema.insert, of: db)
    }

    // MARK: W7

    /// Upserts every city in one IMMEDIATE transaction with ``BenchSchema/upsert``, bound as W1 binds.
    static func upsert(_ cities: [BenchCity], into db: BaselineDatabase) throws {
        try bindEach(cities, into: BenchSchema.upsert, of: db)
    }

    /// Runs `sql` (an INSERT or UPSERT of every column in ``BenchSchema/createTable``'s order) once per city,
    /// each value bound by hand, in one IMMEDIATE transaction.
    @inline(__always)  // so that W1 and W7 each run their loop in their own frame, which callgrind counts
    private static func bindEach(_ cities: [BenchCity], into sql: String, of db: BaselineDatabase) throws {
        try db.execute("BEGIN IMMEDIATE")
        do {
            let statement = try db.prepare(sql)
            let handle = statement.handle
            let dateText = UnsafeMutablePointer<UInt8>.allocate(capacity: BaselineDateText.length)
            defer { dateText.deallocate() }
            for city in cities {
                guard let id = city.id else { throw BenchmarkError("Baseline: a city has no id: \(city.name)") }
                guard BaselineDateText.write(city.createdAt, into: dateText) else {
                    throw BenchmarkError("Baseline: cannot store the date of city \(id)")
                }
                sqlite3_bind_int64(handle, 1, id)
                bindText(handle, 2, city.name)
                sqlite3_bind_double(handle, 3, city.latitude)
                sqlite3_bind_double(handle, 4, city.longitude)
                bindText(handle, 5, city.countryCode)
                if let admin1Code = city.admin1Code {
                    bindText(handle, 6, admin1Code)
                } else {
                    sqlite3_bind_null(handle, 6)
                }
                sqlite3_bind_int64(handle, 7, city.population)
                bindText(handle, 8, city.timezone)
                dateText.withMemoryRebound(to: CChar.self, capacity: BaselineDateText.length) {
                    _ = sqlite3_bind_text(handle, 9, $0, Int32(BaselineDateText.length), transient)
                }
                sqlite3_bind_int64(handle, 10, city.isCapital ? 1 : 0)
                let code = sqlite3_step(handle)
                guard code == SQLITE_DONE else { throw db.error(code, sql) }
                sqlite3_reset(handle)
            }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    /// Writes each city's population with ``BenchSchema/updatePopulation``, in one IMMEDIATE transaction.
    static func updatePopulation(_ cities: [BenchCity], in db: BaselineDatabase) throws {
        try db.execute("BEGIN IMMEDIATE")
        do {
            let statement = try db.prepare(BenchSchema.updatePopulation)
            let handle = statement.handle
            for city in cities {
                guard let id = city.id else { throw BenchmarkError("Baseline: a city has no id: \(city.name)") }
                sqlite3_bind_int64(handle, 1, city.population)
                sqlite3_bind_int64(handle, 2, id)
                let code = sqlite3_step(handle)
                guard code == SQLITE_DONE else { throw db.error(code, BenchSchema.updatePopulation) }
                sqlite3_reset(handle)
            }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    /// Binds the UTF-8 bytes of `text` to parameter `index`, copied by SQLite.
    @inline(__always)
    static func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            // An empty buffer may have no base address, and a NULL pointer would bind NULL, not ''.
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                _ = sqlite3_bind_text(statement, index, "", 0, transient)
                return
            }
            base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                _ = sqlite3_bind_text(statement, index, $0, Int32(bytes.count), transient)
            }
        }
    }

    // MARK: W2 and W5

    /// Every row of the table, in rowid order.
    static func fetchAll(from db: BaselineDatabase) throws -> [BenchCity] {
        let statement = try db.prepare(BenchSchema.selectAll)
        var cities: [BenchCity] = []
        while true {
            let code = sqlite3_step(statement.handle)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw db.error(code, BenchSchema.selectAll) }
            cities.append(try readCity(statement.handle))
        }
        return cities
    }

    // MARK: W3

    /// The city of each id that has one, in the order of `ids`, through one statement rebound per id.
    static func lookUp(_ ids: [Int64], in db: BaselineDatabase) throws -> [BenchCity] {
        let statement = try db.prepare(BenchSchema.selectByID)
        let handle = statement.handle
        var cities: [BenchCity] = []
        for id in ids {
            sqlite3_bind_int64(handle, 1, id)
            let code = sqlite3_step(handle)
            if code == SQLITE_ROW {
                cities.append(try readCity(handle))
            } else if code != SQLITE_DONE {
                throw db.error(code, BenchSchema.selectByID)
            }
            sqlite3_reset(handle)
        }
        return cities
    }

    /// W3-uuid: the city of each UUID that has one, bound as the lowercase text the table stores.
    static func lookUp(_ uuids: [UUID], in db: BaselineDatabase) throws -> [BenchCity] {
        let statement = try db.prepare(BenchSchema.selectByUUID)
        let handle = statement.handle
        var cities: [BenchCity] = []
        for uuid in uuids {
            bindText(handle, 1, uuid.uuidString.lowercased())
            let code = sqlite3_step(handle)
            if code == SQLITE_ROW {
                cities.append(try readCity(handle))
            } else if code != SQLITE_DONE {
                throw db.error(code, BenchSchema.selectByUUID)
            }
            sqlite3_reset(handle)
        }
        return cities
    }

    /// Fills W3-uuid's table from the cities table, untimed.
    static func fillUUIDTable(_ cities: [BenchCity], in db: BaselineDatabase) throws {
        try db.execute(BenchSchema.createUUIDTable)
        try db.execute("BEGIN IMMEDIATE")
        let statement = try db.prepare(BenchSchema.fillUUIDTable)
        let handle = statement.handle
        for city in cities {
            guard let id = city.id else { continue }
            bindText(handle, 1, BenchUUIDCity.uuid(for: id).uuidString.lowercased())
            sqlite3_bind_int64(handle, 2, id)
            let code = sqlite3_step(handle)
            guard code == SQLITE_DONE else { throw db.error(code, BenchSchema.fillUUIDTable) }
            sqlite3_reset(handle)
        }
        try db.execute("COMMIT")
    }

    // MARK: W4

    /// The most populous cities of each country code, through one statement rebound per code.
    static func fetchByCountry(_ codes: [String], in db: BaselineDatabase) throws -> [BenchCity] {
        let statement = try db.prepare(BenchSchema.selectByCountry)
        let handle = statement.handle
        var cities: [BenchCity] = []
        for code in codes {
            bindText(handle, 1, code)
            while true {
                let result = sqlite3_step(handle)
                if result == SQLITE_DONE { break }
                guard result == SQLITE_ROW else { throw db.error(result, BenchSchema.selectByCountry) }
                cities.append(try readCity(handle))
            }
            sqlite3_reset(handle)
        }
        return cities
    }

    // MARK: W6

    /// W6 by hand: the countries, then their cities in one query (`IN` their codes), grouped by code and
    /// flattened in country order.
    static func eagerLoad(in db: BaselineDatabase) throws -> [BenchCity] {
        let countries = try db.prepare(BenchSchema.selectCountries)
        var codes: [String] = []
        while true {
            let result = sqlite3_step(countries.handle)
            if result == SQLITE_DONE { break }
            guard result == SQLITE_ROW else { throw db.error(result, BenchSchema.selectCountries) }
            codes.append(String(cString: sqlite3_column_text(countries.handle, 0)))
        }
        guard !codes.isEmpty else { return [] }
        let sql = BenchSchema.selectCitiesOfCountries(codes.count)
        let statement = try db.prepare(sql)
        let handle = statement.handle
        for (index, code) in codes.enumerated() { bindText(handle, Int32(index + 1), code) }
        var byCode: [String: [BenchCity]] = [:]
        while true {
            let result = sqlite3_step(handle)
            if result == SQLITE_DONE { break }
            guard result == SQLITE_ROW else { throw db.error(result, sql) }
            let city = try readCity(handle)
            byCode[city.countryCode, default: []].append(city)
        }
        var cities: [BenchCity] = []
        for code in codes { cities += byCode[code] ?? [] }
        return cities
    }

    // MARK: Reading a row

    /// The current row of a `SELECT *` from the table, read by column index (the table's column order).
    @inline(__always)
    static func readCity(_ statement: OpaquePointer) throws -> BenchCity {
        let id = sqlite3_column_int64(statement, 0)
        guard let dateBytes = sqlite3_column_text(statement, 8),
            let createdAt = BaselineDateText.parse(dateBytes, count: Int(sqlite3_column_bytes(statement, 8)))
        else { throw BenchmarkError("Baseline: city \(id) has no date text in created_at") }
        return BenchCity(
            id: id,
            name: text(statement, 1),
            latitude: sqlite3_column_double(statement, 2),
            longitude: sqlite3_column_double(statement, 3),
            countryCode: text(statement, 4),
            admin1Code: sqlite3_column_type(statement, 5) == SQLITE_NULL ? nil : text(statement, 5),
            population: sqlite3_column_int64(statement, 6),
            timezone: text(statement, 7),
            createdAt: createdAt,
            isCapital: sqlite3_column_int64(statement, 9) != 0)
    }

    /// Column `index` as a string; "" for NULL (the columns read this way are NOT NULL).
    @inline(__always)
    static func text(_ statement: OpaquePointer, _ index: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
