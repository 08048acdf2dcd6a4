import DFUKit
import Foundation

/// Shared by `dfukit exec` and `dfukit smp ...`: loads the profile, checks the command and its
/// arguments against it, opens the transport, sends the command and prints its answer.
struct ProfileCommandRunner {
    var profileName: String
    var device: DeviceSpecifier
    var command: String
    var settings: [ParameterSetting]
    var json: Bool
    /// The command line's own name, for messages (`dfukit exec`, `dfukit smp image test`).
    var invokedAs = "dfukit exec"
    /// Whether a command the profile marks `changes-device` may be sent: `exec --yes`, or a
    /// shortcut whose name says what it does (`smp image erase`).
    var confirmed = false
    /// How the answer is printed without --json.
    var textFormat: AnswerTextFormat = .json
    /// `dfukit exec`: --json prints one result object in every outcome (`dfukit schema output
    /// exec`), the answer under `answer`; the `smp` shortcuts print the answer alone.
    var printsResult = false
    /// `--record FILE`: where the session is recorded.
    var recordFile: String?

    func run(_ console: any Console) async -> Int32 {
        let profile: Profile
        do {
            profile = try ProfileLibrary.standard().load(profileName)
        } catch {
            console.error(error.description)
            printResult(console, error: ErrorJSON.object(kind: DFUKitError.Kind.profile.rawValue, message: error.description))
            return ExitCode.dataError
        }
        var request = ExecRequest(command: command, profile: profile, device: device.text)
        request.parameters = ParameterSetting.values(settings)
        request.allowChangingDevice = confirmed
        request.recordFile = recordFile
        let plan: ExecPlan
        do {
            plan = try Preflight.exec(request, places: ParameterSetting.places(settings))
        } catch {
            Refusal.print(error, console: console, command: invokedAs)
            printResult(console, profile: profile.name, error: ErrorJSON.object(error))
            return error.exitCode
        }
        let (outcome, interruption) = await InterruptHandling.run { () async -> Result<CommandExecution.Result, DFUKitError> in
            do throws(DFUKitError) { return .success(try await DFUKit.run(plan)) } catch { return .failure(error) }
        }
        let result: CommandExecution.Result
        switch outcome {
        case let .success(value): result = value
        case let .failure(error):
            Refusal.print(error, console: console, command: invokedAs)
            printResult(console, profile: profile.name, address: error.report?.address, error: ErrorJSON.object(error))
            return interruption?.exitCode ?? error.exitCode
        }
        let report = result.report
        if let interruption {
            if let error = report.error { console.error("error: \(error)") }
            let text = InterruptionSummary.text(interruption, report: report)
            console.error(text)
            printResult(console, profile: profile.name, address: report.address,
                        error: report.error.map(ErrorJSON.object)
                            ?? ErrorJSON.object(kind: DFUKitError.Kind.cancelled.rawValue, message: text))
            return interruption.exitCode
        }
        guard let fields = result.fields else {
            let message = report.error?.description ?? "the command failed"
            console.error("error: \(message)")
            printResult(console, profile: profile.name, address: report.address,
                        error: report.error.map(ErrorJSON.object)
                            ?? ErrorJSON.object(kind: DFUKitError.Kind.device.rawValue, message: message))
            return report.error.map(ExitCode.of) ?? ExitCode.failure
        }
        let object = Value.record(fields).jsonObject
        if printsResult, json {
            printResult(console, profile: profile.name, address: report.address, answer: object)
            return ExitCode.success
        }
        if !json, let text = textFormat.render(object) {
            console.out(text)
            return ExitCode.success
        }
        console.out(json ? JSONOutput.line(object) : JSONOutput.pretty(object))
        return ExitCode.success
    }

    /// `dfukit exec --json`: one object in every outcome, null where it cannot tell.
    private func printResult(_ console: any Console, profile: String? = nil, address: String? = nil, answer: Any? = nil,
                             error: [String: Any]? = nil) {
        guard json, printsResult else { return }
        console.out(JSONOutput.line([
            "status": answer == nil ? "failed" : "answered", "command": command, "profile": profile ?? profileName,
            "device": device.text, "address": address ?? NSNull(), "answer": answer ?? NSNull(), "error": error ?? NSNull(),
        ] as [String: Any]))
    }
}

extension ProfileCommandRunner {
    /// `NAME=VALUE` settings as the library takes them, each value as written (`batch run`:
    /// the preflight reads them by the profile's parameter types).
    static func keyValues(_ settings: [String], command: String) throws(UsageError) -> [String: ParameterValue] {
        ParameterSetting.values(try ParameterSetting.parse(settings, command: command))
    }
}
