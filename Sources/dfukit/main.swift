import DFUCommandLine
import Foundation

let status = await DFUKitCommandLine.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
