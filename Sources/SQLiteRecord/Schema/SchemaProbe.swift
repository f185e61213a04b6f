import Foundation

/// What a type's `init(from:)` asked for at one coding key: the Swift side of a column.
package enum ProbedValueKind: Equatable {
    /// Bool: stored as INTEGER 0/1, read from INTEGER, REAL or TEXT.
    case bool
    /// Every fixed-width integer type, and enums over one.
    case integer
    /// Double and Float, and enums or wrappers over one.
    case real
    /// String, and enums or wrappers over one.
    case string
    case data
    case date
    case uuid
    case url
    case decimal
    /// A struct, array or dictionary: stored as JSON text.
    case nested
    /// The type asked for nothing the probe could see.
    case unknown
}

/// One coding key a type's `init(from:)` asked for.
struct ProbedKey: Equatable {
    /// The key's string value.
    let key: String
    var kind: ProbedValueKind?
    /// True when the key was read with `decodeIfPresent` or checked with `decodeNil(forKey:)`.
    var isOptional: Bool
    /// The Swift type asked for, as Swift prints it.
    var valueType: String
}

/// Finds a `Decodable` type's keys by decoding it once from placeholder values.
///
/// Records are keyed types; their `init(from:)` asks the keyed container for each property in turn, and the
/// container answers with placeholders (0, false, "", nil for Optionals) while it writes down the key, the
/// type asked for and whether it was Optional. A property of a type of its own (an enum, a wrapper, a
/// nested struct) is made by that type's `init(from:)` over a ``ValueProbe``, which notes what it asked for:
/// a single String or Int (a RawRepresentable enum), or a container (a nested value, stored as JSON).
enum SchemaProbe {
    /// How deep nested values may go before the probe gives up: only a recursive type goes this deep.
    static let maximumDepth = 32

    /// The keys of `type`, in the order its `init(from:)` asks for them.
    /// - Throws: ``SchemaProbeError`` naming the key when a value cannot be made from placeholders, or when
    ///   the type's `init(from:)` rejects them.
    static func keys<T: Decodable>(of type: T.Type, table: String) throws -> [ProbedKey] {
        let recording = ProbeRecording(recordType: "\(type)", table: table)
        do {
            _ = try T(from: RecordProbeDecoder(recording: recording))
        } catch let error as SchemaProbeError {
            throw error
        } catch {
            throw SchemaProbeError(
                recordType: "\(type)", table: table, key: recording.lastKey, valueType: nil,
                reason: "its init(from:) threw on the placeholder values read up to this key: \(describe(error))")
        }
        return recording.keys
    }

    /// The kind of the types the value table reads straight from a column; nil for other types.
    static func directKind(_ type: Any.Type) -> ProbedValueKind? {
        if type == String.self { return .string }
        if type == Bool.self { return .bool }
        if type == Double.self || type == Float.self { return .real }
        if type == Int.self || type == Int64.self || type == Int32.self || type == Int16.self || type == Int8.self
            || type == UInt.self || type == UInt64.self || type == UInt32.self || type == UInt16.self
            || type == UInt8.self
        {
            return .integer
        }
        if type == Date.self { return .date }
        if type == Data.self { return .data }
        if type == UUID.self { return .uuid }
        if type == URL.self { return .url }
        if type == Decimal.self { return .decimal }
        return nil
    }

    /// A placeholder of the types ``directKind(_:)`` knows; nil for other types.
    static func placeholder<T>(of type: T.Type) -> T? {
        let value: Any?
        switch directKind(type) {
        case .string: value = ""
        case .bool: value = false
        case .real: value = type == Float.self ? Float(0) as Any : Double(0) as Any
        case .integer: value = integerPlaceholder(type)
        case .date: value = Date(timeIntervalSince1970: 0)
        case .data: value = Data()
        case .uuid: value = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        case .url: value = URL(fileURLWithPath: "/")
        case .decimal: value = Decimal(0)
        case .nested, .unknown, nil: value = nil
        }
        return value as? T
    }

    private static func integerPlaceholder(_ type: Any.Type) -> Any? {
        let zeros: [Any] = [
            Int(0), Int64(0), Int32(0), Int16(0), Int8(0), UInt(0), UInt64(0), UInt32(0), UInt16(0), UInt8(0),
        ]
        return zeros.first { Swift.type(of: $0) == type }
    }

    /// A value of `type` made from placeholders, with what its `init(from:)` asked for.
    /// - Throws: what the type's `init(from:)` throws, unless the type is `CaseIterable` (its first case is
    ///   used then), or ``ProbeFailure/tooDeep`` for a recursive type.
    static func value<T: Decodable>(
        of type: T.Type, codingPath: [any CodingKey], depth: Int
    ) throws -> (value: T, kind: ProbedValueKind) {
        if let kind = directKind(type), let placeholder = placeholder(of: type) { return (placeholder, kind) }
        guard depth < maximumDepth else { throw ProbeFailure.tooDeep }
        let probe = ValueProbe(codingPath: codingPath, depth: depth + 1)
        do {
            let value = try T(from: probe)
            return (value, probe.kind ?? .unknown)
        } catch {
            if let first = firstCase(of: type) { return (first, probe.kind ?? .unknown) }
            throw error
        }
    }

