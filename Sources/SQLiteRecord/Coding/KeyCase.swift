import Foundation

/// snake_case conversion of coding keys, as Foundation's `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`
/// spells it: `countryId` becomes `country_id`, `imageURL` becomes `image_url`, `URLString` becomes
/// `url_string`; leading and trailing underscores are kept.
///
/// Conversions are cached, since the same few keys are converted for every record saved.
enum KeyCase {
    // `cache` is read and written only while `lock` is held.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [String: String] = [:]

    /// `key` in snake_case, from the cache when it was converted before.
    static func snakeCase(_ key: String) -> String {
        lock.lock()
        if let cached = cache[key] {
            lock.unlock()
            return cached
        }
        lock.unlock()
        let converted = convertToSnakeCase(key)
        lock.lock()
        if cache.count < 10_000 { cache[key] = converted }
        lock.unlock()
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
