import DFUEngine
import DFUGATT
import DFUProfile
import Foundation

/// `dfukit scan --device TRANSPORT [--profile P] [--json]`: the advertising devices, with the
/// shipped (or given) profiles each one matches.
struct ScanCommand: Command {
    static let name = "scan"
    static let summary = "List advertising devices: address, name, RSSI and the profiles they match."
    static let usage = "dfukit scan --device TRANSPORT [--profile NAME|FILE] [--seconds N] [--json]"
    static let options: [OptionSpec] = [
        OptionSpec("--device", "-d", value: "TRANSPORT", help: "e.g. hci:tcp:127.0.0.1:9002 or sim:vendor-ctrlpt"),
        OptionSpec("--profile", "-p", value: "NAME|FILE", help: "only devices this profile matches"),
        OptionSpec("--seconds", value: "N", help: "how long to listen (default 3)"),
        OptionSpec("--json", help: "print a JSON list"),
    ]

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
            return ExitCode.dataError
        }
        let transport: any GATTTransport
        switch TransportFactory.open(device, console: console, command: "dfukit scan") {
        case let .success(opened): transport = opened
        case let .failure(status): return status.code
        }
        let seen: [Advertisement]
        let timeout = Duration.seconds(seconds)
        let (scanned, interruption) = await InterruptHandling.run { () -> Result<[Advertisement], GATTError> in
            do throws(GATTError) { return .success(try await transport.scan(timeout: timeout)) } catch { return .failure(error) }
        }
        if let interruption {
            console.error(InterruptionSummary.text(interruption, nothingSentWhile: "scanning"))
            return interruption.exitCode
        }
        switch scanned {
        case let .success(advertisements):
            seen = advertisements
        case let .failure(error):
            console.error("error: \(error)")
            return error.kind == .transportUnavailable ? ExitCode.unavailable : ExitCode.failure
        }
        var rows: [[String: Any]] = []
        for advertisement in seen {
            let matching = profiles.filter { ProfileMatcher.matches(advertisement, $0.match) }.map(\.name)
            if profileName != nil, matching.isEmpty { continue }
            rows.append(["address": advertisement.address.description, "name": advertisement.name ?? "",
                         "rssi": advertisement.rssi, "profiles": matching,
                         "services": advertisement.serviceUUIDs.map(\.description)])
        }
        if json {
            let data = (try? JSONSerialization.data(withJSONObject: rows, options: [.sortedKeys])) ?? Data("[]".utf8)
            console.out(String(decoding: data, as: UTF8.self))
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
}
