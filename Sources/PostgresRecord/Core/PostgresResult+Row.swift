#if PostgreSQL
import CPostgresRecord
import Foundation

extension PostgresResult {
    /// A result of no rows and no columns, made by libpq in this process (`PQmakeEmptyPGresult`): what a
    /// reader kept between two results of its SQL text reads meanwhile, so that it holds no rows. nil when
    /// libpq cannot allocate it.
    static func empty() -> PostgresResult? {
        PQmakeEmptyPGresult(nil, PGRES_TUPLES_OK).map(PostgresResult.init)
    }

    /// A result of one row that holds the values of `parameters`, in order, under the names in `nameBytes`
    /// (each name's UTF-8 bytes followed by a NUL, as ``PostgresColumnLayout/nameBytes`` holds them; one name
    /// per parameter), made by libpq in this process (`PQmakeEmptyPGresult`, `PQsetResultAttrs`,
    /// `PQsetvalue`) without a round trip to the server: what a record's decoder reads to set properties
    /// from values as a fetch would. Each column has its value's type and format, as a server's result
    /// would; a value of no declared type (a `String`'s text) is `text`. See
    /// <https://www.postgresql.org/docs/current/libpq-misc.html#LIBPQ-PQMAKEEMPTYPGRESULT>.
    ///
    /// The names and values are handed to libpq where they lie, valid only during the calls that take them;
    /// libpq copies what they point at. The `PGresult` is cleared on any failure, and owned by the returned
    /// ``PostgresResult`` otherwise.
    /// - Throws: ``PostgresError`` of kind `.client` when libpq cannot allocate or fill the result, or when
    ///   `nameBytes` names fewer columns than `parameters` has.
    static func row(nameBytes: [CChar], _ parameters: PostgresParameters) throws -> PostgresResult {
        guard let handle = PQmakeEmptyPGresult(nil, PGRES_TUPLES_OK) else {
            throw PostgresError(kind: .client, message: "libpq could not allocate a result")
        }
        guard fill(handle, nameBytes, parameters) else {
            PQclear(handle)
            throw PostgresError(kind: .client, message: "libpq could not fill a result of one row")
        }
        return PostgresResult(handle)
    }

    /// Sets `handle`'s columns, named from `nameBytes`, and its one row from `parameters`; false when libpq
    /// fails or the names run out. libpq copies every name and value it is handed (`PQsetResultAttrs`,
    /// `PQsetvalue`), so the pointers need live only during those calls.
    private static func fill(_ handle: OpaquePointer, _ nameBytes: [CChar], _ parameters: PostgresParameters) -> Bool {
        let count = parameters.count
        return nameBytes.withUnsafeBufferPointer { names in
            parameters.withArrays { values, lengths, formats, types in
                // PGresAttDesc is a C struct of plain values: nothing to deinitialize.
                withUnsafeTemporaryAllocation(of: PGresAttDesc.self, capacity: count) { descriptions in
                    var start = 0
                    for index in 0..<count {
                        guard start < names.count, let base = names.baseAddress, let formats, let types else {
                            return false
                        }
                        var end = start
                        while end < names.count, names[end] != 0 { end += 1 }
                        guard end < names.count else { return false }
                        descriptions.initializeElement(
                            at: index,
                            to: PGresAttDesc(
                                name: UnsafeMutablePointer(mutating: base + start), tableid: 0,
                                columnid: Int32(index), format: formats[index],
                                typid: types[index] == 0 ? PostgresType.text : types[index], typlen: -1,
                                atttypmod: -1))
                        start = end + 1
                    }
                    guard PQsetResultAttrs(handle, Int32(count), descriptions.baseAddress) != 0 else { return false }
                    for index in 0..<count {
                        // A NULL pointer is SQL NULL.
                        let value = values?[index].map { UnsafeMutablePointer(mutating: $0) }
                        let length = value == nil ? -1 : lengths?[index] ?? 0
                        if PQsetvalue(handle, 0, Int32(index), value, length) == 0 { return false }
                    }
                    return true
                }
            }
        }
    }
}
#endif
