// swift-tools-version:6.0
import PackageDescription

// The floor of the Codable path: what a synthesized `init(from:)` and the standard library's type-erased keyed
// container cost on this toolchain for the benchmark's city, over a decoder that does no work at all. Not part
// of the SQLiteRecord package; run it through Scripts/codable-floor.sh.
let package = Package(
    name: "CodableFloor",
    platforms: [.macOS(.v13), .iOS(.v16)],
    // For the benchmark's own BenchCity (Sources/CodableFloor/BenchCity.swift is a link to it), a Record.
    dependencies: [.package(name: "SQLiteRecord", path: "../..")],
    targets: [
        // A module of its own, as SQLiteRecord is to the benchmark: the record's init(from:) cannot be
        // specialized for the decoder, and the keyed container's box runs unspecialized, as it does there.
        .target(name: "ConstantDecoder"),
        .executableTarget(
            name: "CodableFloor",
            dependencies: ["ConstantDecoder", .product(name: "SQLiteRecord", package: "SQLiteRecord")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
