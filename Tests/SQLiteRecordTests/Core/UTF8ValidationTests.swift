import Foundation
import XCTest

@testable import SQLiteRecord

final class UTF8ValidationTests: XCTestCase {
    private func isValid(_ bytes: [UInt8]) -> Bool {
        ByteView.withBytes(of: bytes) { $0.isValidUTF8 }
    }

    func testEdgeCases() {
        XCTAssertTrue(isValid([]))
        XCTAssertTrue(isValid(Array("a é 東京 👩‍👩‍👧".utf8)))
        XCTAssertTrue(isValid([0xF4, 0x8F, 0xBF, 0xBF]), "U+10FFFF")
        XCTAssertFalse(isValid([0xF4, 0x90, 0x80, 0x80]), "above U+10FFFF")
        XCTAssertFalse(isValid([0xC0, 0xAF]), "overlong /")
        XCTAssertFalse(isValid([0xE0, 0x80, 0xAF]), "overlong")
        XCTAssertFalse(isValid([0xED, 0xA0, 0x80]), "surrogate U+D800")
        XCTAssertFalse(isValid([0x61, 0xFF, 0x62]))
        XCTAssertFalse(isValid([0xE6, 0x9D]), "truncated")
        XCTAssertFalse(isValid([0x80]), "lone continuation")
    }

    /// The ASCII check reads words of 8, 4, 2 and 1 bytes by length: a lone continuation byte, invalid
    /// anywhere, must be found at every offset of every length, and a valid two-byte character too.
    func testFindsANonASCIIByteAtEveryOffset() {
        for count in 1...40 {
            for offset in 0..<count {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: count)
                bytes[offset] = 0x80
                XCTAssertFalse(isValid(bytes), "0x80 at \(offset) of \(count)")
                if offset + 1 < count {
                    bytes[offset] = 0xC3
                    bytes[offset + 1] = 0xA9
                    XCTAssertTrue(isValid(bytes), "é at \(offset) of \(count)")
                }
            }
            XCTAssertTrue(isValid([UInt8](repeating: UInt8(ascii: "a"), count: count)), "ASCII of \(count)")
        }
    }

    func testAgreesWithTheStandardLibraryOnRandomBytes() throws {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) else {
            throw XCTSkip("String(validating:as:) needs macOS 15 / iOS 18")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...24, using: &generator)
            // Bias toward bytes that start or continue multi-byte sequences.
            let bytes = (0..<count).map { _ in
                [
                    UInt8.random(in: 0x80...0xBF, using: &generator), UInt8.random(in: 0xC0...0xFF, using: &generator),
                    UInt8.random(in: 0...0x7F, using: &generator),
                ].randomElement(using: &generator) ?? 0
            }
            let expected = String(validating: bytes, as: UTF8.self) != nil
            XCTAssertEqual(isValid(bytes), expected, "\(bytes)")
        }
    }
}
