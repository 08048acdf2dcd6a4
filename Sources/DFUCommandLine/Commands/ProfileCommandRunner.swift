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

    func run(_ console: any Console) async -> Int32 {
        let profile: Profile
        do {
            profile = try ProfileLibrary.standard().load(profileName)
        } catch {
            console.error(error.description)
            return ExitCode.dataError
        }
        var request = ExecRequest(command: command, profile: profile, device: device.text)
        request.parameters = ParameterSetting.values(settings)
        request.allowChangingDevice = confirmed
        let plan: ExecPlan
        do {
            plan = try Preflight.exec(request, places: ParameterSetting.places(settings))
        } catch {
            Refusal.print(error, console: console, command: invokedAs)
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
            return interruption?.exitCode ?? error.exitCode
        }
        if let interruption {
            if let error = result.report.error { console.error("error: \(error)") }
            console.error(InterruptionSummary.text(interruption, report: result.report))
            return interruption.exitCode
        }
        guard let fields = result.fields else {
            console.error("error: \(result.report.error?.description ?? "the command failed")")
            return result.report.error.map(ExitCode.of) ?? ExitCode.failure
        }
        let object = Value.record(fields).jsonObject
        if !json, let text = textFormat.render(object) {
            console.out(text)
            return ExitCode.success
        }
        console.out(json ? JSONOutput.line(object) : JSONOutput.pretty(object))
        return ExitCode.success
    }
}

extension ProfileCommandRunner {
    /// `NAME=VALUE` settings as the library takes them, each value as written (`batch run`:
    /// the preflight reads them by the profile's parameter types).
    static func keyValues(_ settings: [String], command: String) throws(UsageError) -> [String: ParameterValue] {
        ParameterSetting.values(try ParameterSetting.parse(settings, command: command))
    }
}
