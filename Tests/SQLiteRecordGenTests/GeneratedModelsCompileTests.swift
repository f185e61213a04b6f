import Foundation
import SQLiteRecord
import XCTest

@testable import SQLiteRecordGen

/// The generated files compile against the library, in a package of their own, and the program built from
/// them reads every row of every table and view without an error; every generated `Record` passes
/// `validateSchema(in:)` and gets an empty `schemaChanges(in:)` plan (the generator and the schema diff
/// agree), for each fixture database and for ``randomSchemaCount`` random ones (``RandomSchemas``; the seed
/// is in every failure's message, and `SQLITE_RECORD_RANDOM_SEED` replays it).
///
/// Slow (it builds SQLiteRecord again inside that package, a few minutes on a cold build folder): one test
/// compiles every generated file at once, and runs only when SQLITE_RECORD_COMPILE_TESTS is set, so that the
/// README's `swift test` stays within its few minutes; `.ci/run` runs it in a step of its own. The package
/// lives in `.build/generated-models-check` so that later runs build incrementally.
final class GeneratedModelsCompileTests: XCTestCase {
    /// One database, its generated file and the executable target that compiles it.
    private struct Case {
        let target: String
        let database: URL
        let file: ModelGenerator.File
        /// True to compile the one-file-per-type form (``ModelGenerator/File/files``).
        var perType = false
    }

    /// Random databases per run.
    static let randomSchemaCount = 200

    func testGeneratedFilesCompileAndReadEveryRow() throws {
        guard ProcessInfo.processInfo.environment["SQLITE_RECORD_COMPILE_TESTS"] != nil else {
            throw XCTSkip(
                "the generated files compile in a package of their own, which builds SQLiteRecord again (minutes): "
                    + "SQLITE_RECORD_COMPILE_TESTS=1 swift test --filter GeneratedModelsCompileTests runs it, as "
                    + ".ci/run does")
        }
        let root = GeneratorFixtures.packageRoot
        let package = root.appendingPathComponent(".build/generated-models-check")
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: package, withIntermediateDirectories: true)

        let geoNames = package.appendingPathComponent("geonames.sqlite")
        let imported = try GeneratorFixtures.makeGeoNamesDatabase(at: geoNames)
        let allTypes = package.appendingPathComponent("all-types.sqlite")
        try GeneratorFixtures.makeDatabase(at: allTypes, sql: GeneratorFixtures.allTypesSQL)
        let identifiers = package.appendingPathComponent("identifiers.sqlite")
        try GeneratorFixtures.makeDatabase(at: identifiers, sql: GeneratorFixtures.identifiersSQL)

        let pastTheSample = package.appendingPathComponent("past-the-sample.sqlite")
        try GeneratorFixtures.makeDatabase(at: pastTheSample, sql: GeneratorFixtures.pastTheSampleSQL)

        var cases = try [
            ("GeoNamesModels", geoNames), ("AllTypesModels", allTypes), ("IdentifierModels", identifiers),
            ("PastTheSampleModels", pastTheSample),
        ].map { target, database in
            Case(target: target, database: database, file: try ModelGenerator.generate(path: database.path))
        }
        // The options an app uses, one file per type, over the fixtures with the most kinds of types.
        let appOptions = ModelGenerator.Options(prefix: "DB", namespace: "World", isPublic: true, rowInitializers: true)
        cases.append(
            Case(
                target: "AppOptionsModels", database: allTypes,
                file: try ModelGenerator.generate(path: allTypes.path, options: appOptions), perType: true))
        cases.append(
            Case(
                target: "RowInitializerModels", database: geoNames,
                file: try ModelGenerator.generate(
                    path: geoNames.path, options: ModelGenerator.Options(rowInitializers: true))))
        for testCase in cases {
            let sources = package.appendingPathComponent("Sources/\(testCase.target)")
            try? fileManager.removeItem(at: sources)
            try fileManager.createDirectory(at: sources, withIntermediateDirectories: true)
            if testCase.perType {
                for (name, source) in testCase.file.files {
                    try GeneratorFixtures.write(source, to: sources.appendingPathComponent(name))
                }
            } else {
                try GeneratorFixtures.write(testCase.file.source, to: sources.appendingPathComponent("Models.swift"))
            }
            try GeneratorFixtures.write(mainSource(testCase.file), to: sources.appendingPathComponent("main.swift"))
        }

