import DFUProfile

/// `dfukit smp ...`: the MCUmgr commands people use at a bench, as shortcuts for
/// `dfukit exec --profile mcumgr-smp COMMAND`.
enum SMPShortcut {
    static let options: [OptionSpec] = [
        OptionSpec("--device", "-d", value: "DEVICE", help: "TRANSPORT[/ADDRESS], e.g. sim:mcumgr-smp"),
        OptionSpec("--profile", "-p", value: "NAME|FILE", help: "an SMP profile (default: mcumgr-smp)"),
        OptionSpec("--json", help: "print the answer on one line"),
    ]

    static func runner(_ arguments: ParsedArguments, command: String, positionals: Int,
                       parameters: (([String]) -> [String: ParameterValue])? = nil, name: String) throws(UsageError) -> ProfileCommandRunner {
        guard arguments.positionals.count == positionals else {
            throw UsageError(positionals == 0 ? "takes no arguments" : "takes \(positionals) argument(s)", command: "dfukit \(name)")
        }
        return ProfileCommandRunner(
            profileName: arguments.value("--profile") ?? "mcumgr-smp",
            device: try DeviceSpecifier(parsing: try arguments.requiredValue("--device")),
            command: command, parameters: parameters?(arguments.positionals) ?? [:], json: arguments.flag("--json"))
    }
}


struct SMPEchoCommand: Command {
    static let name = "smp echo"
    static let summary = "Echo a text through the device's SMP server (os group, echo)."
    static let usage = "dfukit smp echo --device DEVICE TEXT [--json]"
    static let options = SMPShortcut.options
    let runner: ProfileCommandRunner
    init(_ arguments: ParsedArguments) throws(UsageError) {
        runner = try SMPShortcut.runner(arguments, command: "echo", positionals: 1,
                                        parameters: { ["text": .text($0[0])] }, name: Self.name)
    }
    func run(_ console: any Console) async -> Int32 { await runner.run(console) }
}

struct SMPResetCommand: Command {
    static let name = "smp reset"
    static let summary = "Reset the device (os group, reset)."
    static let usage = "dfukit smp reset --device DEVICE [--json]"
    static let options = SMPShortcut.options
    let runner: ProfileCommandRunner
    init(_ arguments: ParsedArguments) throws(UsageError) {
        runner = try SMPShortcut.runner(arguments, command: "reset", positionals: 0, name: Self.name)
    }
    func run(_ console: any Console) async -> Int32 { await runner.run(console) }
}

struct SMPImageListCommand: Command {
    static let name = "smp image list"
    static let summary = "List the device's image slots: version, hash, active, confirmed, pending."
    static let usage = "dfukit smp image list --device DEVICE [--json]"
    static let options = SMPShortcut.options
    let runner: ProfileCommandRunner
    init(_ arguments: ParsedArguments) throws(UsageError) {
        runner = try SMPShortcut.runner(arguments, command: "image_list", positionals: 0, name: Self.name)
    }
    func run(_ console: any Console) async -> Int32 { await runner.run(console) }
}

struct SMPImageTestCommand: Command {
    static let name = "smp image test"
    static let summary = "Mark the image with this hash (its SHA256 TLV, hex) to boot once after the next reset."
    static let usage = "dfukit smp image test --device DEVICE HASH [--json]"
    static let options = SMPShortcut.options
    let runner: ProfileCommandRunner
    init(_ arguments: ParsedArguments) throws(UsageError) {
        runner = try SMPShortcut.runner(arguments, command: "image_test_hash", positionals: 1,
                                        parameters: { ["hash": .text($0[0])] }, name: Self.name)
    }
    func run(_ console: any Console) async -> Int32 { await runner.run(console) }
}

struct SMPImageConfirmCommand: Command {
    static let name = "smp image confirm"
    static let summary = "Confirm the running image, so the device keeps it after the next reset."
    static let usage = "dfukit smp image confirm --device DEVICE [--json]"
    static let options = SMPShortcut.options
    let runner: ProfileCommandRunner
    init(_ arguments: ParsedArguments) throws(UsageError) {
        runner = try SMPShortcut.runner(arguments, command: "image_confirm_any", positionals: 0, name: Self.name)
    }
    func run(_ console: any Console) async -> Int32 { await runner.run(console) }
}

struct SMPImageEraseCommand: Command {
    static let name = "smp image erase"
    static let summary = "Erase the device's secondary image slot."
    static let usage = "dfukit smp image erase --device DEVICE [--json]"
    static let options = SMPShortcut.options
    let runner: ProfileCommandRunner
    init(_ arguments: ParsedArguments) throws(UsageError) {
        runner = try SMPShortcut.runner(arguments, command: "image_erase", positionals: 0, name: Self.name)
    }
    func run(_ console: any Console) async -> Int32 { await runner.run(console) }
}
