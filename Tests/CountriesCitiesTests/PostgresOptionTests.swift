import Foundation
import XCTest

@testable import CountriesCities

/// `--postgres URL` in a build without the PostgreSQL trait (the run with the trait is tested in
/// PostgresRecordTests/Sample against a server).
final class PostgresOptionTests: XCTestCase {
    func testTheOptionTakesAConnectionString() throws {
        XCTAssertEqual(
            try CountriesCities.parse(["--postgres", "postgresql://app@127.0.0.1/world", "fr"]),
            CountriesCities.Options(iso: "FR", postgresURL: "postgresql://app@127.0.0.1/world"))
        XCTAssertThrowsError(try CountriesCities.parse(["--postgres"])) { error in
            XCTAssertTrue("\(error)".hasPrefix("--postgres needs a value\n"), "\(error)")
        }
    }

    #if !PostgreSQL
        func testWithoutTheTraitTheOptionSaysHowToBuild() {
            var lines: [String] = []
            let options = CountriesCities.Options(postgresURL: "postgresql://app@127.0.0.1/world")
            XCTAssertThrowsError(try CountriesCities.run(options) { lines.append($0) }) { error in
                XCTAssertEqual(error as? SampleError, .postgresNotBuilt)
                XCTAssertEqual(
                    "\(error)",
                    "--postgres needs PostgreSQL support, which this build left out: build with --traits PostgreSQL "
                        + "(swift run --traits PostgreSQL countries-cities --postgres URL)")
            }
            XCTAssertEqual(lines, [])
        }
    #endif
}
