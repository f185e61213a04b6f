import Foundation
import SQLiteRecord
import XCTest

/// A parent for the schema tests.
private struct Owner: Record, Equatable {
    var id: Int64?
    var name: String
    static let tableName = "owners"
    static let pets = hasMany(Pet.self)
}

/// A child whose belongs-to association createTable writes as a foreign key.
private struct Pet: Record, Equatable {
    var id: Int64?
    var ownerId: Int64?
    var name: String
    static let tableName = "pets"
    static let owner = belongsTo(Owner.self, onDelete: .cascade)
    static let parentAssociations: [any ParentAssociation] = [owner]
    enum CodingKeys: String, CodingKey {
        case id, name
        case ownerId = "owner_id"
    }
}

/// A child whose declaration names a column it does not encode.
private struct Stray: Record {
    var id: Int64?
    var name: String
    static let tableName = "strays"
    static let parentAssociations: [any ParentAssociation] = [belongsTo(Owner.self)]
}

/// createTable writes REFERENCES and an index from the declaration; validateSchema reports a table that
/// contradicts it.
final class AssociationSchemaTests: XCTestCase {
    func testCreateTableWritesTheForeignKeyAndItsIndex() throws {
        XCTAssertEqual(
            try Pet.createTableSQL(),
            #"CREATE TABLE "pets" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "owner_id" INTEGER "#
                + #"REFERENCES "owners" ("id") ON DELETE CASCADE); CREATE INDEX "pets_owner_id" ON "pets" ("owner_id")"#
        )
        let db = try Database()
        try Owner.createTable(in: db)
        try Pet.createTable(in: db)
        XCTAssertEqual(try db.foreignKeys(in: "pets").map(\.onDelete), ["CASCADE"])
        XCTAssertEqual(try db.indexes(on: "pets").map(\.name), ["pets_owner_id"])
        try Pet.validateSchema(in: db)

        // ON DELETE CASCADE: deleting the parent deletes its children, as declared.
        var ann = Owner(id: nil, name: "Ann")
        var pets = [Pet(id: nil, ownerId: nil, name: "Rex")]
        try ann.save(db)
        pets[0].ownerId = ann.id
        try Pet.save(db, &pets)
        XCTAssertEqual(try ann.request(for: Owner.pets).fetch(db).map(\.name), ["Rex"])
        _ = try ann.delete(db)
        XCTAssertEqual(try Pet.all().count(db), 0)
    }

    func testAColumnTheTypeDoesNotEncodeIsNamed() {
        XCTAssertThrowsError(try Stray.createTableSQL()) { error in
            XCTAssertEqual(
                "\(error)",
                #"Association Stray.belongsTo(Owner) "owner": "strays"."owner_id" -> "owners"."id": "#
                    + #"Stray encodes no "owner_id" column; it encodes "id", "name" (name the foreign key with "#
                    + "`using:`)")
        }
    }

    func testValidateSchemaReportsAForeignKeyTheTableContradicts() throws {
        let db = try Database()
        try Owner.createTable(in: db)
        try db.execute(
            sql: """
                CREATE TABLE pets (id INTEGER PRIMARY KEY, owner_id INTEGER REFERENCES owners(id) ON DELETE SET NULL,
                    name TEXT NOT NULL)
                """)
        XCTAssertThrowsError(try Pet.validateSchema(in: db)) { error in
            XCTAssertEqual(
                (error as? SchemaValidationError)?.mismatches,
                [
                    .foreignKey(
                        "owner_id", declared: #"REFERENCES "owners"("id") ON DELETE CASCADE"#,
                        table: #"REFERENCES "owners"("id") ON DELETE SET NULL"#)
                ])
        }
        try db.execute(sql: "DROP TABLE pets; CREATE TABLE pets (id INTEGER PRIMARY KEY, owner_id INTEGER, name TEXT)")
        XCTAssertThrowsError(try Pet.validateSchema(in: db)) { error in
            XCTAssertEqual(
                (error as? SchemaValidationError)?.mismatches.map(\.description),
                [
                    #"column "owner_id" is declared REFERENCES "owners"("id") ON DELETE CASCADE but the table has no "#
                        + "foreign key on it"
                ])
        }
    }
}
