import Foundation

/// Small random databases for the agreement of the generator and the schema diff: tables of random
/// declared types, constraints (NOT NULL, DEFAULT, CHECK, COLLATE, UNIQUE), keys (rowid, one column,
/// composite, WITHOUT ROWID, a UNIQUE column, none), foreign keys, views and triggers, and a few rows whose
/// values sometimes stray from the declared type, as files written by other tools do.
///
/// Deterministic for a seed: a failure names the seed, and `SQLITE_RECORD_RANDOM_SEED=N` runs it again.
struct RandomSchemas {
    /// SplitMix64 (<https://prng.di.unimi.it/splitmix64.c>): tiny, and the same numbers on every platform.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// The seed of this run: `SQLITE_RECORD_RANDOM_SEED` when set, else a new one.
    static var runSeed: UInt64 {
        if let text = ProcessInfo.processInfo.environment["SQLITE_RECORD_RANDOM_SEED"], let seed = UInt64(text) {
            return seed
        }
        return UInt64.random(in: 1...UInt64(UInt32.max))
    }

    private static let declaredTypes = [
        "INTEGER", "INT", "BIGINT", "TEXT", "VARCHAR(20)", "REAL", "DOUBLE", "NUMERIC", "DECIMAL(10,2)", "BOOLEAN",
        "DATE", "DATETIME", "BLOB", "JSON", "INTEGER_OR_TEXT", "UUID", "",
    ]

    private static let words = ["alpha", "beta", "gamma", "delta", "tasks", "results", "orders", "items", "notes"]

    /// The SQL of database number `index` of the run seeded `seed`.
    static func sql(seed: UInt64, index: Int) -> String {
        var rng = Generator(state: seed &+ UInt64(index) &* 0x1000_0001)
        var statements: [String] = []
        var rowidTables: [String] = []
        let tableCount = Int.random(in: 1...3, using: &rng)
        for tableIndex in 0..<tableCount {
            let table = "t\(tableIndex)_" + words.randomElement(using: &rng)!
            var definitions: [String] = []
            var columns: [(name: String, type: String, notNull: Bool)] = []
            let keyKind = Int.random(in: 0..<6, using: &rng)
            var tail = ""
            switch keyKind {
            case 0, 1: definitions.append("id INTEGER PRIMARY KEY")
            case 2: definitions.append("code TEXT PRIMARY KEY NOT NULL")
            case 3:
                definitions.append("a INTEGER NOT NULL")
                definitions.append("b TEXT NOT NULL")
                tail = ", PRIMARY KEY (a, b)"
            case 4: definitions.append("label TEXT NOT NULL UNIQUE")
            default: break
            }
            for columnIndex in 0..<Int.random(in: 1...5, using: &rng) {
                let name = "c\(columnIndex)"
                let type = declaredTypes.randomElement(using: &rng)!
                var definition = name + (type.isEmpty ? "" : " " + type)
                let notNull = Int.random(in: 0..<4, using: &rng) == 0
                if notNull { definition += " NOT NULL DEFAULT " + defaultLiteral(type) }
                else if Bool.random(using: &rng) && Int.random(in: 0..<3, using: &rng) == 0 {
                    definition += " DEFAULT " + defaultLiteral(type)
                }
                switch Int.random(in: 0..<8, using: &rng) {
                case 0: definition += " CHECK (\(name) IS NOT NULL OR 1)"
                case 1 where type.contains("TEXT") || type.contains("CHAR"): definition += " COLLATE NOCASE"
                case 2: definition += " UNIQUE"
                default: break
                }
                definitions.append(definition)
                columns.append((name, type, notNull))
            }
            if keyKind <= 1, let parent = rowidTables.randomElement(using: &rng), Bool.random(using: &rng) {
                definitions.append("parent_id INTEGER REFERENCES \(parent)(id) ON DELETE CASCADE")
            }
            let withoutRowID = keyKind == 3 && Bool.random(using: &rng)
            statements.append(
                "CREATE TABLE \(table) (" + definitions.joined(separator: ", ") + tail + ")"
                    + (withoutRowID ? " WITHOUT ROWID" : ""))
            if keyKind <= 1 { rowidTables.append(table) }
            for row in 0..<Int.random(in: 0...4, using: &rng) {
                var names: [String] = []
                var values: [String] = []
                switch keyKind {
                case 2: (names, values) = (["code"], ["'k\(row)'"])
                case 3: (names, values) = (["a", "b"], ["\(row)", "'b\(row)'"])
                case 4: (names, values) = (["label"], ["'l\(row)'"])
                default: break
                }
                for column in columns where !(column.notNull && Int.random(in: 0..<3, using: &rng) == 0) {
                    names.append(column.name)
                    values.append(value(for: column.type, row: row, notNull: column.notNull, using: &rng))
                }
                guard !names.isEmpty else { continue }
                statements.append(
                    "INSERT OR IGNORE INTO \(table) (" + names.joined(separator: ", ") + ") VALUES ("
                        + values.joined(separator: ", ") + ")")
            }
            if Int.random(in: 0..<3, using: &rng) == 0 {
                statements.append("CREATE VIEW \(table)_view AS SELECT * FROM \(table)")
            }
            if Int.random(in: 0..<3, using: &rng) == 0, let first = columns.first {
                statements.append(
                    "CREATE TRIGGER \(table)_touch AFTER UPDATE ON \(table) BEGIN "
                        + "UPDATE \(table) SET \(first.name) = \(first.name) WHERE 0; END")
            }
            if Int.random(in: 0..<3, using: &rng) == 0, let first = columns.first {
                statements.append("CREATE INDEX \(table)_\(first.name) ON \(table) (\(first.name))")
            }
        }
        return statements.joined(separator: ";\n") + ";\n"
    }

