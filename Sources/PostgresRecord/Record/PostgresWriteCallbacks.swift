#if PostgreSQL
import Foundation
import SQLiteRecord

/// The before-write callbacks of a record on PostgreSQL: ``willSave(_:)`` and ``willDelete(_:)`` are called
/// where `Record.willSave(_:)` and `Record.willDelete(_:)` are called on SQLite, with the connection in
/// place of SQLite's `Database` (a Record's own callbacks take SQLite's `Database`, which a PostgreSQL write
/// does not have). `Record.didInsert(rowID:)` and `Record.didDelete(_:)` take no connection and are
/// called on both engines with no adoption.
///
/// ```swift
/// extension City: PostgresWriteCallbacks {
///     func willSave(_ connection: PostgresConnection) throws {
///         if name.isEmpty { throw ValidationError.emptyName }
///     }
/// }
/// ```
///
/// As on SQLite: `willSave` runs before every insert, update, upsert and save of the record (also from
/// `save(_:children:)` and the batch calls), inside the write's transaction when there is one; a throw aborts
/// the write, nothing is written, and the error is passed on. `willDelete` runs before the record's delete;
/// a throw aborts it. Neither runs for `deleteAll` or `updateAll` of a request, which decode no record.
public protocol PostgresWriteCallbacks: Record {
    /// Called before every insert or update of this record on PostgreSQL. Throw to abort the write.
    /// - Throws: what you choose; nothing is written.
    func willSave(_ connection: PostgresConnection) throws

    /// Called before this record's row is deleted on PostgreSQL. Throw to abort the delete.
    /// - Throws: what you choose; nothing is deleted.
    func willDelete(_ connection: PostgresConnection) throws
}

extension PostgresWriteCallbacks {
    /// Does nothing.
    public func willSave(_ connection: PostgresConnection) throws {}

    /// Does nothing.
    public func willDelete(_ connection: PostgresConnection) throws {}
}

extension Record {
    /// ``PostgresWriteCallbacks/willSave(_:)`` for a type that adopts it; `shape` (this type's) tells whether it
    /// does, so that other types make no dynamic cast.
    func callWillSave(_ connection: PostgresConnection, _ shape: PostgresRecordShape) throws {
        guard shape.hasWriteCallbacks else { return }
        try (self as? any PostgresWriteCallbacks)?.willSave(connection)
    }

    /// ``PostgresWriteCallbacks/willDelete(_:)`` for a type that adopts it, as ``callWillSave(_:_:)``.
    func callWillDelete(_ connection: PostgresConnection, _ shape: PostgresRecordShape) throws {
        guard shape.hasWriteCallbacks else { return }
        try (self as? any PostgresWriteCallbacks)?.willDelete(connection)
    }
}
#endif
