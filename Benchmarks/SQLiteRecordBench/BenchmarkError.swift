/// A failure of the benchmark itself (a missing file, a bad argument, a SQLite error on the baseline side,
/// two sides that disagree), with a sentence for the person running it.
struct BenchmarkError: Error, CustomStringConvertible, Equatable {
    let message: String

    init(_ message: String) { self.message = message }

    var description: String { message }
}
