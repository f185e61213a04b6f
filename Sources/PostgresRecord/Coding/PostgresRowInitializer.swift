#if PostgreSQL
    import Foundation
    @_spi(RecordEngine) import SQLiteRecord

    /// The row initializer's side of ``PostgresRowDecoding``: the decoders of a result ask here first, once per
    /// fetch (once per row for a join's or an eager load's), whether the type they decode is a `FetchableRecord`,
    /// whose `init(row:)` then reads the rows (the same initializer SQLite's fetches call).
    ///
    /// The fetch's `T` and the record's `R` are one type the compiler knows as two; the values cross with
    /// ``SameTypeCast``, which checks that they are one type. An array crosses once per fetch (one retain), a
    /// record of a lookup by key once per call.
    enum PostgresRowInitializer {
        /// The row initializer's type when `T` has one.
        @inline(__always)
        static func type<T>(of type: T.Type) -> (any FetchableRecord.Type)? {
            T.self as? any FetchableRecord.Type
        }

        /// `R(row:)` on `reader`'s current row, as a `T` (which is `R`).
        /// - Throws: what `init(row:)` throws.
        static func make<R: FetchableRecord, T>(_ type: R.Type, _ reader: PostgresRowReader, as: T.Type) throws -> T {
            try SameTypeCast.cast(
                checked: R(row: FetchedRow(engine: PostgresFetchedRows(reader), row: reader.row)), to: T.self)
        }

        /// Every row of `reader`'s rows through `R(row:)`, as `[T]` (`T` is `R`).
        /// - Throws: the first row's error.
        static func makeAll<R: FetchableRecord, T>(
            _ type: R.Type, _ reader: PostgresRowReader, as: T.Type
        ) throws -> [T] {
            var values: [R] = []
            let count = reader.rows.count
            values.reserveCapacity(count)
            let rows = PostgresFetchedRows(reader)
            for row in 0..<count {
                reader.row = row
                try R._appendRow(FetchedRow(engine: rows, row: row), to: &values)
            }
            return try SameTypeCast.cast(checked: values, to: [T].self)
        }
    }

    /// The rows of one result as a `FetchedRow` reads them on PostgreSQL, for one fetch: what a
    /// ``PostgresRowReader`` reads, held in constants (the reader's result may move on to another result, so a
    /// read through the reader would retain the result on every column).
    ///
    /// The reads: `String`, `Int64`, `Int`, `Double`, `Bool` and `Date` in place from
    /// libpq's bytes when the column's type is the one that stores them (`text`, `varchar`, `char(n)` and `name`;
    /// `smallint`, `integer` and `bigint`; `double precision`; `boolean`; `timestamptz` and `timestamp`); every
    /// other type and case (an enum by its raw value, a nested value from its JSON, read by the record's JSON
    /// decoder) through the decoder's rules for one column (``PostgresValueReader``), so that a value and its
    /// error are the same on either path. Names match as the decoder's keys do: an exact match first, then ASCII
    /// case-insensitively.
    final class PostgresFetchedRows: EngineRowReader {
        let result: PostgresResult
        let layout: PostgresColumnLayout
        /// The record's `RowDecoder.jsonDecoder`: what reads its nested values (JSONB).
        let jsonDecoder: JSONDecoder
        /// True for raw SQL, where an Optional read of a name no column has is nil (see
        /// ``PostgresRowReader/missingOptionalColumnIsNil``).
        let missingOptionalColumnIsNil: Bool
        let columnCount: Int

        /// The rows of `reader`'s current result, read as `reader` decodes them.
        init(_ reader: PostgresRowReader) {
            result = reader.result
            layout = reader.layout
            jsonDecoder = reader.jsonDecoder
            missingOptionalColumnIsNil = reader.missingOptionalColumnIsNil
            columnCount = reader.layout.names.count
        }

        var resultColumnNames: [String] { layout.names }

        func hasColumn(_ name: String) -> Bool { layout.columnIndex(name) != nil }

        /// Past the first row, one string comparison when the rows ask for their names in the same order (the
        /// layout's recorded order, ``PostgresColumnLayout/column(for:renaming:)``).
        func columnIndex(named name: String) throws -> Int {
            guard let index = layout.column(for: PostgresColumnKey(name), renaming: nil) else {
                throw columnNotFound(named: name)
            }
            return index
        }

        func columnIndexIfPresent(named name: String) throws -> Int? {
            if let index = layout.column(for: PostgresColumnKey(name), renaming: nil) { return index }
            if missingOptionalColumnIsNil { return nil }
            throw columnNotFound(named: name)
        }

        func isNull(row: Int, column: Int) -> Bool { isColumn(column) && result.isNull(row: row, column: column) }

        /// Column `column` as `T` by the value table, for what the in-place reads leave: other column types,
        /// NULL, errors, other Swift types.
        @inline(never)
        func decode<T: Decodable>(_ type: T.Type, row: Int, column: Int) throws -> T {
            guard isColumn(column) else { throw noColumn(at: column) }
            let name = layout.names[column]
            return try PostgresValueReader.read(
                T.self, result.cell(row: row, column: column), column: name, codingPath: [PostgresColumnKey(name)],
                jsonDecoder: jsonDecoder)
        }

        func string(row: Int, column: Int) throws -> String {
            if let value = result.string(row: row, column: column) { return value }
            return try decode(String.self, row: row, column: column)
        }

        func int64(row: Int, column: Int) throws -> Int64 {
            if let value = result.int64(row: row, column: column) { return value }
            return try decode(Int64.self, row: row, column: column)
        }

        func int(row: Int, column: Int) throws -> Int {
            if let value = result.int64(row: row, column: column), let exact = Int(exactly: value) { return exact }
            return try decode(Int.self, row: row, column: column)
        }

        func double(row: Int, column: Int) throws -> Double {
            if let value = result.double(row: row, column: column) { return value }
            return try decode(Double.self, row: row, column: column)
        }

        func bool(row: Int, column: Int) throws -> Bool {
            if let value = result.bool(row: row, column: column) { return value }
            return try decode(Bool.self, row: row, column: column)
        }

        func date(row: Int, column: Int) throws -> Date {
            if let micros = result.timestampMicroseconds(row: row, column: column) {
                return PostgresValueReader.date(microseconds: micros)
            }
            return try decode(Date.self, row: row, column: column)
        }

        /// True when `index` is a column's.
        private func isColumn(_ index: Int) -> Bool { UInt(bitPattern: index) < UInt(bitPattern: columnCount) }

        /// `keyNotFound` for a name that is no column's, listing the columns the row has.
        @inline(never)
        private func columnNotFound(named name: String) -> DecodingError {
            DecodingError.keyNotFound(
                PostgresColumnKey(name),
                DecodingError.Context(
                    codingPath: [],
                    debugDescription:
                        "No column \"\(name)\" in the row; it has \(resultColumnNames.map { "\"\($0)\"" }.joined(separator: ", "))"
                ))
        }

        /// `keyNotFound` for an index that is no column's.
        @inline(never)
        private func noColumn(at index: Int) -> DecodingError {
            DecodingError.keyNotFound(
                PostgresColumnKey("\(index)"),
                DecodingError.Context(
                    codingPath: [],
                    debugDescription:
                        "No column \(index) in the row; it has \(columnCount) column(s): "
                        + resultColumnNames.map { "\"\($0)\"" }.joined(separator: ", ")))
        }
    }
#endif
