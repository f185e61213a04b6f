import Foundation
import XCTest

@testable import SQLiteRecord

private struct Product: Record, Equatable {
    var id: Int64?
    var name: String
    var price: Decimal
}

/// A Decimal is written so that SQLite compares and sorts it as a number, and every digit reads back.
final class DecimalStorageTests: XCTestCase {
    private let posix = Locale(identifier: "en_US_POSIX")

    private func decimal(_ text: String) -> Decimal {
        Decimal(string: text, locale: posix) ?? .nan
    }

    /// The prices and the awkward ones, with the storage class each is written as.
    private let prices: [(text: String, storage: String)] = [
        ("9.99", "real"), ("25.5", "real"), ("12", "integer"), ("100", "integer"), ("0.1", "real"),
        ("1234567890.123456789", "text"), ("-0.5", "real"), ("0.000001", "real"), ("1e30", "real"),
        ("-9223372036854775808", "integer"), ("99999999999999999999.5", "text"),
    ]

    private func productsDatabase(_ texts: [String]) throws -> Database {
        let db = try Database()
        try Product.createTable(in: db)
        for (offset, text) in texts.enumerated() {
            var product = Product(id: nil, name: "p\(offset)", price: decimal(text))
            try product.save(db)
        }
        return db
    }

    func testCreateTableDeclaresNoTypeSoEachValueKeepsItsStorage() throws {
        XCTAssertEqual(
            try Product.createTableSQL(),
            "CREATE TABLE \"product\" (\"id\" INTEGER PRIMARY KEY, \"name\" TEXT NOT NULL, \"price\" NOT NULL)")
        let db = try productsDatabase(prices.map(\.text))
        let stored = try db.fetchAll(sql: "SELECT typeof(price) FROM product ORDER BY id").map {
            try $0[0, as: String.self]
        }
        XCTAssertEqual(stored, prices.map(\.storage))
        // Every digit reads back, through save and fetch (the first insert makes the plan, the rest reuse it).
        let read = try Product.fetch(db, orderBy: [.ascending("id")]).map(\.price.description)
        XCTAssertEqual(
            read,
            [
                "9.99", "25.5", "12", "100", "0.1", "1234567890.123456789", "-0.5", "0.000001",
                "1000000000000000000000000000000", "-9223372036854775808", "99999999999999999999.5",
            ])
    }

    func testPricesSortCompareAndSumAsNumbers() throws {
        let db = try productsDatabase(["9.99", "25.5", "12", "100"])
        XCTAssertEqual(
            try Product.fetch(db, orderBy: [.descending("price")]).map(\.price),
            [decimal("100"), decimal("25.5"), decimal("12"), decimal("9.99")])
        XCTAssertEqual(
            try Product.fetch(db, where: "price < ?", arguments: [20], orderBy: [.ascending("price")]).map(\.price),
            [decimal("9.99"), decimal("12")])
        XCTAssertEqual(try db.scalar(Double.self, sql: "SELECT min(price) FROM product"), 9.99)
        XCTAssertEqual(try db.scalar(Double.self, sql: "SELECT max(price) FROM product"), 100)
        XCTAssertEqual(try db.scalar(Double.self, sql: "SELECT sum(price) FROM product") ?? 0, 147.49, accuracy: 1e-9)
        // A where: filter finds a Decimal in the form it was written.
        XCTAssertEqual(try Product.fetch(db, where: ["price": decimal("9.99")]).map(\.name), ["p0"])
        XCTAssertEqual(try Product.count(db, where: ["price": decimal("12")]), 1)
    }

    func testMoreDigitsThanADoubleHoldsStayTextAndSortAfterNumbers() throws {
        let db = try productsDatabase(["1234567890.123456789", "9.99", "2000000000"])
        XCTAssertEqual(
            try Product.fetch(db, where: ["price": decimal("1234567890.123456789")]).map(\.price.description),
            ["1234567890.123456789"])
        // The documented cost of keeping every digit: SQLite orders TEXT after every number.
        XCTAssertEqual(
            try Product.fetch(db, orderBy: [.ascending("price")]).map(\.price.description),
            ["9.99", "2000000000", "1234567890.123456789"])
    }

    func testTheValueEachDecimalBindsAs() {
        XCTAssertEqual(decimal("9.99").sqliteValue, .real(9.99))
        XCTAssertEqual(decimal("12.0").sqliteValue, .integer(12))
        XCTAssertEqual(decimal("-0.5").sqliteValue, .real(-0.5))
        XCTAssertEqual(decimal("1234567890.123456789").sqliteValue, .text("1234567890.123456789"))
        // 2^63 is a Double, but its shortest text 9.223372036854776e+18 is another Decimal: TEXT.
        XCTAssertEqual(decimal("9223372036854775808").sqliteValue, .text("9223372036854775808"))
        XCTAssertEqual(Decimal.nan.sqliteValue.storageClassName, "REAL")
    }

    func testAForeignNumericColumnRefusesWhatItWouldRound() throws {
        // A DECIMAL(20,9) column has NUMERIC affinity: SQLite would keep 15 significant digits of the text.
        let db = try Database()
        try db.execute(sql: "CREATE TABLE product (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price DECIMAL(20,9))")
        var cheap = Product(id: nil, name: "cheap", price: decimal("9.99"))
        try cheap.save(db)
        XCTAssertEqual(try db.scalar(String.self, sql: "SELECT typeof(price) FROM product"), "real")
        var precise = Product(id: nil, name: "precise", price: decimal("1234567890.123456789"))
        XCTAssertThrowsError(try precise.save(db)) { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(context.debugDescription.contains("numeric affinity"), context.debugDescription)
        }
        XCTAssertEqual(try Product.count(db), 1)
    }
}
