import Foundation
import SQLiteRecord
import XCTest

/// Primary keys of every kind: the rowid, UUID, String, Int set by the client, an enum's raw value, and a
/// composite key in a WITHOUT ROWID table; each through every keyed call.
final class RecordKeyTests: XCTestCase {
    struct Device: Record, Equatable, Sendable {
        var id: UUID
        var name: String
        static let tableName = "device"
    }

    struct Currency: Record, Equatable, Sendable {
        var id: String
        var name: String
        static let tableName = "currency"
        static let primaryKeyColumn = "code"
        enum CodingKeys: String, CodingKey {
            case id = "code"
            case name
        }
    }

    struct Station: Record, Equatable, Sendable {
        var id: Int
        var name: String
        static let tableName = "station"
    }

    enum Planet: String, Codable, Sendable {
        case mercury, venus, earth
    }

    struct Orbit: Record, Equatable, Sendable {
        var id: Planet
        var days: Double
        static let tableName = "orbit"
    }

    struct UnitKey: Codable, Hashable, Sendable {
        var authName: String
        var code: String
        enum CodingKeys: String, CodingKey {
            case authName = "auth_name"
            case code
        }
    }

    struct Unit: Record, Equatable, Sendable {
        var authName: String
        var code: String
        var name: String
        static let tableName = "unit"
        static let withoutRowID = true
        enum CodingKeys: String, CodingKey {
            case authName = "auth_name"
            case code, name
        }
        var id: UnitKey {
            get { UnitKey(authName: authName, code: code) }
            set {
                authName = newValue.authName
                code = newValue.code
            }
        }
    }

