/// The options several commands take, declared once: the same names, value placeholder and
/// meaning wherever they appear (a command may say in its own words what the value is to it).
enum SharedOptions {
    /// `--profile NAME|FILE`.
    static func profile(_ help: String = "the device's protocol: a shipped profile name or a file") -> OptionSpec {
        OptionSpec("--profile", "-p", value: "NAME|FILE", help: help)
    }

    /// `--device TRANSPORT[/ADDRESS]`.
    static func device(_ help: String = "TRANSPORT[/ADDRESS], e.g. sim:vendor-ctrlpt?mtu=247", value: String = "DEVICE") -> OptionSpec {
        OptionSpec("--device", "-d", value: value, help: help)
    }

    /// `--set NAME=VALUE`, repeatable.
    static func set(_ help: String = "override a profile parameter (e.g. prn=12)") -> OptionSpec {
        OptionSpec("--set", value: "NAME=VALUE", help: help, repeatable: true)
    }

    /// `--key PUB.pem`.
    static func key(_ help: String) -> OptionSpec {
        OptionSpec("--key", value: "PUB.pem", help: help)
    }

    /// `--json`.
    static func json(_ help: String) -> OptionSpec {
        OptionSpec("--json", help: help)
    }

    /// Signal strengths `--min-rssi` takes, in dBm.
    static let rssiRange = -127...20

    /// `--name GLOB` and `--min-rssi DBM`: which advertisers a scan may pick, on top of the
    /// profile's match rule (`ParsedArguments.deviceSelection()`).
    static func selection(for what: String) -> [OptionSpec] {
        [OptionSpec("--name", value: "GLOB", help: "\(what): only devices whose advertised name fits this glob (e.g. 'DFU-*')"),
         OptionSpec("--min-rssi", value: "DBM", help: "\(what): only devices heard at least this strong (e.g. -60)")]
    }

    /// `--record FILE` (`flash`, `exec`) or `--record DIR` (`batch run`): the session recorded
    /// in DFUKit's recording format (the library's `recordFile`, `recordDirectory`).
    static func record(_ help: String = "record the session to FILE (JSON Lines, 'dfukit-recording' v1; "
                           + "on hci: also FILE.btsnoop unless --trace)", value: String = "FILE") -> OptionSpec {
        OptionSpec("--record", value: value, help: help)
    }

    /// `--timeout DURATION`: the bound on an attempt (`ParsedArguments.duration`).
    static func timeout(_ help: String) -> OptionSpec {
        OptionSpec("--timeout", value: "DURATION", help: help)
    }
}
