/// The scale run's data: the cities, repeated with new ids up to a number of rows.
enum ScaleData {
    /// `cities` repeated until there are `count` rows: row `k` past the data copies city `k % cities.count`
    /// under a new id (one past the largest GeoNames id, counting up) and the date of its position
    /// (``BenchCity/createdAt(forIndex:)``), so every row is distinct and the table's rowid order is the
    /// insertion order. Fewer rows than the data take its first `count` cities.
    static func cities(_ cities: [BenchCity], count: Int) -> [BenchCity] {
        guard count > cities.count, !cities.isEmpty else { return Array(cities.prefix(count)) }
        let nextID = (cities.compactMap(\.id).max() ?? 0) + 1
        var result = cities
        result.reserveCapacity(count)
        for index in cities.count..<count {
            var city = cities[index % cities.count]
            city.id = nextID + Int64(index - cities.count)
            city.createdAt = BenchCity.createdAt(forIndex: index)
            result.append(city)
        }
        return result
    }

    /// The sizes a scale run up to `largest` rows measures: the data's own size, then 500,000 and each
    /// doubling after it below `largest`, then `largest`.
    static func sizes(dataCount: Int, largest: Int) -> [Int] {
        var sizes = [min(dataCount, largest)]
        var next = 500_000
        while next < largest {
            if next > sizes[sizes.count - 1] { sizes.append(next) }
            next *= 2
        }
        if largest > sizes[sizes.count - 1] { sizes.append(largest) }
        return sizes
    }
}
