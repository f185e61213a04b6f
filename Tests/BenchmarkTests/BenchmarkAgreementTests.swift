import Foundation
import SQLiteRecord
import XCTest

@testable import SQLiteRecordBench

/// The benchmark's two sides must read and write the same rows: each workload runs once per side on 200
/// cities and the checksums and row counts are compared. Timings are not asserted.
final class BenchmarkAgreementTests: XCTestCase {
    /// 200 cities as a GeoNames CSV with CRLF line ends, quoted names (a comma, a doubled quote), empty
    /// admin1 codes, non-ASCII names and a few populations above a million, over six country codes.
    static func sampleCSV() -> String {
        let codes = ["FR", "JP", "NA", "US", "BR", "IS"]
        var lines = ["geonameid,name,latitude,longitude,countrycode,admin1code,population,timezone"]
        for index in 0..<200 {
            let name: String
            switch index % 5 {
            case 0: name = "\"Saint-Étienne, \"\"Ville\"\" \(index)\""
            case 1: name = "東京 \(index)"
            default: name = "Town \(index)"
            }
            let admin1Code = index % 7 == 0 ? "" : "A\(index % 13)"
            let population = index % 17 == 0 ? 1_500_000 + index : 1_000 * index
            let latitude = Double(index) * 0.371 - 45
            let longitude = Double(index) * -0.913 + 120
            lines.append(
                "\(1_000_000 + index * 3),\(name),\(latitude),\(longitude),\(codes[index % codes.count]),"
                    + "\(admin1Code),\(population),Europe/Paris")
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func sampleInput() throws -> WorkloadInput {
        let cities = try CitiesFile.parse(Data(sampleCSV().utf8), fileName: "sample.csv")
        return WorkloadInput(cities: cities, lookupCount: 500, countryCount: 5)
    }

    func testSampleParsesQuotedFieldsAndEmptyCodes() throws {
        let cities = try Self.sampleInput().cities
        XCTAssertEqual(cities.count, 200)
        XCTAssertEqual(cities[0].name, "Saint-Étienne, \"Ville\" 0")
        XCTAssertEqual(cities[0].admin1Code, nil)
        XCTAssertEqual(cities[1].admin1Code, "A1")
        XCTAssertEqual(cities[1].name, "東京 1")
        XCTAssertEqual(cities[2].createdAt, Date(timeIntervalSince1970: 1_600_000_001))
        XCTAssertTrue(cities[17].isCapital)
        XCTAssertFalse(cities[16].isCapital)
    }

    func testWorkloadInputIsDeterministic() throws {
        let first = try Self.sampleInput()
        let second = try Self.sampleInput()
        XCTAssertEqual(first.lookupIDs, second.lookupIDs)
        XCTAssertEqual(first.lookupIDs.count, 500)
        // FR and JP have 34 cities, the other four 33; ties go to the smaller code, so "US" is left out.
        XCTAssertEqual(first.countryCodes, ["BR", "FR", "IS", "JP", "NA"])
    }

    func testInsertAgrees() throws { try assertSidesAgree(.insert, rows: 200) }

    func testFetchAllAgrees() throws { try assertSidesAgree(.fetchAll, rows: 200) }

    func testLookUpAgrees() throws { try assertSidesAgree(.lookUp, rows: 500) }

    func testLookUpByUUIDAgrees() throws { try assertSidesAgree(.lookUpUUID, rows: 500) }

    /// Each of the five codes has 33 or 34 cities, all under the page size of 50.
    func testFetchByCountryAgrees() throws {
        let input = try Self.sampleInput()
        let expected = input.countryCodes.map { code in
            min(BenchSchema.countryPageSize, input.cities.filter { $0.countryCode == code }.count)
        }.reduce(0, +)
        XCTAssertEqual(expected, 167)
        try assertSidesAgree(.fetchByCountry, rows: expected)
        try assertSidesAgree(.fetchByCountryRequest, rows: expected)
    }

    func testDecodeOnlyAgrees() throws { try assertSidesAgree(.decodeOnly, rows: 200) }

    func testRowInitializerTwinsAgree() throws {
        try assertSidesAgree(.fetchAllRow, rows: 200)
        try assertSidesAgree(.lookUpRow, rows: 500)
        try assertSidesAgree(.decodeOnlyRow, rows: 200)
    }

    /// BenchRowCity's init(row:) reads what its Decodable conformance (BenchCity's) reads, row for row.
    func testRowInitializerIsInStepWithDecodable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = try Self.sampleInput()
        try WorkloadRunner.prepareDatabase(at: directory.databasePath, for: .fetchAll, cities: input.cities)
        let queue = try LibraryWorkloads.open(path: directory.databasePath)
        XCTAssertEqual(try queue.read { db in try BenchRowCity.checkRowInitializer(db) }, 200)
    }

    func testWorkloadNamesParseInAnyCase() throws {
        XCTAssertEqual(
            try BenchmarkOptions.parseWorkloads("w2-ROW,W3-uuid,W5-row,W2"),
            [.fetchAll, .fetchAllRow, .lookUpUUID, .decodeOnlyRow])
    }

    /// W6 reads every city once, grouped under its country, on both sides.
    func testEagerLoadAgrees() throws { try assertSidesAgree(.eagerLoad, rows: 200) }

    func testUpsertIntoEmptyAgrees() throws { try assertSidesAgree(.upsertIntoEmpty, rows: 200) }

    func testUpsertIntoFullAgrees() throws { try assertSidesAgree(.upsertIntoFull, rows: 200) }

    func testUpdateColumnAgrees() throws { try assertSidesAgree(.updateColumn, rows: 200) }

    func testUpdateChangesAgrees() throws { try assertSidesAgree(.updateChanges, rows: 200) }

    /// W7-full changes every seventh population; W7-partial the population of each city W3 draws.
    func testTheWriteInputsChangeOnlyPopulations() throws {
        let input = try Self.sampleInput()
        XCTAssertEqual(input.reimportedCities.count, 200)
        XCTAssertEqual(zip(input.cities, input.reimportedCities).filter { $0.0 != $0.1 }.count, 29)
        XCTAssertEqual(input.updatedCities.count, 500)
        XCTAssertEqual(input.updatedCities[0].population, input.updateOriginals[0].population + 1)
        XCTAssertEqual(input.updatedCities[0].name, input.updateOriginals[0].name)
    }

    /// The read workloads return exactly the cities that were inserted.
    func testFetchAllReturnsTheInput() throws {
        let input = try Self.sampleInput()
        var expected = Checksum()
        expected.add(input.cities)
        for side in Side.allCases {
            let measurement = try WorkloadRunner.run(.fetchAll, side: side, input: input)
            XCTAssertEqual(measurement.checksum, expected, "\(side)")
        }
    }

    /// The baseline writes the library's date text byte for byte and reads it back to the same instant.
    func testBaselineDateTextMatchesTheLibrary() throws {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: BaselineDateText.length)
        defer { buffer.deallocate() }
        var generator = SplitMix64(seed: 42)
        let seconds: [Double] =
            [0, -0.001, 951_782_400, 1_600_000_000.5, -62_167_219_200, 253_402_300_799.999]
            + (0..<2_000).map { _ in Double(generator.next() % 400_000_000_000) / 1000 - 62_000_000_000 / 1000 }
        for value in seconds {
            let date = Date(timeIntervalSince1970: value)
            XCTAssertTrue(BaselineDateText.write(date, into: buffer), "\(value)")
            let text = String(
                decoding: UnsafeBufferPointer(start: buffer, count: BaselineDateText.length), as: UTF8.self)
            XCTAssertEqual(text, SQLiteDateFormat.string(from: date), "\(value)")
            let parsed = BaselineDateText.parse(buffer, count: BaselineDateText.length)
            XCTAssertEqual(parsed, SQLiteDateFormat.date(from: text), "\(text)")
        }
        XCTAssertFalse(BaselineDateText.write(Date(timeIntervalSince1970: 253_402_300_800), into: buffer))
    }

