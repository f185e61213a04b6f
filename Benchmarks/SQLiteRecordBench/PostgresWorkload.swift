import Foundation

/// The workloads of the PostgreSQL run (`--postgres URL`), each through PostgresRecord and through a
/// hand-written libpq loop on the same server in the same run.
enum PostgresWorkload: String, CaseIterable, Sendable {
    /// Every city through `insert(_:)`, one round trip a row, in one transaction.
    case insert = "W1"
    /// Every city through `insertAll(_:_:)` (libpq's pipeline mode), against the same INSERTs pipelined by
    /// hand.
    case insertBatch = "W1-batch"
    /// Every city through `copyIn(_:_:)` (one `COPY ... FROM STDIN (FORMAT binary)`, its own transaction),
    /// against the same binary COPY written by hand: the floor the batch insert is reported beside.
    case copy = "W1-copy"
    /// Every row fetched.
    case fetchAll = "W2"
    /// W2 through ``BenchRowCity``'s PostgreSQL row initializer.
    case fetchAllRow = "W2-row"
    /// W3's fixed-seed ids looked up one by one.
    case lookUp = "W3"
    /// W3 through ``BenchRowCity``'s PostgreSQL row initializer.
    case lookUpRow = "W3-row"
    /// The 50 most populous cities of each of W4's country codes.
    case fetchByCountry = "W4"
    /// W4 through ``BenchRowCity``'s PostgreSQL row initializer.
    case fetchByCountryRow = "W4-row"
    /// Each country saved with its cities as new children (`save(_:children:)`, one transaction each), the
    /// children's ids read from `RETURNING`.
    case saveChildren = "W6"
    /// W6 through `save(_:children:for:)` with the declared `BenchCountry.cities` association: each city's
    /// foreign key set from its country's code (a one-row result read back per city), against the same
    /// hand-written loop as W6.
    case saveChildrenAssociation = "W6-association"
    /// Every city upserted into the empty table, one transaction.
    case upsert = "W7"
    /// W3's cities, each with its population one higher, written with `update(_:)` (every column), one
    /// transaction.
    case update = "W7-update"
    /// W10's 1,000 words, each through `search(_:)` for 10 cities (a `tsvector` column with a GIN index,
    /// `websearch_to_tsquery`, ranked by `ts_rank`), in one read-only transaction, against the same SQL
    /// prepared once by hand. Run only when named, as on SQLite.
    case fullTextSearch = "W10"

    /// The workloads a run without `--workloads` runs: all but W10, which builds an index of its own first.
    static var defaultCases: [PostgresWorkload] { allCases.filter { $0 != .fullTextSearch } }

    /// What the table prints beside the name.
    var title: String {
        switch self {
        case .insert: return "insert all, one transaction"
        case .insertBatch: return "insertAll, pipelined"
        case .copy: return "copyIn, binary COPY FROM STDIN"
        case .fetchAll: return "fetch all"
        case .fetchAllRow: return "fetch all, init(row:)"
        case .lookUp: return "fetchOne(id:) lookups"
        case .lookUpRow: return "fetchOne(id:) lookups, init(row:)"
        case .fetchByCountry: return "fetch(where:orderBy:limit:) by country"
        case .fetchByCountryRow: return "fetch(where:orderBy:limit:) by country, init(row:)"
        case .saveChildren: return "save(children:) per country"
        case .saveChildrenAssociation: return "save(children:for:) per country"
        case .upsert: return "upsert all into an empty table"
        case .update: return "update(_:) of W3's cities"
        case .fullTextSearch: return "search(_:) of 1,000 words, 10 cities each"
        }
    }

    /// The Codable workload a row-initializer twin runs the hand-written side of; nil for the others.
    var codableTwin: PostgresWorkload? {
        switch self {
        case .fetchAllRow: return .fetchAll
        case .lookUpRow: return .lookUp
        case .fetchByCountryRow: return .fetchByCountry
        default: return nil
        }
    }

    /// True when the workload writes (into the write schema, emptied before each run).
    var writes: Bool {
        switch self {
        case .insert, .insertBatch, .copy, .saveChildren, .saveChildrenAssociation, .upsert, .update: return true
        case .fetchAll, .fetchAllRow, .lookUp, .lookUpRow, .fetchByCountry, .fetchByCountryRow, .fullTextSearch:
            return false
        }
    }

    /// `W1,W3` as workloads, in the order of ``allCases`` whatever the order given, names in any case.
    /// - Throws: ``BenchmarkError`` naming an unknown workload.
    static func parse(_ text: String) throws -> [PostgresWorkload] {
        var chosen: Set<PostgresWorkload> = []
        for name in text.split(separator: ",") {
            let trimmed = name.trimmingCharacters(in: .whitespaces).uppercased()
            guard let workload = allCases.first(where: { $0.rawValue.uppercased() == trimmed }) else {
                let names = allCases.map(\.rawValue).joined(separator: ", ")
                throw BenchmarkError("Unknown PostgreSQL workload \"\(name)\" in --workloads; they are \(names)")
            }
            chosen.insert(workload)
        }
        guard !chosen.isEmpty else { throw BenchmarkError("--workloads needs at least one workload, such as W2") }
        return allCases.filter(chosen.contains)
    }
}
