#if PostgreSQL
    /// The Swift type of a PostgreSQL column's property, from its type in `pg_catalog`, by PostgresRecord's
    /// value table (the PostgreSQL article's "Values side by side"): the type that reads every value the column
    /// can hold and writes the column's own type, with a `// note:` where a value could read back other than
    /// it was stored or the choice is not certain.
    ///
    /// The server enforces the declared type, so the catalog alone decides; no stored value is read. An array
    /// of one of the scalar types below, of `citext` or of an enum, is a Swift array of Optionals (`[String?]`).
    /// A column of a type PostgresRecord reads into no Swift type (arrays of other types, ranges, intervals,
    /// geometric and network types...) is left out of the type, with a note, so that every row still reads.
    enum PostgresTypeChoice {
        /// The property type of `column`; `isKey` for a column of the record's key.
        static func choose(_ column: PostgresColumn, isKey: Bool) -> PropertyTypeChoice {
            var notes: [String] = []
            let isOptional = !column.isNotNull && !isKey
            func done(_ type: String) -> PropertyTypeChoice {
                PropertyTypeChoice(swiftType: type, isOptional: isOptional, notes: notes)
            }
            func omitted(_ reason: String) -> PropertyTypeChoice {
                var choice = PropertyTypeChoice(
                    swiftType: "String", isOptional: true,
                    notes: [
                        "\(reason); left out of the type (saves leave it as it is, inserts store its DEFAULT or "
                            + "NULL); read it with a query of your own"
                    ])
                choice.isOmitted = true
                return choice
            }
            if column.typeCategory == "A" {
                guard !isKey, let element = arrayElement(column.typeName) ?? (column.elementKind == "e" ? "String" : nil)
                else {
                    return omitted(
                        "an array (\(column.formattedType)), which PostgresRecord reads into no Swift type "
                            + "(array_to_json(column)::text reads it as JSON text)")
                }
                // The catalog forbids neither NULL elements nor a second dimension: Optional elements read every
                // one-dimensional array.
                notes.append(
                    "\(column.formattedType): elements Optional, as the catalog cannot forbid NULL ones "
                        + "([\(element)] reads the column when none is); an array of two or more dimensions would "
                        + "not read")
                if column.elementKind == "e" {
                    notes.append(
                        "\(column.formattedType): elements read as their labels; a label outside the enum's is refused "
                            + "by the server on save")
                }
                if column.typeName == "_timestamp" || column.typeName == "_date" {
                    notes.append(
                        "\(column.formattedType): elements read as UTC; saves send timestamptz elements, which the "
                            + "server converts in the session's TimeZone (keep it UTC)")
                }
                return done("[\(element)?]")
            }
            if column.typeKind == "e" {
                notes.append(
                    "an enum (\(column.formattedType)), read as its label; a value outside its labels "
                        + "is refused by the server on save (a Swift enum of String raw values reads it too)")
                return done("String")
            }
            switch column.typeName {
            case "int8": return done("Int64")
            // A key is Int64 in every record (and reads SMALLINT and INTEGER); other columns take their width.
            case "int4": return done(isKey ? "Int64" : "Int32")
            case "int2": return done(isKey ? "Int64" : "Int16")
            case "oid": return done("Int64")
            case "float8": return done("Double")
            case "float4": return done("Float")
            case "numeric":
                if isKey {
                    notes.append(
                        "\(column.formattedType), a key: Double, since the schema probe reads a Decimal key as a "
                            + "nested value; a value with more digits than a Double holds would not read")
                    return done("Double")
                }
                notes.append(
                    "\(column.formattedType): Decimal keeps every digit of up to 38 significant ones; NaN, "
                        + "Infinity and more digits would not read")
                return done("Decimal")
            case "bool": return done("Bool")
            case "text", "varchar", "name", "citext": return done("String")
            case "bpchar":
                notes.append("\(column.formattedType) pads with spaces: values read back padded to the length")
                return done("String")
            case "bytea": return done("Data")
            case "uuid": return done("UUID")
            case "timestamptz": return done("Date")
            case "timestamp":
                notes.append(
                    "timestamp without time zone: read as UTC; saves send a timestamptz, which the server writes in "
                        + "the session's TimeZone (keep it UTC)")
                return done("Date")
            case "date":
                notes.append(
                    "date: read as midnight UTC; saves send a timestamptz, which the server cuts to a date in the "
                        + "session's TimeZone")
                return done("Date")
            case "json", "jsonb":
                notes.append(
                    "\(column.formattedType): the document's text; the server parses it on save (a Codable type of "
                        + "the document's shape reads it as a nested value instead)")
                return done("String")
            default:
                return omitted("of type \(column.formattedType), which PostgresRecord reads into no Swift type")
            }
        }

        /// The Swift element type of an array column whose `pg_type` name is `typeName` (`_text`, `_int8`...),
        /// the type PostgresRecord writes arrays of and whose elements read the column's (`citext[]` reads and
        /// takes `[String]` as `text[]` does): nil for arrays of other types (`_jsonb`, `_interval`...; an enum's
        /// array, `String` too, is told by its element's kind).
        static func arrayElement(_ typeName: String) -> String? {
            switch typeName {
            case "_int8": return "Int64"
            case "_int4": return "Int32"
            case "_int2": return "Int16"
            case "_float8": return "Double"
            case "_float4": return "Float"
            case "_bool": return "Bool"
            case "_text", "_varchar", "_bpchar", "_citext": return "String"
            case "_bytea": return "Data"
            case "_uuid": return "UUID"
            case "_timestamptz", "_timestamp", "_date": return "Date"
            case "_numeric": return "Decimal"
            default: return nil
            }
        }
    }
#endif