    private static func defaultLiteral(_ type: String) -> String {
        switch type {
        case "INTEGER", "INT", "BIGINT", "BOOLEAN", "INTEGER_OR_TEXT": return "0"
        case "REAL", "DOUBLE", "NUMERIC", "DECIMAL(10,2)": return "0.5"
        case "BLOB": return "x'00'"
        case "DATE", "DATETIME": return "'2024-01-01'"
        case "UUID": return "'00000000-0000-4000-8000-000000000000'"
        default: return "'d'"
        }
    }

    /// A value for a column declared `type`: mostly one of its kind, sometimes one that strays.
    private static func value(
        for type: String, row: Int, notNull: Bool, using rng: inout Generator
    ) -> String {
        if !notNull && Int.random(in: 0..<5, using: &rng) == 0 { return "NULL" }
        if Int.random(in: 0..<6, using: &rng) == 0 {
            return ["'stray'", "2.5", "7", "x'0102'", "'2024-02-03'", "1e300", "9007199254740993"]
                .randomElement(using: &rng)!
        }
        switch type {
        case "INTEGER", "INT", "BIGINT": return "\(Int.random(in: -1000...1000, using: &rng))"
        case "REAL", "DOUBLE": return "\(Double(Int.random(in: -100...100, using: &rng)) / 4)"
        case "NUMERIC", "DECIMAL(10,2)": return ["12.5", "3", "'0.10'"].randomElement(using: &rng)!
        case "BOOLEAN": return ["0", "1", "'yes'"].randomElement(using: &rng)!
        case "DATE", "DATETIME":
            return ["'2024-01-0\(row + 1)'", "'2024-01-02 03:04:05.000'", "1700000000"].randomElement(using: &rng)!
        case "BLOB": return "x'00112233445566778899aabbccddeeff'"
        case "JSON": return ["'{\"a\": 1}'", "'[1, 2]'", "3"].randomElement(using: &rng)!
        case "INTEGER_OR_TEXT": return ["9001", "'EPSG'"].randomElement(using: &rng)!
        case "UUID": return "'a1b2c3d4-0000-4000-8000-00000000000\(row)'"
        default: return "'v\(row)'"
        }
    }
}