    private func makeQueue() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE device (id TEXT NOT NULL PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE currency (code TEXT NOT NULL PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE station (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE orbit (id TEXT NOT NULL PRIMARY KEY, days REAL NOT NULL);
                    CREATE TABLE unit (auth_name TEXT NOT NULL, code INTEGER_OR_TEXT NOT NULL, name TEXT NOT NULL,
                        PRIMARY KEY (auth_name, code)) WITHOUT ROWID;
                    INSERT INTO unit VALUES ('EPSG', 9001, 'metre'), ('PROJ', 'DM', 'decimetre');
                    """)
        }
        return queue
    }

    // MARK: - UUID

    func testUUIDKeysThroughEveryCall() throws {
        let queue = try makeQueue()
        let a = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()
        let b = UUID(uuidString: "0F4D5A3B-1111-4222-8333-944455556666") ?? UUID()
        try queue.write { db in
            var phone = Device(id: a, name: "phone")
            try phone.save(db)  // new: inserted
            phone.name = "phone 2"
            try phone.save(db)  // known: updated, never a second row
            var tablet = Device(id: b, name: "tablet")
            try tablet.insert(db)
            XCTAssertEqual(
                try db.fetchAll(String.self, sql: "SELECT id FROM device ORDER BY name"),
                [
                    "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "0f4d5a3b-1111-4222-8333-944455556666",
                ])
        }
        try queue.read { db in
            XCTAssertEqual(try Device.fetchOne(db, id: a), Device(id: a, name: "phone 2"))
            XCTAssertTrue(try Device.exists(db, id: b))
            XCTAssertFalse(try Device.exists(db, id: UUID()))
            XCTAssertNil(try Device.fetchOne(db, id: UUID()))
            XCTAssertEqual(try Device.fetch(db, ids: [a, b, UUID()]).map(\.name).sorted(), ["phone 2", "tablet"])
            XCTAssertEqual(try Device.fetch(db, ids: [UUID]()), [])
        }
        XCTAssertThrowsError(try queue.write { db in try Device(id: UUID(), name: "x").update(db) }) { error in
            guard case .recordNotFound(let table, _)? = error as? RecordError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(table, "device")
        }
        try queue.write { db in
            XCTAssertTrue(try Device(id: b, name: "tablet").delete(db))
            XCTAssertFalse(try Device.delete(db, id: b))
            XCTAssertTrue(try Device.delete(db, id: a))
            XCTAssertEqual(try Device.count(db), 0)
        }
    }

    func testAUUIDKeyFindsItsRowInEveryStoredForm() throws {
        let queue = try makeQueue()
        let upper = UUID()
        let blob = UUID()
        try queue.write { db in
            try db.execute(sql: "INSERT INTO device VALUES (?, 'upper')", arguments: [upper.uuidString])
            let bytes = withUnsafeBytes(of: blob.uuid) { Data($0) }
            try db.execute(sql: "INSERT INTO device VALUES (?, 'blob')", arguments: [bytes])
        }
        try queue.write { db in
            XCTAssertEqual(try Device.fetchOne(db, id: upper)?.name, "upper")
            XCTAssertEqual(try Device.fetchOne(db, id: blob)?.name, "blob")
            XCTAssertEqual(try Device.fetch(db, ids: [upper, blob]).count, 2)
            // save() finds the row another tool wrote, and updates it rather than adding a second one.
            var renamed = Device(id: upper, name: "renamed")
            try renamed.save(db)
            XCTAssertEqual(try Device.count(db), 2)
            XCTAssertEqual(
                try db.scalar(
                    String.self, sql: "SELECT name FROM device WHERE id = ?",
                    arguments: [
                        upper.uuidString
                    ]), "renamed")
            XCTAssertTrue(try Device.delete(db, id: blob))
            XCTAssertEqual(try Device.count(db), 1)
        }
    }

    func testAUUIDInEveryFormTheDecoderReadsIsFoundUpdatedAndDeletedByItsKey() throws {
        let queue = try makeQueue()
        let braces = UUID()
        let compact = UUID()
        try queue.write { db in
            try db.execute(sql: "INSERT INTO device VALUES (?, 'braces')", arguments: ["{\(braces.uuidString)}"])
            try db.execute(
                sql: "INSERT INTO device VALUES (?, 'compact')",
                arguments: [compact.uuidString.lowercased().replacingOccurrences(of: "-", with: "")])
        }
        try queue.write { db in
            var fetched = try Device.fetch(db, orderBy: [.ascending("name")])
            XCTAssertEqual(fetched.map(\.id), [braces, compact])
            XCTAssertEqual(try Device.fetchOne(db, id: braces)?.name, "braces")
            XCTAssertEqual(try Device.fetchOne(db, id: compact)?.name, "compact")
            // Fetched, changed, saved: the row another tool wrote is updated, never doubled.
            fetched[0].name = "renamed"
            try fetched[0].save(db)
            XCTAssertEqual(try db.fetchAll(String.self, sql: "SELECT name FROM device ORDER BY name"), [
                "compact", "renamed",
            ])
            XCTAssertTrue(try Device.delete(db, id: compact))
            XCTAssertEqual(try Device.count(db), 1)
        }
    }

    func testARowStoredInTwoFormsIsTouchedOnceByKey() throws {
        let queue = try makeQueue()
        let id = UUID()
        try queue.write { db in
            try db.execute(sql: "INSERT INTO device VALUES (?, 'lower')", arguments: [id.uuidString.lowercased()])
            try db.execute(sql: "INSERT INTO device VALUES (?, 'upper')", arguments: [id.uuidString])
            var device = Device(id: id, name: "saved")
            try device.save(db)  // the written form, lowercase: that row only
            XCTAssertEqual(try db.fetchAll(String.self, sql: "SELECT name FROM device ORDER BY name"), [
                "saved", "upper",
            ])
            XCTAssertTrue(try Device.delete(db, id: id))
            XCTAssertEqual(try db.fetchAll(String.self, sql: "SELECT name FROM device"), ["upper"])
        }
    }

    func testAKeyGivenTwiceReturnsItsRecordOnceWhateverTheListSize() throws {
        let queue = try makeQueue()
        try queue.write { db in
            var station = Station(id: 1, name: "one")
            try station.insert(db)
        }
        // More keys than one statement binds (32,766): the two 1s land in different statements.
        let ids = [1] + Array(100..<40_100) + [1]
        let found = try queue.read { db in try Station.fetch(db, ids: ids) }
        XCTAssertEqual(found.map(\.id), [1])
        XCTAssertEqual(try queue.read { db in try Station.fetch(db, ids: [1, 1]) }.map(\.id), [1])
    }

    func testAnUpsertThatATriggerIgnoresThrows() throws {
        let queue = try makeQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER currency_frozen BEFORE INSERT ON currency WHEN NEW.name = 'ignored'
                    BEGIN SELECT RAISE(IGNORE); END
                    """)
        }
        try queue.write { db in
            var euro = Currency(id: "EUR", name: "Euro")
            try euro.save(db)
            euro.name = "ignored"
            XCTAssertThrowsError(try euro.save(db)) { error in
                XCTAssertEqual(error as? RecordError, .rowNotUpdated(table: "currency", id: "'EUR'"))
            }
            var yen = Currency(id: "JPY", name: "ignored")
            XCTAssertThrowsError(try yen.save(db)) { error in
                XCTAssertEqual(error as? RecordError, .rowNotInserted(table: "currency"))
            }
            XCTAssertEqual(try db.fetchAll(String.self, sql: "SELECT code || ':' || name FROM currency"), ["EUR:Euro"])
        }
    }

