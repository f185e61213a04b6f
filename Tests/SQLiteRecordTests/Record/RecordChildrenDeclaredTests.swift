import Foundation
import SQLiteRecord
import XCTest

/// A city that declares its country and writes no bind(to:).
private struct Town: Record, Equatable {
    var id: Int64?
    var countryId: Int64?
    var name: String?
    var population: Int
    static let tableName = "cities"
    static let country = belongsTo(Country.self)
    static let parentAssociations: [any ParentAssociation] = [country]
    enum CodingKeys: String, CodingKey {
        case id, name, population
        case countryId = "country_id"
    }
}

/// A city that declares its country and also writes a bind(to:) of its own, which moves "Okinawa" to the
/// country with id 1 whatever its parent.
private struct MovedTown: Record, Equatable {
    var id: Int64?
    var countryId: Int64?
    var name: String
    var population: Int
    static let tableName = "cities"
    static let parentAssociations: [any ParentAssociation] = [belongsTo(Country.self)]
    enum CodingKeys: String, CodingKey {
        case id, name, population
        case countryId = "country_id"
    }
    mutating func bind(to parent: any Record) {
        if name == "Okinawa" { countryId = 1 }
    }
}

/// A flight between two countries: two declarations to the same parent type.
private struct Flight: Record, Equatable {
    var id: Int64?
    var originId: Int64?
    var destinationId: Int64?
    var code: String
    static let tableName = "flights"
    static let parentAssociations: [any ParentAssociation] = [
        belongsTo(Country.self, key: "origin", using: "origin_id"),
        belongsTo(Country.self, key: "destination", using: "destination_id"),
    ]
    enum CodingKeys: String, CodingKey {
        case id, code
        case originId = "origin_id"
        case destinationId = "destination_id"
    }
}

/// A team keyed by a UUID the app makes, and its players.
private struct Team: Record, Equatable {
    var id: UUID
    var name: String
    static let tableName = "teams"
}

private struct Player: Record, Equatable {
    var id: Int64?
    var teamId: UUID?
    var name: String
    static let tableName = "players"
    static let parentAssociations: [any ParentAssociation] = [belongsTo(Team.self)]
    enum CodingKeys: String, CodingKey {
        case id, name
        case teamId = "team_id"
    }
}

/// Parent-child saves whose foreign key comes from the child type's declared association, not a bind(to:).
final class RecordChildrenDeclaredTests: XCTestCase {
    private var db: Database!

    override func setUpWithError() throws {
        db = try WorldFixtures.makeDatabase()
        try db.execute(
            sql: """
                CREATE TABLE flights (
                    id INTEGER PRIMARY KEY,
                    origin_id INTEGER REFERENCES countries(id),
                    destination_id INTEGER REFERENCES countries(id),
                    code TEXT NOT NULL);
                CREATE TABLE teams (id TEXT PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE players (
                    id INTEGER PRIMARY KEY, team_id TEXT NOT NULL REFERENCES teams(id), name TEXT NOT NULL);
                """)
    }

    func testChildrenGetTheParentsNewIDFromTheDeclaration() throws {
        var japan = Country(id: nil, name: "Japan", iso: "JP", population: 1)
        try japan.save(db)
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        var towns = [
            Town(id: nil, countryId: nil, name: "Paris", population: 2_138_551),
            Town(id: nil, countryId: 999, name: "Lyon", population: 522_969),
        ]
        try france.save(db, children: &towns)
        XCTAssertEqual(france.id, 2)
        XCTAssertEqual(towns.map(\.countryId), [2, 2])
        XCTAssertEqual(towns.map(\.id), [1, 2])
        XCTAssertEqual(try Town.fetch(db, where: ["country_id": 2], orderBy: [.ascending("id")]), towns)
    }

