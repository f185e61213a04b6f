import SQLiteRecord

/// The Swift type of one column's property, chosen from the column's declared type and the storage classes
/// its sampled values hold, with a note for every choice that is not certain.
///
/// The rules follow the library's value table (DESIGN.md, ``SQLiteValueReadable``): a type is chosen only
/// when it reads every sampled value back exactly. SQLite stores any value in any column
/// (<https://www.sqlite.org/datatype3.html>), so the declared type alone says what the schema's author meant
/// and the sample says what the file holds; where they disagree, the sample wins and a note says so.
struct PropertyTypeChoice: Equatable, Sendable {
    /// The Swift type without its Optional: `Int64`, `String`, `Date`.
    var swiftType: String
    /// True when the property is Optional: the column is nullable, or NULLs were sampled.
    var isOptional: Bool
    /// The `// note:` lines for this property: what the generator could not decide for sure.
    var notes: [String]

    /// The type as written in a declaration: `String?` for an Optional.
    var declaration: String { swiftType + (isOptional ? "?" : "") }

    /// Chooses the type of `column` from `sample` (read from `sampledRows` rows).
    /// - Parameters:
    ///   - isKey: true for a column of the record's key: nullable in the declaration but holding no NULL,
    ///     it is not Optional (SQLite lets a rowid table's non-integer key hold NULL, which a key must not).
    static func choose(
        for column: ColumnInfo, sample: ColumnSample, sampledRows: Int, isKey: Bool
    ) -> PropertyTypeChoice {
        let declared = column.declaredType.uppercased()
        let declaredText = column.declaredType.isEmpty ? "no declared type" : "declared \(column.declaredType)"
        var notes: [String] = []
        var isOptional = !column.isNotNull || sample.nullCount > 0
        if isKey && sample.nullCount == 0 && !column.isNotNull {
            isOptional = false
        }
        if sample.nullCount > 0 && column.isNotNull {
            notes.append("declared NOT NULL, but \(sample.nullCount) sampled rows hold NULL")
        }
        let isBool = declared.contains("BOOL")
        let isDate = declared.contains("DATE") || declared.contains("TIME")
        let isUUID = declared.contains("UUID") || declared.contains("GUID")
        let isDecimal = declared.contains("DEC") || declared.contains("NUMERIC") || declared.contains("MONEY")
        let classes = sample.storageClasses
        let holds = classes.joined(separator: " and ")

        func done(_ type: String) -> PropertyTypeChoice {
            PropertyTypeChoice(swiftType: type, isOptional: isOptional, notes: notes)
        }

        guard sample.valueCount > 0 else {
            // Nothing stored to check: the declared type decides, by its affinity.
            let type: String
            if isBool {
                type = "Bool"
            } else if isDate {
                type = "Date"
            } else if isUUID {
                type = "UUID"
            } else {
                switch column.affinity {
                case .integer: type = "Int64"
                case .real: type = "Double"
                case .text: type = "String"
                case .numeric: type = isDecimal ? "Decimal" : "String"
                case .blob: type = declared.isEmpty ? "String" : "Data"
                }
            }
            let rows = sampledRows == 0 ? "the table is empty" : "the \(sampledRows) sampled rows hold only NULL"
            notes.append("\(rows): \(type) from the \(declaredText) alone")
            return done(type)
        }

        let hasInteger = sample.integerCount > 0
        let hasReal = sample.realCount > 0
        let hasText = sample.textCount > 0
        let hasBlob = sample.blobCount > 0

        if hasBlob {
            if !hasInteger && !hasReal && !hasText {
                if isUUID && sample.allBlobsSixteenBytes {
                    notes.append(
                        "16-byte BLOBs in a column \(declaredText): saves write lowercase text unless the "
                            + "record's encoder uses the .blob UUID strategy")
                    return done("UUID")
                }
                return done("Data")
            }
            if hasText && !hasInteger && !hasReal {
                notes.append("holds TEXT and BLOB: Data reads TEXT as its UTF-8 bytes, saves write BLOBs")
                return done("Data")
            }
            notes.append(
                "holds \(holds): no Swift type reads BLOB and numbers alike, so rows holding INTEGER or REAL fail "
                    + "to decode; read this column with init(row:) and SQLiteValue")
            return done("Data")
        }

        if hasText {
            if hasInteger || hasReal {
                if isDate && sample.allTextsDates {
                    notes.append("holds dates as TEXT and as unix seconds (\(holds)); saves write TEXT")
                    return done("Date")
                }
                notes.append(
                    "holds both \(holds) (\(declaredText)): String reads numbers as their text; a save of "
                        + "numeric-looking text into a column whose affinity turns it into a number is refused")
                return done("String")
            }
            if isBool && sample.allTextsBools {
                notes.append("Bools stored as TEXT (\(sample.firstText ?? "")): saves write 0 and 1")
                return done("Bool")
            }
            if sample.allTextsUUIDs {
                notes.append(
                    "every sampled TEXT value parses as a UUID (\(sample.firstText ?? ""))"
                        + (sample.allTextsCanonical ? "" : "; saves write lowercase hyphenated text"))
                return done("UUID")
            }
            if sample.allTextsDates {
                notes.append(
                    "every sampled TEXT value parses as a date (\(sample.firstText ?? ""))"
                        + (sample.allTextsCanonical ? "" : "; saves write \"YYYY-MM-DD HH:MM:SS.SSS\" in UTC"))
                return done("Date")
            }
            if isDate {
                notes.append("\(declaredText), but some sampled values are not dates: String")
            }
            return done("String")
        }

        // Numbers only.
        if isBool && sample.allZeroOrOne {
            return done("Bool")
        }
        if isDate {
            notes.append("\(declaredText) holding \(holds): read as unix seconds; saves write TEXT dates")
            return done("Date")
        }
        if hasReal {
            if isDecimal {
                notes.append("\(declaredText) holding \(holds): Decimal reads a REAL through its shortest text")
                return done("Decimal")
            }
            if hasInteger && column.affinity != .real {
                notes.append("holds \(holds): Double reads both (integers beyond 2^53 would not read)")
            }
            return done("Double")
        }
        if isBool {
            notes.append("\(declaredText), but holds integers other than 0 and 1: Int64")
        }
        return done("Int64")
    }
}
