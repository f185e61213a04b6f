#if PostgreSQL
import Foundation

/// The unkeyed container over an array column's elements: what a `[T]` (and `[T?]`, `Set<T>`) asks its
/// decoder for. Each element is read by the value table (``PostgresValueReader``) as a column of the element
/// type would be, at the coding path of the column and the element's index, so that its errors are the
/// scalar ones naming the element: `valueNotFound` for a NULL element into a non-optional `T`,
/// `typeMismatch` for an element type that never holds `T`, `dataCorrupted` for a value out of `T`'s range.
struct PostgresArrayDecodingContainer: UnkeyedDecodingContainer {
    private let elements: [PostgresCell]
    /// The column's reader: its name, coding path and JSON decoder.
    private let reader: PostgresValueReader.Context
    private(set) var currentIndex = 0

    init(array: PostgresArrayCell, reader: PostgresValueReader.Context) {
        elements = array.elements
        self.reader = reader
    }

    var codingPath: [any CodingKey] { reader.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The coding path of the current element.
    private var elementPath: [any CodingKey] { reader.codingPath + [PostgresIndexKey(currentIndex)] }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw atEnd(Any?.self) }
        guard case .null = elements[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try read(T.self) }

    // The standard library's array asks for its elements through these, one per element type.
    mutating func decode(_ type: Bool.Type) throws -> Bool { try read(Bool.self) }
    mutating func decode(_ type: String.Type) throws -> String { try read(String.self) }
    mutating func decode(_ type: Double.Type) throws -> Double { try read(Double.self) }
    mutating func decode(_ type: Float.Type) throws -> Float { try read(Float.self) }
    mutating func decode(_ type: Int.Type) throws -> Int { try read(Int.self) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try read(Int8.self) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try read(Int16.self) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try read(Int32.self) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try read(Int64.self) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try read(UInt.self) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try read(UInt8.self) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try read(UInt16.self) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try read(UInt32.self) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try read(UInt64.self) }

    /// The generic read, named apart so that the typed requirements above reach it rather than themselves.
    private mutating func read<T: Decodable>(_ type: T.Type) throws -> T {
        guard !isAtEnd else { throw atEnd(T.self) }
        let value = try PostgresValueReader.read(
            T.self, elements[currentIndex], column: reader.column, codingPath: elementPath,
            jsonDecoder: reader.jsonDecoder, element: currentIndex)
        currentIndex += 1
        return value
    }

    /// An element is one value: a type that asks for a keyed container in it is read from JSON by
    /// ``decode(_:)``, never through this.
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.typeMismatch(
            [String: Any].self,
            DecodingError.Context(
                codingPath: elementPath,
                debugDescription:
                    "Element \(currentIndex) of column \"\(reader.column)\" is one value, not a keyed one"))
    }

    /// The elements of a one-dimensional array are no arrays (a multi-dimensional one is refused before).
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self,
            DecodingError.Context(
                codingPath: elementPath,
                debugDescription:
                    "Element \(currentIndex) of column \"\(reader.column)\" is one value, not an array"))
    }

    /// A decoder over the current element, which it moves past.
    mutating func superDecoder() throws -> any Decoder {
        guard !isAtEnd else { throw atEnd((any Decoder).self) }
        let element = PostgresValueReader.Context(
            cell: elements[currentIndex], column: reader.column, codingPath: elementPath,
            jsonDecoder: reader.jsonDecoder, element: currentIndex)
        currentIndex += 1
        return PostgresValueDecoder(reader: element)
    }

    /// The error for a read past the last element, as Foundation's decoders report it.
    private func atEnd(_ type: Any.Type) -> DecodingError {
        DecodingError.valueNotFound(
            type,
            DecodingError.Context(
                codingPath: elementPath,
                debugDescription: "Column \"\(reader.column)\" holds \(elements.count) elements; no element "
                    + "\(currentIndex)"))
    }
}

/// The coding key of an array element: its index, as Foundation's decoders name it (`Index 2`).
struct PostgresIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}
#endif
