import Foundation
import XCTest

@testable import SQLiteRecord

/// The invariants of the decoder's reused memory (at the top of KeyTrail.swift, RowDecodingState.swift,
/// RowDecoder+KeptContext.swift, RowInitializerCache.swift and KeyedContainerBox.swift): each test breaks the
/// assumption an invariant guards against (memory freed while user code or a row still reads it), so that a
/// broken invariant reads freed memory, which the address sanitizer (`Scripts/sanitizers.sh asan`) reports, or
/// reads the wrong row, which the assertions report.
final class RowDecodingStorageTests: XCTestCase {
    private func citiesDatabase() throws -> Database {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE cities(id INTEGER PRIMARY KEY, name TEXT NOT NULL, country_code TEXT)")
        try db.execute(sql: "INSERT INTO cities VALUES (1, 'Paris', 'FR'), (2, 'Tokyo', 'JP'), (3, 'Lima', 'PE')")
        return db
    }

    private func assertRowIsGone<T>(
        _ expression: @autoclosure () throws -> T, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            guard case DecodingError.dataCorrupted(let context) = error else {
                return XCTFail("\(error)", file: file, line: line)
            }
            XCTAssertTrue(
                context.debugDescription.hasPrefix("The row this decoder read is gone"), context.debugDescription,
                file: file, line: line)
        }
    }

    // MARK: Invariant 5: the plain keyed container is the default path, and correct on its own

    /// Every row through a plain `KeyedDecodingContainer` (no box): the values, and no box kept.
    func testThePlainKeyedContainerPathDecodesEveryRow() throws {
        let db = try citiesDatabase()
        let statement = try db.makeStatement(sql: "SELECT * FROM cities ORDER BY id")
        let context = RowDecodingContext(statement: statement, tableName: "cities", missingOptionalColumnIsNil: false)
        context.reusesKeyedContainers = false
        var cities: [StoredCity] = []
        while try statement.step() { cities.append(try context.decodeRow(StoredCity.self)) }
        XCTAssertEqual(
            cities,
            [
                StoredCity(id: 1, name: "Paris", countryCode: "FR"),
                StoredCity(id: 2, name: "Tokyo", countryCode: "JP"),
                StoredCity(id: 3, name: "Lima", countryCode: "PE"),
            ])
        XCTAssertNil(context.containerBox)
    }

    /// A plain container kept past its row retains its state's storage: after the row, the statement, the
    /// context and the connection are gone, reading it throws rather than reading freed memory.
    func testAPlainKeyedContainerKeptPastItsDatabaseThrows() throws {
        var kept: [KeyedDecodingContainer<StoredCity.CodingKeys>] = []
        do {
            let db = try citiesDatabase()
            let statement = try db.makeStatement(sql: "SELECT * FROM cities ORDER BY id")
            let context = RowDecodingContext(
                statement: statement, tableName: "cities", missingOptionalColumnIsNil: false)
            context.reusesKeyedContainers = false
            while try statement.step() { kept.append(try context.decodeRow(ContainerKeeper.self).container) }
        }
        XCTAssertEqual(kept.count, 3)
        for container in kept {
            assertRowIsGone(try container.decode(String.self, forKey: .name))
            assertRowIsGone(try container.decodeIfPresent(String.self, forKey: .countryCode))
            XCTAssertEqual(container.allKeys, [])
        }
    }

    /// The same through the boxed container: ``RevokedRowStates`` keeps the storage the kept container reads.
    func testABoxedKeyedContainerKeptPastItsDatabaseThrows() throws {
        try XCTSkipUnless(KeyedContainerLayout.isOneReference, "no keyed-container box on this platform")
        var kept: [KeyedDecodingContainer<StoredCity.CodingKeys>] = []
        do {
            let db = try citiesDatabase()
            let statement = try db.makeStatement(sql: "SELECT * FROM cities ORDER BY id")
            let context = RowDecodingContext(
                statement: statement, tableName: "cities", missingOptionalColumnIsNil: false)
            while try statement.step() { kept.append(try context.decodeRow(ContainerKeeper.self).container) }
            XCTAssertNil(context.containerBox, "a kept container is never handed out again")
        }
        for container in kept { assertRowIsGone(try container.decode(Int.self, forKey: .id)) }
    }

    // MARK: Invariant 3: a kept context replaced while it decodes a row

    /// `init(from:)` decodes its own statement with a decoder of another key strategy, which replaces the
    /// statement's coding state (and with it the kept context that is decoding this very row), then goes on
    /// reading through its container.
    func testInitFromThatReplacesTheStatementsKeptContextMidRow() throws {
        let db = try citiesDatabase()
        let statement = try db.makeStatement(sql: "SELECT * FROM cities ORDER BY id")
        StatementHolder.shared.statement = statement
        defer { StatementHolder.shared.statement = nil }
        let decoder = RowDecoder()
        var rows: [Replacing] = []
        while try statement.step() { rows.append(try decoder.decode(Replacing.self, from: statement)) }
        XCTAssertEqual(rows.map(\.id), [1, 2, 3])
        XCTAssertEqual(rows.map(\.name), ["Paris", "Tokyo", "Lima"])
        XCTAssertEqual(rows.map(\.inner.countryCode), ["FR", "JP", "PE"])
        XCTAssertEqual(rows.map(\.inner.id), [1, 2, 3])
    }

    /// `init(from:)` runs a whole fetch of its own on the same connection, on another statement, between two of
    /// its own reads.
    func testAFetchInsideInitFrom() throws {
        let db = try citiesDatabase()
        StatementHolder.shared.database = db
        defer { StatementHolder.shared.database = nil }
        let statement = try db.makeStatement(sql: "SELECT * FROM cities ORDER BY id")
        let decoder = RowDecoder()
        var rows: [Fetching] = []
        while try statement.step() { rows.append(try decoder.decode(Fetching.self, from: statement)) }
        XCTAssertEqual(rows.map(\.id), [1, 2, 3])
        XCTAssertEqual(rows.map(\.name), ["Paris", "Tokyo", "Lima"])
        XCTAssertEqual(rows.map(\.all), Array(repeating: ["Lima", "Paris", "Tokyo"], count: 3))
    }

    // MARK: Invariants 1 and 2: a statement prepared again between runs

    /// A fetch's context made before the first step, when SQLite prepares the statement again at that step
    /// (the columns were renamed): the context lets go of its lookup and its trails, fills its state in again
    /// with the new lookup's trail, and reads the new names; a row initializer's reads by name too.
    func testAStatementPreparedAgainUnderAContextReadsTheNewColumns() throws {
        let db = try citiesDatabase()
        let statement = try db.makeStatement(sql: "SELECT * FROM cities ORDER BY id")
        let decoder = RowDecoder()
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(try decoder.decode(StoredCity.self, from: statement).name, "Paris")
        statement.reset()
        try db.execute(sql: "ALTER TABLE cities RENAME COLUMN name TO swapped")
        try db.execute(sql: "ALTER TABLE cities RENAME COLUMN country_code TO name")
        try db.execute(sql: "ALTER TABLE cities RENAME COLUMN swapped TO country_code")
        let context = RowDecodingContext(statement: statement, tableName: "cities", missingOptionalColumnIsNil: false)
        var cities: [StoredCity] = []
        var byRow: [String] = []
        while try statement.step() {
            cities.append(try context.decodeRow(StoredCity.self))
            byRow.append(try context.decodeRow(CityByName.self).name)
        }
        XCTAssertEqual(cities.map(\.name), ["FR", "JP", "PE"])
        XCTAssertEqual(cities.map(\.countryCode), ["Paris", "Tokyo", "Lima"])
        XCTAssertEqual(byRow, ["FR", "JP", "PE"])
        statement.reset()
        XCTAssertTrue(try statement.step())
        XCTAssertEqual(try decoder.decode(StoredCity.self, from: statement).name, "FR")
    }

    // MARK: Invariant 4: the row-initializer cache keeps every call it handed out

    /// A row initializer that decodes the same row as another type through a second context on the same
    /// statement: the two contexts share the statement's cache, whose current call turns to the other type's
    /// while the first call runs.
    func testARowInitializerDecodingAnotherTypeThroughASecondContext() throws {
        let db = try citiesDatabase()
        let statement = try db.makeStatement(sql: "SELECT * FROM cities ORDER BY id")
        let context = RowDecodingContext(statement: statement, tableName: "cities", missingOptionalColumnIsNil: false)
        var regions: [StoredRegion] = []
        while try statement.step() { regions.append(try context.decodeRow(StoredRegion.self)) }
        XCTAssertEqual(regions.map(\.capital.name), ["Paris", "Tokyo", "Lima"])
        XCTAssertEqual(regions.map(\.code), ["FR", "JP", "PE"])
        XCTAssertEqual(statement.codingState?.rowInitializers.keptCallCount, 2)
    }

    /// A type without a row initializer is asked once, and the cache keeps no call for it.
    func testATypeWithoutARowInitializerKeepsNoCall() throws {
        let db = try citiesDatabase()
        let statement = try db.makeStatement(sql: "SELECT * FROM cities ORDER BY id")
        let context = RowDecodingContext(statement: statement, tableName: "cities", missingOptionalColumnIsNil: false)
        while try statement.step() {
            _ = try context.decodeRow(StoredCity.self)
            _ = try context.decodeRow(CityByName.self)
        }
        XCTAssertEqual(statement.codingState?.rowInitializers.keptCallCount, 1)
    }

    // MARK: Key identity, shared by the key trail and the statement binding

    func testKeyIdentityRecognizesAKeyByItsTypeAndBytes() {
        let id = StoredCity.CodingKeys.id
        let name = StoredCity.CodingKeys.name
        guard let bytes = KeyIdentity.bytes(of: id) else { return XCTFail("a CodingKeys enum is plain data") }
        let type = KeyIdentity.typeBits(of: StoredCity.CodingKeys.self)
        XCTAssertTrue(KeyIdentity.isKey(id, recordedAs: type, bytes))
        XCTAssertFalse(KeyIdentity.isKey(name, recordedAs: type, bytes))
        // Another key type whose first case has the same byte.
        XCTAssertFalse(KeyIdentity.isKey(OtherKeys.first, recordedAs: type, bytes))
        // A key holding a String is not plain data: recognized by its string only.
        XCTAssertNil(KeyIdentity.bytes(of: ColumnCodingKey(stringValue: "id")))
        XCTAssertFalse(KeyIdentity.isKey(ColumnCodingKey(stringValue: "id"), recordedAs: 0, (0, 0)))
    }
}

