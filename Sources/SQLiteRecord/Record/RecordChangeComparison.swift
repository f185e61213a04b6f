/// The two plans that ``Record/updateChanges(_:from:)`` encodes a record and its original into, to find the
/// columns whose stored values differ.
///
/// Each plan's binding keeps the values its record encodes, by storage class in plain buffers, and binds
/// none of them (see ``StatementBinding/bindsValues``): comparing two records then costs their two encodings
/// and no ``EncodedColumns``, column-name strings or ``SQLiteValue``s.
///
/// Made from the first record compared (its coding keys and column names), and kept per record type in the
/// connection's ``RecordConnectionCache``; it is stale, and made anew, when a plan would be (the schema
/// generation, the type's table or key column changed). A pair of records whose coding keys differ from the
/// plans' gets a comparison made from the changed record; one whose original encodes other keys than the
/// changed record is compared by column name (``Record/changedColumns(from:db:)``).
final class RecordChangeComparison {
    /// The plans the original and the changed record are encoded into; ``RecordWritePlan/Kind/Tag/compareValues``.
    let before: RecordWritePlan
    let after: RecordWritePlan

    /// Makes the two plans for the columns `names`, encoded from coding keys `keys` (same order); the key's
    /// columns (`key`) and the `generated` ones are left out, as an UPDATE leaves them out.
    /// - Throws: ``DatabaseError`` when the plans' statement cannot be prepared (no column to compare) or the
    ///   table's columns read.
    init(
        keys: [String], names: [String], key: KeyMatch, generated: GeneratedColumns, primaryKeyColumn: String,
        tableName: String, options: RecordEncoder, db: Database
    ) throws {
        let columns = RecordWritePlan.Columns(.compareValues, names: names, key: key, generated: generated)
        func plan() throws -> RecordWritePlan {
            try RecordWritePlan(
                .compareValues, keys: keys, names: names, columns: columns, key: key,
                primaryKeyColumn: primaryKeyColumn, tableName: tableName, options: options, db: db)
        }
        before = try plan()
        after = try plan()
    }

    /// The columns whose stored values differ between `record` and `original`, in column order, without the
    /// key's and the generated ones; nil when either record does not encode the plans' coding keys, or a
    /// plan is in use (a comparison started from a record's own `encode(to:)`): the caller compares with a
    /// comparison made from `record`, or by column name, then.
    /// - Throws: what encoding either record throws.
    func changedColumns<R: Record>(_ record: R, from original: R) throws -> [String]? {
        let kept = after.binding
        let previous = before.binding
        defer {
            // A large text or blob is let go of now, rather than held until the next comparison.
            if kept.holdsLargeValue { kept.releaseValues() }
            if previous.holdsLargeValue { previous.releaseValues() }
        }
        guard try Self.keep(original, in: before), try Self.keep(record, in: after) else { return nil }
        var changed: [String] = []
        for index in 0..<kept.parameterCount where !kept.holdsSameValue(at: index, as: previous) {
            changed.append(after.boundColumns[index])
        }
        return changed
    }

    /// Encodes `record` into `plan`'s binding, which keeps its values.
    /// - Returns: false when the plan is in use or the record's keys differ from the plan's.
    private static func keep<R: Record>(_ record: R, in plan: RecordWritePlan) throws -> Bool {
        guard !plan.isInUse else { return false }
        plan.isInUse = true
        let encoder = plan.encoder
        defer {
            plan.isInUse = false
            plan.replaceEncoderIfKept()
        }
        return try encoder.encode(record)
    }
}
