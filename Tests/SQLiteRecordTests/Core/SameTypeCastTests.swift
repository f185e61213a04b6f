import Foundation
import XCTest

@testable import SQLiteRecord

/// The one home of identity bit casts: a value comes back as its own type, and any other pair of types,
/// of other sizes included (a bit cast between them would read past the value, which ASan reports), gives nil.
final class SameTypeCastTests: XCTestCase {
    func testAValueComesBackAsItsOwnType() {
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()
        XCTAssertEqual(SameTypeCast.cast(uuid, to: UUID.self), uuid)
        XCTAssertEqual(SameTypeCast.cast("Tokyo", to: String.self), "Tokyo")
        XCTAssertEqual(SameTypeCast.cast(Int64(42), to: Int64.self), 42)
        XCTAssertEqual(SameTypeCast.cast(Int64?.none, to: Int64?.self), .some(nil))
    }

    func testAnyOtherTypeIsNilNeverAReinterpretation() {
        XCTAssertNil(SameTypeCast.cast(Int8(1), to: UUID.self))  // 1 byte read as 16
        XCTAssertNil(SameTypeCast.cast(UUID(), to: String.self))
        XCTAssertNil(SameTypeCast.cast(Int(7), to: Int64.self))  // same size, another type
        XCTAssertTrue(SameTypeCast.cast(Int64(7), to: Int64?.self) == nil)
    }

    /// The form for callers that have just checked `T.self == U.self`, as the decoder's fast paths do:
    /// a generic function that would otherwise need a dynamic cast.
    func testSameTypeAfterTheCallersCheck() {
        func asDate<T>(_ value: T) -> Date? {
            if T.self == Date.self { return try? SameTypeCast.cast(checked: value, to: Date.self) }
            return nil
        }
        func make<T>(_ type: T.Type, from date: Date) -> T? {
            if T.self == Date.self { return try? SameTypeCast.cast(checked: date, to: T.self) }
            return nil
        }
        let date = Date(timeIntervalSince1970: 1_700_000_000.5)
        XCTAssertEqual(asDate(date), date)
        XCTAssertNil(asDate("2023-11-14"))
        XCTAssertEqual(make(Date.self, from: date), date)
        XCTAssertNil(make(String.self, from: date))
        XCTAssertThrowsError(try SameTypeCast.cast(checked: Int8(1), to: UUID.self)) { error in
            guard case DecodingError.typeMismatch = error else { return XCTFail("\(error)") }
        }
    }

    /// An object comes back as its own final class only: a subclass, another class or nil gives nil, never
    /// an object read as a class it is not (whose stored properties ASan would see read past its end).
    func testAnObjectComesBackAsItsOwnClassOnly() {
        final class Small { let a = 1 }
        class Base { var b = 2 }
        final class Large { var values = [Int](repeating: 7, count: 4); var more = "text" }
        let small: AnyObject = Small()
        XCTAssertTrue(SameTypeCast.exactly(small, as: Small.self) === small)
        XCTAssertNil(SameTypeCast.exactly(small, as: Large.self))
        XCTAssertNil(SameTypeCast.exactly(nil, as: Small.self))
        class Derived: Base {}
        XCTAssertNil(SameTypeCast.exactly(Derived(), as: Base.self))
        let queue = try? DatabaseQueue()
        try? queue?.write { db in
            XCTAssertNil(SameTypeCast.exactly(db.recordCache, as: Small.self))
            XCTAssertTrue(RecordConnectionCache.of(db) === RecordConnectionCache.of(db))
        }
    }

    func testRowIDKeysReadAndMakeOnlyTheRowID() {
        XCTAssertEqual(RowIDKey.rowID(Int64?(5)), 5)
        XCTAssertNil(RowIDKey.rowID(Int64?.none))
        XCTAssertNil(RowIDKey.rowID(UUID()))  // not a rowid key: no value, never its bits
        XCTAssertEqual(RowIDKey.key(7) as Int64??, .some(.some(7)))
        XCTAssertNil(RowIDKey.key(7) as UUID?)
    }

    func testAssignSetsOnlyATargetOfTheSameType() {
        var rowID: Int64? = nil
        XCTAssertTrue(SameTypeCast.assign(Int64?(9), to: &rowID))
        XCTAssertEqual(rowID, 9)
        let uuid = UUID()
        var key = uuid
        XCTAssertFalse(SameTypeCast.assign(Int64?(9), to: &key))  // another type: left as it was, never its bits
        XCTAssertEqual(key, uuid)
        var small: Int8 = 3
        XCTAssertFalse(SameTypeCast.assign(Int64(1 << 40), to: &small))
        XCTAssertEqual(small, 3)
    }
}
