/// One closure given to ``Database/Options/prepareDatabase(_:)``, boxed so that options holding it can be
/// compared (by the box's identity) and copied without copying the closure's captures.
final class DatabaseSetup: Sendable {
    let body: @Sendable (Database) throws -> Void

    init(_ body: @escaping @Sendable (Database) throws -> Void) {
        self.body = body
    }
}
