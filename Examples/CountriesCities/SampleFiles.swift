import Foundation

/// Where the sample finds its CSV files and keeps its database.
enum SampleFiles {
    static let countriesFileName = "countries.csv"
    static let citiesFileName = "cities15000.csv"
    static let databaseFileName = "countries-cities.sqlite"

    /// The folder holding the sample's CSV files, found without SwiftPM's generated `Bundle.module`, which
    /// traps when its bundle is missing (a binary moved away from its build folder).
    ///
    /// Looks in `override` when given; otherwise in the resource bundle SwiftPM builds beside the
    /// executable (`SQLiteRecord_CountriesCities.resources` on Linux, `.bundle` on Apple platforms).
    /// - Throws: ``SampleError/dataNotFound(searched:)`` listing every folder it looked in.
    static func dataDirectory(override: URL?, executable: URL? = Bundle.main.executableURL) throws -> URL {
        var candidates: [URL] = []
        if let override {
            candidates = [override]
        } else {
            var roots: [URL] = []
            if let executable { roots.append(executable.resolvingSymlinksInPath().deletingLastPathComponent()) }
            if let resources = Bundle.main.resourceURL { roots.append(resources) }
            for root in roots {
                for bundle in ["SQLiteRecord_CountriesCities.resources", "SQLiteRecord_CountriesCities.bundle"] {
                    let base = root.appendingPathComponent(bundle)
                    candidates.append(base.appendingPathComponent("Resources"))
                    candidates.append(base.appendingPathComponent("Contents/Resources/Resources"))
                }
            }
        }
        let fileManager = FileManager.default
        for candidate in candidates
        where fileManager.fileExists(atPath: candidate.appendingPathComponent(countriesFileName).path)
            && fileManager.fileExists(atPath: candidate.appendingPathComponent(citiesFileName).path)
        {
            return candidate
        }
        throw SampleError.dataNotFound(searched: candidates.map(\.path))
    }

    /// The database path used when `--db` is not given: `countries-cities.sqlite` in a `sqlite-record`
    /// folder of the user's cache directory (`$XDG_CACHE_HOME` or `~/.cache` on Linux, `~/Library/Caches`
    /// on Apple platforms), created when missing.
    /// - Throws: Foundation's error when the folder cannot be created.
    static func defaultDatabaseURL(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        let cache: URL
        #if os(Linux) || os(Android) || os(FreeBSD)
            if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
                cache = URL(fileURLWithPath: xdg, isDirectory: true)
            } else {
                cache = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(
                    ".cache", isDirectory: true)
            }
        #else
            cache = try FileManager.default.url(
                for: .cachesDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
        #endif
        let folder = cache.appendingPathComponent("sqlite-record", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(databaseFileName)
    }
}

/// The sample's own failures.
enum SampleError: Error, CustomStringConvertible, Equatable {
    case dataNotFound(searched: [String])
    case unknownCountry(String)
    case unknownContinent(String)
    case usage(String)
    /// `--postgres` in a build without the PostgreSQL trait, which has no PostgresRecord code.
    case postgresNotBuilt

    var description: String {
        switch self {
        case .dataNotFound(let searched):
            return "the GeoNames CSV files (\(SampleFiles.countriesFileName), \(SampleFiles.citiesFileName)) were "
                + "not found; looked in: \(searched.joined(separator: ", ")). Pass --data DIR to name their folder"
        case .unknownCountry(let iso):
            return "no country has the ISO code \"\(iso)\""
        case .unknownContinent(let code):
            return "no continent has the GeoNames code \"\(code)\"; the codes are "
                + ContinentReport.continents.keys.sorted().joined(separator: ", ") + " (or all)"
        case .usage(let message):
            return message
        case .postgresNotBuilt:
            return "--postgres needs PostgreSQL support, which this build left out: build with --traits PostgreSQL "
                + "(swift run --traits PostgreSQL countries-cities --postgres URL)"
        }
    }
}
