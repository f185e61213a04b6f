#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Seconds from a monotonic clock (`clock_gettime(CLOCK_MONOTONIC)`), which no wall-clock adjustment moves.
enum MonotonicClock {
    static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Runs `body` and returns its result with the seconds it took.
    static func measure<T>(_ body: () throws -> T) rethrows -> (result: T, seconds: Double) {
        let start = seconds()
        let result = try body()
        return (result, seconds() - start)
    }
}
