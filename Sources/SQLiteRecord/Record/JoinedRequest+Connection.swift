/// Joined fetches and eager loads on a connection of any engine, in the caller's transaction, and through a
/// writer of any engine in a read-only transaction of their own. The engine compiles and runs the queries;
/// how the records nest into a result type is the same on every engine.
extension JoinedRequest {
    /// The records with their parents or children, each as a value of `type`, whose keys are the base type's
    /// name in lower camel case (`city`) and the association's key (`country`, an Optional for
    /// ``QueryInterfaceRequest/including(optional:)->JoinedRequest<Base,Parent>``).
    /// - Throws: ``RecordError/missingParent(table:column:value:parentTable:)`` for a required parent that no
    ///   row holds (a required has-one child that is missing leaves its parent out instead),
    ///   ``RecordError/invalidAssociation(association:reason:)`` when a table lacks the foreign key or key
    ///   column or `type`'s keys do not match; otherwise as ``QueryInterfaceRequest/fetch(_:)``.
    public func fetch<T: Decodable>(_ db: some DatabaseConnection, as type: T.Type) throws -> [T] {
        try db.fetchJoinedPairs(self).map { record, associated in
            let value: Any = isRequired ? (associated as Any) : (associated as Associated? as Any)
            return try link.decodeNested(T.self, values: [(link.originKey, record), (link.key, value)])
        }
    }

    /// The records with their parents or children, as pairs (nil only for an optional one).
    /// - Throws: as ``fetch(_:as:)``.
    public func fetchPairs(_ db: some DatabaseConnection) throws -> [(Base, Associated?)] {
        try db.fetchJoinedPairs(self)
    }
}

extension JoinedRequest where Base: Sendable, Associated: Sendable {
    /// ``fetch(_:as:)`` in a read-only transaction of `writer`.
    /// - Throws: as ``fetch(_:as:)``.
    public func fetch<T: Decodable & Sendable>(_ writer: some AsyncDatabaseWriter, as type: T.Type) async throws
        -> [T]
    {
        try await writer.read { db in try self.fetch(db, as: T.self) }
    }

    /// ``fetchPairs(_:)`` in a read-only transaction of `writer`.
    /// - Throws: as ``fetch(_:as:)``.
    public func fetchPairs(_ writer: some AsyncDatabaseWriter) async throws -> [(Base, Associated?)] {
        try await writer.read { db in try self.fetchPairs(db) }
    }
}

extension IncludingAllRequest {
    /// The parents with their children, each as a value of `type`: one query for the parents and one per
    /// association for all their children, whatever the number of parents.
    /// - Throws: ``RecordError/invalidAssociation(association:reason:)`` when a table lacks the foreign key
    ///   or key column, two associations have one key, or `type`'s keys are not the ones the request
    ///   provides; otherwise as ``QueryInterfaceRequest/fetch(_:)``.
    public func fetch<T: Decodable>(_ db: some DatabaseConnection, as type: T.Type) throws -> [T] {
        try db.fetchNested(self, as: T.self)
    }

    /// The parents with their children, as pairs: the children of the association this request was made
    /// with, not those of associations added with ``including(all:)`` (which ``fetch(_:as:)`` gives).
    /// - Throws: as ``fetch(_:as:)``.
    public func fetchGroups(_ db: some DatabaseConnection) throws -> [(Base, [Child])] {
        try db.fetchGroups(self)
    }
}

extension IncludingAllRequest where Base: Sendable, Child: Sendable {
    /// ``fetch(_:as:)`` in a read-only transaction of `writer`: both queries see one snapshot.
    /// - Throws: as ``fetch(_:as:)``.
    public func fetch<T: Decodable & Sendable>(_ writer: some AsyncDatabaseWriter, as type: T.Type) async throws
        -> [T]
    {
        try await writer.read { db in try self.fetch(db, as: T.self) }
    }

    /// ``fetchGroups(_:)`` in a read-only transaction of `writer`.
    /// - Throws: as ``fetch(_:as:)``.
    public func fetchGroups(_ writer: some AsyncDatabaseWriter) async throws -> [(Base, [Child])] {
        try await writer.read { db in try self.fetchGroups(db) }
    }
}
