#if PostgreSQL
import Foundation
import PostgresRecord
import SQLiteRecord

/// The PostgreSQL workloads through PostgresRecord's public API, as its article shows: what a user of the
/// library writes. The same `BenchCity` and `BenchCountry` records the SQLite run uses.
final class PostgresLibraryWorkloads {
    let connection: PostgresConnection

    /// Opens a connection whose search path is `schema`.
    /// - Throws: ``PostgresError`` when the server cannot be reached.
    init(_ connectionString: String, schema: String) throws {
        connection = try PostgresConnection(connectionString)
        try connection.execute(PostgresBenchSchema.searchPath(schema))
    }

    /// W1: every city through `insert(_:)`, in one transaction.
    func insert(_ cities: [BenchCity]) throws {
        try connection.transaction {
            for var city in cities { try city.insert(connection) }
        }
    }

    /// W1-batch: every city through `insertAll(_:_:)` (pipelined, its own transaction).
    func insertAll(_ cities: [BenchCity]) throws {
        var cities = cities
        try BenchCity.insertAll(connection, &cities)
    }

    /// W1-copy: every city through `copyIn(_:_:)` (one binary COPY, its own transaction).
    func copyIn(_ cities: [BenchCity]) throws {
        var cities = cities
        try BenchCity.copyIn(connection, &cities)
    }

    /// W2: every row through `fetch(_:)`, in a read-only transaction.
    func fetchAll() throws -> [BenchCity] {
        try connection.transaction(readOnly: true) { try BenchCity.fetch(connection) }
    }

    /// W3: `fetchOne(_:id:)` for each id, in one read-only transaction.
    func lookUp(_ ids: [Int64]) throws -> [BenchCity] {
        try connection.transaction(readOnly: true) {
            var cities: [BenchCity] = []
            cities.reserveCapacity(ids.count)
            for id in ids {
                if let city = try BenchCity.fetchOne(connection, id: id) { cities.append(city) }
            }
            return cities
        }
    }

    /// W4: the most populous cities of each code through `fetch(_:where:orderBy:limit:)`, in one read-only
    /// transaction.
    func fetchByCountry(_ codes: [String]) throws -> [BenchCity] {
        try connection.transaction(readOnly: true) {
            var cities: [BenchCity] = []
            for code in codes {
                cities += try BenchCity.fetch(
                    connection, where: ["country_code": code], orderBy: [.descending("population")],
                    limit: BenchSchema.countryPageSize)
            }
            return cities
        }
    }

    /// W2-row: W2 through ``BenchRowCity``'s row initializer.
    func fetchAllRows() throws -> [BenchRowCity] {
        try connection.transaction(readOnly: true) { try BenchRowCity.fetch(connection) }
    }

    /// W3-row: W3 through ``BenchRowCity``'s row initializer.
    func lookUpRows(_ ids: [Int64]) throws -> [BenchRowCity] {
        try connection.transaction(readOnly: true) {
            var cities: [BenchRowCity] = []
            cities.reserveCapacity(ids.count)
            for id in ids {
                if let city = try BenchRowCity.fetchOne(connection, id: id) { cities.append(city) }
            }
            return cities
        }
    }

    /// W4-row: W4 through ``BenchRowCity``'s row initializer.
    func fetchByCountryRows(_ codes: [String]) throws -> [BenchRowCity] {
        try connection.transaction(readOnly: true) {
            var cities: [BenchRowCity] = []
            for code in codes {
                cities += try BenchRowCity.fetch(
                    connection, where: ["country_code": code], orderBy: [.descending("population")],
                    limit: BenchSchema.countryPageSize)
            }
            return cities
        }
    }

    /// W6: each country saved with its new cities through `save(_:children:)` (one transaction each); the
    /// cities get their ids from `RETURNING`.
    func saveChildren(_ groups: [(country: BenchCountry, cities: [BenchCity])]) throws -> [BenchCity] {
        var saved: [BenchCity] = []
        for group in groups {
            var country = group.country
            var cities = group.cities
            try country.save(connection, children: &cities)
            saved += cities
        }
        return saved
    }

    /// W6-association: each country saved with its new cities through `save(_:children:for:)`, which sets
    /// each city's `country_code` from the country's code (one transaction each).
    func saveChildren(
        _ groups: [(country: BenchCountry, cities: [BenchCity])], for association: HasManyAssociation<BenchCountry, BenchCity>
    ) throws -> [BenchCity] {
        var saved: [BenchCity] = []
        for group in groups {
            var country = group.country
            var cities = group.cities
            try country.save(connection, children: &cities, for: association)
            saved += cities
        }
        return saved
    }

    /// W7: every city through `upsert(_:)`, in one transaction.
    func upsert(_ cities: [BenchCity]) throws {
        try connection.transaction {
            for var city in cities { try city.upsert(connection) }
        }
    }

    /// W10: each word through `search(_:)`, 10 cities each, in one read-only transaction.
    func search(_ words: [String]) throws -> [BenchCity] {
        try connection.transaction(readOnly: true) {
            var cities: [BenchCity] = []
            for word in words {
                cities += try BenchCity.search(word).limit(FullTextSearchWorkload.pageSize).fetch(connection)
            }
            return cities
        }
    }

    /// W7-update: every city through `update(_:)`, in one transaction.
    func update(_ cities: [BenchCity]) throws {
        try connection.transaction {
            for city in cities { try city.update(connection) }
        }
    }
}

/// W10's index on PostgreSQL: the city names, accents folded (`unicode61()`'s configuration).
extension BenchCity: FullTextSearchable {
    static let fullTextIndex = FullTextIndex(columns: ["name"])
}
#endif
