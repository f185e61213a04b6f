#if PostgreSQL
/// A position in PostgreSQL's write-ahead log: a log sequence number, what the server's `pg_lsn` type holds
/// and writes as two hexadecimal halves, `16/B374D848`. Positions order as the log does: a standby that has
/// replayed up to position `p` holds every transaction that committed before `p`.
///
/// ``PostgresReplicaPool`` records the primary's `pg_current_wal_lsn()` after each of its writes
/// (``PostgresReplicaPool/lastWriteLSN``) and compares it with a standby's `pg_last_wal_replay_lsn()`. See
/// <https://www.postgresql.org/docs/current/datatype-pg-lsn.html> and
/// <https://www.postgresql.org/docs/current/wal-internals.html>.
public struct PostgresLSN: Sendable, Hashable, Comparable, LosslessStringConvertible {
    /// The position as one 64-bit number: the text's first half in the high 32 bits, its second in the low.
    public let rawValue: UInt64

    /// The position whose 64-bit number is `rawValue`.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Reads the server's text form, two hexadecimal numbers of up to eight digits each around a slash
    /// (`0/16B3748`, `16/B374D848`); nil for any other text.
    public init?(_ description: String) {
        let halves = description.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, let high = Self.half(halves[0]), let low = Self.half(halves[1]) else { return nil }
        rawValue = high << 32 | low
    }

    /// The server's text form, `16/B374D848` (uppercase hexadecimal, no leading zeros), which a
    /// `$1::pg_lsn` parameter accepts.
    public var description: String {
        String(rawValue >> 32, radix: 16, uppercase: true) + "/"
            + String(rawValue & 0xFFFF_FFFF, radix: 16, uppercase: true)
    }

    /// True when `lhs` comes earlier in the log than `rhs`.
    public static func < (lhs: PostgresLSN, rhs: PostgresLSN) -> Bool { lhs.rawValue < rhs.rawValue }

    private static func half(_ text: Substring) -> UInt64? {
        guard (1...8).contains(text.count), text.allSatisfy(\.isHexDigit) else { return nil }
        return UInt64(text, radix: 16)
    }
}
#endif
