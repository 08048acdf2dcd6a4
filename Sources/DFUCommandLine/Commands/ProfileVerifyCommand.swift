import DFUKit
import DFUTrace
import Foundation

/// `dfukit profile verify PROFILE --against CAPTURE --package PKG [--set NAME=VALUE]... [--json]`:
/// does the profile do what the captured client did?
struct ProfileVerifyCommand: Command {
    static let name = "profile verify"
    static let summary = "Run a profile against a captured device and compare every message with the captured client's."
    static let usage = "dfukit profile verify PROFILE --against CAPTURE --package PKG [--set NAME=VALUE]... [--force] [--json]"
    static let options: [OptionSpec] = [
        OptionSpec("--against", value: "CAPTURE", help: "a --record file, btsnoop log or pcap of a client updating the device"),
        OptionSpec("--package", value: "PKG", help: "the package to flash: the one the captured client sent, for the closest check"),
        OptionSpec("--set", value: "NAME=VALUE", help: "a profile parameter, as the captured client used it", repeatable: true),
        OptionSpec("--force", help: "flash a package of a kind the profile does not list anyway"),
        OptionSpec("--json", help: "print one JSON object"),
    ]
    static let discussion = """
        The profile's procedure runs against the capture's device side (as sim:replay does): every \
        connection DFUKit opens is the capture's next one, and each message the profile sends is \
        compared with the one the captured client sent there, field by field along the profile's \
        layout, both values printed. What legitimately varies is let through and listed: sequence \
        numbers (the device's answers then carry DFUKit's), and, when the captured client sent \
        another image than PKG's, every field made from the image (sizes, checksums, data). Constants \
        and parameters must match. Segmentation and write types may differ.
        Exit: 0 the profile reproduced the captured session (no message differs where it must not, \
        nothing the client did is left over, the flash reached its end); 1 it did not, naming the \
        connection, step, message and field; 64 usage (a capture that cannot be read included); 65 \
        bad profile or package.
        """

    let profileName: String
    let capture: String
    let packagePath: String
    let settings: [ParameterSetting]
    let force: Bool
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let command = "dfukit \(Self.name)"
        guard arguments.positionals.count == 1 else {
            throw UsageError("name one profile (\(arguments.positionals.count) arguments given)", command: command)
        }
        profileName = arguments.positionals[0]
        guard let capture = arguments.value("--against") else {
            throw UsageError("name the capture to verify against: --against CAPTURE", command: command)
        }
        guard let packagePath = arguments.value("--package") else {
            throw UsageError("name the package to flash: --package PKG", command: command)
        }
        self.capture = capture
        self.packagePath = packagePath
        settings = try ParameterSetting.parse(arguments.values["--set"] ?? [], command: command)
        force = arguments.flag("--force")
        json = arguments.flag("--json")
    }

    func run(_ console: any Console) async -> Int32 {
        guard let profile = CommandInputs.profile(profileName, console: console),
              let package = CommandInputs.intactPackage(packagePath, console: console) else { return ExitCode.dataError }
        var request = ProfileVerificationRequest(profile: profile, package: package, capture: capture)
        request.force = force
        let verification: ProfileVerification
        do {
            let places = ParameterSetting.places(settings)
            request.options = FlashOptions(parameters: try Preflight.parameters(ParameterSetting.values(settings),
                                                                                profile: profile) { places[$0] })
            verification = try await DFUKit.verify(request)
        } catch {
            Refusal.print(error, console: console, command: "dfukit \(Self.name)")
            return error.exitCode
        }
        if json {
            console.out(JSONOutput.line(ProfileVerificationJSON.object(verification, profile: profile.name, capture: capture)))
        } else {
            ProfileVerificationText.print(verification, profile: profile.name, capture: capture, console: console)
        }
        return verification.reproduced ? ExitCode.success : 1
    }
}

/// `profile verify` for people.
enum ProfileVerificationText {
    static func print(_ verification: ProfileVerification, profile: String, capture: String, console: any Console) {
        console.out("profile '\(profile)' against \(capture) (\(verification.format), \(verification.connections) connection(s))")
        console.out("image: " + (verification.sameImage ? "the captured client sent this package's image" : "another image")
                    + " (\(verification.imageEvidence))")
        // Each field once, with how often it varied (a stream's data varies in every chunk).
        var seen: [String: Int] = [:]
        for difference in verification.tolerated { seen["\(difference.message) \(difference.field)", default: 0] += 1 }
        var printed: Set<String> = []
        for difference in verification.tolerated where printed.insert("\(difference.message) \(difference.field)").inserted {
            let count = seen["\(difference.message) \(difference.field)"] ?? 1
            console.out("  varies (\(difference.variance.rawValue)): \(difference)" + (count > 1 ? " (and \(count - 1) more time(s))" : ""))
        }
        for note in verification.notes { console.out("note: \(note)") }
        if let divergence = verification.divergence {
            console.out("DIFFERS: \(divergence)")
            for field in divergence.fields.dropFirst() { console.out("  also: \(field)") }
        } else if let unfinished = verification.unfinished {
            console.out("DIFFERS: the profile stopped short: \(unfinished)")
            if let error = verification.flashError { console.out("  the flash failed: \(error)") }
        } else if let error = verification.flashError {
            console.out("DIFFERS: every message matched, but the flash failed: \(error)")
        } else {
            return console.out("reproduced: every message the profile sends matches the captured client's"
                        + (verification.tolerated.isEmpty ? "" : " (\(verification.tolerated.count) legitimate difference(s) above)")
                        + "; the flash ended \(verification.report?.status.rawValue ?? "?")")
        }
        if !verification.sameImage {
            console.out("note: the capture's client sent another image: the device's captured answers (offsets, checksums) "
                        + "are that image's, so the run can go only as far as they fit; verify with the package the client "
                        + "sent for the whole comparison")
        }
    }
}

/// `profile verify --json`.
enum ProfileVerificationJSON {
    static func object(_ verification: ProfileVerification, profile: String, capture: String) -> [String: Any] {
        func field(_ difference: FieldDifference) -> [String: Any] {
            ["message": difference.message, "field": difference.field, "captured": difference.captured,
             "now": difference.now, "variance": difference.variance.rawValue]
        }
        var object: [String: Any] = [
            "profile": profile, "capture": capture, "format": verification.format, "connections": verification.connections,
            "reproduced": verification.reproduced, "same_image": verification.sameImage,
            "image_evidence": verification.imageEvidence, "tolerated": verification.tolerated.map(field),
            "notes": verification.notes,
        ]
        if let divergence = verification.divergence {
            object["divergence"] = ["connection": divergence.connection, "step": divergence.step, "summary": divergence.summary,
                                    "fields": divergence.fields.map(field)] as [String: Any]
        }
        if let unfinished = verification.unfinished { object["unfinished"] = unfinished }
        if let error = verification.flashError { object["flash_error"] = error }
        if let status = verification.report?.status { object["flash_status"] = status.rawValue }
        return object
    }
}
