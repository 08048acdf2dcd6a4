import DFUKit

/// How the command line prints a refusal from the library (`Preflight`, `DFUKit.*`): the
/// library's message as it is, then what would help in this command line's words (the library
/// names no flags), and the pointer to `--help` for a usage error.
enum Refusal {
    static func print(_ error: DFUKitError, console: any Console, command: String) {
        // Diagnostics (`FILE:LINE:COL: error: ...`, `--set x=1: error: ...`) say what they are already.
        let firstLine = error.message.prefix { $0 != "\n" }
        var text = firstLine.contains(": error: ") ? error.message : "error: \(error.message)"
        if let remedy = error.remedy { text += "\n" + hint(remedy) }
        if error.kind == .usage { text += "\nSee '\(command) --help'." }
        console.error(text)
    }

    /// The flag that does what `remedy` says.
    static func hint(_ remedy: DFUKitError.Remedy) -> String {
        switch remedy {
        case .force: "--force sends it anyway."
        case let .setParameter(name): "Give it with --set \(name)=VALUE."
        case .confirmChange: "Add --yes to send it."
        case .giveAddress: "Name the device with --device TRANSPORT/ADDRESS."
        }
    }
}
