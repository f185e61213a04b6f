extension RowDecodingContext {
    /// The error for two coding keys of one type whose column names differ only in ASCII case (`name` and
    /// `Name`): SQLite takes both for one column, so neither can be read or written on its own.
    func keysDifferInCase(_ key: any CodingKey, _ other: String) -> DecodingError {
        let place = tableName.map { " of table \"\($0)\"" } ?? ""
        let name = lookup.columnName(forKey: key.stringValue)
        let otherName = lookup.columnName(forKey: other)
        let text =
            "Coding keys \"\(other)\" and \"\(key.stringValue)\" name columns \"\(otherName)\" and \"\(name)\"\(place), "
            + "which SQLite takes for one column: it compares column names ASCII case-insensitively. Rename one "
            + "of the keys (in CodingKeys)"
        return DecodingError.dataCorrupted(.init(codingPath: [key], debugDescription: text))
    }
}