        // The random databases, each file in a namespace of its own, in one target.
        let seed = RandomSchemas.runSeed
        let randomFolder = package.appendingPathComponent("random")
        try? fileManager.removeItem(at: randomFolder)
        try fileManager.createDirectory(at: randomFolder, withIntermediateDirectories: true)
        let randomSources = package.appendingPathComponent("Sources/RandomModels")
        try? fileManager.removeItem(at: randomSources)
        try fileManager.createDirectory(at: randomSources, withIntermediateDirectories: true)
        var randomFiles: [ModelGenerator.File] = []
        for index in 0..<Self.randomSchemaCount {
            let database = randomFolder.appendingPathComponent("r\(index).sqlite")
            let sql = RandomSchemas.sql(seed: seed, index: index)
            try GeneratorFixtures.makeDatabase(at: database, sql: sql)
            try GeneratorFixtures.write(sql, to: randomFolder.appendingPathComponent("r\(index).sql"))
            let file = try ModelGenerator.generate(
                path: database.path, options: ModelGenerator.Options(namespace: "R\(index)"))
            try GeneratorFixtures.write(file.source, to: randomSources.appendingPathComponent("R\(index).swift"))
            randomFiles.append(file)
        }
        try GeneratorFixtures.write(randomMainSource(randomFiles), to: randomSources.appendingPathComponent("main.swift"))
        try GeneratorFixtures.write(
            manifest(root: root, targets: cases.map(\.target) + ["RandomModels"]),
            to: package.appendingPathComponent("Package.swift"))

        var build = try GeneratorFixtures.run(["swift", "build", "--package-path", package.path], in: package)
        if build.status != 0 {
            // The kept build of this package may still list the source files SQLiteRecord had when it was
            // made: a file since deleted or renamed fails it "because of missing inputs", a file since added
            // is not compiled ("cannot find ... in scope"), and SwiftPM notices neither by itself. Built
            // afresh once, a real error fails again.
            try? fileManager.removeItem(at: package.appendingPathComponent(".build"))
            build = try GeneratorFixtures.run(["swift", "build", "--package-path", package.path], in: package)
        }
        XCTAssertEqual(build.status, 0, build.output)
        guard build.status == 0 else { return }
        let warnings = build.output.components(separatedBy: "\n").filter {
            $0.contains("warning:") && $0.contains("/Sources/") && $0.contains("Models/")
        }
        XCTAssertEqual(warnings, [], "the generated files compile with warnings")
        let binaries = try GeneratorFixtures.run(["swift", "build", "--package-path", package.path, "--show-bin-path"], in: package)
        let binPath =
            binaries.output.trimmingCharacters(in: .whitespacesAndNewlines)
            .components(separatedBy: "\n").last ?? ""

