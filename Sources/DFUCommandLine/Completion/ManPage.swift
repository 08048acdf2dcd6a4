import Foundation

/// `dfukit man`: the manual page, dfukit(1), in roff, made from the command table: each
/// command's summary, synopsis, options (as `--help` lists them) and discussion.
enum ManPage {
    static func render(_ commands: [CommandDescription]) -> String {
        var lines = [
            ".\\\" dfukit(1), made by 'dfukit man' from the same definitions as 'dfukit COMMAND --help'.",
            ".TH DFUKIT 1 \"\" \"dfukit \(DFUKitCommandLine.version)\" \"User Commands\"",
            ".SH NAME",
            "dfukit \\- update the firmware of Bluetooth Low Energy devices, driven by profiles",
            ".SH SYNOPSIS",
            ".B dfukit",
            ".I COMMAND",
            ".RI [ OPTIONS ]",
            ".br",
            ".B dfukit help",
            ".I COMMAND",
            ".SH DESCRIPTION",
            "A device's update protocol is described by a declarative profile (GATT layout, framing,",
            "commands, responses, error codes, the update procedure); a generic engine runs it over",
            "a simulated device (\\fBsim:\\fR), DFUKit's own HCI host (\\fBhci:\\fR) or the kernel's",
            "Bluetooth stack (\\fBbluez:\\fR).",
            "Every command takes \\fB\\-\\-help\\fR; \\fBdfukit help\\fR \\fICOMMAND\\fR prints the same.",
            ".SH COMMANDS",
        ]
        for command in commands {
            lines.append(".SS \"dfukit \(command.name)\"")
            lines.append(text(command.summary))
            lines += [".PP", ".nf", escape(command.usage, literal: true), ".fi"]
            for option in command.options {
                lines.append(".TP")
                var head = option.names.map { "\\fB\(escape($0, literal: true))\\fR" }.joined(separator: ", ")
                if let value = option.valueName { head += " \\fI\(escape(value, literal: true))\\fR" }
                lines.append(head)
                var help = option.help
                if !option.choices.isEmpty, !option.choices.allSatisfy(help.contains) {
                    help += "; one of: " + option.choices.joined(separator: ", ")
                }
                if option.repeatable { help += " (may be given more than once)" }
                lines.append(text(help))
            }
            if !command.discussion.isEmpty {
                lines.append(".PP")
                lines += command.discussion.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { $0.trimmingCharacters(in: .whitespaces).isEmpty ? ".PP" : text(String($0)) }
            }
        }
        lines += [
            ".SH \"EXIT STATUS\"",
            "After sysexits(3):",
            ".TP", "\(ExitCode.success)", "success (an update verified, a command answered)",
            ".TP", "\(ExitCode.failure)", "the update or command failed on the device",
            ".TP", "\(ExitCode.usage)", "the command line is wrong (a mistyped option, a bad \\fB\\-\\-set\\fR value or device string)",
            ".TP", "\(ExitCode.dataError)", "a profile, package or line file is invalid, or the package does not fit the profile",
            ".TP", "\(ExitCode.unavailable)", "the transport cannot be used",
            ".TP", "\(ExitCode.ioError)", "a local file could not be written (or a ledger used)",
            ".TP", "130", "interrupted (Ctrl\\-C)",
            ".SH ENVIRONMENT",
            ".TP",
            ".B DFUKIT_PROFILE_PATH",
            "Directories (colon separated) searched for \\fB\\-\\-profile\\fR \\fINAME\\fR before ./profiles and the",
            "installed profiles; \\fBdfukit profiles\\fR lists the search path.",
            ".SH FILES",
            ".TP",
            ".I PREFIX/share/dfukit/profiles",
            "the shipped profiles",
            ".TP",
            ".I PREFIX/share/dfukit/profile.schema.json",
            "the profile language's JSON Schema (\\fBdfukit profile schema\\fR)",
            ".TP",
            ".I PREFIX/share/dfukit/output\\-schemas/NAME.schema.json",
            "the JSON Schema of each \\fB\\-\\-json\\fR output (\\fBdfukit schema output\\fR \\fINAME\\fR)",
            ".SH \"JSON OUTPUT\"",
            "With \\fB\\-\\-json\\fR, \\fBflash\\fR, \\fBbatch run\\fR, \\fBscan\\fR and \\fBexec\\fR print one JSON object in every",
            "outcome once their command line is read (success, a refusal before the radio, a failure on the",
            "device, an interruption), every key present, null where the outcome cannot tell.",
            "\\fBdfukit schema output\\fR \\fIflash\\fR|\\fIbatch\\-run\\fR|\\fIscan\\fR|\\fIexec\\fR prints its JSON Schema (draft 2020\\-12).",
            ".SH \"SEE ALSO\"",
            "Shell completion: \\fBdfukit completion bash\\fR|\\fBzsh\\fR|\\fBfish\\fR.",
            "The profile language: profiles/README.md in the source tree.",
        ]
        return lines.joined(separator: "\n")
    }

    /// A line of running text: backslashes escaped, and a leading `.` or `'` kept from being
    /// read as a request.
    static func text(_ line: String) -> String {
        let escaped = escape(line, literal: false)
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    /// Backslashes as `\e`; in `literal` text (option names, synopses) hyphens as `\-`, so that
    /// they print as the ASCII hyphen a shell needs.
    static func escape(_ text: String, literal: Bool) -> String {
        var result = text.replacingOccurrences(of: "\\", with: "\\e")
        if literal { result = result.replacingOccurrences(of: "-", with: "\\-") }
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }
}
