import Foundation
import XCTest

/// SplitMix64: a small, fast, seedable generator, so that a failing run can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum ReliabilitySeed {
    /// The seed in the environment variable `name` (decimal or 0x-hex), or a fresh random one; printed
    /// either way, with the line that replays the run.
    static func make(_ name: String, suite: String) -> UInt64 {
        let environment = ProcessInfo.processInfo.environment[name]
        let seed =
            environment.flatMap { text in
                text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
            } ?? UInt64.random(in: .min ... .max)
        print("\(suite): seed \(seed) (replay with \(name)=\(seed))")
        return seed
    }
}

/// Where the crash writer's executable is: `SQLITE_RECORD_CRASH_WRITER` when set, else beside the test
/// bundle in the build products folder, where `swift build --build-tests` and `swift test` put it.
enum CrashWriterLocation {
    static let productName = "SQLiteRecordCrashWriter"

    static func find() throws -> URL {
        try TestSupportExecutable.find(productName, environmentVariable: "SQLITE_RECORD_CRASH_WRITER")
    }
}

/// Where a test-support executable of the package is: the path in `environmentVariable` when set, else
/// beside the test bundle in the build products folder, where `swift build --build-tests` and `swift test`
/// put it.
enum TestSupportExecutable {
    static func find(_ productName: String, environmentVariable: String) throws -> URL {
        if let path = ProcessInfo.processInfo.environment[environmentVariable] {
            return URL(fileURLWithPath: path)
        }
        var folders: [URL] = []
        // Linux: the test bundle is an executable, `<products>/SQLiteRecordPackageTests.xctest`; Apple
        // platforms: a bundle in `<products>`, loaded by xctest.
        for bundle in [Bundle.main, Bundle(for: BundleMarker.self)] {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
            if let executable = bundle.executableURL { folders.append(executable.deletingLastPathComponent()) }
        }
        for folder in folders {
            let candidate = folder.appendingPathComponent(productName)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        let searched = folders.map(\.path).joined(separator: ", ")
        struct NotFound: Error, CustomStringConvertible { let description: String }
        throw NotFound(
            description: "the test-support executable \(productName) was not found in \(searched); build it "
                + "with `swift build --build-tests` (which `swift test` does), or set \(environmentVariable) "
                + "to its path")
    }

    private final class BundleMarker {}
}
