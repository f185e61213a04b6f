import Foundation

#if PostgreSQL
    import PostgresRecord
#endif

/// `sqlite-record-gen FILE [--tables a,b] [--output Models.swift | --output-directory DIR] [--prefix P]
/// [--namespace NAME] [--public] [--row-initializers]`: the command line, parsed by hand (the package depends
/// on nothing but the toolchain).
public enum GeneratorCommand {
    /// The usage line and options, printed with `--help` and after a usage error.
    public static let usage = """
        usage: sqlite-record-gen FILE [--tables NAME,NAME] [--output PATH | --output-directory DIR]
                                 [--prefix PREFIX] [--namespace NAME] [--public] [--row-initializers]
          FILE                    the SQLite database to read (opened read-only; every row is read once)
          --tables LIST           only these tables and views, comma-separated (default: all but sqlite_*)
          --output PATH           write the Swift file to PATH (default: standard output)
          --output-directory DIR  write one file per type into DIR (City.swift, ...), and NAME.swift for --namespace
          --prefix PREFIX         put PREFIX before every type name (DBCity)
          --namespace NAME        nest the types in `enum NAME` (NAME.City)
          --public                declare the types and their members public, with public initializers
          --row-initializers      also give each Record init(row:), the fast path of fetches
          --postgres              FILE is a PostgreSQL connection string: types from pg_catalog, over
                                  PostgresRecord (needs the PostgreSQL trait: swift run --traits PostgreSQL)
          --schema NAME           with --postgres, the schema to read (default: public)
               sqlite-record-gen diff DATABASE --reference REFERENCE [--tables NAME,NAME]
          prints the schema changes (a dry run, with SQL) that would bring DATABASE's tables in line with
          REFERENCE's, a database the app's migrations made; exits 0 when there are none, 2 when there are,
          1 on an error
        """

    /// What the command line asks for.
    struct Options: Equatable {
        var path: String
        var tables: [String]?
        var output: String?
        var outputDirectory: String?
        var generation = ModelGenerator.Options()
        /// True when `path` is a PostgreSQL connection string.
        var postgres = false
        /// The PostgreSQL schema to read.
        var schema = "public"
    }