    /// A disagreement between the sides is an error, which makes the run exit non-zero.
    func testCheckRejectsADifferentChecksumOrRowCount() throws {
        let reference = Measurement(rows: 3, checksum: Checksum(value: 7), seconds: 1)
        XCTAssertNoThrow(
            try BenchmarkRun.check(
                Measurement(rows: 3, checksum: Checksum(value: 7), seconds: 2), side: .baseline, against: reference,
                .fetchAll))
        XCTAssertThrowsError(
            try BenchmarkRun.check(
                Measurement(rows: 3, checksum: Checksum(value: 8), seconds: 1), side: .baseline, against: reference,
                .fetchAll))
        XCTAssertThrowsError(
            try BenchmarkRun.check(
                Measurement(rows: 2, checksum: Checksum(value: 7), seconds: 1), side: .library, against: reference,
                .insert))
    }

    /// Bad data is reported with its file and line, never a trap.
    func testMalformedDataThrows() {
        let header = "geonameid,name,latitude,longitude,countrycode,admin1code,population,timezone\n"
        XCTAssertThrowsError(
            try CitiesFile.parse(Data((header + "1,A,x,2,FR,,10,Europe/Paris\n").utf8), fileName: "bad.csv")
        ) { error in
            XCTAssertEqual((error as? CSVError)?.line, 2)
        }
        XCTAssertThrowsError(
            try CitiesFile.parse(Data((header + "1,\"A,2,3,FR,,10,Europe/Paris\n").utf8), fileName: "bad.csv"))
        XCTAssertThrowsError(try CitiesFile.parse(Data((header + "1,A,2\n").utf8), fileName: "bad.csv"))
        XCTAssertThrowsError(try CitiesFile.load(path: "/nonexistent/cities.csv")) { error in
            XCTAssertTrue(error is BenchmarkError)
        }
    }

