import Foundation
import XCTest

@testable import SQLiteRecord

/// What the test types below keep from one row for a later one. The types are decoded by the library, which
/// calls their `init(from:)`, so what they keep has to live outside them; the lock makes that global safe.
private final class Shelf<Value>: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var values: [Value] = []

    func put(_ value: Value) { lock.withLock { values.append(value) } }
    var last: Value? { lock.withLock { values.last } }
    func clear() { lock.withLock { values.removeAll() } }
}

private let keptDecoders = Shelf<any Decoder>()
private let keptContainers = Shelf<KeyedDecodingContainer<CityKeys>>()

private enum CityKeys: String, CodingKey {
    case id, name, code
}

/// Keeps its decoder to read `name` later, lazily.
private struct LazyCity: Decodable {
    let id: Int
    let decoder: any Decoder

    init(from decoder: any Decoder) throws {
        id = try decoder.container(keyedBy: CityKeys.self).decode(Int.self, forKey: .id)
        self.decoder = decoder
    }

    func name() throws -> String {
        try decoder.container(keyedBy: CityKeys.self).decode(String.self, forKey: .name)
    }
}

/// Keeps its keyed container.
private struct CityKeepingContainer: Decodable {
    let id: Int
    let container: KeyedDecodingContainer<CityKeys>

    init(from decoder: any Decoder) throws {
        container = try decoder.container(keyedBy: CityKeys.self)
        id = try container.decode(Int.self, forKey: .id)
    }
}

/// A class that, while it decodes, reads `name` through the decoder the previous row's instance kept.
private final class CityReadingPreviousDecoder: Decodable {
    let id: Int
    let name: String
    /// What the previous row's decoder gave during this row: its `name`, or the error.
    let previousName: Result<String, any Error>?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CityKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        let previous = keptDecoders.last
        previousName = previous.map { previous in
            Result { try previous.container(keyedBy: CityKeys.self).decode(String.self, forKey: .name) }
        }
        name = try container.decode(String.self, forKey: .name)
        keptDecoders.put(decoder)
    }
}

/// A class that, while it decodes, reads `name` through the keyed container the previous row's instance kept.
private final class CityReadingPreviousContainer: Decodable {
    let id: Int
    let name: String
    let previousName: Result<String, any Error>?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CityKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        previousName = keptContainers.last.map { previous in
            Result { try previous.decode(String.self, forKey: .name) }
        }
        name = try container.decode(String.self, forKey: .name)
        keptContainers.put(container)
    }
}

/// A row of one column, decoded as a single value whose container is kept.
private struct NameKeepingContainer: Decodable {
    let name: String
    let container: any SingleValueDecodingContainer

    init(from decoder: any Decoder) throws {
        container = try decoder.singleValueContainer()
        name = try container.decode(String.self)
    }
}

/// A column value whose own `init(from:)` keeps the decoder it is given (one column's decoder).
private struct Code: Decodable {
    let text: String
    let decoder: any Decoder

    init(from decoder: any Decoder) throws {
        text = try decoder.singleValueContainer().decode(String.self)
        self.decoder = decoder
    }
}

private struct CityWithCode: Decodable {
    let id: Int
    let code: Code
}

/// Keeps the decoders a keyed container hands out for `super` and for a key.
private struct CityKeepingSuperDecoders: Decodable {
    let id: Int
    let superDecoder: any Decoder
    let nameDecoder: any Decoder

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CityKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        superDecoder = try container.superDecoder()
        nameDecoder = try container.superDecoder(forKey: .name)
    }
}

/// Keeps only its decoder's `userInfo`.
private struct CityKeepingUserInfo: Decodable {
    let id: Int
    let userInfo: [CodingUserInfoKey: Any]

    init(from decoder: any Decoder) throws {
        id = try decoder.container(keyedBy: CityKeys.self).decode(Int.self, forKey: .id)
        userInfo = decoder.userInfo
    }
}

/// A decoder, keyed container or single-value container that user code keeps past the row it was made for
/// throws a `dataCorrupted` error saying the row is gone: it never reads a later row, nor memory that the
/// statement or the decoding context has let go of (the address sanitizer run checks the second).
final class KeptDecoderTests: XCTestCase {
    override func setUp() {
        super.setUp()
        keptDecoders.clear()
        keptContainers.clear()
    }

    override func tearDown() {
        keptDecoders.clear()
        keptContainers.clear()
        super.tearDown()
    }

    private func citiesDatabase() throws -> Database {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE cities(id INTEGER PRIMARY KEY, name TEXT NOT NULL, code TEXT NOT NULL)")
        try db.execute(sql: "INSERT INTO cities VALUES (1, 'Paris', 'FR'), (2, 'Tokyo', 'JP'), (3, 'Lima', 'PE')")
        return db
    }

