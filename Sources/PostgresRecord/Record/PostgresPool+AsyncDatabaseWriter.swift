#if PostgreSQL
import SQLiteRecord

/// Both pools are writers of the engine-neutral Record calls (`try await city.save(pool)`,
/// `try await City.fetch(pool, where: ["country_id": 1])`): writes run on the primary, reads in a read-only
/// transaction (on a replica pool, on a replica, with no wait for the last write; for that, run the
/// connection's call in ``PostgresReplicaPool/read(after:isolation:_:)``).
extension PostgresPool: AsyncDatabaseWriter {}

extension PostgresReplicaPool: AsyncDatabaseWriter {}
#endif
