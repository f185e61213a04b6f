import Foundation
import XCTest

/// The privacy manifest ships as a resource of the SQLiteRecord target, copied beside the build's products, and
/// says what App Store Connect is to read: no tracking, no data collected, file metadata for reason C617.1.
final class PrivacyManifestTests: XCTestCase {
    func testTheManifestIsCopiedAsAResourceAndDeclaresOnlyFileMetadata() throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let products = binary.pathExtension == "xctest" ? binary.deletingLastPathComponent() : binary
        let candidates = [
            "SQLiteRecord_SQLiteRecord.resources/PrivacyInfo.xcprivacy",
            "SQLiteRecord_SQLiteRecord.bundle/Contents/Resources/PrivacyInfo.xcprivacy",
            "SQLiteRecord_SQLiteRecord.bundle/PrivacyInfo.xcprivacy",
        ].map { products.appendingPathComponent($0) }
        guard let manifest = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw XCTSkip("no SQLiteRecord resource bundle beside the test binary (\(products.path))")
        }
        let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: manifest), format: nil)
        let root = try XCTUnwrap(plist as? [String: Any])
        XCTAssertEqual(root["NSPrivacyTracking"] as? Bool, false)
        XCTAssertEqual((root["NSPrivacyTrackingDomains"] as? [Any])?.count, 0)
        XCTAssertEqual((root["NSPrivacyCollectedDataTypes"] as? [Any])?.count, 0)
        let types = try XCTUnwrap(root["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        XCTAssertEqual(
            types.map { $0["NSPrivacyAccessedAPIType"] as? String }, ["NSPrivacyAccessedAPICategoryFileTimestamp"])
        XCTAssertEqual(types.first?["NSPrivacyAccessedAPITypeReasons"] as? [String], ["C617.1"])
    }
}
