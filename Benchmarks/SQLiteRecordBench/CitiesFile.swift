import Foundation

/// Reads the GeoNames cities CSV (`geonameid,name,latitude,longitude,countrycode,admin1code,population,
/// timezone`, as in Examples/CountriesCities/Resources) into the records the workloads use.
enum CitiesFile {
    /// Where `swift run` finds the default data: the sample's cities15000.csv, relative to the package root.
    static let defaultPath = "Examples/CountriesCities/Resources/cities15000.csv"

    /// The columns read, by header name.
    static let columns = [
        "geonameid", "name", "latitude", "longitude", "countrycode", "admin1code", "population", "timezone",
    ]

    /// Reads and parses the file at `path`.
    /// - Throws: ``BenchmarkError`` when there is no file at `path`, ``CSVError`` for malformed CSV or a field
    ///   that is not the number it must be (naming file, line and column).
    static func load(path: String) throws -> [BenchCity] {
        guard FileManager.default.fileExists(atPath: path) else {
            let directory = FileManager.default.currentDirectoryPath
            throw BenchmarkError(
                "No data file at \(path) (looked in \(directory)): run from the package root, or pass --data PATH "
                    + "to a GeoNames cities CSV")
        }
        let url = URL(fileURLWithPath: path)
        return try parse(Data(contentsOf: url), fileName: url.lastPathComponent)
    }

    /// Parses cities CSV bytes. Each city gets ``BenchCity/createdAt(forIndex:)`` of its position among the
    /// records, and an empty admin1 code reads as nil.
    /// - Throws: ``CSVError`` as ``load(path:)``.
    static func parse(_ data: Data, fileName: String) throws -> [BenchCity] {
        let (header, records) = try CSVReader.parse(data, fileName: fileName)
        let indexes = try columns.map { column in
            guard let index = header.firstIndex(of: column) else {
                throw CSVError(
                    fileName: fileName, line: 1,
                    message: "no column \"\(column)\" in the header (\(header.joined(separator: ",")))")
            }
            return index
        }
        var cities: [BenchCity] = []
        cities.reserveCapacity(records.count)
        for (position, record) in records.enumerated() {
            func field(_ column: Int) -> String { record.fields[indexes[column]] }
            func invalid(_ column: Int, _ expected: String) -> CSVError {
                CSVError(
                    fileName: fileName, line: record.line,
                    message: "column \"\(columns[column])\" holds \"\(field(column))\", expected \(expected)")
            }
            guard let id = Int64(field(0)) else { throw invalid(0, "an integer") }
            guard let latitude = Double(field(2)), latitude.isFinite else { throw invalid(2, "a number") }
            guard let longitude = Double(field(3)), longitude.isFinite else { throw invalid(3, "a number") }
            guard let population = Int64(field(6)) else { throw invalid(6, "an integer") }
            let admin1Code = field(5)
            cities.append(
                BenchCity(
                    id: id, name: field(1), latitude: latitude, longitude: longitude, countryCode: field(4),
                    admin1Code: admin1Code.isEmpty ? nil : admin1Code, population: population,
                    timezone: field(7), createdAt: BenchCity.createdAt(forIndex: position),
                    isCapital: BenchCity.isCapital(population: population)))
        }
        return cities
    }
}