    func testAKeyOfAnotherKindReachesTheChildAsItsOwnType() throws {
        let id = try XCTUnwrap(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        var team = Team(id: id, name: "Lions")
        var players = [Player(id: nil, teamId: nil, name: "Ada"), Player(id: nil, teamId: nil, name: "Grace")]
        try team.save(db, children: &players)
        XCTAssertEqual(players.map(\.teamId), [id, id])
        let stored = try db.makeStatement(sql: "SELECT DISTINCT team_id FROM players")
        _ = try stored.step()
        XCTAssertEqual(stored.value(at: 0), .text("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"))
        XCTAssertEqual(try Player.fetch(db, orderBy: [.ascending("id")]), players)
    }

    func testAnEagerLoadGroupsChildrenByATextKeyInAnyOrder() throws {
        struct TeamWithPlayers: Decodable {
            var team: Team
            var players: [Player]
        }
        let lionsID = try XCTUnwrap(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let bearsID = try XCTUnwrap(UUID(uuidString: "0C247A3E-C36C-495A-93FC-E621E1F86E5F"))
        var lions = Team(id: lionsID, name: "Lions")
        var bears = Team(id: bearsID, name: "Bears")
        var lionPlayers = ["Ada", "Cy", "Eve"].map { Player(id: nil, teamId: nil, name: $0) }
        var bearPlayers = ["Bo", "Di"].map { Player(id: nil, teamId: nil, name: $0) }
        try lions.save(db, children: &lionPlayers)
        try bears.save(db, children: &bearPlayers)
        // By name, the players alternate between the teams: each team's run of children comes back.
        let teams = try Team.order(Column("name").ascending)
            .including(all: Team.hasMany(Player.self).order(Column("name").ascending))
            .fetch(db, as: TeamWithPlayers.self)
        XCTAssertEqual(teams.map(\.team.name), ["Bears", "Lions"])
        XCTAssertEqual(teams.map { $0.players.map(\.name) }, [["Bo", "Di"], ["Ada", "Cy", "Eve"]])
    }

    func testAFailingChildRestoresEveryRecordAndRow() throws {
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        // The second town has no name: its insert breaks NOT NULL after its foreign key was set.
        let before = [
            Town(id: nil, countryId: nil, name: "Paris", population: 2_138_551),
            Town(id: nil, countryId: nil, name: nil, population: 1),
        ]
        var towns = before
        XCTAssertThrowsError(try france.save(db, children: &towns)) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .constraintNotNull)
        }
        XCTAssertNil(france.id)
        XCTAssertEqual(towns, before)
        XCTAssertEqual(try WorldFixtures.rowCount(db, "countries"), 0)
        XCTAssertEqual(try WorldFixtures.rowCount(db, "cities"), 0)
    }

    func testATypesOwnBindHasTheLastWord() throws {
        var japan = Country(id: nil, name: "Japan", iso: "JP", population: 1)
        try japan.save(db)
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        var towns = [
            MovedTown(id: nil, countryId: nil, name: "Paris", population: 2_138_551),
            MovedTown(id: nil, countryId: nil, name: "Okinawa", population: 1_467_480),
        ]
        try france.save(db, children: &towns)
        XCTAssertEqual(towns.map(\.countryId), [2, 1])
        XCTAssertEqual(try MovedTown.fetch(db, orderBy: [.ascending("id")]).map(\.countryId), [2, 1])
    }

    func testTwoDeclarationsToTheParentTypeAreAnErrorNamingBoth() throws {
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        var flights = [Flight(id: nil, originId: nil, destinationId: nil, code: "AF1")]
        XCTAssertThrowsError(try france.save(db, children: &flights)) { error in
            XCTAssertEqual(
                "\(error)",
                #"Association Flight.belongsTo(Country) "origin": "flights"."origin_id" -> "countries"."id" and "#
                    + #"Flight.belongsTo(Country) "destination": "flights"."destination_id" -> "countries"."id": "#
                    + "Flight lists 2 associations to Country in parentAssociations, so save(_:children:) cannot "
                    + "tell which foreign key to set: name one with save(_:children:for:)")
        }
        XCTAssertNil(france.id)
        XCTAssertEqual(try WorldFixtures.rowCount(db, "countries"), 0)
    }

    func testTheAssociationNamedInTheCallSetsItsForeignKey() throws {
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        var flights = [
            Flight(id: nil, originId: nil, destinationId: nil, code: "AF1"),
            Flight(id: nil, originId: nil, destinationId: nil, code: "AF2"),
        ]
        try france.save(db, children: &flights, for: Country.hasMany(Flight.self, using: "destination_id"))
        XCTAssertEqual(flights.map(\.destinationId), [1, 1])
        XCTAssertEqual(flights.map(\.originId), [nil, nil])
        XCTAssertEqual(try Flight.fetch(db, orderBy: [.ascending("id")]), flights)
    }

    func testAForeignKeyTheChildDoesNotEncodeIsAnErrorNamingIt() throws {
        var france = Country(id: nil, name: "France", iso: "FR", population: 66_000_000)
        var towns = [Town(id: nil, countryId: nil, name: "Paris", population: 2_138_551)]
        XCTAssertThrowsError(
            try france.save(db, children: &towns, for: Country.hasMany(Town.self, using: "nation_id"))
        ) { error in
            XCTAssertEqual(
                "\(error)",
                #"Association Country.hasMany(Town) "cities": "cities"."nation_id" -> "countries"."id": "#
                    + #"Town encodes no "nation_id" column; it encodes "id", "name", "population", "country_id" "#
                    + "(name the foreign key with `using:`)")
        }
        XCTAssertNil(france.id)
        XCTAssertEqual(towns.map(\.countryId), [nil])
    }
}