    func testCodingKeysThatDifferOnlyInCaseAreRefusedBeforeWriting() throws {
        struct Twin: Record {
            var id: Int64?
            var name: String
            var Name: String
            static let tableName = "twin"
        }
        let db = try Database()
        try db.execute(sql: "CREATE TABLE twin (id INTEGER PRIMARY KEY, name TEXT)")
        var twin = Twin(id: nil, name: "a", Name: "B")
        XCTAssertThrowsError(try twin.save(db)) { error in
            XCTAssertTrue("\(error)".contains("Coding keys \"name\" and \"Name\" of Twin name one column"), "\(error)")
        }
        XCTAssertNil(twin.id)
        XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM twin"), 0)
    }

    func testValidateSchemaReportsAKeyTheRowIDCannotHold() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE device (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        XCTAssertThrowsError(try Device.validateSchema(in: db)) { error in
            XCTAssertEqual(
                (error as? SchemaValidationError)?.mismatches,
                [
                    .incompatibleColumn(
                        "id", declaredType: "INTEGER PRIMARY KEY", valueType: "UUID",
                        reason: "an INTEGER PRIMARY KEY column is the table's rowid, which holds only integers")
                ])
        }
    }

    func testAListOfKeysLongerThanSQLitesLimit() throws {
        let queue = try makeQueue()
        let ids = (0..<40_000).map { _ in UUID() }
        try queue.write { db in
            for (index, id) in ids.enumerated() where index % 1000 == 0 {
                var device = Device(id: id, name: "d\(index)")
                try device.insert(db)
            }
        }
        // 40,000 keys of 3 stored forms each: 120,000 values, more than one statement binds.
        let found = try queue.read { db in try Device.fetch(db, ids: ids) }
        XCTAssertEqual(found.count, 40)
        XCTAssertEqual(Set(found.map(\.id)), Set(ids.enumerated().filter { $0.offset % 1000 == 0 }.map(\.element)))
    }

    func testAsyncTwinsTakeTheKeyInItsOwnType() async throws {
        let queue = try makeQueue()
        try RecordStore.use(queue)
        let id = UUID()
        var device = Device(id: id, name: "watch")
        try await device.save()
        let fetched = try await Device.fetchOne(id: id)
        XCTAssertEqual(fetched?.name, "watch")
        let exists = try await Device.exists(id: id)
        XCTAssertTrue(exists)
        let many = try await Device.fetch(ids: [id])
        XCTAssertEqual(many.map(\.name), ["watch"])
        let deleted = try await Device.delete(id: id)
        XCTAssertTrue(deleted)
        let after = try await Device.fetchOne(id: id)
        XCTAssertNil(after)
    }

