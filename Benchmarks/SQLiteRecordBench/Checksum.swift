import Foundation

/// A digest both sides compute, untimed, over what a workload read or wrote; the run fails when they differ.
///
/// Each row is hashed on its own and the row hashes are added, so the digest does not depend on row order
/// (W4 sorts by population, and cities of equal population may come back in either order) but does
/// depend on every field of every row.
struct Checksum: Equatable, CustomStringConvertible {
    private(set) var value: UInt64

    /// An empty checksum, or one read back from its ``description`` (a peak-memory child's report).
    init(value: UInt64 = 0) { self.value = value }

    var description: String { String(value, radix: 16) }

    /// Adds one city: every field, the text fields byte by byte, the date in whole milliseconds.
    mutating func add(_ city: BenchCity) {
        var row = RowHash()
        row.mix(city.id.map { UInt64(bitPattern: $0) } ?? 0xDEAD_BEEF)
        row.mix(city.name)
        row.mix(city.latitude.bitPattern)
        row.mix(city.longitude.bitPattern)
        row.mix(city.countryCode)
        if let admin1Code = city.admin1Code {
            row.mix(admin1Code)
        } else {
            row.mix(0xA0)
        }
        row.mix(UInt64(bitPattern: city.population))
        row.mix(city.timezone)
        let milliseconds = (city.createdAt.timeIntervalSince1970 * 1000).rounded()
        row.mix(milliseconds.isFinite ? UInt64(bitPattern: Int64(milliseconds)) : 0xBAD)
        row.mix(city.isCapital ? 1 : 2)
        value &+= row.value
    }

    mutating func add<S: Sequence<BenchCity>>(_ cities: S) {
        for city in cities { add(city) }
    }

    /// Adds a row hashed by the caller (W1 hashes stored column values).
    mutating func add(_ row: RowHash) {
        value &+= row.value
    }
}

/// FNV-1a over 64-bit words and bytes, with the row's field boundaries marked so that ("ab", "c") and
/// ("a", "bc") differ.
struct RowHash {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func mix(_ word: UInt64) {
        value = (value ^ word) &* 0x0000_0100_0000_01B3
    }

    mutating func mix(_ text: String) {
        mix(UInt64(text.utf8.count))
        for byte in text.utf8 { mix(UInt64(byte)) }
    }

    mutating func mix(_ bytes: UnsafeBufferPointer<UInt8>) {
        mix(UInt64(bytes.count))
        for byte in bytes { mix(UInt64(byte)) }
    }
}
