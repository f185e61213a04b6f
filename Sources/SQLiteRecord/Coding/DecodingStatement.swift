/// A prepared statement kept with the decoding context its rows share, for a caller that runs the statement
/// again and again and decodes each run's row the same way (a record type's lookup by key, see
/// ``RecordLookupPlan``).
///
/// Invariant: the context never outlives the statement. A ``RowDecodingContext`` refers to its statement
/// without retaining it (see ``RowDecodingContext/statement``); this type owns both, and lets go of the
/// context first when it goes.
final class DecodingStatement {
    let statement: Statement
    /// Decodes ``statement``'s rows; nil only while this object is going (`deinit`).
    private(set) var context: RowDecodingContext?

    /// Keeps `statement` with a context that decodes its rows with `decoder`, naming `tableName` in errors;
    /// `missingOptionalColumnIsNil` as for ``RowDecodingContext``.
    init(statement: Statement, tableName: String?, missingOptionalColumnIsNil: Bool, decoder: RowDecoder) {
        self.statement = statement
        context = RowDecodingContext(
            statement: statement, tableName: tableName, missingOptionalColumnIsNil: missingOptionalColumnIsNil,
            decoder: decoder)
    }

    deinit {
        // The context must not outlive the statement it reads.
        context = nil
    }
}
