/// The parent keys of an eager load (``IncludingAllRequest``), and the parent key a child's foreign key
/// stands for: what the children are grouped under.
///
/// The children's query matches `"fk" IN (parent keys)`, and SQLite applies the foreign key column's
/// affinity to the parent keys before comparing: a TEXT column holds and matches the parent id 1 as the text
/// '1', an INTEGER or NUMERIC column the parent key '1' as the integer 1, a REAL column the parent id 1 as
/// 1.0. Such a child is grouped under the parent key it matched, as ``Record/request(for:)-(HasManyAssociation<Self,Child>)``
/// finds it. See <https://www.sqlite.org/datatype3.html#type_affinity>.
///
/// A foreign key of the parent keys' own storage class, the common case, is its own parent key: no hashing.
struct ParentKeyForms {
    private let keys: [SQLiteValue]
    /// The storage class all the parent keys share (``storageClass(of:)``); nil when they are of several.
    private let sharedClass: UInt8?
    /// The parent key each form stands for, the parent keys' own forms first: made when a foreign key of
    /// another storage class is first seen.
    private var parentKeyOfForm: [SQLiteValue: SQLiteValue]?

    /// The forms of `keys`, the distinct non-NULL parent keys of the load.
    init(_ keys: [SQLiteValue]) {
        self.keys = keys
        let first = keys.first.map(Self.storageClass)
        sharedClass = keys.allSatisfy { Self.storageClass(of: $0) == first } ? first : nil
    }

    /// The parent key that the child foreign key `value` matched: `value` itself when it is of the parent
    /// keys' storage class or no parent key's other form.
    mutating func parentKey(for value: SQLiteValue) -> SQLiteValue {
        if let sharedClass, Self.storageClass(of: value) == sharedClass { return value }
        if parentKeyOfForm == nil { parentKeyOfForm = Self.parentKeys(ofForms: keys) }
        return parentKeyOfForm?[value] ?? value
    }

    /// `value`'s storage class as a number, compared without making its name.
    @inline(__always)
    private static func storageClass(of value: SQLiteValue) -> UInt8 {
        switch value {
        case .null: return 0
        case .integer: return 1
        case .real: return 2
        case .text: return 3
        case .blob: return 4
        }
    }

    /// Every parent key by itself and by the forms a column's affinity may turn it into, a parent key's own
    /// form winning over another key's converted form.
    private static func parentKeys(ofForms keys: [SQLiteValue]) -> [SQLiteValue: SQLiteValue] {
        var parentKeys: [SQLiteValue: SQLiteValue] = [:]
        for key in keys { parentKeys[key] = key }
        for key in keys {
            for form in convertedForms(of: key) where parentKeys[form] == nil { parentKeys[form] = key }
        }
        return parentKeys
    }

    /// The forms SQLite's column affinities turn `key` into, where they keep its value exactly: an integer as
    /// canonical decimal text and as a double, integral text as an integer and a double, an integral double
    /// as an integer.
    private static func convertedForms(of key: SQLiteValue) -> [SQLiteValue] {
        switch key {
        case .integer(let integer):
            let real = Double(integer)
            let exact = real < 9.223_372_036_854_775_808e18 && Int64(real) == integer
            return [.text(String(integer))] + (exact ? [.real(real)] : [])
        case .real(let real):
            guard real.rounded() == real, real >= -9.223_372_036_854_775_808e18, real < 9.223_372_036_854_775_808e18
            else { return [] }
            return [.integer(Int64(real))]
        case .text(let text):
            guard let integer = Int64(text), String(integer) == text else { return [] }
            return convertedForms(of: .integer(integer)).filter { $0 != key } + [.integer(integer)]
        case .null, .blob:
            return []
        }
    }
}