    func testOptionsParse() throws {
        let options = try BenchmarkOptions.parse([
            "--data", "x.csv", "--repetitions", "3", "--json", "--workloads", "w3,W1",
        ])
        XCTAssertEqual(options.dataPath, "x.csv")
        XCTAssertEqual(options.repetitions, 3)
        XCTAssertTrue(options.json)
        XCTAssertEqual(options.workloads, [.insert, .lookUp])
        XCTAssertEqual(
            try BenchmarkOptions.parseWorkloads("W7-full,w3-UUID,W7-partial"),
            [.lookUpUUID, .upsertIntoFull, .updateColumn])
        XCTAssertThrowsError(try BenchmarkOptions.parse(["--repetitions", "0"]))
        XCTAssertThrowsError(try BenchmarkOptions.parse(["--workloads", "W11"]))
        XCTAssertThrowsError(try BenchmarkOptions.parse(["--rss-child", "W2-library"]))
        let scale = try BenchmarkOptions.parse(["--scale", "2_000_000"])
        XCTAssertEqual(scale.scale, 2_000_000)
        let child = try BenchmarkOptions.parse(["--scale-child", "cursor-baseline", "--database", "db.sqlite"])
        XCTAssertEqual(child.scaleChild?.read, .cursor)
        XCTAssertEqual(child.scaleChild?.side, .baseline)
        XCTAssertThrowsError(try BenchmarkOptions.parse(["--scale-child", "W2-library"]))
        XCTAssertThrowsError(try BenchmarkOptions.parse(["--scale", "0"]))
    }

    /// The scale data repeats the cities under new ids and dates of their position, every id distinct.
    func testScaleDataRepeatsTheCitiesWithNewIDs() throws {
        let cities = try Self.sampleInput().cities
        let scaled = ScaleData.cities(cities, count: 450)
        XCTAssertEqual(scaled.count, 450)
        XCTAssertEqual(Set(scaled.compactMap(\.id)).count, 450)
        XCTAssertEqual(scaled[200].id, 1_000_597 + 1)
        XCTAssertEqual(scaled[200].name, cities[0].name)
        XCTAssertEqual(scaled[449].createdAt, BenchCity.createdAt(forIndex: 449))
        XCTAssertEqual(ScaleData.cities(cities, count: 10), Array(cities.prefix(10)))
        XCTAssertEqual(
            ScaleData.sizes(dataCount: 234_908, largest: 2_000_000), [234_908, 500_000, 1_000_000, 2_000_000])
        XCTAssertEqual(ScaleData.sizes(dataCount: 200, largest: 300), [200, 300])
    }

    /// Each scale child reads the whole table through its side and agrees with the other.
    func testScaleChildrenAgree() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = try Self.sampleInput()
        try WorkloadRunner.prepareDatabase(at: directory.databasePath, for: .fetchAll, cities: input.cities)
        var expected = Checksum()
        expected.add(input.cities)
        for read in ScaleChild.Read.allCases {
            for side in Side.allCases {
                let report = try ScaleChild.run(read, side: side, databasePath: directory.databasePath)
                XCTAssertEqual(report.rows, 200, "\(read) \(side)")
                XCTAssertEqual(report.checksum, expected, "\(read) \(side)")
                XCTAssertEqual(ScaleChild.Report(line: report.line), report)
            }
        }
    }

    private func assertSidesAgree(
        _ workload: Workload, rows: Int, file: StaticString = #filePath, line: UInt = #line
    )
        throws
    {
        let input = try Self.sampleInput()
        let library = try WorkloadRunner.run(workload, side: .library, input: input)
        let baseline = try WorkloadRunner.run(workload, side: .baseline, input: input)
        XCTAssertEqual(library.rows, rows, "library rows", file: file, line: line)
        XCTAssertEqual(baseline.rows, rows, "baseline rows", file: file, line: line)
        XCTAssertEqual(library.checksum, baseline.checksum, "checksums", file: file, line: line)
        XCTAssertNoThrow(try BenchmarkRun.check(baseline, side: .baseline, against: library, workload))
    }
}
