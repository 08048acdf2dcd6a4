import DFUKit
import Foundation

/// `dfukit scan --device TRANSPORT [--profile P] [--json]`: the advertising devices, with the
/// shipped (or given) profiles each one matches.
struct ScanCommand: Command {
    static let name = "scan"
    static let summary = "List advertising devices: address, name, RSSI and the profiles they match."
    static let usage = "dfukit scan --device TRANSPORT [--profile NAME|FILE] [--seconds N] [--json]"
    static let options: [OptionSpec] = [
        SharedOptions.device("e.g. hci:tcp:127.0.0.1:9002 or sim:vendor-ctrlpt", value: "TRANSPORT"),
        SharedOptions.profile("only devices this profile matches"),
        OptionSpec("--seconds", value: "N", help: "how long to listen (default 3)"),
        SharedOptions.json("print one JSON object: the devices heard, or why the scan did not finish"),
    ]
    static let discussion = """
        With --json the object has every key in every outcome (dfukit schema output scan): devices
        (address, name or null, rssi, profiles, services; null when the scan did not finish),
        device, profile, seconds, and error (null, or kind and message).
        Exit: 0, 64 usage, 65 bad profile, 69 transport unavailable, 130 Ctrl-C, 143 SIGTERM.
        """

    let device: DeviceSpecifier
    let profileName: String?
    let seconds: Int
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        device = try DeviceSpecifier(parsing: try arguments.requiredValue("--device"), command: "dfukit \(Self.name)")
        profileName = arguments.value("--profile")
        guard let seconds = Int(arguments.value("--seconds") ?? "3"), (1...60).contains(seconds) else {
            throw UsageError("--seconds must be 1...60", command: "dfukit \(Self.name)")
        }
        self.seconds = seconds
        json = arguments.flag("--json")
    }

    func run(_ console: any Console) async -> Int32 {
        let library = ProfileLibrary.standard()
        var profiles: [Profile] = []
        do {
            if let profileName {
                profiles = [try library.load(profileName)]
            } else {
                profiles = library.availableProfiles().compactMap { try? library.load($0.path) }
            }
        } catch {
            console.error(error.description)
            printResult(console, devices: nil, error: ErrorJSON.object(kind: DFUKitError.Kind.profile.rawValue,
                                                                        message: error.description))
            return ExitCode.dataError
        }
        // The library's scan: the transport opened through the registry, each device with the
        // profiles it matches (only matching ones when a profile was named).
        let scan = DFUKit.scan(device: device.locator.description, seconds: seconds, profiles: profiles,
                               onlyMatching: profileName != nil)
        let (scanned, interruption) = await InterruptHandling.run { () -> Result<[ScanUpdate], DFUKitError> in
            var found: [ScanUpdate] = []
            do throws(DFUKitError) {
                for try await update in scan { found.append(update) }
                return .success(found)
            } catch {
                return .failure(error)
            }
        }
        if let interruption {
            let text = InterruptionSummary.text(interruption, nothingSentWhile: "scanning")
            console.error(text)
            printResult(console, devices: nil, error: ErrorJSON.object(kind: DFUKitError.Kind.cancelled.rawValue, message: text))
            return interruption.exitCode
        }
        let seen: [ScanUpdate]
        switch scanned {
        case let .success(updates):
            seen = updates
        case let .failure(error) where error.kind == .usage:
            console.error("error: \(error.message)\nSee 'dfukit scan --help'.")
            printResult(console, devices: nil, error: ErrorJSON.object(error))
            return ExitCode.usage
        case let .failure(error):
            console.error("error: \(error.message)")
            printResult(console, devices: nil, error: ErrorJSON.object(error))
            return error.exitCode
        }
        var rows: [[String: Any]] = []
        for found in seen {
            let advertisement = found.advertisement
            let matching = found.matchingProfiles
            rows.append(["address": advertisement.address.description, "name": advertisement.name ?? NSNull(),
                         "rssi": advertisement.rssi, "profiles": matching,
                         "services": advertisement.serviceUUIDs.map(\.description)])
        }
        if json {
            printResult(console, devices: rows, error: nil)
        } else if rows.isEmpty {
            console.out("no advertising device" + (profileName.map { " matches \($0)" } ?? ""))
        } else {
            for row in rows {
                let profiles = (row["profiles"] as? [String] ?? []).joined(separator: ", ")
                console.out("\(row["address"]!)  \(String(describing: row["rssi"]!)) dBm  \(row["name"] as? String ?? "")"
                            + (profiles.isEmpty ? "" : "  [\(profiles)]"))
            }
        }
        return ExitCode.success
    }

    /// With `--json`, one object in every outcome (`dfukit schema output scan`).
    private func printResult(_ console: any Console, devices: [[String: Any]]?, error: [String: Any]?) {
        guard json else { return }
        console.out(JSONOutput.line([
            "device": device.locator.description, "profile": profileName ?? NSNull(), "seconds": seconds,
            "devices": devices ?? NSNull(), "error": error ?? NSNull(),
        ] as [String: Any]))
    }
}
