/// The timings of one workload over all repetitions, both sides.
struct WorkloadTimings: Equatable {
    let workload: Workload
    /// The rows each run inserted or read; the same on both sides and in every run.
    let rows: Int
    /// The checksum both sides agreed on.
    let checksum: Checksum
    var librarySeconds: [Double] = []
    var baselineSeconds: [Double] = []

    /// Median library time over median baseline time.
    var ratio: Double { librarySeconds.median / baselineSeconds.median }
}

/// The whole timed run: a warm-up of every workload on both sides, then the repetitions, interleaved.
enum BenchmarkRun {
    /// Runs each workload once per side untimed, then `repetitions` more times per side, alternating which
    /// side goes first from one repetition to the next so that drift of the machine hurts both alike. Every
    /// run, warm-up included, is checked against the first: same rows, same checksum.
    /// - Parameter progress: called with a short line after each repetition.
    /// - Throws: ``BenchmarkError`` when the two sides (or two runs) disagree, or what a workload throws.
    static func run(
        _ workloads: [Workload], input: WorkloadInput, repetitions: Int, progress: (String) -> Void = { _ in }
    ) throws -> [WorkloadTimings] {
        var timings: [WorkloadTimings] = []
        for workload in workloads {
            let library = try WorkloadRunner.run(workload, side: .library, input: input)
            let baseline = try WorkloadRunner.run(workload, side: .baseline, input: input)
            try check(baseline, side: .baseline, against: library, workload)
            timings.append(WorkloadTimings(workload: workload, rows: library.rows, checksum: library.checksum))
        }
        progress("warm-up done")

        for repetition in 0..<repetitions {
            let sides: [Side] = repetition.isMultiple(of: 2) ? [.library, .baseline] : [.baseline, .library]
            for index in timings.indices {
                let workload = timings[index].workload
                for side in sides {
                    let measurement = try WorkloadRunner.run(workload, side: side, input: input)
                    let reference = Measurement(
                        rows: timings[index].rows, checksum: timings[index].checksum, seconds: 0)
                    try check(measurement, side: side, against: reference, workload)
                    switch side {
                    case .library: timings[index].librarySeconds.append(measurement.seconds)
                    case .baseline: timings[index].baselineSeconds.append(measurement.seconds)
                    }
                }
            }
            progress("repetition \(repetition + 1) of \(repetitions) done")
        }
        return timings
    }

    /// Throws when `measurement` read or wrote other rows than `reference`, the library's warm-up run.
    static func check(
        _ measurement: Measurement, side: Side, against reference: Measurement, _ workload: Workload
    )
        throws
    {
        guard measurement.rows != reference.rows || measurement.checksum != reference.checksum else { return }
        throw BenchmarkError(
            "\(workload.rawValue) (\(workload.title)): the sides disagree. The library's first run gave "
                + "\(reference.rows) rows, checksum \(reference.checksum); a \(side.rawValue) run gave "
                + "\(measurement.rows) rows, checksum \(measurement.checksum)")
    }
}