private struct StoredCity: Decodable, Equatable {
    var id: Int64
    var name: String
    var countryCode: String?

    enum CodingKeys: String, CodingKey {
        case id, name
        case countryCode = "country_code"
    }
}

/// The same columns through a row initializer reading by name.
private struct CityByName: FetchableRecord {
    var id: Int64
    var name: String

    init(row: borrowing FetchedRow) throws {
        id = try row["id", as: Int64.self]
        name = try row["name", as: String.self]
    }
}

/// Reads `name`, then decodes the same row as a StoredCity with its own context, then reads `country_code`.
private struct StoredRegion: FetchableRecord {
    var capital: StoredCity
    var code: String

    init(row: borrowing FetchedRow) throws {
        let context = try XCTUnwrap(row.context)
        let second = RowDecodingContext(
            statement: context.statement, tableName: "cities", missingOptionalColumnIsNil: false)
        capital = try second.decodeRow(CityCall.self).city
        code = try row["country_code", as: String.self]
    }

    /// A StoredCity through a row initializer of its own, so that the second context asks the cache for another call.
    struct CityCall: FetchableRecord {
        var city: StoredCity
        init(row: borrowing FetchedRow) throws {
            city = StoredCity(
                id: try row["id", as: Int64.self], name: try row["name", as: String.self],
                countryCode: try row["country_code", as: String?.self])
        }
    }
}

