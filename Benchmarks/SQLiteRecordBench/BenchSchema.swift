/// The SQL both sides share: the table, the index W4 filters on, and the connection settings.
///
/// The column order is the order of ``BenchCity/CodingKeys``, so `SELECT *` returns columns in the order
/// the baseline reads them by index.
enum BenchSchema {
    static let createTable = """
        CREATE TABLE cities (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            country_code TEXT NOT NULL,
            admin1_code TEXT,
            population INTEGER NOT NULL,
            timezone TEXT NOT NULL,
            created_at TEXT NOT NULL,
            is_capital INTEGER NOT NULL
        )
        """

    /// W3-uuid's table: the cities keyed by a UUID stored as lowercase text, their GeoNames id beside it.
    static let createUUIDTable = """
        CREATE TABLE cities_uuid (
            id TEXT NOT NULL PRIMARY KEY,
            geonames_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            country_code TEXT NOT NULL,
            admin1_code TEXT,
            population INTEGER NOT NULL,
            timezone TEXT NOT NULL,
            created_at TEXT NOT NULL,
            is_capital INTEGER NOT NULL
        )
        """

    /// Fills ``createUUIDTable`` from `cities`; the UUID text is the first argument.
    static let fillUUIDTable = """
        INSERT INTO cities_uuid SELECT ?, id, name, latitude, longitude, country_code, admin1_code, population, \
        timezone, created_at, is_capital FROM cities WHERE id = ?
        """

    /// What the baseline's W3-uuid runs: the columns in ``createTable``'s order, so it reads them as W3 does.
    static let selectByUUID = """
        SELECT geonames_id, name, latitude, longitude, country_code, admin1_code, population, timezone, \
        created_at, is_capital FROM cities_uuid WHERE id = ?
        """

    /// W6's parents: one row per country code of the cities (the code as the name too), filled untimed.
    static let createCountries = """
        CREATE TABLE countries (code TEXT NOT NULL PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID;
        INSERT INTO countries SELECT DISTINCT country_code, country_code FROM cities
        """

    /// W6's first query, on both sides.
    static let selectCountries = #"SELECT * FROM "countries" ORDER BY "code" ASC"#

    /// W6's second query on both sides, for `count` codes: the SQL the library's eager load writes.
    static func selectCitiesOfCountries(_ count: Int) -> String {
        #"SELECT * FROM "cities" WHERE "country_code" IN ("#
            + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
    }

    /// Created before the read workloads (not before W1, which measures inserts alone).
    static let createCountryCodeIndex = "CREATE INDEX cities_country_code ON cities(country_code)"

    /// Run on every connection of both sides. WAL persists in the file; `synchronous` is per connection.
    static let pragmas = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL"

    /// What the library runs on each connection it opens (see `Database.init`): the baseline runs the same.
    static let libraryConnectionPragmas = "PRAGMA foreign_keys = ON"

    /// The library's busy timeout (`Database.defaultBusyTimeout`), in milliseconds.
    static let busyTimeout: Int32 = 5_000

    static let insert = """
        INSERT INTO cities (id, name, latitude, longitude, country_code, admin1_code, population, timezone, \
        created_at, is_capital) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// W7's upsert, as a careful person writes one that tells unchanged rows apart: rows that already hold
    /// the values are not rewritten.
    static let upsert = """
        INSERT INTO cities (id, name, latitude, longitude, country_code, admin1_code, population, timezone, \
        created_at, is_capital) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET \
        name = excluded.name, latitude = excluded.latitude, longitude = excluded.longitude, \
        country_code = excluded.country_code, admin1_code = excluded.admin1_code, population = excluded.population, \
        timezone = excluded.timezone, created_at = excluded.created_at, is_capital = excluded.is_capital \
        WHERE (name, latitude, longitude, country_code, admin1_code, population, timezone, created_at, is_capital) \
        IS NOT (excluded.name, excluded.latitude, excluded.longitude, excluded.country_code, excluded.admin1_code, \
        excluded.population, excluded.timezone, excluded.created_at, excluded.is_capital)
        """

    /// W7-partial's update of one column.
    static let updatePopulation = "UPDATE cities SET population = ? WHERE id = ?"

    static let selectAll = "SELECT * FROM cities"

    static let selectByID = "SELECT * FROM cities WHERE id = ?"

    static let selectByCountry = "SELECT * FROM cities WHERE country_code = ? ORDER BY population DESC LIMIT 50"

    /// What W1 reads back after the insert, untimed, to check that both sides stored the same values with
    /// the same storage classes.
    static let selectStored = """
        SELECT id, name, latitude, longitude, country_code, admin1_code, population, timezone, created_at, \
        is_capital FROM cities ORDER BY id
        """

    /// The W4 page size, written into ``selectByCountry`` as a careful person would.
    static let countryPageSize = 50
}
