#if PostgreSQL
import CPostgresRecord
import Foundation

/// The hand-written side's libpq connection: what a careful person writes over the C API, and nothing the
/// library could not also do. Statements are prepared once per connection (`PQprepare`), run by name
/// (`PQexecPrepared`) with numbers and dates as binary parameters and text as text, and results come in
/// binary form (`resultFormat` 1), read by column index.
final class PostgresBaselineConnection {
    let handle: OpaquePointer

    /// Connects and sets the session as the library's connections are set (UTC), then the search path.
    /// - Throws: ``BenchmarkError`` with libpq's message.
    init(_ connectionString: String, schema: String) throws {
        guard let handle = PQconnectdb(connectionString) else { throw BenchmarkError("PQconnectdb returned NULL") }
        self.handle = handle
        guard PQstatus(handle) == CONNECTION_OK else { throw BenchmarkError("libpq: \(message)") }
        // Notices (DROP SCHEMA ... CASCADE lists what it drops) would interleave with the report.
        try execute(
            "SET TimeZone TO 'UTC'; SET client_min_messages TO warning; " + PostgresBenchSchema.searchPath(schema))
    }

    deinit { PQfinish(handle) }

    var message: String { PQerrorMessage(handle).map { String(cString: $0) } ?? "unknown error" }

    /// Runs SQL without parameters; throws unless the server accepted it.
    func execute(_ sql: String) throws {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw BenchmarkError("\(sql.prefix(60)): \(message)")
        }
    }

    /// Prepares `sql` under `name`, the parameter types left to the server (it takes each column's).
    func prepare(_ name: String, _ sql: String) throws {
        let result = PQprepare(handle, name, sql, 0, nil)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else { throw BenchmarkError("PREPARE \(name): \(message)") }
    }

    /// Runs the prepared statement `name` with the parameters, asking for binary results; the caller clears
    /// the result it is handed.
    func execute(_ name: String, _ parameters: PostgresBaselineParameters) -> OpaquePointer? {
        parameters.withArrays { count, values, lengths, formats in
            PQexecPrepared(handle, name, count, values, lengths, formats, 1)
        }
    }

    /// Sends the prepared statement `name` in pipeline mode (`PQsendQueryPrepared`).
    func send(_ name: String, _ parameters: PostgresBaselineParameters) throws {
        let sent = parameters.withArrays { count, values, lengths, formats in
            PQsendQueryPrepared(handle, name, count, values, lengths, formats, 1)
        }
        guard sent == 1 else { throw BenchmarkError("PQsendQueryPrepared: \(message)") }
    }

    /// Throws unless `result` is a command that touched exactly one row; clears it.
    func expectOneRow(_ result: OpaquePointer?, _ what: String) throws {
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK,
            let tuples = PQcmdTuples(result), tuples[0] == 0x31, tuples[1] == 0
        else { throw BenchmarkError("\(what): \(message)") }
    }

    /// Throws unless `result` holds rows; the caller still clears it.
    func expectRows(_ result: OpaquePointer?, _ what: String) throws {
        guard PQresultStatus(result) == PGRES_TUPLES_OK else {
            PQclear(result)
            throw BenchmarkError("\(what): \(message)")
        }
    }
}

/// One statement's parameters, written into one reused byte buffer: binary big-endian numbers and dates,
/// text as its UTF-8 bytes with a NUL, as libpq takes them. Reset for each row; nothing is allocated once
/// the buffer has grown to the largest row.
struct PostgresBaselineParameters {
    private var bytes: [UInt8] = []
    private var offsets: [Int] = []
    private var lengths: [Int32] = []
    private var formats: [Int32] = []

    init() {
        bytes.reserveCapacity(512)
        offsets.reserveCapacity(10)
        lengths.reserveCapacity(10)
        formats.reserveCapacity(10)
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        offsets.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        formats.removeAll(keepingCapacity: true)
    }

    mutating func append(_ value: Int64) {
        offsets.append(bytes.count)
        lengths.append(8)
        formats.append(1)
        let bits = UInt64(bitPattern: value)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }

