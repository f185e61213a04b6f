extension Array where Element == Double {
    /// The middle value, or the mean of the two middle values; NaN when empty.
    var median: Double {
        guard !isEmpty else { return .nan }
        let sorted = self.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// The smallest value; NaN when empty.
    var minimum: Double { self.min() ?? .nan }
}
