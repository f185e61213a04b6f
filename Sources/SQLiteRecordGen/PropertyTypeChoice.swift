import SQLiteRecord

/// The Swift type of one column's property, chosen from the column's declared type and the census of every
/// value it stores, with a note for every choice that is not certain.
///
/// The rules follow the library's value table (DESIGN.md, ``SQLiteValueReadable``): the type chosen is the
/// narrowest that reads every stored value (`Bool` before `Int64` before `Double` before `String`; `Date`
/// and `UUID` before `String`), so a fetch of the table as it is never throws. SQLite stores any value in
/// any column (<https://www.sqlite.org/datatype3.html>), so the declared type alone says what the schema's
/// author meant and the census says what the file holds; where they disagree, the census wins and a note
/// says so. A note also marks a type that reads every stored value but that a value stored later, which the
/// declared type allows, could fail (texts that all happen to be dates, a table with no rows).
struct PropertyTypeChoice: Equatable, Sendable {
    /// The Swift type without its Optional: `Int64`, `String`, `Date`.
    var swiftType: String
    /// True when the property is Optional: the column is nullable, or holds NULL.
    var isOptional: Bool
    /// The `// note:` lines for this property: what the generator could not decide for sure.
    var notes: [String]
    /// True when no Codable type reads every stored value (BLOBs and numbers in one column): the type leaves
    /// the column out, and ``notes`` says why.
    var isOmitted = false

    /// The type as written in a declaration: `String?` for an Optional.
    var declaration: String { swiftType + (isOptional ? "?" : "") }

