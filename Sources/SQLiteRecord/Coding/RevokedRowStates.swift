import Foundation

/// Keeps alive the storage of row states whose keyed containers user code kept past their rows, for as long
/// as it holds them, then lets it go.
///
/// The keyed container that a context reuses from row to row is plain data (a pointer into its state): the
/// standard library's container box copies it on every call, which costs a retain and a release per column
/// when it holds a reference. So it does not retain the state's storage; the context holds it while the
/// container is its own, and hands it here when a row ends with the container kept. An entry goes once no
/// box of it is held elsewhere, which is asked whenever an entry is added: kept containers are rare, so
/// the list stays as short as the number of kept containers still alive, plus those let go since.
package final class RevokedRowStates: @unchecked Sendable {
    package static let shared = RevokedRowStates()

    /// Guards `entries`: contexts on different connections end rows on different threads.
    private let lock = NSLock()
    private var entries: [(storage: AnyObject, boxes: [ReusableContainerBox])] = []

    /// Keeps `storage` (a revoked row state's, or PostgreSQL's row reader) alive while any of `boxes` is held
    /// elsewhere.
    package func keep(_ storage: AnyObject, whileHeld boxes: [ReusableContainerBox]) {
        lock.withLock {
            entries.removeAll { entry in !entry.boxes.contains(where: \.isHeldElsewhere) }
            entries.append((storage, boxes))
        }
    }

    /// How many storages are kept (for tests).
    var count: Int { lock.withLock { entries.count } }
}
