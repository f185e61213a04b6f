import Foundation

/// The value an equality filter compares a column with, as every stored form that counts as equal to it.
///
/// Most values have one stored form, the one the record encoder writes. A `UUID` has three, since tables
/// hold UUIDs the way their writers chose: lowercase text (what the encoder writes by default, RFC 9562's
/// form), uppercase text (`UUID().uuidString`, what Apple's APIs and many other tools write), and the 16
/// bytes as a BLOB (``RecordEncoder/UUIDEncodingStrategy/blob``). A filter on a UUID matches all three:
/// `"id" IN (?, ?, ?)`, which an index on the column still serves. Every filter form the library writes
/// (the `where:` dictionaries of fetch, count and deleteAll) builds its conditions here, and requests
/// compare a UUID with the same three forms.
struct FilterValue: Equatable {
    /// The stored forms that match, the encoder's own first; empty for NULL, which matches `IS NULL`.
    let forms: [SQLiteValue]

    /// True when a form is text that holds U+0000, which `"column" = ?` compares only up to it under NOCASE.
    var holdsNUL: Bool {
        forms.contains { if case .text(let text) = $0 { return text.utf8.contains(0) } else { return false } }
    }

    /// A value with one stored form; `.null` matches NULL.
    init(_ value: SQLiteValue) {
        forms = value == .null ? [] : [value]
    }

    /// A UUID, matched as lowercase text, uppercase text and a 16-byte BLOB.
    init(_ uuid: UUID) {
        let upper = uuid.uuidString
        forms = [.text(upper.lowercased()), .text(upper), .blob(uuid.sqliteBlob)]
    }

    /// The value of a `where:` dictionary: a UUID (an Optional one too) in all its forms, anything else by
    /// its checked SQLite value.
    /// - Throws: what the value's ``SQLiteValueConvertible/checkedSQLiteValue()`` throws (a `UInt64` above
    ///   `Int64.max`).
    init(filtering value: (any SQLiteValueConvertible)?) throws {
        // The cast looks through an Optional a caller passed in (`UUID?` as the dictionary's value).
        if let uuid = value as? UUID {
            self.init(uuid)
        } else {
            self.init(try value?.checkedSQLiteValue() ?? .null)
        }
    }
}
