import DFUEngine
import DFUGATT
import DFUProfile
import Foundation

/// Shared by `dfukit exec` and `dfukit smp ...`: loads the profile, opens the transport, sends
/// one command and prints its answer.
struct ProfileCommandRunner {
    var profileName: String
    var device: DeviceSpecifier
    var command: String
    var parameters: [String: ParameterValue]
    var json: Bool
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
        let transport: any GATTTransport
        switch TransportFactory.open(device, console: console, command: "dfukit exec") {
        case let .success(opened): transport = opened
        case let .failure(status): return status.code
        }
        let options = FlashOptions(parameters: parameters)
        let address = device.address
        let command = self.command
        let result = await InterruptHandling.cancellingOnInterrupt {
            await CommandExecution.run(command, profile: profile, transport: transport, address: address, options: options)
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

    static func keyValues(_ settings: [String], command: String) throws(UsageError) -> [String: ParameterValue] {
        var parameters: [String: ParameterValue] = [:]
        for setting in settings {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw UsageError("--set takes NAME=VALUE, not '\(setting)'", command: command)
            }
            parameters[parts[0]] = ParameterValue(parsing: parts[1])
        }
        return parameters
    }
}