private struct ContainerKeeper: Decodable {
    let container: KeyedDecodingContainer<StoredCity.CodingKeys>

    init(from decoder: any Decoder) throws {
        container = try decoder.container(keyedBy: StoredCity.CodingKeys.self)
        _ = try container.decode(Int64.self, forKey: .id)
    }
}

private enum OtherKeys: CodingKey {
    case first, second
}

/// What the test types reach from inside their `init(from:)`, which the library calls.
private final class StatementHolder: @unchecked Sendable {
    static let shared = StatementHolder()
    /// Guards both properties.
    private let lock = NSLock()
    private var heldStatement: Statement?
    private var heldDatabase: Database?

    var statement: Statement? {
        get { lock.withLock { heldStatement } }
        set { lock.withLock { heldStatement = newValue } }
    }
    var database: Database? {
        get { lock.withLock { heldDatabase } }
        set { lock.withLock { heldDatabase = newValue } }
    }
}

/// Reads `id`, decodes its own statement as `Inner` with a snake_case decoder (a new coding state for the
/// statement), then reads `name` through the container it had.
private struct Replacing: Decodable {
    struct Inner: Decodable {
        var id: Int64
        var countryCode: String
    }

    var id: Int64
    var name: String
    var inner: Inner

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: StoredCity.CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        guard let statement = StatementHolder.shared.statement else { throw CancellationError() }
        var snakeCase = RowDecoder()
        snakeCase.keyDecodingStrategy = .convertFromSnakeCase
        inner = try snakeCase.decode(Inner.self, from: statement)
        name = try container.decode(String.self, forKey: .name)
    }
}

/// Reads `id`, fetches every city name on its connection, then reads `name`.
private struct Fetching: Decodable {
    var id: Int64
    var name: String
    var all: [String]

    struct Name: Decodable {
        var name: String
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: StoredCity.CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        guard let db = StatementHolder.shared.database else { throw CancellationError() }
        let statement = try db.makeStatement(sql: "SELECT name FROM cities ORDER BY name")
        all = try RowDecoder().decodeAll(Name.self, from: statement).map(\.name)
        name = try container.decode(String.self, forKey: .name)
    }
}
