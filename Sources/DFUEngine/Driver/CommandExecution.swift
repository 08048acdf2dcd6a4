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
        let device = DeviceSession(profile: profile, transport: transport, address: address, options: options,
                                   onEvent: onEvent)
        let result = await run(command, on: device)
        await device.close()
        return result
    }

    /// Sends `command` once over `device`'s link (connecting first if it is not, or after a
    /// reboot the last procedure left due); the link stays up for what runs next.
    package static func run(_ command: String, on device: DeviceSession) async -> Result {
        let profile = device.profile
        guard profile.commands[command] != nil else {
            let known = profile.commands.keys.sorted().joined(separator: ", ")
            let error = FlashError(kind: .usage, message: "profile '\(profile.name)' has no command '\(command)' (it has: \(known))")
            return Result(report: FlashReport(status: .failed, profile: profile.name, device: device.transport.name,
                                              address: nil, bytes: 0, seconds: 0, retries: 0, resumes: 0, error: error),
                          fields: nil)
        }
        let location = profile.commands[command]?.location ?? SourceLocation(file: profile.path, line: 0, column: 0)
        let step = Step(kind: .send(SendStep(command: command, alias: command, timeout: nil, retries: nil, expect: [])),
                        location: location)
        let (report, scope) = await runAlone(step, named: command, on: device)
        guard report.error == nil, case let .record(fields)? = scope?[command] else {
            return Result(report: report, fields: nil)
        }
        return Result(report: report, fields: fields)
    }

    /// Runs `step` as a procedure of its own over `device`'s link, without resuming after a lost
    /// link: its report, and the variables at its end.
    static func runAlone(_ step: Step, named name: String, on device: DeviceSession) async -> (FlashReport, Scope?) {
        var single = device.profile
        single.procedure = [step]
        single.resume = ResumePolicy(attempts: 0)
        let session = FlashSession(on: device, profile: single, images: [FlashImage(name: name, version: "", data: [])])
        var report = await session.run()
        // The session needs an image; this placeholder is not one, so errors do not name it.
        report.error?.image = nil
        return (report, session.finalScope)
    }
}

extension CommandExecution {
    /// Sends `command` and checks its answer against `expect` (which may use `image.*` and
    /// `<command>.<field>`): nil when every condition holds, else why not.
    public static func check(_ command: String, expect: [Expression], image: FlashImage, profile: Profile,
                             transport: any GATTTransport, address: DeviceAddress?,
                             options: FlashOptions = FlashOptions()) async -> String? {
        let device = DeviceSession(profile: profile, transport: transport, address: address, options: options)
        let failure = await check(command, expect: expect, image: image, on: device)
        await device.close()
        return failure
    }

    /// The same check over `device`'s link: after an update that rebooted the device (and did not
    /// reconnect), it first waits for the reboot and reconnects, as a `reconnect` step would.
    package static func check(_ command: String, expect: [Expression], image: FlashImage,
                              on device: DeviceSession) async -> String? {
        let result = await run(command, on: device)
        guard let fields = result.fields else {
            return "check '\(command)': \(result.report.error?.message ?? "no answer")"
        }
        let scope = Scope([command: .record(fields), "image": image.record(index: 0, count: 1),
                           "param": device.options.parameterRecord(for: device.profile)])
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
