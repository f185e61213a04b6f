#if PostgreSQL
import Foundation
import SQLiteRecord

/// Running a full-text search on PostgreSQL for records and excerpts.
extension QueryInterfaceRequest where Base: FullTextSearchable {
    /// PostgreSQL's matches: the request compiled with `ts_headline` of the excerpt's column last. A snippet
    /// is `ts_headline`'s best fragment of at most `tokens` words; PostgreSQL marks no cut, so the snippet's
    /// `ellipsis` is not written. See
    /// <https://www.postgresql.org/docs/current/textsearch-controls.html#TEXTSEARCH-HEADLINE>.
    func fetchTSVectorMatches(_ connection: PostgresConnection, excerpt: FullTextExcerpt) throws -> [FullTextMatch<Base>] {
        let (sql, arguments, shape) = try selectingExcerpt(excerpt).postgresSQL(connection, .select)
        let rows = try connection.query(sql, arguments)
        let records = try Base.decodeAll(rows, shape: shape)
        let excerptColumn = rows.columnNames.count - 1
        return try records.indices.map { row in
            FullTextMatch(record: records[row], excerpt: try rows[row].decode(String?.self, at: excerptColumn) ?? "")
        }
    }
}
#endif
