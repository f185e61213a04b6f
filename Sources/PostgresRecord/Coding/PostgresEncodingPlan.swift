#if PostgreSQL
import Foundation
import SQLiteRecord

/// Where a record type's coding keys go among a statement's parameters: made once per record type and
/// column list (with its ``PostgresRecordShape``), kept for the life of the process, and read by
/// ``PostgresRecordEncoder`` for every record.
///
/// A synthesized `encode(to:)` writes its keys in the order its `init(from:)` reads them (the properties'
/// order), which the schema probe gives: so each key is expected at its place in ``keys``, and found there
/// by one string comparison (equal literal strings compare by their bits), with no dictionary per record; a
/// key after nil Optionals that `encodeIfPresent` skipped is found a few places further on. A key written
/// out of that order, or one the probe did not see, is found by its column name (renamed through the
/// encoder's names as the probe renames it), which gives the same slot.
final class PostgresEncodingPlan: Sendable {
    /// The parameters' columns, in order.
    let columns: [String]
    /// The coding keys in the order a synthesized `encode(to:)` writes them.
    let keys: [String]
    /// For each of ``keys``, its column's index in ``columns``; nil for a key whose column is not a
    /// parameter (a rowid left to the identity column).
    let slots: [Int?]
    /// Column name to its index in ``columns``: for keys out of the expected order.
    private let slotByColumn: [String: Int]
    /// Coding key to column, when the record's encoder renames keys; nil when keys are column names.
    private let encoderNames: [String: String]?

    init(columns: [String], orderedKeys: [(key: String, column: String)], encoderNames: [String: String]?) {
        self.columns = columns
        self.encoderNames = encoderNames
        var slotByColumn: [String: Int] = [:]
        // The first of two equal names wins, as the dictionary by name did.
        for (index, name) in columns.enumerated().reversed() { slotByColumn[name] = index }
        self.slotByColumn = slotByColumn
        keys = orderedKeys.map(\.key)
        slots = orderedKeys.map { slotByColumn[$0.column] }
    }

    /// The slot of coding key `key` (its column's index in ``columns``), found by name; nil when its column
    /// is not one of them.
    func slot(forKey key: String) -> Int? { slotByColumn[encoderNames?[key] ?? key] }
}
#endif
