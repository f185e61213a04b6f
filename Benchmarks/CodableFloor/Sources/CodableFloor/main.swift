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

/// The CPU seconds this process used so far (`CLOCK_PROCESS_CPUTIME_ID`).
func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The median of `values`, which is not empty.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

// Usage: CodableFloor [COUNT] [REPETITIONS]. With REPETITIONS, each side runs that many times, alternated,
// and the medians of their CPU times are printed: the floor in time on this machine, for the client CPU
// ratios of the benchmark (a workload's hand-written CPU time plus this floor, over the hand-written time).
let arguments = CommandLine.arguments.dropFirst()
let count = arguments.first.flatMap { Int($0) } ?? 10_000
let decoded = try decodeCities(count: count, from: ConstantDecoder())
let made = makeCities(count: count)
guard decoded == made else {
    print("The two sides made different cities")
    exit(1)
}
print("\(decoded.count) cities each way")
if let repetitions = arguments.dropFirst().first.flatMap({ Int($0) }), repetitions > 0 {
    var decodeTimes: [Double] = []
    var makeTimes: [Double] = []
    for _ in 0..<repetitions {
        var start = processCPUSeconds()
        withExtendedLifetime(try decodeCities(count: count, from: ConstantDecoder())) {}
        decodeTimes.append(processCPUSeconds() - start)
        start = processCPUSeconds()
        withExtendedLifetime(makeCities(count: count)) {}
        makeTimes.append(processCPUSeconds() - start)
    }
    let decodeMedian = median(decodeTimes) * 1000
    let makeMedian = median(makeTimes) * 1000
    print(
        String(
            format: "CPU medians of %d runs: init(from:) over constants %.2f ms, memberwise %.2f ms; floor %.2f ms for %d cities",
            repetitions, decodeMedian, makeMedian, decodeMedian - makeMedian, count))
}
