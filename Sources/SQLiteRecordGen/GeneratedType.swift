import SQLiteRecord

/// One Swift type the generator writes for a table or view: its name, its properties and its key, decided
/// from a ``TableSchema`` before any code is written, so that associations can name the types on both sides.
struct GeneratedType: Sendable {
    /// One stored property: a column.
    struct Property: Sendable {
        /// The Swift name, unescaped (`countryId`, `default`).
        let name: String
        /// The column it reads and writes, as the table declares it.
        let column: String
        let type: PropertyTypeChoice
        let isGenerated: Bool
        /// Notes about the name itself (a renamed keyword, a column name with no Swift letters).
        let nameNotes: [String]
    }

    /// How the record is keyed (see the Keys article).
    enum Key: Sendable, Equatable {
        /// `var id: Int64?`, the rowid, in the column `column`.
        case rowID(column: String)
        /// `var id: T` in the one column `column`.
        case single(column: String)
        /// `var id: Key`, a computed property over the stored properties of these columns, in key order.
        case composite(columns: [String])
        /// No key: a view, a virtual table, or a table with neither a primary key nor a UNIQUE NOT NULL
        /// column set; the type is read-only.
        case none(reason: String)
    }

    let table: TableSchema
    let typeName: String
    let properties: [Property]
    let key: Key
    /// Notes about the columns left out of the type (``PropertyTypeChoice/isOmitted``), written above it.
    var omittedNotes: [String] = []

    /// True when the type is a `Record`; false for the read-only types of views, virtual tables and
    /// tables without a key.
    var isRecord: Bool {
        if case .none = key { return false }
        return true
    }

    /// The key's columns: empty for a read-only type.
    var keyColumns: [String] {
        switch key {
        case .rowID(let column), .single(let column): return [column]
        case .composite(let columns): return columns
        case .none: return []
        }
    }

    /// The property of column `column`, matched ASCII case-insensitively as SQLite matches names.
    func property(ofColumn column: String) -> Property? {
        properties.first { $0.column.lowercased() == column.lowercased() }
    }

    /// Decides the type for `table`, named `typeName`.
    /// - Parameters:
    ///   - keyColumnSQL: the column definition the note of a table without a key suggests adding.
    ///   - choose: the property type of a column that is not the rowid, from the column's position,
    ///     its description and whether it is part of the key; SQLite's choice from the census by default
    ///     (another engine's schema gives its own).
    static func make(
        _ table: TableSchema, typeName: String,
        choose: ((_ index: Int, _ column: ColumnInfo, _ isKey: Bool) -> PropertyTypeChoice)? = nil,
        keyColumnSQL: String = "id INTEGER PRIMARY KEY"
    ) -> GeneratedType {
        let key = chooseKey(table, keyColumnSQL: keyColumnSQL)
        let keyColumns: [String]
        switch key {
        case .rowID(let column), .single(let column): keyColumns = [column]
        case .composite(let columns): keyColumns = columns
        case .none: keyColumns = []
        }
        let singleKey = keyColumns.count == 1 ? keyColumns[0].lowercased() : nil
        var used: Set<String> = []
        var properties: [Property] = []
        var omitted: [String] = []
        for (index, column) in table.columns.enumerated() {
            let census = table.censuses[index]
            let isKey = keyColumns.contains { $0.lowercased() == column.name.lowercased() }
            var nameNotes: [String] = []
            var name: String
            if column.name.lowercased() == singleKey {
                name = "id"
            } else {
                name = SwiftNames.propertyName(for: column.name) ?? "column\(index + 1)"
                if SwiftNames.propertyName(for: column.name) == nil {
                    nameNotes.append("the column name has no letter Swift accepts: named by its position")
                }
                if SwiftNames.unusableMembers.contains(name) || SwiftNames.reservedMembers.contains(name) {
                    nameNotes.append("\"\(name)\" is taken by the type or its CodingKeys: renamed")
                    name += "Column"
                }
            }
            let base = name
            var suffix = 2
            while used.contains(name) {
                name = base + String(suffix)
                suffix += 1
            }
            if name != base { nameNotes.append("another column is also named \(base) in Swift: renamed") }
            used.insert(name)
            var type: PropertyTypeChoice
            if case .rowID(let alias) = key, alias.lowercased() == column.name.lowercased() {
                type = PropertyTypeChoice(swiftType: "Int64", isOptional: true, notes: [])
            } else if let choose {
                type = choose(index, column, isKey)
            } else {
                type = PropertyTypeChoice.choose(
                    for: column, census: census, rowCount: table.rowCount, isKey: isKey)
            }
            if column.isGenerated { type.isOptional = type.isOptional || !column.isNotNull }
            if type.isOmitted {
                omitted += type.notes.map { "\(column.name): \($0)" }
                continue
            }
            properties.append(
                Property(
                    name: name, column: column.name, type: type, isGenerated: column.isGenerated,
                    nameNotes: nameNotes))
        }
        return GeneratedType(
            table: table, typeName: typeName, properties: properties, key: key, omittedNotes: omitted)
    }

    /// The record's key: the rowid alias, the primary key, or else the first UNIQUE index whose columns
    /// hold no NULL (declared NOT NULL, or none stored), which ``Record/validateSchema(in:)`` accepts as a
    /// key.
    private static func chooseKey(_ table: TableSchema, keyColumnSQL: String) -> Key {
        switch table.kind {
        case .view: return .none(reason: "a view: records are not written to views")
        case .virtual: return .none(reason: "a virtual table: read-only here, written through its module")
        case .table: break
        }
        if let alias = table.rowIDAlias { return .rowID(column: alias) }
        // A key column holding BLOBs and numbers, which no Codable type reads, cannot be a record's key.
        func unreadable(_ name: String) -> Bool {
            guard let census = table.census(of: name) else { return false }
            return census.blobCount > 0 && census.integerCount + census.realCount > 0
        }
        if let column = table.primaryKey.first(where: unreadable) {
            return .none(
                reason: "its primary key column \"\(column)\" holds BLOBs and numbers, which no Codable type "
                    + "reads alike")
        }
        if table.primaryKey.count == 1 { return .single(column: table.primaryKey[0]) }
        if table.primaryKey.count > 1 { return .composite(columns: table.primaryKey) }
        for columns in table.uniqueKeys where !columns.contains(where: unreadable) {
            let noNulls = columns.allSatisfy { name in
                let info = table.columns.first { $0.name.lowercased() == name.lowercased() }
                return info?.isNotNull == true || table.census(of: name)?.nullCount == 0
            }
            guard noNulls, !columns.isEmpty else { continue }
            return columns.count == 1 ? .single(column: columns[0]) : .composite(columns: columns)
        }
        return .none(
            reason: "the table declares no primary key and no UNIQUE column without NULLs: a Record needs a "
                + "key (add `\(keyColumnSQL)` in a migration to make it one)")
    }
}
