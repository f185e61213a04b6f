import Foundation
import SQLiteRecordGen

exit(GeneratorCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
