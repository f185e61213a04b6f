/// What a partial update (``Record/update(_:columns:)``, ``Record/updateChanges(_:from:)``) throws into a
/// record's `encode(to:)` to end it early: from the first `encode` call after the record has encoded every
/// value the update needs (the columns it writes and the key's columns), before that call converts or binds
/// its value. The encoder that threw it catches it where the record's `encode(to:)` returns, and the update
/// goes on with the values it has.
///
/// Both ways of writing stop at the same point: ``ColumnsEncoder`` collecting the first record of a type
/// (which counts the columns it still needs), and the write plan made from it, whose binding expects exactly
/// the coding keys that first record encoded before it stopped (``StatementBinding/stopsPastLastKey``). What
/// the record's own code does before that call runs on both (a check between two `encode` calls); what it
/// does after it does not run. The stop comes from the next value rather than the last one needed, so that
/// the other writes' values carry no check: a partial update's binding meets it where it already asks
/// whether the record has more keys than expected. A record whose code catches this error goes on with
/// encoding as it likes: each later value throws it again, and the update writes what was encoded before
/// the first. Any error the record's `encode(to:)` throws once the stop was thrown into it (the stop wrapped
/// in an error of the record's own) ends the encoding as the stop does: it comes from code the update does
/// not run (``ColumnsEncoder/hasStopped``, ``StatementBinding/hasStopped``).
///
/// The encoder that throws it notes that it did (``ColumnsEncoder/hasStopped``, ``StatementBinding/hasStopped``),
/// and that flag, not the error's type or identity, tells the update that the encoding stopped: it also covers
/// the stop wrapped in an error of the record's own.
struct EncodingStop: Error {}
