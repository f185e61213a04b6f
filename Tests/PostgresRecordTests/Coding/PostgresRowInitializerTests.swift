#if PostgreSQL
    import Foundation
    @testable import PostgresRecord
    import SQLiteRecord
    import XCTest

    /// The row initializer on PostgreSQL's own terms (RecordContractTests has what every engine shares): every
    /// column type of the value table reads the value the PostgreSQL decoder reads, in place or through the
    /// decoder; names match exactly first, then ASCII case-insensitively; and the errors say what
    /// PostgreSQL's decoder says.
    final class PostgresRowInitializerTests: PostgresTestCase {
        /// Every type of the value table, read by name and by index.
        struct Sample: Decodable, Equatable {
            enum Mood: String, Codable { case calm, loud }
            struct Nested: Codable, Equatable {
                var a: Int
                var b: [String]
            }
            var small: Int16
            var int32: Int32
            var big: Int64
            var int: Int
            var float: Float
            var double: Double
            var decimal: Decimal
            var flag: Bool
            var text: String
            var varchar: String
            var bytes: Data
            var at: Date
            var plain: Date
            var day: Date
            var uuid: UUID
            var url: URL
            var nested: Nested
            var mood: Mood
            var missingText: String?
            var missingInt: Int64?
            var missingDate: Date?
            var uint8: UInt8
        }

        private let sampleSQL = """
            SELECT (-32768)::smallint AS small, 2147483647::integer AS int32, (-9223372036854775808)::bigint AS big,
                42::integer AS int, 1.5::real AS float, 0.1::double precision AS double, 19.99::numeric AS decimal,
                true AS flag, 'héllo'::text AS text, 'v'::varchar(4) AS varchar, '\\x00ff10'::bytea AS bytes,
                '2001-09-09 01:46:40.25+00'::timestamptz AS at, '2001-09-09 01:46:40.5'::timestamp AS plain,
                '2001-09-09'::date AS day, 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'::uuid AS uuid,
                'https://example.com/a?b=1'::text AS url, '{"a": 7, "b": ["x", "y"]}'::jsonb AS nested,
                'loud'::text AS mood, NULL::text AS missing_text, NULL::bigint AS missing_int,
                NULL::timestamptz AS missing_date, 255::integer AS uint8
            """

        private var expectedSample: Sample {
            Sample(
                small: -32768, int32: 2_147_483_647, big: .min, int: 42, float: 1.5, double: 0.1,
                decimal: Decimal(string: "19.99")!, flag: true, text: "héllo", varchar: "v",
                bytes: Data([0, 255, 16]), at: Date(timeIntervalSince1970: 1_000_000_000.25),
                plain: Date(timeIntervalSince1970: 1_000_000_000.5), day: Date(timeIntervalSince1970: 999_993_600),
                uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
                url: URL(string: "https://example.com/a?b=1")!,
                nested: .init(a: 7, b: ["x", "y"]), mood: .loud, missingText: nil, missingInt: nil, missingDate: nil,
                uint8: 255)
        }

        struct ByName: FetchableRecord, Equatable {
            var sample: Sample
            init(from decoder: any Decoder) throws { sample = try Sample(from: decoder) }
            init(row: borrowing FetchedRow) throws {
                sample = Sample(
                    small: try row["small", as: Int16.self], int32: try row["int32", as: Int32.self],
                    big: try row["big", as: Int64.self], int: try row["int", as: Int.self],
                    float: try row["float", as: Float.self], double: try row["double", as: Double.self],
                    decimal: try row["decimal", as: Decimal.self], flag: try row["flag", as: Bool.self],
                    text: try row["text", as: String.self], varchar: try row["VARCHAR", as: String.self],
                    bytes: try row["bytes", as: Data.self], at: try row["at", as: Date.self],
                    plain: try row["plain", as: Date.self], day: try row["day", as: Date.self],
                    uuid: try row["uuid", as: UUID.self], url: try row["url", as: URL.self],
                    nested: try row["nested", as: Sample.Nested.self], mood: try row["mood", as: Sample.Mood.self],
                    missingText: try row["missing_text", as: String?.self],
                    missingInt: try row["missing_int", as: Int64?.self],
                    missingDate: try row["missing_date", as: Date?.self], uint8: try row["uint8", as: UInt8.self])
            }
        }

        struct ByIndex: FetchableRecord, Equatable {
            var sample: Sample
            init(from decoder: any Decoder) throws { sample = try Sample(from: decoder) }
            init(row: borrowing FetchedRow) throws {
                sample = Sample(
                    small: try row[0, as: Int16.self], int32: try row[1, as: Int32.self],
                    big: try row[2, as: Int64.self],
                    int: try row[3, as: Int.self], float: try row[4, as: Float.self],
                    double: try row[5, as: Double.self],
                    decimal: try row[6, as: Decimal.self], flag: try row[7, as: Bool.self],
                    text: try row[8, as: String.self], varchar: try row[9, as: String.self],
                    bytes: try row[10, as: Data.self], at: try row[11, as: Date.self],
                    plain: try row[12, as: Date.self],
                    day: try row[13, as: Date.self], uuid: try row[14, as: UUID.self], url: try row[15, as: URL.self],
                    nested: try row[16, as: Sample.Nested.self], mood: try row[17, as: Sample.Mood.self],
                    missingText: try row[18, as: String?.self], missingInt: try row[19, as: Int64?.self],
                    missingDate: try row[20, as: Date?.self], uint8: try row[21, as: UInt8.self])
            }
        }

        /// Reads one column of `T` named "v", as the row initializer's generic read.
        struct One<T: Decodable>: FetchableRecord {
            var value: T
            init(from decoder: any Decoder) throws {
                value = try decoder.container(keyedBy: PostgresColumnKey.self).decode(
                    T.self, forKey: PostgresColumnKey("v"))
            }
            init(row: borrowing FetchedRow) throws { value = try row["v", as: T.self] }
        }

        struct OneString: FetchableRecord {
            var value: String
            init(row: borrowing FetchedRow) throws { value = try row["v", as: String.self] }
        }

        struct OneInt: FetchableRecord {
            var value: Int
            init(row: borrowing FetchedRow) throws { value = try row[0, as: Int.self] }
        }

        struct Absent: FetchableRecord {
            var optional: String?
            var required: String
            init(row: borrowing FetchedRow) throws {
                optional = try row["nope", as: String?.self]
                required = try row["gone", as: String.self]
            }
        }

        struct PastTheEnd: FetchableRecord {
            var value: Int64
            init(row: borrowing FetchedRow) throws { value = try row[row.count, as: Int64.self] }
        }

        // MARK: Values

        func testEveryValueTypeReadsTheDecodersExactValue() throws {
            let rows = try connection.query(sampleSQL)
            struct Decoded: Decodable {
                var sample: Sample
                init(from decoder: any Decoder) throws { sample = try Sample(from: decoder) }
            }
            let decoded = try rows[0].decode(Decoded.self).sample
            XCTAssertEqual(decoded, expectedSample)
            XCTAssertEqual(try rows.decode(ByName.self).map(\.sample), [expectedSample])
            XCTAssertEqual(try rows.decode(ByIndex.self).map(\.sample), [expectedSample])
            XCTAssertEqual(try rows[0].decode(ByIndex.self).sample.double.bitPattern, (0.1 as Double).bitPattern)
            XCTAssertEqual(try rows[0].decode(ByName.self).sample.decimal.description, "19.99")
            // Text columns where the in-place reads want binary ones go through the value table.
            let text = try connection.query("SELECT '12'::text AS v")
            XCTAssertEqual(try text.decode(OneString.self).map(\.value), ["12"])
            XCTAssertEqual(try connection.query("SELECT 12::numeric AS v").decode(OneInt.self).map(\.value), [12])
            XCTAssertEqual(try connection.query("SELECT 7::smallint AS v").decode(OneInt.self).map(\.value), [7])
        }

        /// Reads its day one second late by hand: the drift `checkRowInitializer` is for.
        struct LateDay: FetchableRecord, Equatable {
            var id: Int64
            var day: Date
            init(row: borrowing FetchedRow) throws {
                id = try row["id", as: Int64.self]
                day = try row["day", as: Date.self].addingTimeInterval(1)
            }
        }

        func testCheckRowInitializerOverRawSQLComparesEveryValueType() throws {
            XCTAssertEqual(try ByName.checkRowInitializer(connection, sql: sampleSQL), 1)
            XCTAssertEqual(
                try ByIndex.checkRowInitializer(
                    connection, sql: "SELECT * FROM (\(sampleSQL)) AS a WHERE a.int = $1 UNION ALL \(sampleSQL)",
                    arguments: [42]), 2)
            XCTAssertThrowsError(
                try LateDay.checkRowInitializer(
                    connection,
                    sql: "SELECT 1::bigint AS id, '2000-01-11'::date AS day, NULL::text AS note, '\\x00ff'::bytea AS b, "
                        + "2.5::real AS r, true AS t")
            ) { error in
                let mismatch = error as? RowInitializerMismatch
                XCTAssertEqual(mismatch?.rowIndex, 0)
                XCTAssertEqual(mismatch?.row.columnNames, ["id", "day", "note", "b", "r", "t"])
                XCTAssertEqual(
                    mismatch?.row.values,
                    [.integer(1), .text("DATE 10 days after 2000-01-01"), .null, .blob(Data([0, 255])), .real(2.5),
                        .integer(1)])
                XCTAssertEqual(
                    mismatch?.rowInitializerResult, "LateDay(id: 1, day: 2000-01-11 00:00:01 +0000)")
                XCTAssertEqual(mismatch?.decodableResult, "LateDay(id: 1, day: 2000-01-11 00:00:00 +0000)")
            }
        }

        // MARK: Names

        /// Reads `name` exactly and as `NAME`, and what the row says of its columns.
        struct Cased: FetchableRecord {
            var exact: Int64
            var folded: Int64
            var has: [Bool]
            var names: [String]
            init(from decoder: any Decoder) throws { throw CancellationError() }
            init(row: borrowing FetchedRow) throws {
                exact = try row["name", as: Int64.self]
                folded = try row["NAME", as: Int64.self]
                has = [row.hasColumn("name"), row.hasColumn("nAmE"), row.hasColumn("nope")]
                names = row.columnNames
            }
        }

        func testNamesMatchExactlyFirstThenASCIICaseInsensitively() throws {
            let rows = try connection.query("SELECT 1::bigint AS \"Name\", 2::bigint AS name")
            let cased = try XCTUnwrap(rows.decode(Cased.self).first)
            XCTAssertEqual(cased.exact, 2)
            XCTAssertEqual(cased.folded, 1)
            XCTAssertEqual(cased.has, [true, true, false])
            XCTAssertEqual(cased.names, ["Name", "name"])
        }

        // MARK: Errors

        private func decodingError<T: FetchableRecord>(_ sql: String, _ type: T.Type) throws -> DecodingError {
            do {
                _ = try connection.query(sql).decode(T.self)
            } catch let error as DecodingError {
                return error
            }
            throw XCTSkip("\(sql) decoded as \(T.self) without an error")
        }

        func testNullIntoANonOptionalIsValueNotFoundNamingTheColumn() throws {
            let error = try decodingError("SELECT NULL::text AS v", OneString.self)
            guard case .valueNotFound(let type, let context) = error else { return XCTFail("\(error)") }
            XCTAssert(type == String.self)
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["v"])
            XCTAssertEqual(context.debugDescription, "Expected String but column \"v\" is NULL")
            let int = try decodingError("SELECT NULL::bigint AS v", One<Int64>.self)
            guard case .valueNotFound(_, let intContext) = int else { return XCTFail("\(int)") }
            XCTAssertEqual(intContext.debugDescription, "Expected Int64 but column \"v\" is NULL")
        }

        func testATypeMismatchAndAnOutOfRangeValueNameTheColumn() throws {
            let error = try decodingError("SELECT '\\x01'::bytea AS v", OneString.self)
            guard case .typeMismatch(let type, let context) = error else { return XCTFail("\(error)") }
            XCTAssert(type == String.self)
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["v"])
            XCTAssertTrue(
                context.debugDescription.hasPrefix("Expected String but column \"v\" holds"), context.debugDescription)
            let range = try decodingError("SELECT 70000::integer AS v", One<Int16>.self)
            guard case .dataCorrupted(let rangeContext) = range else { return XCTFail("\(range)") }
            XCTAssertEqual(rangeContext.codingPath.map(\.stringValue), ["v"])
            XCTAssertTrue(rangeContext.debugDescription.hasSuffix("out of range"), rangeContext.debugDescription)
            let fraction = try decodingError("SELECT 1.5::double precision AS v", OneInt.self)
            guard case .dataCorrupted(let fractionContext) = fraction else { return XCTFail("\(fraction)") }
            XCTAssertTrue(fractionContext.debugDescription.hasSuffix("which has a fractional part"))
        }

        func testAMissingColumnIsKeyNotFoundAndAMissingOptionalIsNil() throws {
            let error = try decodingError("SELECT 1::bigint AS a, 'x'::text AS b", Absent.self)
            guard case .keyNotFound(let key, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(key.stringValue, "gone")
            XCTAssertEqual(context.debugDescription, "No column \"gone\" in the row; it has \"a\", \"b\"")
            let past = try decodingError("SELECT 1::bigint AS a", PastTheEnd.self)
            guard case .keyNotFound(let pastKey, let pastContext) = past else { return XCTFail("\(past)") }
            XCTAssertEqual(pastKey.stringValue, "1")
            XCTAssertEqual(pastContext.debugDescription, "No column 1 in the row; it has 1 column(s): \"a\"")
            XCTAssertEqual(
                try connection.query("SELECT 'x'::text AS gone").decode(Absent.self).map(\.optional), [nil])
        }
    }
#endif
