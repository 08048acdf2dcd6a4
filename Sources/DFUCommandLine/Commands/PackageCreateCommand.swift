import DFUPackage
import Foundation

/// `dfukit package create`: builds a DFUKit package from .bin or Intel .hex images.
struct PackageCreateCommand: Command {
    static let name = "package create"
    static let summary = "Create a firmware package (zip with manifest.json) from .bin or Intel .hex images."
    static let usage = "dfukit package create --profile P --version V --output OUT.zip IN.bin|IN.hex..."
    static let options: [OptionSpec] = [
        OptionSpec("--profile", value: "P", help: "the profile that flashes the images (recorded in the manifest)"),
        OptionSpec("--version", value: "V", help: "the firmware version, e.g. 1.4.2"),
        OptionSpec("--output", "-o", value: "OUT.zip", help: "where to write the package"),
        OptionSpec("--name", value: "NAME", help: "image name (default: 'application', or each input's file name when several)",
                   repeatable: true),
    ]
    static let discussion = "Images are sent in the order given. Exit 65 when an input is unreadable or invalid."

    let profile: String
    let version: String
    let output: String
    let inputs: [String]
    let names: [String]

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let command = "dfukit \(Self.name)"
        profile = try arguments.requiredValue("--profile")
        version = try arguments.requiredValue("--version")
        output = try arguments.requiredValue("--output")
        inputs = arguments.positionals
        guard !inputs.isEmpty else { throw UsageError("name at least one input image (.bin or .hex)", command: command) }
        let given = arguments.values["--name"] ?? []
        if !given.isEmpty, given.count != inputs.count {
            throw UsageError("give one --name per input image (\(given.count) names, \(inputs.count) images)", command: command)
        }
        if !given.isEmpty {
            names = given
        } else if inputs.count == 1 {
            names = ["application"]
        } else {
            names = inputs.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
        }
    }

    func run(_ console: any Console) async -> Int32 {
        do {
            var images: [PackageBuilder.Image] = []
            for (name, input) in zip(names, inputs) {
                images.append(try PackageBuilder.Image(name: name, filePath: input, version: version))
            }
            let manifest = try PackageBuilder.create(images: images, profile: profile, outputPath: output)
            for image in manifest.images {
                console.out("\(output): \(image.name) \(image.size) bytes sha256 \(image.sha256)")
            }
            return ExitCode.success
        } catch {
            console.error("error: \(error)")
            if case let .io(path, _, _) = error, path == output { return ExitCode.ioError }
            return ExitCode.dataError
        }
    }
}