    /// Parses `arguments` (without the program name); nil for `--help`.
    /// - Throws: ``GeneratorError/usage(_:)`` naming the argument that is wrong.
    static func parse(_ arguments: [String]) throws -> Options? {
        var path: String?
        var tables: [String]?
        var output: String?
        var outputDirectory: String?
        var generation = ModelGenerator.Options()
        var postgres = false
        var schema: String?
        var index = 0
        func value(for option: String) throws -> String {
            index += 1
            guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                throw GeneratorError.usage("\(option) needs a value")
            }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-h", "--help":
                return nil
            case "--tables":
                let names = try value(for: argument).split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }.filter { !$0.isEmpty }
                guard !names.isEmpty else { throw GeneratorError.usage("--tables needs at least one name") }
                tables = (tables ?? []) + names
            case "--output":
                output = try value(for: argument)
            case "--output-directory":
                outputDirectory = try value(for: argument)
            case "--prefix":
                generation.prefix = try value(for: argument)
            case "--namespace":
                generation.namespace = try value(for: argument)
            case "--public":
                generation.isPublic = true
            case "--row-initializers":
                generation.rowInitializers = true
            case "--postgres":
                postgres = true
            case "--schema":
                schema = try value(for: argument)
            default:
                if argument.hasPrefix("-") && argument != "-" {
                    throw GeneratorError.usage("unknown option \(argument)")
                }
                guard path == nil else {
                    throw GeneratorError.usage("one database file only: \"\(path ?? "")\" and \"\(argument)\"")
                }
                path = argument
            }
            index += 1
        }
        guard let path else { throw GeneratorError.usage("no database file given") }
        if output != nil && outputDirectory != nil {
            throw GeneratorError.usage("--output and --output-directory: one or the other")
        }
        if schema != nil && !postgres { throw GeneratorError.usage("--schema needs --postgres") }
        #if !PostgreSQL
            if postgres {
                throw GeneratorError.usage(
                    "--postgres needs the PostgreSQL trait: swift run --traits PostgreSQL sqlite-record-gen ...")
            }
        #endif
        return Options(
            path: path, tables: tables, output: output, outputDirectory: outputDirectory, generation: generation,
            postgres: postgres, schema: schema ?? "public")
    }

    /// The file `options` asks for: from the SQLite file, or from the PostgreSQL schema (the header names
    /// the schema, never the connection string, which may hold a password).
    private static func generate(_ options: Options) throws -> ModelGenerator.File {
        #if PostgreSQL
            if options.postgres {
                let connection = try PostgresConnection(options.path)
                return try PostgresModelGenerator.generate(
                    connection, schema: options.schema, tables: options.tables,
                    sourceName: "PostgreSQL schema \"\(options.schema)\"", options: options.generation)
            }
        #endif
        return try ModelGenerator.generate(path: options.path, tables: options.tables, options: options.generation)
    }

    /// Runs the command: generates the file and prints it (or writes it to `--output`); on failure prints
    /// `sqlite-record-gen: MESSAGE` to standard error.
    /// - Returns: the exit status: 0 on success, 64 for a usage error (`EX_USAGE`), 1 otherwise.
    public static func run(arguments: [String]) -> Int32 {
        if arguments.first == "diff" { return runDiff(Array(arguments.dropFirst())) }
        do {
            guard let options = try parse(arguments) else {
                print(usage)
                return 0
            }
            let file = try generate(options)
            if let directory = options.outputDirectory {
                do {
                    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                } catch {
                    throw GeneratorError.cannotWrite(directory, reason: error.localizedDescription)
                }
                for (name, source) in file.files {
                    let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
                    do {
                        try source.write(toFile: path, atomically: true, encoding: .utf8)
                    } catch {
                        throw GeneratorError.cannotWrite(path, reason: error.localizedDescription)
                    }
                }
            } else if let output = options.output {
                do {
                    try file.source.write(toFile: output, atomically: true, encoding: .utf8)
                } catch {
                    throw GeneratorError.cannotWrite(output, reason: error.localizedDescription)
                }
            } else {
                print(file.source, terminator: "")
            }
            return 0
        } catch let error as GeneratorError {
            FileHandle.standardError.write(Data("sqlite-record-gen: \(error)\n".utf8))
            if case .usage = error { return 64 }
            return 1
        } catch {
            FileHandle.standardError.write(Data("sqlite-record-gen: \(error)\n".utf8))
            return 1
        }
    }

    /// What `diff` is asked: the database, the reference, the tables.
    struct DiffOptions: Equatable {
        var path: String
        var reference: String
        var tables: [String]?
    }

    /// Parses the arguments after `diff`; nil for `--help`.
    /// - Throws: ``GeneratorError/usage(_:)`` naming the argument that is wrong.
    static func parseDiff(_ arguments: [String]) throws -> DiffOptions? {
        var path: String?
        var reference: String?
        var tables: [String]?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            func value() throws -> String {
                index += 1
                guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                    throw GeneratorError.usage("\(argument) needs a value")
                }
                return arguments[index]
            }
            switch argument {
            case "-h", "--help": return nil
            case "--reference": reference = try value()
            case "--tables":
                tables = (tables ?? []) + (try value()).split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }.filter { !$0.isEmpty }
            default:
                if argument.hasPrefix("-") { throw GeneratorError.usage("unknown option \(argument)") }
                guard path == nil else {
                    throw GeneratorError.usage("one database file only: \"\(path ?? "")\" and \"\(argument)\"")
                }
                path = argument
            }
            index += 1
        }
        guard let path else { throw GeneratorError.usage("diff: no database file given") }
        guard let reference else { throw GeneratorError.usage("diff: --reference REFERENCE is required") }
        return DiffOptions(path: path, reference: reference, tables: tables)
    }

    /// Runs `diff`: prints each table's plan that is not empty (its changes, refusals and SQL) to standard
    /// output.
    /// - Returns: 0 when no table differs, 2 when one does (as `prisma migrate diff --exit-code`), 64 for a
    ///   usage error, 1 for any other error.
    static func runDiff(_ arguments: [String]) -> Int32 {
        do {
            guard let options = try parseDiff(arguments) else {
                print(usage)
                return 0
            }
            let plans = try SchemaDrift.plans(
                database: options.path, reference: options.reference, tables: options.tables)
            let drifted = plans.filter { !$0.isEmpty || !$0.refusals.isEmpty }
            for plan in drifted { print(plan.description + "\n") }
            return drifted.isEmpty ? 0 : 2
        } catch let error as GeneratorError {
            FileHandle.standardError.write(Data("sqlite-record-gen diff: \(error)\n".utf8))
            if case .usage = error { return 64 }
            return 1
        } catch {
            FileHandle.standardError.write(Data("sqlite-record-gen diff: \(error)\n".utf8))
            return 1
        }
    }
}