    private func assertRowIsGone<T>(
        _ body: @autoclosure () throws -> T, key: String? = nil, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard case DecodingError.dataCorrupted(let context) = error else {
                return XCTFail("Expected dataCorrupted, got \(error)", file: file, line: line)
            }
            XCTAssertTrue(
                context.debugDescription.hasPrefix(
                    "The row this decoder read is gone: decode values inside init(from:), not after it returns"),
                context.debugDescription, file: file, line: line)
            XCTAssertEqual(context.codingPath.map(\.stringValue), key.map { [$0] } ?? [], file: file, line: line)
        }
    }

    private func assertRowIsGone<T>(
        _ result: Result<T, any Error>?, key: String? = nil, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let result else { return XCTFail("Nothing was read", file: file, line: line) }
        assertRowIsGone(try result.get(), key: key, file: file, line: line)
    }

    // MARK: Decoders

    func testDecoderKeptPastTheFetchThrows() throws {
        let db = try citiesDatabase()
        let cities = try db.fetchAll(LazyCity.self, sql: "SELECT * FROM cities ORDER BY id")
        XCTAssertEqual(cities.map(\.id), [1, 2, 3])
        for city in cities {
            assertRowIsGone(try city.name())
            assertRowIsGone(try city.decoder.singleValueContainer())
            assertRowIsGone(try city.decoder.unkeyedContainer())
        }
    }

    func testDecoderKeptFromThePreviousRowThrowsDuringTheNextRow() throws {
        let db = try citiesDatabase()
        let cities = try db.fetchAll(CityReadingPreviousDecoder.self, sql: "SELECT * FROM cities ORDER BY id")
        XCTAssertEqual(cities.map(\.name), ["Paris", "Tokyo", "Lima"])
        XCTAssertNil(cities[0].previousName)
        assertRowIsGone(cities[1].previousName)
        assertRowIsGone(cities[2].previousName)
    }

    func testDecoderKeptWhileStatementStepsAndAfterItIsFinalized() throws {
        var kept: LazyCity?
        do {
            let db = try citiesDatabase()
            let statement = try db.makeStatement(sql: "SELECT * FROM cities ORDER BY id")
            let decoder = RowDecoder()
            XCTAssertTrue(try statement.step())
            let first = try decoder.decode(LazyCity.self, from: statement)
            // Still on the same statement row, but after the decode that the decoder was made for.
            assertRowIsGone(try first.name())
            XCTAssertTrue(try statement.step())
            let second = try decoder.decode(LazyCity.self, from: statement)
            XCTAssertEqual(second.id, 2)
            assertRowIsGone(try first.name())
            kept = first
        }
        // The statement and its connection are gone.
        assertRowIsGone(try XCTUnwrap(kept).name())
    }

    func testSuperDecodersKeptPastTheFetchThrow() throws {
        let db = try citiesDatabase()
        let cities = try db.fetchAll(CityKeepingSuperDecoders.self, sql: "SELECT * FROM cities ORDER BY id")
        XCTAssertEqual(cities.map(\.id), [1, 2, 3])
        for city in cities {
            assertRowIsGone(try city.superDecoder.container(keyedBy: CityKeys.self))
            assertRowIsGone(try city.nameDecoder.singleValueContainer().decode(String.self))
            assertRowIsGone(try city.nameDecoder.container(keyedBy: CityKeys.self))
            XCTAssertEqual(city.nameDecoder.codingPath.count, 0)
        }
    }

    func testValueDecoderKeptByAColumnTypeThrows() throws {
        let db = try citiesDatabase()
        let cities = try db.fetchAll(CityWithCode.self, sql: "SELECT id, code FROM cities ORDER BY id")
        XCTAssertEqual(cities.map(\.code.text), ["FR", "JP", "PE"])
        for city in cities {
            let container = try? city.code.decoder.singleValueContainer()
            XCTAssertNil(container)
            assertRowIsGone(try city.code.decoder.singleValueContainer())
        }
    }

    func testUserInfoKeptPastTheFetchIsAnEmptyValue() throws {
        let db = try citiesDatabase()
        let cities = try db.fetchAll(CityKeepingUserInfo.self, sql: "SELECT * FROM cities ORDER BY id")
        XCTAssertEqual(cities.map(\.id), [1, 2, 3])
        XCTAssertEqual(cities.map(\.userInfo.count), [0, 0, 0])
        let lazy = try db.fetchAll(LazyCity.self, sql: "SELECT * FROM cities ORDER BY id")
        XCTAssertTrue(lazy[0].decoder.userInfo.isEmpty)
    }

    // MARK: Containers

    func testKeyedContainerKeptPastTheFetchThrows() throws {
        let db = try citiesDatabase()
        let cities = try db.fetchAll(CityKeepingContainer.self, sql: "SELECT * FROM cities ORDER BY id")
        XCTAssertEqual(cities.map(\.id), [1, 2, 3])
        for city in cities {
            let container = city.container
            assertRowIsGone(try container.decode(String.self, forKey: .name), key: "name")
            assertRowIsGone(try container.decode(Int.self, forKey: .id), key: "id")
            assertRowIsGone(try container.decodeIfPresent(String.self, forKey: .code), key: "code")
            assertRowIsGone(try container.decodeNil(forKey: .name), key: "name")
            assertRowIsGone(try container.decode(Date.self, forKey: .name), key: "name")
            // True, so that code that asks first then decodes gets the error rather than a missing column.
            XCTAssertTrue(container.contains(.name))
            XCTAssertEqual(container.allKeys, [])
        }
    }

    func testKeyedContainerKeptFromThePreviousRowThrowsDuringTheNextRow() throws {
        let db = try citiesDatabase()
        let cities = try db.fetchAll(CityReadingPreviousContainer.self, sql: "SELECT * FROM cities ORDER BY id")
        // The rows after a kept container decode through a fresh one, with their own values.
        XCTAssertEqual(cities.map(\.id), [1, 2, 3])
        XCTAssertEqual(cities.map(\.name), ["Paris", "Tokyo", "Lima"])
        XCTAssertNil(cities[0].previousName)
        assertRowIsGone(cities[1].previousName, key: "name")
        assertRowIsGone(cities[2].previousName, key: "name")
    }

    func testKeyedContainerKeptThroughAReusedStatementContext() throws {
        let db = try citiesDatabase()
        let statement = try db.makeStatement(sql: "SELECT * FROM cities ORDER BY id")
        let decoder = RowDecoder()
        var ids: [Int] = []
        while try statement.step() {
            ids.append(try decoder.decode(CityReadingPreviousContainer.self, from: statement).id)
        }
        XCTAssertEqual(ids, [1, 2, 3])
        assertRowIsGone(try XCTUnwrap(keptContainers.last).decode(String.self, forKey: .name), key: "name")
    }

    func testNestedContainersOfAKeptContainerThrow() throws {
        let db = try citiesDatabase()
        let city = try XCTUnwrap(db.fetchAll(CityKeepingContainer.self, sql: "SELECT * FROM cities").first)
        assertRowIsGone(try city.container.nestedContainer(keyedBy: CityKeys.self, forKey: .name), key: "name")
        assertRowIsGone(try city.container.nestedUnkeyedContainer(forKey: .name), key: "name")
        assertRowIsGone(try city.container.superDecoder())
        assertRowIsGone(try city.container.superDecoder(forKey: .name), key: "name")
    }

    func testSingleValueContainerKeptPastTheFetchThrows() throws {
        let db = try citiesDatabase()
        let names = try db.fetchAll(NameKeepingContainer.self, sql: "SELECT name FROM cities ORDER BY id")
        XCTAssertEqual(names.map(\.name), ["Paris", "Tokyo", "Lima"])
        for name in names {
            assertRowIsGone(try name.container.decode(String.self))
            assertRowIsGone(try name.container.decode(Int.self))
            // False, so that an Optional read through it goes on to the decode, which throws.
            XCTAssertFalse(name.container.decodeNil())
        }
    }

    /// The reuse of one keyed container from row to row rests on the standard library's keyed containers
    /// being one shared reference; were that to change, every row would make its own container (still safe,
    /// slower), and this test says so.
    func testKeyedContainersAreOneSharedReferenceOnThisPlatform() {
        XCTAssertTrue(KeyedContainerLayout.isOneReference)
    }
}

/// The keyed container serves every row of a fetch while no row keeps it: the check at each row's end finds
/// it held by the context alone.
final class SharedRowContainerTests: XCTestCase {
    func testRowsThatKeepNothingShareOneContainer() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE cities(id INTEGER PRIMARY KEY, name TEXT NOT NULL, code TEXT NOT NULL)")
        try db.execute(sql: "INSERT INTO cities VALUES (1, 'Paris', 'FR'), (2, 'Tokyo', 'JP'), (3, 'Lima', 'PE')")
        let statement = try db.makeStatement(sql: "SELECT * FROM cities ORDER BY id")
        let context = RowDecodingContext(statement: statement, tableName: "cities", missingOptionalColumnIsNil: false)
        var boxes: [ObjectIdentifier] = []
        while try statement.step() {
            _ = try context.decodeRow(PlainCity.self)
            boxes.append(ObjectIdentifier(try XCTUnwrap(context.containerBox)))
        }
        XCTAssertEqual(Set(boxes).count, 1)
    }
}

private struct PlainCity: Decodable {
    var id: Int
    var name: String
}
