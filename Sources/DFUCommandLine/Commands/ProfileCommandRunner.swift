import DFUEngine
import DFUGATT
import DFUProfile
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
        let options: FlashOptions
        do {
            options = try checkedOptions(profile)
        } catch {
            console.error(error.printed)
            return error.exitCode
        }
        let transport: any GATTTransport
        switch TransportFactory.open(device, console: console, command: invokedAs) {
        case let .success(opened): transport = opened
        case let .failure(status): return status.code
        }
        let address = device.address
        let command = self.command
        let (result, interruption) = await InterruptHandling.run {
            await CommandExecution.run(command, profile: profile, transport: transport, address: address, options: options)
        }
        if let interruption {
            if let error = result.report.error { console.error("error: \(error)") }
            console.error(InterruptionSummary.text(interruption, report: result.report))
            return interruption.exitCode
        }
        guard let fields = result.fields else {
            console.error("error: \(result.report.error?.description ?? "the command failed")")
            return result.report.error?.exitCode ?? ExitCode.failure
        }
        let object = Value.record(fields).jsonObject
        if !json, let text = textFormat.render(object) {
            console.out(text)
            return ExitCode.success
        }
        let writing: JSONSerialization.WritingOptions = json ? [.sortedKeys] : [.sortedKeys, .prettyPrinted]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: writing),
              let text = String(data: data, encoding: .utf8) else {
            console.error("error: the answer could not be printed")
            return ExitCode.failure
        }
        console.out(text)
        return ExitCode.success
    }

    /// Everything that can be checked without the device: the command exists, its arguments
    /// fit the parameters its request reads, and a command that changes the device was meant.
    func checkedOptions(_ profile: Profile) throws(UsageError) -> FlashOptions {
        guard let spec = profile.commands[command] else {
            let known = profile.commands.keys.sorted()
            throw UsageError("profile '\(profile.name)' has no command '\(command)'"
                             + (KeySuggestion.didYouMean(command, in: known) ?? "; its commands: \(known.joined(separator: ", "))"),
                             command: invokedAs)
        }
        let parameters = try ParameterCheck.values(settings, profile: profile, command: invokedAs, sending: spec)
        if spec.changesDevice, !confirmed {
            throw UsageError("command '\(command)' of profile '\(profile.name)' changes the device (erases, writes, starts, "
                             + "activates or resets: the profile marks it changes-device); sent alone it can leave the device "
                             + "half updated. Add --yes to send it", command: invokedAs)
        }
        return FlashOptions(parameters: parameters)
    }
}

extension ProfileCommandRunner {
    /// `NAME=VALUE` settings as values, decimal or 0x integers and texts otherwise, unchecked
    /// (`batch run`: the engine refuses names the profile lacks).
    static func keyValues(_ settings: [String], command: String) throws(UsageError) -> [String: ParameterValue] {
        var parameters: [String: ParameterValue] = [:]
        for setting in try ParameterSetting.parse(settings, command: command) {
            parameters[setting.name] = ParameterValue(parsing: setting.text)
        }
        return parameters
    }
}
