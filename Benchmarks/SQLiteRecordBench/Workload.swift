import Foundation

/// The workloads of the benchmark issues, each run through the library and through the baseline.
enum Workload: String, CaseIterable, Sendable {
    /// Every row inserted in one transaction.
    case insert = "W1"
    /// Every row fetched into `[BenchCity]`.
    case fetchAll = "W2"
    /// W2 through a row initializer (``BenchRowCity``).
    case fetchAllRow = "W2-row"
    /// Point lookups by primary key, with ids drawn from the data with a fixed seed.
    case lookUp = "W3"
    /// W3 through a row initializer.
    case lookUpRow = "W3-row"
    /// W3's lookups in a table keyed by a UUID (lowercase text), the same cities drawn.
    case lookUpUUID = "W3-uuid"
    /// The 50 most populous cities of each of the most frequent country codes, through an index.
    case fetchByCountry = "W4"
    /// W4 written with the request API (`filter`, `order`, `limit`), against the same baseline: held to W4's
    /// goal and to within 5% of W4's own time.
    case fetchByCountryRequest = "W4-request"
    /// Every row decoded from a statement stepped by hand, without the fetch call around it.
    case decodeOnly = "W5"
    /// W5 through a row initializer.
    case decodeOnlyRow = "W5-row"
    /// Every country with all its cities: the library's eager load (`including(all:)`, two queries) into a
    /// nested result, against a hand-written loop over the same two queries that groups the cities by code.
    case eagerLoad = "W6"
    /// Every row upserted (`INSERT ... ON CONFLICT (id) DO UPDATE`) into an empty table, one transaction.
    case upsertIntoEmpty = "W7"
    /// Every row upserted into the table already holding them all, every seventh with a new population: a
    /// re-import, where most rows are left unchanged.
    case upsertIntoFull = "W7-full"
    /// One column (population) of the cities W3 draws written with `update(_:columns:)`, one transaction.
    case updateColumn = "W7-partial"
    /// The same cities written with `updateChanges(_:from:)`, which finds the changed column itself.
    case updateChanges = "W7-changes"

    /// What the table prints beside the name.
    var title: String {
        switch self {
        case .insert: return "insert all, one transaction"
        case .fetchAll: return "fetch all"
        case .lookUp: return "fetchOne(id:) lookups"
        case .lookUpUUID: return "fetchOne(id:) lookups by UUID key"
        case .fetchByCountry: return "fetch(where:orderBy:limit:) by country"
        case .fetchByCountryRequest: return "filter(==).order(desc).limit by country"
        case .decodeOnly: return "decode only, stepped statement"
        case .fetchAllRow: return "fetch all, init(row:)"
        case .lookUpRow: return "fetchOne(id:) lookups, init(row:)"
        case .decodeOnlyRow: return "decode only, init(row:)"
        case .eagerLoad: return "countries including(all:) cities"
        case .upsertIntoEmpty: return "upsert all into an empty table"
        case .upsertIntoFull: return "upsert all into the full table"
        case .updateColumn: return "update(_:columns:) of one column"
        case .updateChanges: return "updateChanges(_:from:), one column changed"
        }
    }

    /// True for the twins that read ``BenchRowCity`` through its row initializer.
    var readsRowInitializer: Bool { self == .fetchAllRow || self == .lookUpRow || self == .decodeOnlyRow }

    /// True when the workload reads a table that is filled (untimed) before it runs.
    var readsPopulatedTable: Bool { self != .insert && self != .upsertIntoEmpty }

    /// True when the workload writes: what it stored is read back (untimed) and compared, not what it read.
    var writes: Bool {
        switch self {
        case .insert, .upsertIntoEmpty, .upsertIntoFull, .updateColumn, .updateChanges: return true
        case .fetchAll, .lookUp, .lookUpUUID, .fetchByCountry, .fetchByCountryRequest, .decodeOnly, .fetchAllRow,
            .lookUpRow, .decodeOnlyRow, .eagerLoad:
            return false
        }
    }
}

/// Which implementation runs a workload.
enum Side: String, CaseIterable, Sendable {
    /// SQLiteRecord's public API.
    case library
    /// Hand-written calls to the sqlite3 C API.
    case baseline
}

/// What the workloads run on: the cities, and what W3 and W4 ask for, drawn from them once.
struct WorkloadInput: Sendable {
    /// The number of W3 lookups on a full run.
    static let defaultLookupCount = 20_000
    /// The number of country codes W4 asks for on a full run.
    static let defaultCountryCount = 200
    /// The seed of W3's draws: any fixed number does.
    static let lookupSeed: UInt64 = 0x5EED_C17E5

    let cities: [BenchCity]
    /// The ids W3 looks up, in order; drawn with replacement.
    let lookupIDs: [Int64]
    /// The UUIDs W3-uuid looks up: those of ``lookupIDs``' cities.
    let lookupUUIDs: [UUID]
    /// The codes W4 filters on, sorted.
    let countryCodes: [String]
    /// What W7-full upserts: every city, every seventh with its population one higher.
    let reimportedCities: [BenchCity]
    /// The cities W7-partial and W7-changes write, as fetched (those of ``lookupIDs``, in order)...
    let updateOriginals: [BenchCity]
    /// ...and with their population one higher.
    let updatedCities: [BenchCity]

    init(
        cities: [BenchCity], lookupCount: Int = Self.defaultLookupCount,
        countryCount: Int = Self.defaultCountryCount
    ) {
        self.cities = cities
        let ids = cities.compactMap(\.id)
        var generator = SplitMix64(seed: Self.lookupSeed)
        lookupIDs =
            ids.isEmpty
            ? []
            : (0..<lookupCount).map { _ in ids[Int(generator.next() % UInt64(ids.count))] }
        lookupUUIDs = lookupIDs.map(BenchUUIDCity.uuid(for:))
        countryCodes = Self.mostFrequentCountryCodes(in: cities, count: countryCount)
        reimportedCities = cities.enumerated().map { index, city in
            var city = city
            if index % 7 == 0 { city.population += 1 }
            return city
        }
        var byID: [Int64: BenchCity] = [:]
        for city in cities { if let id = city.id { byID[id] = city } }
        updateOriginals = lookupIDs.compactMap { byID[$0] }
        updatedCities = updateOriginals.map { city in
            var city = city
            city.population += 1
            return city
        }
    }

    /// The `count` codes with the most cities (ties broken by code, so the choice is stable), sorted by code.
    static func mostFrequentCountryCodes(in cities: [BenchCity], count: Int) -> [String] {
        var frequencies: [String: Int] = [:]
        for city in cities { frequencies[city.countryCode, default: 0] += 1 }
        let ranked = frequencies.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        return ranked.prefix(count).map(\.key).sorted()
    }
}
