import XCTest

@testable import SQLiteRecord

/// The memory a row initializer's record is moved through: the value comes out whole and as its own type,
/// another type is refused before anything is made, a value made inside another (a row initializer that
/// decodes through the same context) neither overwrites nor frees the outer one's memory, and a throw leaves
/// nothing behind. Run under the address sanitizer, a value read from freed or too-small memory would fail.
final class RecordSlotTests: XCTestCase {
    private struct City: Equatable {
        var name: String
        var timezone: String?
        var population: Int64
    }

    /// Larger and more aligned than `City`, so that making one grows the slot.
    private struct Region: Equatable {
        var cities: [String]
        var code: String
        var area: (Double, Double, Double, Double)

        static func == (lhs: Region, rhs: Region) -> Bool {
            lhs.cities == rhs.cities && lhs.code == rhs.code && lhs.area == rhs.area
        }
    }

    private struct Refused: Error, Equatable {}

    func testTheValueComesOutWholeAsItsOwnType() throws {
        let slot = RecordSlot()
        // A string too long to be stored inline, so that a lost retain or release would show.
        let name = String(repeating: "Saint-Rémy-de-Provence ", count: 4)
        let city = try slot.move(City.self, as: City.self, otherwise: { Refused() }) {
            City(name: name, timezone: "Europe/Paris", population: 9_547)
        }
        XCTAssertEqual(city, City(name: name, timezone: "Europe/Paris", population: 9_547))
        let again = try slot.move(City.self, as: City.self, otherwise: { Refused() }) {
            City(name: "Arles", timezone: nil, population: 51_031)
        }
        XCTAssertEqual(again, City(name: "Arles", timezone: nil, population: 51_031))
        XCTAssertEqual(city.name, name)
    }

    func testAnotherTypeIsRefusedWithoutMakingAnything() {
        let slot = RecordSlot()
        var made = false
        XCTAssertThrowsError(
            try slot.move(Region.self, as: City.self, otherwise: { Refused() }) { () -> City in
                made = true
                return City(name: "Arles", timezone: nil, population: 51_031)
            }
        ) { error in
            XCTAssertEqual(error as? Refused, Refused())
        }
        XCTAssertFalse(made)
    }

    func testAThrowLeavesTheSlotEmptyAndUsable() throws {
        let slot = RecordSlot()
        XCTAssertThrowsError(
            try slot.move(City.self, as: City.self, otherwise: { Refused() }) { () -> City in throw Refused() })
        let city = try slot.move(City.self, as: City.self, otherwise: { Refused() }) {
            City(name: "Nîmes", timezone: "Europe/Paris", population: 148_104)
        }
        XCTAssertEqual(city, City(name: "Nîmes", timezone: "Europe/Paris", population: 148_104))
    }

    func testAValueMadeInsideAnotherGrowsTheSlotWithoutTouchingTheOuterOne() throws {
        let slot = RecordSlot()
        let arles = City(name: "Arles", timezone: "Europe/Paris", population: 51_031)
        // The slot first fits a City; the inner make needs more room and more alignment than that.
        _ = try slot.move(City.self, as: City.self, otherwise: { Refused() }) { arles }
        var inner: Region?
        let city = try slot.move(City.self, as: City.self, otherwise: { Refused() }) { () -> City in
            inner = try slot.move(Region.self, as: Region.self, otherwise: { Refused() }) {
                Region(cities: ["Arles", "Nîmes"], code: "FR-PAC", area: (1, 2, 3, 4))
            }
            return arles
        }
        XCTAssertEqual(city, arles)
        XCTAssertEqual(inner, Region(cities: ["Arles", "Nîmes"], code: "FR-PAC", area: (1, 2, 3, 4)))
    }
}