    /// Chooses the type of `column` from `census` (of all `rowCount` rows).
    /// - Parameters:
    ///   - isKey: true for a column of the record's key: nullable in the declaration but holding no NULL,
    ///     it is not Optional (SQLite lets a rowid table's non-integer key hold NULL, which a key must not).
    static func choose(
        for column: ColumnInfo, census: ColumnCensus, rowCount: Int, isKey: Bool
    ) -> PropertyTypeChoice {
        let declared = column.declaredType.uppercased()
        let declaredText = column.declaredType.isEmpty ? "no declared type" : "declared \(column.declaredType)"
        var notes: [String] = []
        var isOptional = !column.isNotNull || census.nullCount > 0
        if isKey && census.nullCount == 0 && !column.isNotNull {
            isOptional = false
        }
        if census.nullCount > 0 && column.isNotNull {
            notes.append("declared NOT NULL, but \(census.nullCount) rows hold NULL")
        }
        let isBool = declared.contains("BOOL")
        let isDate = declared.contains("DATE") || declared.contains("TIME")
        let isUUID = declared.contains("UUID") || declared.contains("GUID")
        let isDecimal = declared.contains("DEC") || declared.contains("NUMERIC") || declared.contains("MONEY")
        let holds = census.countedClasses
        let example = census.firstText.map { " (\($0))" } ?? ""

        func done(_ type: String) -> PropertyTypeChoice {
            PropertyTypeChoice(swiftType: type, isOptional: isOptional, notes: notes)
        }

        guard census.valueCount > 0 else {
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
                // A key is never Decimal: the schema probe reads a Decimal key as a nested value.
                case .numeric: type = isDecimal ? (isKey ? "Double" : "Decimal") : "String"
                case .blob: type = declared.isEmpty ? "String" : "Data"
                }
            }
            let rows = rowCount == 0 ? "the table is empty" : "its \(rowCount) rows hold only NULL"
            notes.append("\(rows): \(type) from the \(declaredText) alone")
            return done(type)
        }

        let hasInteger = census.integerCount > 0
        let hasReal = census.realCount > 0
        let hasText = census.textCount > 0
        let hasBlob = census.blobCount > 0

        if hasBlob {
            if !hasInteger && !hasReal && !hasText {
                if isUUID && census.allBlobsSixteenBytes {
                    notes.append(
                        "16-byte BLOBs in a column \(declaredText): saves write lowercase text unless the "
                            + "record's encoder uses the .blob UUID strategy")
                    return done("UUID")
                }
                return done("Data")
            }
            if hasText && !hasInteger && !hasReal {
                notes.append("holds \(holds): Data reads TEXT as its UTF-8 bytes, saves write BLOBs")
                return done("Data")
            }
            // No Codable type reads BLOBs and numbers alike (SQLiteValue does, but is not Codable): the column
            // is left out, so that every row still reads.
            // (A key never holds both: such a column is no key, see GeneratedType.chooseKey.)
            notes.append(
                "holds \(holds): no Codable type reads BLOBs and numbers alike; left out of the type (saves "
                    + "leave it as it is, inserts store its DEFAULT or NULL); read it as SQLiteValue with a query of "
                    + "your own")
            var choice = done("Data")
            choice.isOmitted = true
            return choice
        }

        if hasText {
            if hasInteger || hasReal {
                if isDate && census.allTextsDates {
                    notes.append("holds dates as TEXT and as unix seconds (\(holds)); saves write TEXT")
                    return done("Date")
                }
                notes.append(
                    "holds \(holds) (\(declaredText)): String reads numbers as their text; a save of "
                        + "numeric-looking text into a column whose affinity turns it into a number is refused")
                return done("String")
            }
            if isBool && census.allTextsBools {
                notes.append("Bools stored as TEXT\(example): saves write 0 and 1")
                return done("Bool")
            }
            if census.allTextsUUIDs {
                notes.append(
                    "each of the \(census.textCount) TEXT values parses as a UUID\(example)"
                        + (census.allTextsCanonical ? "" : "; saves write lowercase hyphenated text")
                        + "; a later text that is not a UUID would not read")
                return done("UUID")
            }
            if census.allTextsDates {
                notes.append(
                    "each of the \(census.textCount) TEXT values parses as a date\(example)"
                        + (census.allTextsCanonical ? "" : "; saves write \"YYYY-MM-DD HH:MM:SS.SSS\" in UTC")
                        + "; a later text that is not a date would not read")
                return done("Date")
            }
            if isDate {
                notes.append(
                    "\(declaredText), but \(census.nonDateTextCount) of the \(census.textCount) TEXT values are "
                        + "not dates: String")
            } else if isUUID {
                notes.append(
                    "\(declaredText), but \(census.nonUUIDTextCount) of the \(census.textCount) TEXT values are "
                        + "not UUIDs: String")
            } else if isBool {
                notes.append(
                    "\(declaredText), but \(census.nonBoolTextCount) of the \(census.textCount) TEXT values are "
                        + "not a Bool's text: String")
            } else if column.affinity != .text && column.affinity != .blob {
                notes.append(
                    "\(declaredText), but holds TEXT: String; a save of numeric-looking text into a column "
                        + "whose affinity turns it into a number is refused")
            }
            return done("String")
        }

        // Numbers only.
        if isBool && census.allZeroOrOne {
            return done("Bool")
        }
        if isBool {
            notes.append(
                "\(declaredText), but \(census.notZeroOrOneCount) of the \(census.valueCount) values are neither 0 "
                    + "nor 1")
        }
        if isDate {
            notes.append("\(declaredText) holding \(holds): read as unix seconds; saves write TEXT dates")
            return done("Date")
        }
        if hasReal {
            if isDecimal && census.realBeyondInt64Count == 0 && !isKey {
                notes.append("\(declaredText) holding \(holds): Decimal reads a REAL through its shortest text")
                return done("Decimal")
            }
            if isDecimal {
                notes.append(
                    isKey
                        ? "\(declaredText), a key: Double, since the schema probe reads a Decimal key as a nested value"
                        : "\(declaredText), but holds REALs beyond 2^63, which Decimal does not read: Double")
            }
            if census.allRealsWhole && census.realBeyondInt64Count == 0 && column.affinity == .integer {
                notes.append(
                    "\(declaredText) holding \(holds): the REALs are whole numbers, which Int64 reads; a later "
                        + "fraction would not read")
                return done("Int64")
            }
            if census.largeIntegerCount > 0 {
                notes.append(
                    "holds \(holds), \(census.largeIntegerCount) integers beyond 2^53, which a Double may not "
                        + "hold exactly: String reads them all as their text")
                return done("String")
            }
            if column.affinity == .integer {
                notes.append(
                    "\(declaredText), but \(census.fractionalRealCount) of the \(census.valueCount) values have a "
                        + "fraction: Double")
            } else if hasInteger && column.affinity != .real {
                notes.append("holds \(holds): Double reads both")
            }
            return done("Double")
        }
        return done("Int64")
    }
}
