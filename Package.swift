// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "SQLiteRecord",
    // Apple platforms as GRDB declares them, at the releases of macOS 13 and iOS 16 (the first of visionOS).
    // The library calls no API these lack: the SDKs' sqlite3 has every function it uses, and Foundation and
    // Dispatch are the same; Linux-only paths are under `#if os(Linux)`.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "SQLiteRecord", targets: ["SQLiteRecord"]),
        // The same Record types on PostgreSQL over libpq; its code compiles only with the PostgreSQL trait.
        .library(name: "PostgresRecord", targets: ["PostgresRecord"]),
        .executable(name: "countries-cities", targets: ["CountriesCities"]),
        .executable(name: "notes", targets: ["Notes"]),
        .executable(name: "sqlite-record-bench", targets: ["SQLiteRecordBench"]),
        .executable(name: "sqlite-record-gen", targets: ["SQLiteRecordGenCommand"]),
    ],
    // PostgreSQL needs libpq's headers (Debian libpq-dev), so it is opt-in: `swift test --traits PostgreSQL`.
    // Without the trait the PostgresRecord targets compile to empty modules and nothing asks for libpq, so
    // `swift build` and `swift test` work on a machine that has none.
    traits: [
        .trait(name: "PostgreSQL", description: "Builds PostgresRecord over libpq (pkg-config libpq).")
    ],
    targets: [
        // The platform's own sqlite3: pkg-config on Linux and Homebrew, the SDK's on Apple platforms.
        .systemLibrary(
            name: "CSQLiteRecord",
            path: "Sources/CSQLiteRecord",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // The privacy manifest App Store Connect reads from each SDK in an app: no tracking, no data
        // collected, and one required-reason API category (file metadata, for a database file's size).
        .target(name: "SQLiteRecord", dependencies: ["CSQLiteRecord"], resources: [.copy("PrivacyInfo.xcprivacy")]),
        // libpq, PostgreSQL's C client: pkg-config libpq (Debian libpq-dev, Homebrew libpq).
        .systemLibrary(
            name: "CPostgresRecord",
            path: "Sources/CPostgresRecord",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        .target(
            name: "PostgresRecord",
            dependencies: [
                "SQLiteRecord",
                .target(name: "CPostgresRecord", condition: .when(traits: ["PostgreSQL"])),
            ]
        ),
        // Record types from an existing database: the schema reading and type choices, which the tests call.
        // With the PostgreSQL trait it also reads a PostgreSQL schema (its PostgreSQL folder) through PostgresRecord.
        .target(
            name: "SQLiteRecordGen",
            dependencies: [
                "SQLiteRecord", .target(name: "PostgresRecord", condition: .when(traits: ["PostgreSQL"])),
            ]),
        // `sqlite-record-gen FILE [--tables a,b] [--output Models.swift]`: the command over SQLiteRecordGen.
        .executableTarget(name: "SQLiteRecordGenCommand", dependencies: ["SQLiteRecordGen"]),
        .executableTarget(
            name: "CountriesCities",
            // PostgresRecord compiles to an empty module without the PostgreSQL trait: `--postgres` then says so.
            dependencies: ["SQLiteRecord", "PostgresRecord"],
            path: "Examples/CountriesCities",
            resources: [.copy("Resources")]
        ),
        // The library against hand-written sqlite3 calls (and libpq calls, with the PostgreSQL trait) on the GeoNames
        // data; run it with -c release.
        .executableTarget(
            name: "SQLiteRecordBench",
            dependencies: [
                "SQLiteRecord", "CSQLiteRecord", "PostgresRecord",
                // The PostgreSQL run (`--postgres URL`) calls libpq by hand for its baseline.
                .target(name: "CPostgresRecord", condition: .when(traits: ["PostgreSQL"])),
            ],
            path: "Benchmarks/SQLiteRecordBench"
        ),
        // Written to and killed at random moments by the crash-safety tests (Tests/SQLiteRecordTests/Reliability).
        .executableTarget(
            name: "SQLiteRecordCrashWriter",
            dependencies: ["SQLiteRecord"],
            path: "Tests/Support/CrashWriter"
        ),
        // Opens a database as another user for the file permission tests, which run it without root's rights.
        .executableTarget(
            name: "SQLiteRecordFileProbe",
            dependencies: ["SQLiteRecord"],
            path: "Tests/Support/FileProbe"
        ),
        .testTarget(name: "SQLiteRecordTests", dependencies: ["SQLiteRecord"]),
        // The throwaway PostgreSQL servers the PostgreSQL suites run against (Debian's postgresql, or POSTGRES_URL).
        .target(name: "PostgresTestSupport", dependencies: ["PostgresRecord"], path: "Tests/PostgresTestSupport"),
        .testTarget(
            name: "PostgresRecordTests",
            dependencies: ["PostgresRecord", "SQLiteRecord", "CountriesCities", "PostgresTestSupport"]),
        // The Record contract, written once: each test runs on SQLite, and on PostgreSQL too with the trait.
        .testTarget(
            name: "RecordContractTests", dependencies: ["SQLiteRecord", "PostgresRecord", "PostgresTestSupport"]),
        // Compiles and runs the README's examples (they declare their own Country and City).
        // With the PostgreSQL trait, the articles' PostgreSQL snippets run against the throwaway server too.
        .testTarget(name: "ReadmeTests", dependencies: ["SQLiteRecord", "PostgresRecord", "PostgresTestSupport"]),
        .testTarget(
            name: "CountriesCitiesTests",
            dependencies: ["CountriesCities", "SQLiteRecord"],
            exclude: ["Fixtures"]
        ),
        // Dated notes moved off a legacy property list; NotesList.plist is the sample's input, read by path.
        .executableTarget(
            name: "Notes",
            dependencies: ["SQLiteRecord"],
            path: "Examples/Notes",
            exclude: ["NotesList.plist"]
        ),
        .testTarget(name: "NotesTests", dependencies: ["Notes", "SQLiteRecord"]),
        // A SwiftUI window whose list follows the database through @LiveFetch; an app only where SwiftUI exists.
        .executableTarget(name: "LiveQuerySample", dependencies: ["SQLiteRecord"], path: "Examples/LiveQuerySample"),
        // Generates types from sample databases (GeoNames from the CountriesCities import) and compiles them.
        .testTarget(
            name: "SQLiteRecordGenTests",
            dependencies: [
                "SQLiteRecordGen", "SQLiteRecord", "CountriesCities", "PostgresRecord", "PostgresTestSupport",
            ]),
        // Checks that the benchmark's two sides agree on a small input; timings are not asserted.
        .testTarget(name: "BenchmarkTests", dependencies: ["SQLiteRecordBench", "SQLiteRecord"]),
    ],
    swiftLanguageModes: [.v6]
)
