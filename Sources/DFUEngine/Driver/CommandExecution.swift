import DFUGATT
import DFUProfile

/// Runs one command of a profile against a device and returns its answer: what `dfukit exec`
/// (and `dfukit smp ...`) do, for bench-side operations such as listing a device's images.
public enum CommandExecution {
    /// The session's report and, when the command succeeded, its answer.
    public struct Result: Sendable {
        /// How the run went: connection, the command's exchange, errors.
        public var report: FlashReport
        /// The answer's fields; nil when the command failed.
        public var fields: [String: Value]?
    }

    /// Connects as `flash` would (matching the profile when no address is given), sends
    /// `command` once and disconnects.
    public static func run(_ command: String, profile: Profile, transport: any GATTTransport, address: DeviceAddress?,
                           options: FlashOptions = FlashOptions(),
                           onEvent: @escaping (FlashEvent) -> Void = { _ in }) async -> Result {
        guard profile.commands[command] != nil else {
            let known = profile.commands.keys.sorted().joined(separator: ", ")
            let error = FlashError(kind: .usage, message: "profile '\(profile.name)' has no command '\(command)' (it has: \(known))")
            return Result(report: FlashReport(status: .failed, profile: profile.name, device: transport.name, address: nil,
                                              bytes: 0, seconds: 0, retries: 0, resumes: 0, error: error), fields: nil)
        }
        var single = profile
        let location = profile.commands[command]?.location ?? SourceLocation(file: profile.path, line: 0, column: 0)
        single.procedure = [Step(kind: .send(SendStep(command: command, alias: command, timeout: nil, retries: nil,
                                                      expect: [])), location: location)]
        single.resume = ResumePolicy(attempts: 0)
        let session = FlashSession(profile: single, images: [FlashImage(name: command, version: "", data: [])],
                                   transport: transport, address: address, options: options, onEvent: onEvent)
        var report = await session.run()
        // The session needs an image; this placeholder is not one, so errors do not name it.
        report.error?.image = nil
        guard report.error == nil, case let .record(fields)? = session.finalScope?[command] else {
            return Result(report: report, fields: nil)
        }
        return Result(report: report, fields: fields)
    }
}

extension CommandExecution {
    /// Sends `command` and checks its answer against `expect` (which may use `image.*` and
    /// `<command>.<field>`): nil when every condition holds, else why not.
    public static func check(_ command: String, expect: [Expression], image: FlashImage, profile: Profile,
                             transport: any GATTTransport, address: DeviceAddress?,
                             options: FlashOptions = FlashOptions()) async -> String? {
        let result = await run(command, profile: profile, transport: transport, address: address, options: options)
        guard let fields = result.fields else {
            return "check '\(command)': \(result.report.error?.message ?? "no answer")"
        }
        let scope = Scope([command: .record(fields), "image": image.record(index: 0, count: 1),
                           "param": options.parameterRecord(for: profile)])
        for condition in expect {
            do {
                if try !ExpressionEvaluator.condition(condition, in: scope) {
                    let saw = ConditionWitness.values(of: condition, in: scope)
                    return "check '\(command)': expected \(condition.text)" + (saw.map { ", saw \($0)" } ?? "")
                }
            } catch {
                return "check '\(command)': \(error)"
            }
        }
        return nil
    }
}