    /// What `type`'s `init(from:)` asks for, whether or not it accepts the placeholders; for Optional
    /// properties, which the probe answers with nil.
    static func kind<T: Decodable>(of type: T.Type, codingPath: [any CodingKey]) -> ProbedValueKind {
        if let kind = directKind(type) { return kind }
        let probe = ValueProbe(codingPath: codingPath, depth: 1)
        _ = try? T(from: probe)
        return probe.kind ?? .unknown
    }

    /// The first case of a `CaseIterable` type; nil for other types.
    static func firstCase<T>(of type: T.Type) -> T? {
        guard let iterable = type as? any CaseIterable.Type else { return nil }
        return firstElement(of: iterable) as? T
    }

    private static func firstElement<C: CaseIterable>(of type: C.Type) -> Any? {
        C.allCases.first
    }

    /// An error's own message: the debug description of a `DecodingError`, the description of others.
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
            DecodingError.valueNotFound(_, let context), DecodingError.keyNotFound(_, let context):
            return context.debugDescription
        default:
            return "\(error)"
        }
    }
}

/// The probe's own failures.
enum ProbeFailure: Error, CustomStringConvertible {
    /// A nested value deeper than ``SchemaProbe/maximumDepth``.
    case tooDeep
    /// A type the probe has no placeholder for was asked for as a primitive.
    case noPlaceholder(String)

    var description: String {
        switch self {
        case .tooDeep:
            return "values nest more than \(SchemaProbe.maximumDepth) levels deep, as only a recursive type does"
        case .noPlaceholder(let type):
            return "the probe has no placeholder for \(type)"
        }
    }
}

/// Optional, whatever it wraps: a key read with `decode(X?.self, forKey:)` holds NULL too.
protocol ProbedOptional {}
extension Optional: ProbedOptional {}

/// The keys a record's `init(from:)` has asked for so far.
final class ProbeRecording {
    let recordType: String
    let table: String
    private(set) var keys: [ProbedKey] = []
    private var positions: [String: Int] = [:]
    /// The key asked for last, named in errors.
    private(set) var lastKey: String?

    init(recordType: String, table: String) {
        self.recordType = recordType
        self.table = table
    }

    /// Notes a key; a key asked for twice (`decodeNil` then `decode`) is one column, Optional when either
    /// request was.
    func record(_ key: String, kind: ProbedValueKind?, isOptional: Bool, valueType: Any.Type) {
        lastKey = key
        if let position = positions[key] {
            if keys[position].kind == nil, let kind {
                keys[position].kind = kind
                keys[position].valueType = "\(valueType)"
            }
            keys[position].isOptional = keys[position].isOptional || isOptional
            return
        }
        positions[key] = keys.count
        keys.append(ProbedKey(key: key, kind: kind, isOptional: isOptional, valueType: "\(valueType)"))
    }

    /// The error for a value that could not be made at `key`.
    func failure(at key: String, valueType: Any.Type, _ error: any Error) -> SchemaProbeError {
        if let error = error as? SchemaProbeError { return error }
        return SchemaProbeError(
            recordType: recordType, table: table, key: key, valueType: "\(valueType)",
            reason: "the probe could not make a \(valueType) from placeholder values: \(SchemaProbe.describe(error))")
    }
}

/// The `Decoder` a record is probed with: keyed, one column per key, like the row decoder it stands in for.
struct RecordProbeDecoder: Decoder {
    let recording: ProbeRecording
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RecordProbeContainer<Key>(recording: recording))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw notKeyed([Any].self) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw notKeyed(Any.self) }

    private func notKeyed(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(
            type,
            .init(
                codingPath: [],
                debugDescription: "a record decodes from a keyed container, one column per coding key"))
    }
}

/// A record type whose columns cannot be found by decoding it once from placeholder values, which
/// ``Record/createTable(in:ifNotExists:)`` and ``Record/validateSchema(in:)`` do.
///
/// The probe gives every property a placeholder: 0, false, "", an empty array, the first case of a
/// `CaseIterable` enum. A type it cannot make that way is reported here: an enum whose raw values do not
/// include the placeholder and that is not `CaseIterable`, or an `init(from:)` that validates what it reads.
public struct SchemaProbeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The record type, as Swift prints it.
    public let recordType: String
    /// The record's table.
    public let table: String
    /// The coding key being decoded when the probe failed, or the last one read when the record's own
    /// `init(from:)` threw; nil when it failed before the first key.
    public let key: String?
    /// The type decoded at that key, as Swift prints it; nil when the record's own `init(from:)` failed.
    public let valueType: String?
    /// What went wrong, from the type's own error when it threw one.
    public let reason: String

    /// Makes an error; the library builds these when probing a type.
    public init(recordType: String, table: String, key: String?, valueType: String?, reason: String) {
        self.recordType = recordType
        self.table = table
        self.key = key
        self.valueType = valueType
        self.reason = reason
    }

    /// What failed, where, and the two ways out: make the value probeable, or declare the table by hand.
    public var description: String {
        var text = "Cannot derive the columns of table \"\(table)\" from \(recordType)"
        if let key {
            text += " at key \"\(key)\"" + (valueType.map { " (\($0))" } ?? "")
        }
        text += ": \(reason). "
        if let valueType {
            text +=
                "Make \(valueType) CaseIterable (the probe then uses its first case) or give it a value for "
                + "the probe's placeholder (0, false or \"\"), or declare the table by hand: "
        } else {
            text += "Declare the table by hand: "
        }
        return text + "try db.execute(sql: \"CREATE TABLE ...\") in a DatabaseMigrator migration"
    }
}
