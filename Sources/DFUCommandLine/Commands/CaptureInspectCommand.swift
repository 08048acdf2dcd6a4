import DFUKit
import DFUTrace
import Foundation

/// `dfukit capture inspect FILE [--profile PROFILE] [--json]`: a capture's connections and GATT
/// operations, and with a profile every message by name and field.
struct CaptureInspectCommand: Command {
    static let name = "capture inspect"
    static let summary = "List a capture's connections and GATT operations; with a profile, decode every message."
    static let usage = "dfukit capture inspect FILE [--profile PROFILE] [--json]"
    static let options: [OptionSpec] = [
        OptionSpec("--profile", "-p", value: "PROFILE", help: "read each message by this profile (name or file)"),
        OptionSpec("--json", help: "print JSON Lines: the capture, each connection, each event, the summary"),
    ]
    static let discussion = """
        FILE is a DFUKit recording (--record), a btsnoop file (Android's HCI snoop log, btmon -w, \
        Bumble) or a pcap or pcapng of HCI H4 or of the Bluetooth LE link layer (link types 201, \
        251, 256, 272: Ubertooth, the nRF Sniffer), any of them also gzip-compressed.
        Each connection is listed with its device, its ATT_MTU and how its characteristics were \
        named: by the capture's GATT discovery, or, when the phone used its cache, by which \
        profile characteristic the values read best as. Each write and notification follows with \
        its exact bytes, as `profile trace` prints them; with --profile, each message those values \
        make (reassembled by the characteristic's framing) is read by name and field. What the \
        profile cannot explain is marked: a message no command fits (its first bytes and the \
        closest candidate), values that break the framing, a checksum field that does not verify. \
        The last line names the first of them.
        Exit: 0 the capture was read, 64 usage, 65 the file is no capture DFUKit reads or the \
        profile does not load.
        """

    let path: String
    let profileName: String?
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count == 1 else {
            throw UsageError("name exactly one capture file", command: "dfukit \(Self.name)")
        }
        path = arguments.positionals[0]
        profileName = arguments.value("--profile")
        json = arguments.flag("--json")
    }

    func run(_ console: any Console) async -> Int32 {
        var profile: Profile?
        if let profileName {
            guard let loaded = CommandInputs.profile(profileName, console: console) else { return ExitCode.dataError }
            profile = loaded
        }
        let inspection: CaptureInspection
        do {
            inspection = try DFUKit.inspectCapture(path, profile: profile)
        } catch {
            console.error("error: \(error)")
            return error.kind == .usage ? ExitCode.dataError : error.exitCode
        }
        if json {
            CaptureInspectionJSON(console: console).print(inspection)
        } else {
            CaptureInspectionText(console: console).print(inspection)
        }
        return ExitCode.success
    }
}
