import Foundation
import XCTest

@testable import SQLiteRecord

/// A device as other tools store it: the token as lowercase text, uppercase text or 16 bytes.
private struct Device: Record, Equatable {
    var id: Int64?
    var token: UUID?
    static let tableName = "devices"
}

/// An equality filter on a UUID matches every form it is stored in.
final class FilterValueTests: XCTestCase {
    private let token = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()
    private var tokenBytes: Data { withUnsafeBytes(of: token.uuid) { Data($0) } }

    func testTheSQLOfEachForm() throws {
        XCTAssertEqual(FilterValue(.null).forms, [])
        XCTAssertEqual(FilterValue(.integer(3)).forms, [.integer(3)])
        XCTAssertEqual(
            FilterValue(token).forms,
            [
                .text("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"), .text("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
                .blob(tokenBytes),
            ])
        let db = try devicesDatabase()
        let query = try Device.request(where: ["token": token, "id": 1]).compiled(db, .select)
        XCTAssertEqual(query.sql, "SELECT * FROM \"devices\" WHERE \"id\" = ? AND \"token\" IN (?, ?, ?)")
        XCTAssertEqual(query.arguments.values.count, 4)
        XCTAssertEqual(
            try Device.request(where: ["token": nil]).compiled(db, .select).sql,
            "SELECT * FROM \"devices\" WHERE \"token\" IS NULL")
    }

    private func devicesDatabase() throws -> Database {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE devices (id INTEGER PRIMARY KEY, token)")
        let other = UUID(uuidString: "00000000-0000-0000-0000-000000000001") ?? UUID()
        let forms: [SQLiteValue] = [
            .text("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"), .text("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
            .blob(tokenBytes), .text(other.uuidString.lowercased()), .null,
        ]
        for (offset, form) in forms.enumerated() {
            try db.execute(sql: "INSERT INTO devices VALUES (?, ?)", arguments: [Int64(offset + 1), form])
        }
        return db
    }

    func testEveryDictionaryFilterMatchesEveryStoredForm() throws {
        let db = try devicesDatabase()
        XCTAssertEqual(
            try Device.fetch(db, where: ["token": token], orderBy: [.ascending("id")]),
            [Device(id: 1, token: token), Device(id: 2, token: token), Device(id: 3, token: token)])
        let optional: UUID? = token
        XCTAssertEqual(try Device.fetch(db, where: ["token": optional]).count, 3)
        XCTAssertEqual(try Device.fetchOne(db, where: ["token": token], orderBy: [.descending("id")])?.id, 3)
        XCTAssertEqual(try Device.count(db, where: ["token": token]), 3)
        XCTAssertEqual(try Device.count(db, where: ["token": nil]), 1)
        XCTAssertEqual(try Device.deleteAll(db, where: ["token": token]), 3)
        XCTAssertEqual(try Device.fetch(db).map(\.id), [4, 5])
    }

    func testAUUIDTheEncoderWroteIsFound() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE devices (id INTEGER PRIMARY KEY, token TEXT)")
        var device = Device(id: nil, token: token)
        try device.save(db)
        XCTAssertEqual(try Device.fetch(db, where: ["token": token]), [device])
    }
}
