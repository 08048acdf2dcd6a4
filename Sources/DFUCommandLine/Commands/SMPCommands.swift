import DFUKit

/// `dfukit smp ...`: the MCUmgr commands people use at a bench, as shortcuts for
/// `dfukit exec --profile mcumgr-smp COMMAND`. A shortcut names the profile command it
/// runs and the parameters its positional arguments fill, in order; the rest is shared.
protocol SMPShortcutCommand: Command {
    /// The command in the SMP profile, e.g. "image_list".
    static var profileCommand: String { get }
    /// The profile parameters filled by the positional arguments, in order.
    static var parameterNames: [String] { get }
    /// How the answer is printed without --json (default: indented JSON).
    static var textFormat: AnswerTextFormat { get }
    init(runner: ProfileCommandRunner)
    var runner: ProfileCommandRunner { get }
}

extension SMPShortcutCommand {
    static var textFormat: AnswerTextFormat { .json }

    static var options: [OptionSpec] {
        [
            SharedOptions.device("TRANSPORT[/ADDRESS], e.g. sim:mcumgr-smp"),
            SharedOptions.profile("an SMP profile (default: mcumgr-smp)"),
            SharedOptions.json("print the answer on one line"),
        ]
    }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let expected = Self.parameterNames.count
        guard arguments.positionals.count == expected else {
            throw UsageError(expected == 0 ? "takes no arguments" : "takes \(expected) argument(s)", command: "dfukit \(Self.name)")
        }
        // Checked against the profile once it is loaded: `smp image test zz` says HASH is not hex.
        let settings = zip(Self.parameterNames, arguments.positionals).map { name, value in
            ParameterSetting(name: name, text: value, source: "\(name.uppercased()) '\(value)'")
        }
        let command = "dfukit \(Self.name)"
        // The shortcut's name says what it does (`smp image erase`): no --yes.
        self.init(runner: ProfileCommandRunner(
            profileName: arguments.value("--profile") ?? "mcumgr-smp",
            device: try DeviceSpecifier(parsing: try arguments.requiredValue("--device"), command: command),
            command: Self.profileCommand, settings: settings, json: arguments.flag("--json"),
            invokedAs: command, confirmed: true, textFormat: Self.textFormat))
    }

    func run(_ console: any Console) async -> Int32 { await runner.run(console) }
}

struct SMPEchoCommand: SMPShortcutCommand {
    static let name = "smp echo"
    static let summary = "Echo a text through the device's SMP server (os group, echo)."
    static let usage = "dfukit smp echo --device DEVICE TEXT [--json]"
    static let profileCommand = "echo"
    static let parameterNames: [String] = ["text"]
    let runner: ProfileCommandRunner
}

struct SMPResetCommand: SMPShortcutCommand {
    static let name = "smp reset"
    static let summary = "Reset the device (os group, reset)."
    static let usage = "dfukit smp reset --device DEVICE [--json]"
    static let profileCommand = "reset"
    static let parameterNames: [String] = []
    let runner: ProfileCommandRunner
}

struct SMPImageListCommand: SMPShortcutCommand {
    static let name = "smp image list"
    static let summary = "List the device's image slots: version, hash, active, confirmed, pending."
    static let usage = "dfukit smp image list --device DEVICE [--json]"
    static let discussion = """
        Prints one line per slot: slot, version, hash (the image hash TLV, what 'smp image test'
        takes), flags (active, confirmed, pending, permanent) and whether it is bootable.
        --json prints the device's answer as it came (body.images, body.splitStatus).
        """
    static let profileCommand = "image_list"
    static let parameterNames: [String] = []
    static let textFormat = AnswerTextFormat.imageTable
    let runner: ProfileCommandRunner
}

struct SMPImageTestCommand: SMPShortcutCommand {
    static let name = "smp image test"
    static let summary = "Mark the image with this hash (its image hash TLV, hex) to boot once after the next reset."
    static let usage = "dfukit smp image test --device DEVICE HASH [--json]"
    static let profileCommand = "image_test_hash"
    static let parameterNames: [String] = ["hash"]
    let runner: ProfileCommandRunner
}

struct SMPImageConfirmCommand: SMPShortcutCommand {
    static let name = "smp image confirm"
    static let summary = "Confirm the running image, so the device keeps it after the next reset."
    static let usage = "dfukit smp image confirm --device DEVICE [--json]"
    static let profileCommand = "image_confirm_any"
    static let parameterNames: [String] = []
    let runner: ProfileCommandRunner
}

struct SMPImageEraseCommand: SMPShortcutCommand {
    static let name = "smp image erase"
    static let summary = "Erase the device's secondary image slot."
    static let usage = "dfukit smp image erase --device DEVICE [--json]"
    static let profileCommand = "image_erase"
    static let parameterNames: [String] = []
    let runner: ProfileCommandRunner
}
