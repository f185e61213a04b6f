import Foundation
import SQLiteRecord
import XCTest

/// The writes that read back what the database set: the record holds the row as written, on every engine.
final class ReadBackContractTests: RecordContractTestCase {
    func testInsertAndFetchTakesTheIdAndWhatATriggerSet() {
        onEachEngine { engine in
            try Ticket.makeTable(in: engine)
            var ticket = Ticket(id: nil, title: "dune", code: nil)
            try engine.write { db in try ticket.insertAndFetch(db) }
            XCTAssertEqual(ticket, Ticket(id: 1, title: "dune", code: "DUNE"))
        }
    }

    func testUpdateAndFetchTakesTheNamedColumnsOnly() {
        onEachEngine { engine in
            try Ticket.makeTable(in: engine)
            var ticket = Ticket(id: nil, title: "dune", code: nil)
            try engine.write { db in try ticket.insertAndFetch(db) }
            ticket.title = "emma"
            try engine.write { db in try ticket.updateAndFetch(db, columns: ["code"]) }
            XCTAssertEqual(ticket, Ticket(id: 1, title: "emma", code: "EMMA"))
            XCTAssertEqual(try engine.text("SELECT code FROM tickets WHERE id = 1"), "EMMA")
        }
    }

    func testUpsertAndFetchByAnotherUniqueColumnTakesTheRowItFound() {
        onEachEngine { engine in
            try Ticket.makeTable(in: engine)
            var first = Ticket(id: nil, title: "dune", code: nil)
            try engine.write { db in try first.insertAndFetch(db) }
            var again = Ticket(id: nil, title: "dune", code: nil, votes: 5)
            let outcome = try engine.write { db in
                try again.upsertAndFetch(db, onConflict: ["title"], updating: ["votes"])
            }
            XCTAssertEqual(outcome, .updated)
            XCTAssertEqual(again, Ticket(id: 1, title: "dune", code: "DUNE", votes: 5))
        }
    }

    func testAnUnknownColumnIsRefusedBeforeAnythingIsWritten() {
        onEachEngine { engine in
            try Ticket.makeTable(in: engine)
            var ticket = Ticket(id: nil, title: "dune", code: nil)
            let thrown = error { try engine.write { db in try ticket.insertAndFetch(db, columns: ["nope"]) } }
            guard case .unknownColumn(let table, let column, _)? = thrown as? RecordError else {
                return XCTFail("expected unknownColumn, got \(String(describing: thrown))")
            }
            XCTAssertEqual(table, "tickets")
            XCTAssertEqual(column, "nope")
            XCTAssertEqual(ticket.id, nil)
            XCTAssertEqual(try engine.integer("SELECT count(*) FROM tickets"), 0)
        }
    }

    func testReadBackThroughTheWriter() async {
        await onEachEngine { engine in
            try Ticket.makeTable(in: engine)
            var ticket = Ticket(id: nil, title: "dune", code: nil)
            try await ticket.insertAndFetch(engine.writer)
            XCTAssertEqual(ticket, Ticket(id: 1, title: "dune", code: "DUNE"))
            ticket.title = "emma"
            try await ticket.updateAndFetch(engine.writer)
            XCTAssertEqual(ticket.code, "EMMA")
            var other = Ticket(id: nil, title: "ulysses", code: nil)
            let outcome = try await other.upsertAndFetch(engine.writer)
            XCTAssertEqual(outcome, .inserted)
            XCTAssertEqual(other.code, "ULYSSES")
        }
    }
}
