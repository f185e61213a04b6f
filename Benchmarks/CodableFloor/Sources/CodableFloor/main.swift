import ConstantDecoder
import Foundation
import SQLiteRecord

// BenchCity.swift is the benchmark's own file, so that its synthesized init(from:) is the one W2 and W5 run.

/// `count` cities through `init(from:)` over the constant decoder, appended as the fetch appends them.
@inline(never)
func decodeCities(count: Int, from decoder: any Decoder) throws -> [BenchCity] {
    var cities: [BenchCity] = []
    for _ in 0..<count { cities.append(try BenchCity(from: decoder)) }
    return cities
}

/// The same cities made with the memberwise initializer from the same constants, as the hand-written loop
/// makes them: what `decodeCities` costs above this is the Codable floor.
@inline(never)
func makeCities(count: Int) -> [BenchCity] {
    var cities: [BenchCity] = []
    for _ in 0..<count {
        cities.append(
            BenchCity(
                id: 3, name: "abc", latitude: 1.5, longitude: 1.5, countryCode: "abc", admin1Code: "abc",
                population: 7, timezone: "abc", createdAt: Date(timeIntervalSince1970: 5), isCapital: true))
    }
    return cities
}

let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 10_000
let decoded = try decodeCities(count: count, from: ConstantDecoder())
let made = makeCities(count: count)
guard decoded == made else {
    print("The two sides made different cities")
    exit(1)
}
print("\(decoded.count) cities each way")
