/// A value of a generic type read as a concrete type without a dynamic cast, when the two are the same type.
///
/// Hot generic paths (a key's column value, a request's bound value, the decoder's and encoder's fast paths
/// for `Date`, `Data`, `UUID`, `URL`, `Decimal`) learn that a generic `T` is in fact `String`, `Date` or the
/// key type, and then need the value as that type. `value as? U` costs a dynamic cast through the runtime
/// on every call; a bit cast costs nothing, but is undefined when the two types differ. This type is the one
/// place such casts happen.
///
/// Invariant: a bit cast is made only between two types that were checked to be the same (`T.self ==
/// U.self`), so it is the identity, and an object is downcast only to its own class (``exactly(_:as:)``
/// compares the class identities first). ``cast(_:to:)`` checks and returns nil for any other pair;
/// ``cast(checked:to:)`` is for the caller that has just checked (`if T.self == Date.self { ... }`), and
/// checks again, which costs nothing once specialized, throwing rather than reinterpreting memory when the
/// caller's check was wrong. Its tests (`SameTypeCastTests`) run under the address sanitizer with types of
/// other sizes, where a cast without the check would read past the value.
package enum SameTypeCast {
    /// `value` as `U` when `T` is `U`; nil otherwise (never a reinterpretation of another type's bits).
    @inline(__always)
    package static func cast<T, U>(_ value: T, to type: U.Type) -> U? {
        guard T.self == U.self else { return nil }
        return unsafeBitCast(value, to: U.self)
    }

    /// `value` as `U` when `T` is `U`, for a caller that has just compared the two types and has no use for an
    /// Optional (in unspecialized generic code, `U?` costs a metadata lookup).
    /// - Throws: `DecodingError.typeMismatch` when `T` is not `U` (never a reinterpretation of another type's
    ///   bits).
    @inline(__always)
    package static func cast<T, U>(checked value: T, to type: U.Type) throws -> U {
        guard T.self == U.self else { throw mismatch(T.self, U.self) }
        return unsafeBitCast(value, to: U.self)
    }

    /// Sets `target` to `value` when `T` is `U`; leaves it unchanged otherwise (never a reinterpretation of
    /// another type's bits). Unlike `cast(_:to:)` into a `T?`, it makes no metadata of `T?` in code that is
    /// not specialized for `T`.
    /// - Returns: true when `target` was set.
    @discardableResult
    package static func assign<T, U>(_ value: U, to target: inout T) -> Bool {
        guard T.self == U.self else { return false }
        target = unsafeBitCast(value, to: T.self)
        return true
    }

    /// `object` as `T` when its class is exactly `T` (a final class), found by comparing class identities;
    /// nil for any other object and for nil. For a slot typed `AnyObject` in a lower layer that one upper-layer
    /// class fills (``Database``'s record cache): `as?` would search the class hierarchy on every call.
    @inline(__always)
    package static func exactly<T: AnyObject>(_ object: AnyObject?, as type: T.Type) -> T? {
        guard let object, ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(T.self) else { return nil }
        return unsafeDowncast(object, to: T.self)
    }

    @inline(never)
    private static func mismatch(_ from: Any.Type, _ to: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(to, .init(codingPath: [], debugDescription: "\(from) is not \(to)"))
    }
}
