import Foundation

/// snake_case conversion of coding keys, as Foundation's `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`
/// spells it: `countryId` becomes `country_id`, `imageURL` becomes `image_url`, `URLString` becomes
/// `url_string`; leading and trailing underscores are kept.
///
/// Conversions are cached, since the same few keys are converted for every record saved.
enum KeyCase {
    /// Process-wide, as the conversion is a pure function of the key that every connection's encoders and
    /// decoders ask for; bounded, so that keys made at run time cannot grow it without end.
    private static let cache = SnakeCaseCache()

    /// `key` in snake_case, from the cache when it was converted before.
    static func snakeCase(_ key: String) -> String {
        if let cached = cache[key] { return cached }
        let converted = convertToSnakeCase(key)
        cache[key] = converted
        return converted
    }

    /// The conversion itself: a word starts at an uppercase letter that follows a lowercase one, or at the
    /// last uppercase letter of a run that a lowercase letter follows.
    static func convertToSnakeCase(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        let characters = Array(key)
        // Keep leading and trailing underscores as they are.
        guard let first = characters.firstIndex(where: { $0 != "_" }) else { return key }
        let last = characters.lastIndex(where: { $0 != "_" }) ?? first
        var words: [String] = []
        var current = ""
        for index in first...last {
            let character = characters[index]
            if character.isUppercase, !current.isEmpty {
                let previous = characters[index - 1]
                let next = index + 1 <= last ? characters[index + 1] : nil
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) {
                    words.append(current)
                    current = ""
                }
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        let body = words.map { $0.lowercased() }.joined(separator: "_")
        return String(characters[..<first]) + body + String(characters[(last + 1)...])
    }
}

/// The conversions ``KeyCase`` made, up to 10,000 of them.
private final class SnakeCaseCache: @unchecked Sendable {
    /// Guards `conversions`: encoders and decoders on different connections convert keys on different threads.
    private let lock = NSLock()
    private var conversions: [String: String] = [:]

    subscript(key: String) -> String? {
        get { lock.withLock { conversions[key] } }
        set { lock.withLock { if conversions.count < 10_000 { conversions[key] = newValue } } }
    }
}
