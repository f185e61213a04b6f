#if PostgreSQL
import CPostgresRecord
import Foundation

/// The rows (or the command status) of one statement: the owner of a libpq `PGresult`.
///
/// Invariants (this file and `PostgresResult+Row.swift` are, with `PostgresConnection.swift`, the module's
/// only code that touches libpq memory):
/// - `handle` is a non-null `PGresult *` this object alone owns; it is cleared once, in `deinit`.
/// - A cell's bytes (`PQgetvalue`) and a column's name (`PQfname`) are read only inside this file's methods
///   (`cell(row:column:)`, the typed reads of `PostgresCells`: `isNull`, `int64`, `double`, `bool`,
///   `timestampMicroseconds`, `string`, and `columnNames`, `hasColumns(named:)`), while `self` is alive, and
///   are copied into Swift values before each returns: nothing outside this file sees a pointer. A
///   `PostgresCells` holds `handle` and `readKinds` unretained, so it is read only while its result lives
///   (its holder holds the result too).
/// - Row and column indexes are checked against `PQntuples`/`PQnfields` before libpq is asked.
/// - Binary values are decoded as PostgreSQL's send functions write them (big-endian), see
///   <https://www.postgresql.org/docs/current/protocol-overview.html#PROTOCOL-FORMAT-CODES>; a value whose
///   length does not fit its type is `.other`, never a read past its end.
/// - `columnForms` is `@exclusivity(unchecked)`: the runtime's check of each access to a class's stored
///   property would cost every cell read more than the read itself. Its accesses never overlap: a result is
///   used on one thread, and each access (a load, or `readAsText(_:)`'s store of one element) ends before
///   the statement that makes it, with no call inside it.
/// - `readKinds` holds `columnCount` bytes, allocated in `init` and freed in `deinit`, and is read only at an
///   index checked against `columnCount`. Its byte for a column is ``ReadKind/none`` unless the column's
///   format is binary, so the typed reads never take a text cell's bytes for a binary value.
final class PostgresResult {
    private let handle: OpaquePointer
    /// The number of rows.
    let rowCount: Int
    /// The number of columns.
    let columnCount: Int
    /// Each column's type OID and format (0 text, 1 binary), read once rather than once per cell, in one
    /// array: one allocation per result.
    @exclusivity(unchecked) private var columnForms: [(type: UInt32, format: Int32)]
    /// What the typed reads (``int64(row:column:)`` and its siblings) take of each column, one byte a column
    /// read from `columnForms` once, so that a read checks its column with one load and one comparison.
    private let readKinds: UnsafeMutablePointer<ReadKind>
    /// The columns ``readAsTextArrays(_:)`` relabeled `text[]`, by index, with the element type their arrays'
    /// headers name (an enum's or `citext`'s OID).
    private var textArrayElements: [Int: UInt32] = [:]

    /// Takes ownership of `handle`.
    init(_ handle: OpaquePointer) {
        self.handle = handle
        rowCount = Int(PQntuples(handle))
        let columns = PQnfields(handle)
        columnCount = Int(columns)
        columnForms = (0..<columns).map { (type: UInt32(PQftype(handle, $0)), format: PQfformat(handle, $0)) }
        readKinds = .allocate(capacity: max(columnCount, 1))
        for (column, form) in columnForms.enumerated() {
            (readKinds + column).initialize(to: form.format == 1 ? ReadKind(type: form.type) : .none)
        }
    }

    deinit {
        readKinds.deallocate()
        PQclear(handle)
    }

    /// The typed read a column's binary cells take, by the column's type; `.none` for a column no typed read
    /// takes (a text-format column, another type), which goes through ``cell(row:column:)``.
    enum ReadKind: UInt8 {
        case none, integer, float8, bool, timestamp, text

        init(type: UInt32) {
            switch type {
            case PostgresType.int8, PostgresType.int4, PostgresType.int2: self = .integer
            case PostgresType.float8: self = .float8
            case PostgresType.bool: self = .bool
            case PostgresType.timestamptz, PostgresType.timestamp: self = .timestamp
            case PostgresType.text, PostgresType.varchar, PostgresType.bpchar, PostgresType.identifier:
                self = .text
            default: self = .none
            }
        }
    }

