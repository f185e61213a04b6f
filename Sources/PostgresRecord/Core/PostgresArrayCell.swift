#if PostgreSQL
import Foundation

/// A PostgreSQL array read out of its binary form (`array_send`): its element type, its dimensions and its
/// elements in storage order (row-major for several dimensions), each a ``PostgresCell`` read as a column of
/// the element type would be. See <https://www.postgresql.org/docs/current/arrays.html>.
///
/// What the decoders read a `[T]`, `[T?]` or `[T]?` from: one dimension (or none, for `'{}'`) reads as a
/// Swift array of its elements in order; its lower bound (1 unless the array was written as `'[0:2]={...}'`)
/// is not part of a Swift array, so it is kept here for messages only.
struct PostgresArrayCell: Sendable, Equatable {
    /// The array type's OID (`_text`, `_int8`...: `pg_type.typarray` of the element type).
    let type: UInt32
    /// The element type's OID, as the array's header gives it.
    let elementType: UInt32
    /// The length of each dimension, outermost first; empty for an empty array (`'{}'`, which has no
    /// dimension at all in PostgreSQL).
    let lengths: [Int]
    /// The lower bound of each dimension (1 unless written otherwise).
    let lowerBounds: [Int]
    /// Every element, NULL ones as `.null`, in storage order.
    let elements: [PostgresCell]

    /// `TEXT[]`, `BIGINT[]`: the element type's name and brackets.
    var typeName: String { PostgresType.name(elementType) + "[]" }

    /// `TEXT[] of 3 elements`, `BIGINT[] empty`, `INTEGER[] of 2 dimensions (2×3)`: the value for a message.
    var summary: String {
        if lengths.count > 1 {
            return "\(typeName) of \(lengths.count) dimensions (\(lengths.map(String.init).joined(separator: "×")))"
        }
        if elements.isEmpty { return "\(typeName) empty" }
        return "\(typeName) of \(elements.count) element\(elements.count == 1 ? "" : "s")"
    }
}

extension PostgresType {
    /// The element type of the built-in array type `array` (`pg_type.typelem`), nil for another type: the
    /// arrays of the types the value table reads (`_bool`, `_bytea`, `_int2`... `_uuid`, `_jsonb`). See
    /// <https://github.com/postgres/postgres/blob/master/src/include/catalog/pg_type.dat>.
    static func elementType(ofArray array: UInt32) -> UInt32? {
        switch array {
        case 1000: return bool
        case 1001: return bytea
        case 1002: return char
        case 1003: return identifier
        case 1005: return int2
        case 1007: return int4
        case 1009: return text
        case 1014: return bpchar
        case 1015: return varchar
        case 1016: return int8
        case 1021: return float4
        case 1022: return float8
        case 1028: return oid
        case 199: return json
        case 3807: return jsonb
        case 1115: return timestamp
        case 1182: return date
        case 1185: return timestamptz
        case 1231: return numeric
        case 2951: return uuid
        default: return nil
        }
    }

    /// The most dimensions an array has (`MAXDIM` in PostgreSQL's `utils/array.h`).
    static let maximumArrayDimensions = 6
}
#endif