    func testParentsWithUUIDKeysSaveTheirChildren() throws {
        struct Owner: Record {
            var id: UUID
            var name: String
            static let tableName = "owner"
        }
        struct Pet: Record {
            var id: UUID
            var ownerId: UUID?
            var name: String
            static let tableName = "pet"
            mutating func bind(to parent: any Record) {
                if let owner = parent as? Owner { ownerId = owner.id }
            }
        }
        let queue = try DatabaseQueue()
        try queue.write { db in
            try Owner.createTable(in: db)
            try db.execute(
                sql: """
                    CREATE TABLE pet (id TEXT NOT NULL PRIMARY KEY, ownerId TEXT REFERENCES owner(id), name TEXT NOT NULL)
                    """)
        }
        var ann = Owner(id: UUID(), name: "Ann")
        var pets = [Pet(id: UUID(), ownerId: nil, name: "Rex"), Pet(id: UUID(), ownerId: nil, name: "Tom")]
        try queue.write { db in try ann.save(db, children: &pets) }
        XCTAssertEqual(pets.map(\.ownerId), [ann.id, ann.id])
        let stored = try queue.read { db in
            try Pet.fetch(db, where: ["ownerId": ann.id.uuidString.lowercased()], orderBy: [.ascending("name")])
        }
        XCTAssertEqual(stored.map(\.name), ["Rex", "Tom"])
        try queue.write { db in
            XCTAssertTrue(try ann.delete(db, with: pets))
            XCTAssertEqual(try Pet.count(db), 0)
        }
    }

    // MARK: - String, Int, enum