    /// The rows an INSERT, UPDATE or DELETE touched (`PQcmdTuples`); 0 for other statements.
    var affectedRows: Int {
        guard var digit = PQcmdTuples(handle) else { return 0 }
        // The count's decimal digits, read in place; no digits (a command that counts no rows) is 0, as is
        // text that is not a count.
        var count = 0
        while digit.pointee != 0 {
            let value = Int(digit.pointee) - Int(UInt8(ascii: "0"))
            guard (0...9).contains(value) else { return 0 }
            let (tens, overflow) = count.multipliedReportingOverflow(by: 10)
            let (sum, carry) = tens.addingReportingOverflow(value)
            guard !overflow, !carry else { return 0 }
            count = sum
            digit += 1
        }
        return count
    }

    /// The command tag, such as `INSERT 0 1` or `ROLLBACK` (`PQcmdStatus`).
    var commandStatus: String {
        guard let text = PQcmdStatus(handle) else { return "" }
        return String(cString: text)
    }

    /// The column names, in order.
    var columnNames: [String] {
        (0..<Int32(columnCount)).map { index in PQfname(handle, index).map { String(cString: $0) } ?? "" }
    }

    /// True when the result's columns are named as in `names`, in order: each name's UTF-8 bytes and a NUL,
    /// one after the other (``PostgresColumnLayout/nameBytes``), compared with libpq's names in place.
    func hasColumns(named names: [CChar]) -> Bool {
        names.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return columnCount == 0 }
            var offset = 0
            for index in 0..<columnCount {
                // Every name in `names` ends in a NUL, so strcmp and strlen stop inside the buffer.
                guard offset < buffer.count, let field = PQfname(handle, Int32(index)) else { return false }
                let name = start + offset
                if strcmp(field, name) != 0 { return false }
                offset += strlen(name) + 1
            }
            return offset == buffer.count
        }
    }

    /// Reads the cells of `columns` as text of their type: for enum columns, whose binary form is the
    /// label's text (`enum_send`), so that they read as `String` (and as a `RawRepresentable` Swift enum).
    /// See <https://www.postgresql.org/docs/current/datatype-enum.html>.
    func readAsText(_ columns: [Int]) {
        for column in columns where column >= 0 && column < columnCount {
            columnForms[column].format = 0
            readKinds[column] = .none
        }
    }

    /// Reads the cells of `columns`, arrays of an enum or of `citext` (whose elements' binary form is their
    /// text), as `text[]`: the column's type becomes `text[]`, and its arrays' headers name `element`, the
    /// column's element type. See <https://www.postgresql.org/docs/current/arrays.html>.
    func readAsTextArrays(_ columns: [(column: Int, element: UInt32)]) {
        for (column, element) in columns
        where column >= 0 && column < columnCount && columnForms[column].format == 1 {
            textArrayElements[column] = element
            columnForms[column].type = PostgresType.textArray
            readKinds[column] = .none
        }
    }

    /// The type OID of column `column`.
    func columnType(_ column: Int) -> UInt32 {
        guard column >= 0, column < columnCount else { return 0 }
        return columnForms[column].type
    }

    /// The status: true when the statement succeeded (with or without rows).
    var succeeded: Bool {
        let status = PQresultStatus(handle)
        return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY
            || status == PGRES_SINGLE_TUPLE || status == PGRES_PIPELINE_SYNC
    }

    /// True when this result ends a pipeline's batch (`PGRES_PIPELINE_SYNC`).
    var isPipelineSync: Bool { PQresultStatus(handle) == PGRES_PIPELINE_SYNC }

    /// True for the answer to a pipelined statement that never ran because an earlier one of its batch
    /// failed (`PGRES_PIPELINE_ABORTED`).
    var isPipelineAborted: Bool { PQresultStatus(handle) == PGRES_PIPELINE_ABORTED }

    /// The server's error report for a failed statement, field by field (`PQresultErrorField`).
    func error(sql: String?, connectionLost: Bool) -> PostgresError {
        func field(_ code: Character) -> String? {
            guard let ascii = code.asciiValue, let text = PQresultErrorField(handle, Int32(ascii)) else { return nil }
            return String(cString: text)
        }
        let primary = field("M") ?? PQresultErrorMessage(handle).map { String(cString: $0) } ?? "unknown error"
        return PostgresError(
            kind: connectionLost ? .connectionLost : (field("C") == nil ? .client : .server),
            sqlState: SQLState(field("C") ?? ""),
            message: primary.trimmingCharacters(in: .whitespacesAndNewlines), detail: field("D"),
            constraint: field("n"), table: field("t"), column: field("c"), sql: sql)
    }

    /// The context line of the server's error report (`PG_DIAG_CONTEXT`), such as `COPY cities, line 3` for a
    /// row a COPY refused; nil when the server sent none.
    var errorContext: String? {
        PQresultErrorField(handle, Int32(UInt8(ascii: "W"))).map { String(cString: $0) }
    }

    /// True when the server waits for a `COPY ... FROM STDIN`'s data (`PGRES_COPY_IN`).
    var isCopyIn: Bool { PQresultStatus(handle) == PGRES_COPY_IN }

    /// The value at `row`, `column`, decoded from libpq's bytes. Out-of-range indexes give `.null`.
    func cell(row: Int, column: Int) -> PostgresCell {
        guard row >= 0, row < rowCount, column >= 0, column < columnCount else { return .null }
        let r = Int32(row)
        let c = Int32(column)
        if PQgetisnull(handle, r, c) != 0 { return .null }
        let (type, format) = columnForms[column]
        let length = Int(PQgetlength(handle, r, c))
        guard let start = PQgetvalue(handle, r, c) else { return .null }
        let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(start), count: length)
        if format == 0 {
            return .text(String(decoding: bytes, as: UTF8.self), type: type)
        }
        if type == PostgresType.textArray, !textArrayElements.isEmpty, let header = textArrayElements[column] {
            return Self.arrayCell(bytes, type: type, element: PostgresType.text, headerElement: header)
                ?? .other(type: type, bytes: Data(bytes))
        }
        return Self.binaryCell(bytes, type: type)
    }

    /// True when the cell at `row`, `column` is NULL (`PQgetisnull`); out-of-range indexes count as NULL,
    /// as ``cell(row:column:)`` gives `.null` for them.
    func isNull(row: Int, column: Int) -> Bool {
        guard row >= 0, row < rowCount, column >= 0, column < columnCount else { return true }
        return PQgetisnull(handle, Int32(row), Int32(column)) != 0
    }

    /// The typed reads' view of this result: plain values, valid while this result lives.
    var cells: PostgresCells {
        @inline(__always) get {
            PostgresCells(handle: handle, rowCount: rowCount, columnCount: columnCount, readKinds: readKinds)
        }
    }

    /// ``PostgresCells/int64(row:column:)`` of this result.
    func int64(row: Int, column: Int) -> Int64? { cells.int64(row: row, column: column) }

    /// ``PostgresCells/double(row:column:)`` of this result.
    func double(row: Int, column: Int) -> Double? { cells.double(row: row, column: column) }

    /// ``PostgresCells/bool(row:column:)`` of this result.
    func bool(row: Int, column: Int) -> Bool? { cells.bool(row: row, column: column) }

    /// ``PostgresCells/timestampMicroseconds(row:column:)`` of this result.
    func timestampMicroseconds(row: Int, column: Int) -> Int64? {
        cells.timestampMicroseconds(row: row, column: column)
    }

    /// ``PostgresCells/string(row:column:)`` of this result.
    func string(row: Int, column: Int) -> String? { cells.string(row: row, column: column) }

    private static func binaryCell(_ bytes: UnsafeRawBufferPointer, type: UInt32) -> PostgresCell {
        func integer(_ size: Int) -> Int64? {
            guard bytes.count == size else { return nil }
            var value: UInt64 = 0
            for byte in bytes { value = value << 8 | UInt64(byte) }
            // Sign-extend from `size` bytes.
            let shift = UInt64(64 - size * 8)
            return Int64(bitPattern: value << shift) >> shift
        }
        let fallback = PostgresCell.other(type: type, bytes: Data(bytes))
        switch type {
        case PostgresType.int8: return integer(8).map { .integer($0, type: type) } ?? fallback
        case PostgresType.int4: return integer(4).map { .integer($0, type: type) } ?? fallback
        case PostgresType.int2: return integer(2).map { .integer($0, type: type) } ?? fallback
        case PostgresType.oid:
            return integer(4).map { .integer(Int64(UInt32(truncatingIfNeeded: $0)), type: type) } ?? fallback
        case PostgresType.float8:
            return integer(8).map { .double(Double(bitPattern: UInt64(bitPattern: $0))) } ?? fallback
        case PostgresType.float4:
            return integer(4).map { .float(Float(bitPattern: UInt32(truncatingIfNeeded: $0))) } ?? fallback
        case PostgresType.bool: return bytes.count == 1 ? .bool(bytes[0] != 0) : fallback
        case PostgresType.text, PostgresType.varchar, PostgresType.bpchar, PostgresType.identifier,
            PostgresType.json:
            return .text(String(decoding: bytes, as: UTF8.self), type: type)
        case PostgresType.jsonb:
            // Version 1 of jsonb's binary form: a version byte, then the JSON text.
            guard bytes.first == 1 else { return fallback }
            return .text(String(decoding: bytes.dropFirst(), as: UTF8.self), type: type)
        case PostgresType.bytea: return .bytea(Data(bytes))
        case PostgresType.timestamptz, PostgresType.timestamp:
            return integer(8).map { .timestamp($0, type: type) } ?? fallback
        case PostgresType.date: return integer(4).map { .date(Int32(truncatingIfNeeded: $0)) } ?? fallback
        case PostgresType.uuid:
            guard bytes.count == 16 else { return fallback }
            let b = Array(bytes)
            return .uuid(
                UUID(
                    uuid: (
                        b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
                        b[15]
                    )))
        case PostgresType.numeric: return numericText(Array(bytes)).map { .numeric($0) } ?? fallback
        default:
            guard let element = PostgresType.elementType(ofArray: type) else { return fallback }
            return arrayCell(bytes, type: type, element: element) ?? fallback
        }
    }

    /// An array's binary form (`array_send` in PostgreSQL's `utils/adt/arrayfuncs.c`) as a cell: int32 count
    /// of dimensions, int32 flag of a NULL element, the element type's OID, then each dimension's int32
    /// length and lower bound, then each element as an int32 length (-1 for NULL) and its bytes, which are
    /// read in place as a cell of the element type. Nil for bytes that break that form (a header that does not
    /// fit, another element type than the array type's, an element running past the end, bytes left over), so
    /// that the caller keeps them as `.other` rather than read a value that is not there. `headerElement`, when
    /// given, is the element type the header names instead of `element` (an enum's, read as `text`).
    private static func arrayCell(
        _ bytes: UnsafeRawBufferPointer, type: UInt32, element: UInt32, headerElement: UInt32? = nil
    ) -> PostgresCell? {
        var offset = 0
        func int32() -> Int32? {
            guard offset + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for index in offset..<offset + 4 { value = value << 8 | UInt32(bytes[index]) }
            offset += 4
            return Int32(bitPattern: value)
        }
        guard let dimensions = int32(), (0...Int32(PostgresType.maximumArrayDimensions)).contains(dimensions),
            let flags = int32(), flags == 0 || flags == 1, let elementType = int32(),
            UInt32(bitPattern: elementType) == headerElement ?? element
        else { return nil }
        var lengths: [Int] = []
        var lowerBounds: [Int] = []
        var count = dimensions > 0 ? 1 : 0
        for _ in 0..<dimensions {
            guard let length = int32(), length >= 0, let lowerBound = int32() else { return nil }
            lengths.append(Int(length))
            lowerBounds.append(Int(lowerBound))
            // Every element takes at least its 4-byte length: a count beyond the bytes is a broken header.
            let (product, overflow) = count.multipliedReportingOverflow(by: Int(length))
            guard !overflow, product <= bytes.count / 4 else { return nil }
            count = product
        }
        var elements: [PostgresCell] = []
        elements.reserveCapacity(count)
        for _ in 0..<count {
            guard let length = int32() else { return nil }
            if length == -1 {
                elements.append(.null)
                continue
            }
            guard length >= 0, offset + Int(length) <= bytes.count else { return nil }
            let value = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Int(length)])
            elements.append(binaryCell(value, type: element))
            offset += Int(length)
        }
        guard offset == bytes.count else { return nil }
        // A dimension of length 0 holds nothing: the array is '{}', as PostgreSQL itself makes it.
        if count == 0 { (lengths, lowerBounds) = ([], []) }
        return .array(
            PostgresArrayCell(
                type: type, elementType: element, lengths: lengths, lowerBounds: lowerBounds, elements: elements))
    }

    /// `numeric`'s binary form as its exact decimal text: int16 digit count, int16 weight (of the first
    /// base-10000 digit), uint16 sign, int16 display scale, then the base-10000 digits. See numeric_send in
    /// <https://github.com/postgres/postgres/blob/master/src/backend/utils/adt/numeric.c>.
    static func numericText(_ b: [UInt8]) -> String? {
        guard b.count >= 8 else { return nil }
        func int16(_ at: Int) -> Int { Int(Int16(bitPattern: UInt16(b[at]) << 8 | UInt16(b[at + 1]))) }
        let count = int16(0)
        let weight = int16(2)
        let sign = UInt16(b[4]) << 8 | UInt16(b[5])
        let scale = int16(6)
        guard count >= 0, b.count == 8 + 2 * count, scale >= 0 else { return nil }
        switch sign {
        case 0xC000: return "NaN"
        case 0xD000: return "Infinity"
        case 0xF000: return "-Infinity"
        case 0x0000, 0x4000: break
        default: return nil
        }
        let digits = (0..<count).map { int16(8 + 2 * $0) }
        guard digits.allSatisfy({ (0..<10_000).contains($0) }) else { return nil }
        func digit(_ index: Int) -> Int { index >= 0 && index < count ? digits[index] : 0 }
        // The text is built as ASCII bytes, each figure appended once: a weight of up to 32,767 base-10000
        // digits before the point and a scale of up to 32,767 figures after it cost time linear in their sum.
        var text: [UInt8] = []
        text.reserveCapacity(2 + 4 * max(weight + 1, 1) + 1 + scale)
        // The first `figures` of the four decimal figures of base-10000 digit `value`, leading zeros included.
        func appendFigures(of value: Int, _ figures: Int = 4) {
            var divisor = 1000
            for _ in 0..<figures {
                text.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        if sign == 0x4000 && !digits.allSatisfy({ $0 == 0 }) { text.append(UInt8(ascii: "-")) }
        if weight >= 0 {
            text.append(contentsOf: String(digit(0)).utf8)
            if weight >= 1 { for index in 1...weight { appendFigures(of: digit(index)) } }
        } else {
            text.append(UInt8(ascii: "0"))
        }
        if scale > 0 {
            text.append(UInt8(ascii: "."))
            var index = weight + 1
            var remaining = scale
            while remaining > 0 {
                let figures = min(4, remaining)
                appendFigures(of: digit(index), figures)
                remaining -= figures
                index += 1
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}
/// A result's cells as the typed reads see them: its handle, size and column kinds as plain values, so that
/// a decoder reads a cell with no reference to count and no closure to call. Valid only while the
/// ``PostgresResult`` it came from lives: whoever holds one holds that result too (a row reader holds its
/// rows). The types records hold most (`String`, `Int64`, `Int`, `Double`, `Bool`, `Date`) are read here in
/// place from libpq's binary cells; anything these reads return nil for goes through
/// ``PostgresResult/cell(row:column:)``, which gives the same value or the error.
struct PostgresCells {
    fileprivate let handle: OpaquePointer
    let rowCount: Int
    let columnCount: Int
    fileprivate let readKinds: UnsafeMutablePointer<PostgresResult.ReadKind>

    /// The length and bytes of a cell of column `column` (checked first, with `row`, against the result's
    /// size) whose column is read as `kind`; nil for an out-of-range index or a column of another kind. A
    /// NULL cell has the length 0 (`PQgetlength`), so a fixed-size read of it fails its length check, and
    /// ``string(row:column:)`` asks whether an empty cell is NULL.
    @inline(__always)
    private func bytes(row: Int, column: Int, _ kind: PostgresResult.ReadKind) -> UnsafeRawBufferPointer? {
        guard UInt(bitPattern: row) < UInt(bitPattern: rowCount),
            UInt(bitPattern: column) < UInt(bitPattern: columnCount), readKinds[column] == kind
        else { return nil }
        let r = Int32(truncatingIfNeeded: row)
        let c = Int32(truncatingIfNeeded: column)
        let length = PQgetlength(handle, r, c)
        guard let start = PQgetvalue(handle, r, c) else { return nil }
        return UnsafeRawBufferPointer(start: UnsafeRawPointer(start), count: Int(length))
    }

    /// A big-endian signed integer of 8 bytes.
    private static func int64(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        Int64(bigEndian: bytes.loadUnaligned(as: Int64.self))
    }

    /// A `smallint`, `integer` or `bigint` cell's value, read in place; nil for anything else (see
    /// ``PostgresResult/cell(row:column:)``).
    @inline(__always)
    func int64(row: Int, column: Int) -> Int64? {
        guard let bytes = bytes(row: row, column: column, .integer) else { return nil }
        switch bytes.count {
        case 8: return Self.int64(bytes)
        case 4: return Int64(Int32(bigEndian: bytes.loadUnaligned(as: Int32.self)))
        case 2: return Int64(Int16(bigEndian: bytes.loadUnaligned(as: Int16.self)))
        default: return nil
        }
    }

    /// A `double precision` cell's value, every bit kept; nil for anything else.
    @inline(__always)
    func double(row: Int, column: Int) -> Double? {
        guard let bytes = bytes(row: row, column: column, .float8), bytes.count == 8 else { return nil }
        return Double(bitPattern: UInt64(bitPattern: Self.int64(bytes)))
    }

    /// A `boolean` cell's value; nil for anything else.
    @inline(__always)
    func bool(row: Int, column: Int) -> Bool? {
        guard let bytes = bytes(row: row, column: column, .bool), bytes.count == 1 else { return nil }
        return bytes[0] != 0
    }

    /// A finite `timestamptz` or `timestamp` cell's microseconds since 2000-01-01 UTC; nil for anything else,
    /// `'infinity'` and `'-infinity'` included (stored as the largest and smallest 64-bit values), which the
    /// value reader refuses.
    @inline(__always)
    func timestampMicroseconds(row: Int, column: Int) -> Int64? {
        guard let bytes = bytes(row: row, column: column, .timestamp), bytes.count == 8 else { return nil }
        let micros = Self.int64(bytes)
        return micros == Int64.max || micros == Int64.min ? nil : micros
    }

    /// A `text`, `varchar`, `char(n)` or `name` cell's text, made straight from libpq's bytes (invalid UTF-8
    /// repaired as ``PostgresResult/cell(row:column:)`` repairs it); nil for anything else.
    @inline(__always)
    func string(row: Int, column: Int) -> String? {
        guard let bytes = bytes(row: row, column: column, .text) else { return nil }
        if bytes.isEmpty, PQgetisnull(handle, Int32(truncatingIfNeeded: row), Int32(truncatingIfNeeded: column)) != 0 {
            return nil
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// True when the cell at `row`, `column` is NULL (`PQgetisnull`); out-of-range indexes count as NULL,
    /// as ``PostgresResult/cell(row:column:)`` gives `.null` for them.
    @inline(__always)
    func isNull(row: Int, column: Int) -> Bool {
        guard UInt(bitPattern: row) < UInt(bitPattern: rowCount),
            UInt(bitPattern: column) < UInt(bitPattern: columnCount)
        else { return true }
        return PQgetisnull(handle, Int32(truncatingIfNeeded: row), Int32(truncatingIfNeeded: column)) != 0
    }
}
#endif
