import DFUGATT
import DFUProfile

extension CommandExecution {
    /// Where a device says what firmware it runs.
    package enum InstalledSource: Sendable, Equatable {
        /// A profile command (its answer's fields under its name).
        case command(String)
        /// A readable characteristic of the profile (`value`, `text`, `size` under its name),
        /// e.g. Device Information's Firmware Revision String.
        case characteristic(String)
    }

    /// What a device was found to run.
    package struct InstalledFirmware: Sendable, Equatable {
        /// Whether the `installed` condition held: the device runs the target already.
        public var installed: Bool
        /// The version seen: the `version` expression's value; else a characteristic's text, or the
        /// command's answer fields that `installed` compared (`info.sha256 = 3fa2...`).
        public var version: String
        /// How long the read took (on the transport's clock).
        public var seconds: Double
    }

    /// Asks `source` once over `device`'s link (connecting first if it is not) and evaluates
    /// `installed` (and `version`) over the answer with `image` and `param` bound, as a check
    /// does. Writes nothing; the link stays up for the update that may follow.
    package static func installedFirmware(_ source: InstalledSource, installed: Expression, version: Expression?,
                                         image: FlashImage, on device: DeviceSession)
        async -> Swift.Result<InstalledFirmware, FlashError> {
        let profile = device.profile
        let name: String
        let answer: Value
        let seconds: Double
        switch source {
        case .command(let command):
            let result = await run(command, on: device)
            guard let fields = result.fields else {
                return .failure(result.report.error ?? FlashError(kind: .device, message: "no answer to '\(command)'"))
            }
            (name, answer, seconds) = (command, .record(fields), result.report.seconds)
        case .characteristic(let characteristic):
            let location = profile.characteristic(named: characteristic)?.location
                ?? SourceLocation(file: profile.path, line: 0, column: 0)
            let step = Step(kind: .read(ReadStep(characteristic: characteristic, alias: characteristic, expect: [])),
                            location: location)
            let (report, scope) = await runAlone(step, named: characteristic, on: device)
            if let error = report.error { return .failure(error) }
            guard let value = scope?[characteristic] else {
                return .failure(FlashError(kind: .device, message: "no value read from '\(characteristic)'"))
            }
            (name, answer, seconds) = (characteristic, value, report.seconds)
        }
        let scope = Scope([name: answer, "image": image.record(index: 0, count: 1),
                           "param": device.options.parameterRecord(for: profile)])
        do {
            let holds = try ExpressionEvaluator.condition(installed, in: scope)
            let seen: String
            if let version {
                let value = try ExpressionEvaluator.evaluate(version, in: scope)
                if case .string(let text) = value { seen = text } else { seen = ConditionWitness.render(value) }
            } else if case .characteristic = source, case .record(let read) = answer, case .string(let text)? = read["text"] {
                seen = text
            } else {
                seen = ConditionWitness.values(of: installed, in: scope, excluding: ["image", "param"]) ?? ""
            }
            return .success(InstalledFirmware(installed: holds, version: seen, seconds: seconds))
        } catch {
            return .failure(FlashError(kind: .profile, message: "skip-installed: \(error)"))
        }
    }
}