    mutating func append(_ value: Double) { append(Int64(bitPattern: value.bitPattern)) }

    mutating func append(_ value: Bool) {
        offsets.append(bytes.count)
        lengths.append(1)
        formats.append(1)
        bytes.append(value ? 1 : 0)
    }

    /// A timestamptz: microseconds since 2000-01-01 UTC, rounded as the library rounds them.
    mutating func append(_ value: Date) {
        append(PostgresBaselineParameters.microseconds(value))
    }

    mutating func append(_ value: String?) {
        guard let value else {
            offsets.append(-1)
            lengths.append(0)
            formats.append(0)
            return
        }
        offsets.append(bytes.count)
        formats.append(0)
        var count: Int32 = 0
        for byte in value.utf8 {
            bytes.append(byte)
            count += 1
        }
        lengths.append(count)
        bytes.append(0)
    }

    /// Seconds from 1970 to 2000-01-01, PostgreSQL's epoch.
    static let epochOffset: Double = 946_684_800

    static func microseconds(_ date: Date) -> Int64 {
        Int64(((date.timeIntervalSince1970 - epochOffset) * 1_000_000).rounded())
    }

    /// The four arrays `PQexecPrepared` takes, valid inside `body`.
    func withArrays<R>(
        _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<Int32>, UnsafePointer<Int32>) -> R
    ) -> R {
        bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            return withUnsafeTemporaryAllocation(of: UnsafePointer<CChar>?.self, capacity: offsets.count) { values in
                for (index, offset) in offsets.enumerated() { values[index] = offset < 0 ? nil : base + offset }
                return lengths.withUnsafeBufferPointer { lengthBuffer in
                    formats.withUnsafeBufferPointer { formatBuffer in
                        body(
                            Int32(offsets.count), UnsafePointer(values.baseAddress!), lengthBuffer.baseAddress!,
                            formatBuffer.baseAddress!)
                    }
                }
            }
        }
    }
}

/// Reads a binary result's values by row and column index, as PostgreSQL's send functions write them.
struct PostgresBaselineResult {
    let handle: OpaquePointer?

    var rowCount: Int32 { PQntuples(handle) }

    func isNull(_ row: Int32, _ column: Int32) -> Bool { PQgetisnull(handle, row, column) != 0 }

    func int64(_ row: Int32, _ column: Int32) -> Int64 {
        guard let start = PQgetvalue(handle, row, column), PQgetlength(handle, row, column) == 8 else { return 0 }
        var value: UInt64 = 0
        for index in 0..<8 { value = value << 8 | UInt64(UInt8(bitPattern: start[index])) }
        return Int64(bitPattern: value)
    }

    func double(_ row: Int32, _ column: Int32) -> Double { Double(bitPattern: UInt64(bitPattern: int64(row, column))) }

    func bool(_ row: Int32, _ column: Int32) -> Bool {
        guard let start = PQgetvalue(handle, row, column), PQgetlength(handle, row, column) == 1 else { return false }
        return start[0] != 0
    }

    func string(_ row: Int32, _ column: Int32) -> String {
        guard let start = PQgetvalue(handle, row, column) else { return "" }
        let count = Int(PQgetlength(handle, row, column))
        return start.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }
    }

    /// A timestamptz as a `Date`, whole seconds and microseconds apart as the library adds them.
    func date(_ row: Int32, _ column: Int32) -> Date {
        let parts = int64(row, column).quotientAndRemainder(dividingBy: 1_000_000)
        return Date(
            timeIntervalSince1970: Double(parts.quotient) + PostgresBaselineParameters.epochOffset
                + Double(parts.remainder) / 1_000_000)
    }

    /// Row `row` of a `SELECT *` from the cities table, read by index.
    func city(_ row: Int32) -> BenchCity {
        BenchCity(
            id: int64(row, 0), name: string(row, 1), latitude: double(row, 2), longitude: double(row, 3),
            countryCode: string(row, 4), admin1Code: isNull(row, 5) ? nil : string(row, 5),
            population: int64(row, 6), timezone: string(row, 7), createdAt: date(row, 8), isCapital: bool(row, 9))
    }
}
#endif
