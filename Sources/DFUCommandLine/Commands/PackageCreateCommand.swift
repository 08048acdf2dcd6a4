import DFUKit
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
    static let discussion = """
        Images are sent in the order given. The version is MAJOR[.MINOR[.PATCH]] with an optional
        -PRERELEASE and +BUILD, as in semver (1.4.2, 2.0.0-rc.1, 1.0.0+42). The profile must be one
        that loads (a name on the search path or a file) and takes DFUKit packages ('packages' in
        the profile). The output may not be one of the inputs.
        Exit: 0 written, 64 usage, 65 an input or the profile is unreadable or invalid, 74 the
        output cannot be written.
        """

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
        guard Self.isVersion(version) else {
            throw UsageError("--version '\(version)' is not a version: give MAJOR[.MINOR[.PATCH]], optionally with "
                             + "-PRERELEASE and +BUILD as in semver (e.g. 1.4.2, 2.0.0-rc.1)", command: command)
        }
        if let input = inputs.first(where: { Self.sameFile($0, output) }) {
            throw UsageError("--output '\(output)' is the input image '\(input)': writing the package there would replace "
                             + "the firmware; choose another output path (nothing was written)", command: command)
        }
    }

    func run(_ console: any Console) async -> Int32 {
        // The profile recorded in the manifest must be one that flashes DFUKit packages.
        guard let loaded = CommandInputs.profile(profile, console: console) else { return ExitCode.dataError }
        let kind = PackageFormat.dfukit.rawValue
        if !loaded.packageKinds.isEmpty, !loaded.packageKinds.contains(kind) {
            let fitting = Preflight.profiles(taking: kind).map(\.name)
            console.error("error: profile '\(loaded.name)' takes \(loaded.packageKinds.joined(separator: ", ")) packages, "
                          + "not DFUKit packages (\(kind)); "
                          + (fitting.isEmpty ? "no profile on the search path takes them" : "profiles that do: " + fitting.joined(separator: ", "))
                          + "\nnothing was written.")
            return ExitCode.dataError
        }
        do {
            var images: [PackageBuilder.Image] = []
            for (name, input) in zip(names, inputs) {
                images.append(try PackageBuilder.Image(name: name, filePath: input, version: version))
            }
            let manifest = try PackageBuilder.create(images: images, profile: loaded.name, outputPath: output)
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

    /// `1`, `1.4`, `1.4.2`, each optionally followed by `-PRERELEASE` and `+BUILD` (semver's
    /// identifiers: letters, digits, `-`, dot separated).
    static func isVersion(_ text: String) -> Bool {
        var rest = Substring(text)
        var build: Substring?
        if let plus = rest.firstIndex(of: "+") {
            build = rest[rest.index(after: plus)...]
            rest = rest[..<plus]
        }
        var prerelease: Substring?
        if let dash = rest.firstIndex(of: "-") {
            prerelease = rest[rest.index(after: dash)...]
            rest = rest[..<dash]
        }
        let numbers = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(numbers.count),
              numbers.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return false }
        func identifiers(_ part: Substring?) -> Bool {
            guard let part else { return true }
            return part.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { identifier in
                !identifier.isEmpty && identifier.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }
        }
        return identifiers(prerelease) && identifiers(build)
    }

    /// Whether two paths name the same file: the same path once resolved, or (when both exist)
    /// the same device and inode (a hard link).
    static func sameFile(_ first: String, _ second: String) -> Bool {
        let resolve = { (path: String) in URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
        if resolve(first) == resolve(second) { return true }
        var a = stat(), b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }
}