        for testCase in cases {
            let result = try GeneratorFixtures.run(["\(binPath)/\(testCase.target)", testCase.database.path], in: package)
            XCTAssertEqual(result.status, 0, "\(testCase.target): \(result.output)")
            // Every table and view, with the number of rows plain SQL counts in it.
            let queue = try DatabaseQueue(path: testCase.database.path)
            let expected = try queue.read { db in
                try testCase.file.types.map { type in
                    let count =
                        try db.scalar(
                            Int64.self, sql: "SELECT count(*) FROM \(SQLIdentifier.quoted(type.table))") ?? -1
                    return "\(type.table)\t\(count)"
                }
            }
            XCTAssertEqual(
                result.output.components(separatedBy: "\n").filter { !$0.isEmpty }, expected + ["valid"],
                testCase.target)
        }
        // The random databases: nothing but "valid"; each line otherwise names the database, whose SQL is
        // in .build/generated-models-check/random/rN.sql.
        let random = try GeneratorFixtures.run(["\(binPath)/RandomModels", randomFolder.path], in: package)
        XCTAssertEqual(random.status, 0, "seed \(seed): \(random.output)")
        XCTAssertEqual(
            random.output.components(separatedBy: "\n").filter { !$0.isEmpty }, ["valid"],
            "random schemas of seed \(seed) (SQLITE_RECORD_RANDOM_SEED=\(seed) replays them)")
        // The GeoNames sample's own figures, as its import counted them.
        let geoNamesCase = cases[0]
        XCTAssertEqual(
            geoNamesCase.file.types.map(\.typeName),
            ["City", "CitiesFts", "Country"])
        let output = try GeneratorFixtures.run(["\(binPath)/GeoNamesModels", geoNames.path], in: package).output
        XCTAssertTrue(output.contains("cities\t\(imported.cities)\n"), output)
        XCTAssertTrue(output.contains("countries\t\(imported.countries)\n"), output)
    }

    /// A program that opens the database given as its argument, checks each Record type with
    /// `validateSchema(in:)`, reads every row of every type and prints `table<TAB>count` for each, then
    /// `valid`.
    private func mainSource(_ file: ModelGenerator.File) -> String {
        var lines = [
            "import SQLiteRecord", "",
            "let queue = try DatabaseQueue(path: CommandLine.arguments[1])",
            "try queue.read { db in",
        ]
        for type in file.types {
            let name = type.qualifiedName
            let call = type.isRecord ? "\(name).fetch(db)" : "\(name).fetchAll(db)"
            lines.append("    print(\(SwiftNames.literal(type.table + "\t")) + String(try \(call).count))")
        }
        for type in file.types where type.isRecord {
            lines.append("    try \(type.qualifiedName).validateSchema(in: db)")
            lines.append("    let plan\(type.typeName) = try \(type.qualifiedName).schemaChanges(in: db)")
            lines.append("    if !plan\(type.typeName).isEmpty { print(\"plan: \\(plan\(type.typeName))\") }")
        }
        lines.append("    print(\"valid\")")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A program that opens each random database `rN.sqlite` of the folder given as its argument, and for
    /// each type of its namespace `RN` reads every row, checks a Record with `validateSchema(in:)` and
    /// prints its `schemaChanges(in:)` plan unless empty; each problem is a line naming the database. Then
    /// `valid`.
    private func randomMainSource(_ files: [ModelGenerator.File]) -> String {
        var lines = ["import SQLiteRecord", "", "let folder = CommandLine.arguments[1]", ""]
        lines.append("func check<T: Record>(_ type: T.Type, _ name: String, _ db: Database) {")
        lines.append("    do { _ = try T.fetch(db) } catch { print(\"\\(name): fetch: \\(error)\") }")
        lines.append("    do { try T.validateSchema(in: db) } catch { print(\"\\(name): validateSchema: \\(error)\") }")
        lines.append("    do {")
        lines.append("        let plan = try T.schemaChanges(in: db)")
        lines.append("        if !plan.isEmpty { print(\"\\(name): \\(plan)\".replacingOccurrences(of: \"\\n\", with: \" | \")) }")
        lines.append("    } catch { print(\"\\(name): schemaChanges: \\(error)\") }")
        lines.append("}")
        lines.append("")
        for (index, file) in files.enumerated() {
            lines.append("try DatabaseQueue(path: folder + \"/r\(index).sqlite\").read { db in")
            for type in file.types {
                let label = SwiftNames.literal("r\(index) \(type.qualifiedName)")
                if type.isRecord {
                    lines.append("    check(\(type.qualifiedName).self, \(label), db)")
                } else {
                    lines.append(
                        "    do { _ = try \(type.qualifiedName).fetchAll(db) } catch { print(\(label) + \": \\(error)\") }")
                }
            }
            lines.append("}")
        }
        lines.append("print(\"valid\")")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A manifest with one executable target per generated file, depending on this package by path.
    private func manifest(root: URL, targets: [String]) -> String {
        // SwiftPM names a package dependency by path after its folder, lowercased.
        let identity = root.lastPathComponent.lowercased()
        let targetLines = targets.map {
            "        .executableTarget(name: \"\($0)\", dependencies: [.product(name: \"SQLiteRecord\", "
                + "package: \(SwiftNames.literal(identity)))]),"
        }
        return """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "GeneratedModelsCheck",
                platforms: [.macOS(.v13), .iOS(.v16)],
                dependencies: [.package(path: \(SwiftNames.literal(root.path)))],
                targets: [
            \(targetLines.joined(separator: "\n"))
                ],
                swiftLanguageModes: [.v6]
            )

            """
    }
}
