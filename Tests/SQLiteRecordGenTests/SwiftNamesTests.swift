import XCTest

@testable import SQLiteRecordGen

/// Swift names for SQL identifiers.
final class SwiftNamesTests: XCTestCase {
    func testTableNamesBecomeUpperCamelCaseSingulars() {
        let cases: [(String, String?)] = [
            ("cities", "City"), ("countries", "Country"), ("geo_names", "GeoName"), ("Order Items", "OrderItem"),
            ("boxes", "Box"), ("statuses", "Status"), ("status", "Status"), ("addresses", "Address"),
            ("units", "Unit"), ("alternateNames", "AlternateName"), ("news", "News"), ("2fa_codes", "Table2faCode"),
            ("🙂", nil), ("cs", "Cs"), ("cities_fts", "CitiesFts"), ("ISO_CODES", "IsoCode"),
        ]
        for (table, expected) in cases {
            XCTAssertEqual(SwiftNames.typeName(for: table), expected, table)
        }
    }

    func testColumnNamesBecomeLowerCamelCase() {
        let cases: [(String, String?)] = [
            ("country_id", "countryId"), ("ISO", "iso"), ("first name", "firstName"), ("geonameId", "geonameId"),
            ("admin1_code", "admin1Code"), ("ORDER_ID", "orderId"), ("1st", "_1st"), ("größe", "größe"),
            ("名前", "名前"), ("a-b.c", "aBC"), ("🙂", nil), ("_private", "private"),
        ]
        for (column, expected) in cases {
            XCTAssertEqual(SwiftNames.propertyName(for: column), expected, column)
        }
    }

    func testKeywordsAreEscapedAndLiteralsQuoted() {
        XCTAssertEqual(SwiftNames.escaped("default"), "`default`")
        XCTAssertEqual(SwiftNames.escaped("order"), "order")
        XCTAssertEqual(SwiftNames.literal("quo\"te\\n\n\u{1}"), #""quo\"te\\n\n\u{1}""#)
    }
}
