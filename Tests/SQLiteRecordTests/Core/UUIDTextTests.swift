import Foundation
import XCTest

@testable import SQLiteRecord

/// UUID text printed and parsed by hand agrees with Foundation, in every form the decoder reads, and refuses
/// what is not a UUID.
final class UUIDTextTests: XCTestCase {
    private let uuid = UUID(
        uuid: (0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F))

    func testTheLowercaseFormIsRFC9562Text() {
        XCTAssertEqual(UUIDText.lowercase(uuid), "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
        XCTAssertEqual(
            UUIDText.withLowercaseUTF8(uuid) { $0.string }, UUIDText.lowercase(uuid))
        XCTAssertEqual(UUID.lowercaseTextForTest(uuid), uuid.uuidString.lowercased())
    }

    func testItAgreesWithFoundationBothWaysForManyUUIDs() {
        for _ in 0..<500 {
            let random = UUID()
            XCTAssertEqual(UUIDText.lowercase(random), random.uuidString.lowercased())
            XCTAssertEqual(UUIDText.parse(random.uuidString), random)
            XCTAssertEqual(UUIDText.parse(UUIDText.lowercase(random)), random)
        }
    }

    func testEveryFormTheDecoderReadsParses() {
        for text in [
            "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
            "e621e1f8c36c495a93fc0c247a3e6e5f", "E621E1F8C36C495A93FC0C247A3E6E5F",
            "{e621e1f8-c36c-495a-93fc-0c247a3e6e5f}", "{E621E1F8C36C495A93FC0C247A3E6E5F}",
            "E621e1f8-C36c-495A-93fC-0c247A3e6E5f",
        ] {
            XCTAssertEqual(UUIDText.parse(text), uuid, text)
        }
    }

    func testWhatIsNotAUUIDIsNil() {
        for text in [
            "", "{}", "e621e1f8-c36c-495a-93fc-0c247a3e6e5", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f0",
            "e621e1f8c36c-495a-93fc-0c247a3e6e5f0", "e621e1f8-c36c-495a-93fc0c247a3e6e5f-",
            "g621e1f8-c36c-495a-93fc-0c247a3e6e5f", "e621e1f8 c36c 495a 93fc 0c247a3e6e5f",
            "{e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f}",
            "{{e621e1f8c36c495a93fc0c247a3e6e5f}}", "e621e1f8c36c495a93fc0c247a3e6e5-",
            "é621e1f8c36c495a93fc0c247a3e6e5", " e621e1f8-c36c-495a-93fc-0c247a3e6e5f",
        ] {
            XCTAssertNil(UUIDText.parse(text), text)
        }
    }
}

extension UUID {
    /// The TEXT a UUID binds as an argument, as a string.
    fileprivate static func lowercaseTextForTest(_ uuid: UUID) -> String? {
        if case .text(let text) = uuid.sqliteValue { return text }
        return nil
    }
}
