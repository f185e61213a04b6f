import Foundation

// The one place the decoder and the binding read a coding key's raw bytes (`_isPOD`, `unsafeBitCast`): the
// owner of key identity. Everything else compares keys through `KeyIdentity.isKey(_:recordedAs:_:)` and
// `KeyIdentity.bytes(of:)`.
//
// Invariant: a key's bytes are read only when the key is plain data (`_isPOD`) whose size is 0, 1, 2, 4, 8 or
// 16 bytes and whose alignment is at least its size (8 for 16), so every bit cast reads exactly the key's own
// bytes as an unsigned integer of the same size; a key of any other type or size is never reinterpreted and
// is compared by its string instead. A type is recorded (`typeBits(of:)`) only beside bytes read this way,
// so a key whose type matches a recorded one meets the same checks without asking them again.

/// A coding key recognized by its type and raw bytes, without asking it for its string (a call through its
/// witness table that builds a `String`): a key's string is a function of its value, so equal bytes of the
/// same type are the same key. Used by the key trail of the decoder and by ``StatementBinding`` alike.
///
/// Only keys that are plain data (`_isPOD`) of 0, 1, 2, 4, 8 or 16 bytes, aligned to their size (or to 8 for
/// 16), are recognized this way, as a CodingKeys enum is (one byte, none for an enum of one case); other keys
/// are compared by their string.
package enum KeyIdentity {
    /// Up to 16 bytes of a key, zero-padded.
    package typealias Bytes = (UInt64, UInt64)

    /// The bits of `Key`'s metadata pointer, never 0 (so 0 can stand for "no type recorded").
    @inline(__always)
    static func typeBits<Key>(of type: Key.Type) -> UInt {
        UInt(bitPattern: ObjectIdentifier(type))
    }

    /// True when `key` is the key recorded as `keyType` (its ``typeBits(of:)``) and `bytes`.
    ///
    /// A type is recorded only for keys that ``bytes(of:)`` reads, so a key whose type matches is plain data of
    /// a size that function reads: its POD-ness is not asked again, and a key of one byte is compared as that
    /// byte alone (the padding word of a one-byte key's bytes is always 0).
    @inline(__always)
    static func isKey<Key>(_ key: Key, recordedAs keyType: UInt, _ bytes: Bytes) -> Bool {
        guard keyType == typeBits(of: Key.self) else { return false }
        if MemoryLayout<Key>.size == 1 { return bytes.0 == UInt64(unsafeBitCast(key, to: UInt8.self)) }
        return wideBytes(of: key).map { $0 == bytes } ?? false
    }

    /// The raw bytes of a key that is plain data of a size this type reads, zero-padded; nil for other keys.
    ///
    /// Read with `unsafeBitCast` after the size and alignment checks, which makes it one load from the key's
    /// address even in unspecialized code (`withUnsafeBytes(of:)` is not inlined there).
    @inline(__always)
    package static func bytes<Key>(of key: Key) -> Bytes? {
        guard _isPOD(Key.self) else { return nil }
        if MemoryLayout<Key>.size == 1 { return (UInt64(unsafeBitCast(key, to: UInt8.self)), 0) }
        return wideBytes(of: key)
    }

    /// ``bytes(of:)`` for keys of other sizes than one byte.
    @inline(__always)
    private static func wideBytes<Key>(of key: Key) -> Bytes? {
        let size = MemoryLayout<Key>.size
        guard size == 0 || MemoryLayout<Key>.alignment >= min(size, 8) else { return nil }
        switch size {
        case 0: return (0, 0)
        case 1: return (UInt64(unsafeBitCast(key, to: UInt8.self)), 0)
        case 2: return (UInt64(unsafeBitCast(key, to: UInt16.self)), 0)
        case 4: return (UInt64(unsafeBitCast(key, to: UInt32.self)), 0)
        case 8: return (unsafeBitCast(key, to: UInt64.self), 0)
        case 16: return unsafeBitCast(key, to: Bytes.self)
        default: return nil
        }
    }
}