    func testStringKeysInARenamedColumn() throws {
        let queue = try makeQueue()
        try queue.write { db in
            var euro = Currency(id: "EUR", name: "Euro")
            try euro.save(db)
            euro.name = "euro"
            try euro.save(db)
            var yen = Currency(id: "JPY", name: "Yen")
            try yen.insert(db)
            XCTAssertThrowsError(try yen.insert(db)) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .constraintPrimaryKey)
            }
        }
        try queue.read { db in
            XCTAssertEqual(try Currency.fetchOne(db, id: "EUR"), Currency(id: "EUR", name: "euro"))
            XCTAssertEqual(try Currency.fetch(db, ids: ["JPY", "EUR", "USD"]).map(\.id).sorted(), ["EUR", "JPY"])
        }
        XCTAssertThrowsError(try queue.write { db in try Currency(id: "USD", name: "Dollar").update(db) }) { error in
            XCTAssertEqual(error as? RecordError, .recordNotFound(table: "currency", id: "'USD'"))
        }
    }

    func testIntKeysTheClientSets() throws {
        let queue = try makeQueue()
        try queue.write { db in
            var shinjuku = Station(id: 1_130_208, name: "Shinjuku")
            try shinjuku.save(db)
            shinjuku.name = "Shinjuku Station"
            try shinjuku.save(db)
            XCTAssertEqual(
                try db.fetchAll(String.self, sql: "SELECT rowid || ':' || name FROM station"),
                [
                    "1130208:Shinjuku Station"
                ])
            XCTAssertTrue(try Station.exists(db, id: 1_130_208))
            XCTAssertTrue(try shinjuku.delete(db))
        }
    }

    func testEnumRawValueKeys() throws {
        let queue = try makeQueue()
        try queue.write { db in
            var earth = Orbit(id: .earth, days: 365.25)
            try earth.save(db)
            var venus = Orbit(id: .venus, days: 224.7)
            try venus.save(db)
            earth.days = 365.256
            try earth.save(db)
            XCTAssertEqual(try db.fetchAll(String.self, sql: "SELECT id FROM orbit ORDER BY days"), ["venus", "earth"])
            XCTAssertEqual(try Orbit.fetchOne(db, id: .earth)?.days, 365.256)
            XCTAssertEqual(try Orbit.fetch(db, ids: [.mercury, .venus]).map(\.id), [.venus])
            XCTAssertTrue(try Orbit.delete(db, id: .venus))
            XCTAssertFalse(try Orbit.exists(db, id: .venus))
        }
    }

    // MARK: - Composite keys, WITHOUT ROWID

    func testACompositeKeyInAWithoutRowIDTableWhoseCodeHoldsTextAndIntegers() throws {
        let queue = try makeQueue()
        try queue.read { db in
            XCTAssertEqual(try Unit.fetchOne(db, id: UnitKey(authName: "EPSG", code: "9001"))?.name, "metre")
            XCTAssertEqual(try Unit.fetchOne(db, id: UnitKey(authName: "PROJ", code: "DM"))?.name, "decimetre")
            XCTAssertNil(try Unit.fetchOne(db, id: UnitKey(authName: "PROJ", code: "9001")))
            XCTAssertEqual(
                try Unit.fetch(
                    db,
                    ids: [
                        UnitKey(authName: "EPSG", code: "9001"), UnitKey(authName: "PROJ", code: "DM"),
                        UnitKey(authName: "EPSG", code: "1"),
                    ]
                ).map(\.name).sorted(), ["decimetre", "metre"])
        }
        try queue.write { db in
            var metre = try Unit.fetchOne(db, id: UnitKey(authName: "EPSG", code: "9001"))
            metre?.name = "meter"
            try metre?.save(db)  // an upsert on (auth_name, code): updates the INTEGER 9001 row
            var foot = Unit(authName: "EPSG", code: "9002", name: "foot")
            try foot.save(db)
            XCTAssertEqual(
                try db.fetchAll(
                    String.self, sql: "SELECT auth_name || ':' || code || ':' || typeof(code) || ':' || name FROM unit"),
                ["EPSG:9001:integer:meter", "EPSG:9002:integer:foot", "PROJ:DM:text:decimetre"])
            XCTAssertTrue(try Unit.delete(db, id: UnitKey(authName: "PROJ", code: "DM")))
            XCTAssertTrue(try foot.delete(db))
            XCTAssertEqual(try Unit.count(db), 1)
        }
        XCTAssertThrowsError(
            try queue.write { db in try Unit(authName: "X", code: "1", name: "none").update(db) }
        ) { error in
            XCTAssertEqual(error as? RecordError, .recordNotFound(table: "unit", id: "auth_name = 'X', code = '1'"))
        }
    }

    func testCreateTableWritesTheKeyTheTypeAsksFor() throws {
        XCTAssertEqual(
            try Unit.createTableSQL(),
            "CREATE TABLE \"unit\" (\"auth_name\" TEXT NOT NULL, \"code\" TEXT NOT NULL, \"name\" TEXT NOT NULL, "
                + "PRIMARY KEY (\"auth_name\", \"code\")) WITHOUT ROWID")
        XCTAssertEqual(
            try Device.createTableSQL(),
            "CREATE TABLE \"device\" (\"id\" TEXT NOT NULL PRIMARY KEY, \"name\" TEXT NOT NULL)")
        XCTAssertEqual(
            try Currency.createTableSQL(),
            "CREATE TABLE \"currency\" (\"code\" TEXT NOT NULL PRIMARY KEY, \"name\" TEXT NOT NULL)")
        let db = try Database()
        try Unit.createTable(in: db)
        try Device.createTable(in: db)
        try Unit.validateSchema(in: db)
        try Device.validateSchema(in: db)
        var unit = Unit(authName: "EPSG", code: "9001", name: "metre")
        try unit.save(db)
        XCTAssertEqual(try Unit.fetchOne(db, id: unit.id), unit)
    }

    func testValidateSchemaReportsAKeyThatIsNotTheTables() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE device (id TEXT, name TEXT NOT NULL)")
        XCTAssertThrowsError(try Device.validateSchema(in: db)) { error in
            XCTAssertEqual(
                (error as? SchemaValidationError)?.mismatches, [.primaryKey(["id"], tablePrimaryKey: [])])
        }
    }

    // MARK: - Bad input

    func testAKeyColumnThatIsNotUniqueIsAnErrorBeforeAnythingIsWritten() throws {
        let db = try Database()
        try db.execute(
            sql: "CREATE TABLE device (id TEXT, name TEXT NOT NULL); INSERT INTO device VALUES ('a', 'x'), ('a', 'y')")
        let id = UUID()
        for call in [
            {
                var device = Device(id: id, name: "z")
                try device.save(db)
            },
            { try Device(id: id, name: "z").update(db) },
            { _ = try Device(id: id, name: "z").delete(db) },
            { _ = try Device.fetchOne(db, id: id) },
        ] as [() throws -> Void] {
            XCTAssertThrowsError(try call()) { error in
                XCTAssertEqual(error as? RecordError, .keyNotUnique(table: "device", columns: ["id"]))
            }
        }
        XCTAssertEqual(try db.fetchAll(String.self, sql: "SELECT name FROM device ORDER BY name"), ["x", "y"])
    }

    func testANilKeyWhereTheClientMustSetOneIsRefused() throws {
        struct Tag: Record {
            var id: UUID?
            var name: String
            static let tableName = "tag"
        }
        let db = try Database()
        try db.execute(sql: "CREATE TABLE tag (id TEXT PRIMARY KEY, name TEXT)")
        var tag = Tag(id: nil, name: "x")
        XCTAssertThrowsError(try tag.save(db)) { error in
            XCTAssertEqual(error as? RecordError, .missingKey(table: "tag", column: "id"))
        }
        XCTAssertThrowsError(try tag.insert(db)) { error in
            XCTAssertEqual(error as? RecordError, .missingKey(table: "tag", column: "id"))
        }
        XCTAssertEqual(try db.scalar(Int.self, sql: "SELECT count(*) FROM tag"), 0)
        // With a key, an Optional UUID is a UUID key.
        tag.id = UUID()
        try tag.save(db)
        XCTAssertEqual(try Tag.fetchOne(db, id: tag.id)?.name, "x")
    }

    func testAKeyColumnTheTableLacksNamesTheTableAndColumn() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE currency (iso TEXT PRIMARY KEY, name TEXT)")
        XCTAssertThrowsError(try Currency.fetchOne(db, id: "EUR")) { error in
            XCTAssertEqual(
                error as? RecordError, .unknownColumn(table: "currency", column: "code", columns: ["iso", "name"]))
        }
    }

    // MARK: - Rowid records keep their rules

    func testRowIDRecordsTakeOptionalKeysAndAreIdentifiable() throws {
        struct Country: Record, Equatable {
            var id: Int64?
            var name: String
            static let tableName = "country"
        }
        func identities<T: Identifiable>(_ values: [T]) -> [T.ID] { values.map(\.id) }
        let db = try Database()
        try Country.createTable(in: db)
        var france = Country(id: nil, name: "France")
        try france.save(db)
        XCTAssertEqual(france.id, 1)
        XCTAssertEqual(try Country.fetchOne(db, id: france.id)?.name, "France")
        XCTAssertNil(try Country.fetchOne(db, id: nil))
        XCTAssertFalse(try Country.exists(db, id: nil))
        XCTAssertEqual(identities(try Country.fetch(db)), [1])
        XCTAssertEqual(
            identities([Device(id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID(), name: "")]).map(
                \.uuidString), ["E621E1F8-C36C-495A-93FC-0C247A3E6E5F"])
        XCTAssertEqual(try Country.fetch(db, ids: [1, 2, nil]).map(\.name), ["France"])
    }
}
