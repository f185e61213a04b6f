#if PostgreSQL
import CPostgresRecord
import Foundation

extension PostgresResult {
    /// A result of one row that holds `values` under the column names `names`, made by libpq in this process
    /// (`PQmakeEmptyPGresult`, `PQsetResultAttrs`, `PQsetvalue`) without a round trip to the server: what a
    /// record's decoder reads to set properties from values as a fetch would. Each column has its value's
    /// type and format, as a server's result would; a value of no declared type (a `String`'s text) is
    /// `text`. See <https://www.postgresql.org/docs/current/libpq-misc.html#LIBPQ-PQMAKEEMPTYPGRESULT>.
    ///
    /// The pointers handed to libpq (each name, each value's bytes) are valid only during the call that
    /// takes them, and libpq copies what they point at; the `PGresult` is cleared on any failure, and owned
    /// by the returned ``PostgresResult`` otherwise.
    /// - Throws: ``PostgresError`` of kind `.client` when libpq cannot allocate or fill the result.
    static func row(_ names: [String], _ values: [PostgresValue]) throws -> PostgresResult {
        guard let handle = PQmakeEmptyPGresult(nil, PGRES_TUPLES_OK) else {
            throw PostgresError(kind: .client, message: "libpq could not allocate a result")
        }
        guard fill(handle, names, values) else {
            PQclear(handle)
            throw PostgresError(kind: .client, message: "libpq could not fill a result of one row")
        }
        return PostgresResult(handle)
    }

    /// Sets `handle`'s columns and its one row; false when libpq fails.
    private static func fill(_ handle: OpaquePointer, _ names: [String], _ values: [PostgresValue]) -> Bool {
        let copies = names.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        var descriptions = zip(copies, values).enumerated().map { index, pair in
            PGresAttDesc(
                name: pair.0, tableid: 0, columnid: Int32(index), format: pair.1.isBinary ? 1 : 0,
                typid: pair.1.typeOID == 0 ? PostgresType.text : pair.1.typeOID, typlen: -1, atttypmod: -1)
        }
        guard !copies.contains(nil), PQsetResultAttrs(handle, Int32(descriptions.count), &descriptions) != 0 else {
            return false
        }
        for (index, value) in values.enumerated() {
            guard var bytes = value.bytes else {
                // A NULL pointer is SQL NULL.
                if PQsetvalue(handle, 0, Int32(index), nil, -1) == 0 { return false }
                continue
            }
            let length = Int32(bytes.count)
            // An empty value still needs a pointer that is not NULL.
            if bytes.isEmpty { bytes = [0] }
            let stored = bytes.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { PQsetvalue(handle, 0, Int32(index), $0.baseAddress, length) }
            }
            if stored == 0 { return false }
        }
        return true
    }
}
#endif
