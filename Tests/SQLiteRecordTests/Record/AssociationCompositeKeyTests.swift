import Foundation
import SQLiteRecord
import XCTest

/// A unit of measure keyed by two columns, as the EPSG registry keys them (see RecordKeyTests).
private struct MeasureUnit: Record, Equatable {
    struct Key: Codable, Hashable, Sendable {
        var authName: String
        var code: String
        enum CodingKeys: String, CodingKey {
            case authName = "auth_name"
            case code
        }
    }
    var authName: String
    var code: String
    var name: String
    static let tableName = "measure_units"
    static let withoutRowID = true
    enum CodingKeys: String, CodingKey {
        case authName = "auth_name"
        case code, name
    }
    var id: Key {
        get { Key(authName: authName, code: code) }
        set {
            authName = newValue.authName
            code = newValue.code
        }
    }
}

/// A conversion that names its unit by one column, which cannot hold a two-column key.
private struct Conversion: Record, Equatable {
    var id: Int64?
    var measureUnitId: String?
    var factor: Double
    static let tableName = "conversions"
    enum CodingKeys: String, CodingKey {
        case id, factor
        case measureUnitId = "measure_unit_id"
    }
    static let unit = belongsTo(MeasureUnit.self)
}

/// Associations link one column: a parent with a composite key is refused with an error that names the
/// declaration and the parent table's columns, before any row is read.
final class AssociationCompositeKeyTests: XCTestCase {
    func testAParentWithACompositeKeyIsRefusedNamingItsColumns() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE measure_units (auth_name TEXT NOT NULL, code TEXT NOT NULL, name TEXT NOT NULL,
                        PRIMARY KEY (auth_name, code)) WITHOUT ROWID;
                    CREATE TABLE conversions (id INTEGER PRIMARY KEY, measure_unit_id TEXT, factor REAL NOT NULL);
                    INSERT INTO measure_units VALUES ('EPSG', '9001', 'metre');
                    INSERT INTO conversions VALUES (1, 'EPSG:9001', 1.0);
                    """)
        }
        XCTAssertThrowsError(
            try queue.read { db in try Conversion.all().including(required: Conversion.unit).fetchPairs(db) }
        ) { error in
            XCTAssertEqual(
                "\(error)",
                "Association Conversion.belongsTo(MeasureUnit) \"measureUnit\": \"conversions\".\"measure_unit_id\" "
                    + "-> \"measure_units\".\"id\": table \"measure_units\" has no column \"id\"; its columns are: "
                    + "\"auth_name\", \"code\", \"name\"")
        }
    }
}
