#if PostgreSQL
import SQLiteRecord

/// A town of a region, the record of the `towns` table that the tests of `where:` fetches, of the forms and
/// decodings a connection keeps between them, share.
struct PostgresTown: Record, Equatable {
    var id: Int64?
    var name: String
    var region: String?
    var population: Int64
    static let tableName = "towns"
}
#endif
