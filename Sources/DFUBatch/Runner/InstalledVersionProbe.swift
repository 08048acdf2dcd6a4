import Foundation
import DFUEngine
import DFUGATT

/// `skip-installed`: asks a device what it runs before it is flashed, over the attempt's device
/// session (the update that may follow goes over the same link), and turns "it runs the target
/// already" into a `skipped` attempt carrying the version seen. A device that cannot be asked
/// (the link fails, the answer does not decode) is flashed: the update itself then says what is
/// wrong.
struct InstalledVersionProbe {
    let rule: SkipInstalledRule
    let plan: BatchRunner.Plan

    /// What the read found: a `skipped` record when the device runs the target, and the time
    /// the read took either way (on the session's clock).
    struct Finding {
        var skipped: AttemptRecord?
        var seconds: Double
        /// The version the device was seen to run, whether or not it is the target.
        var version: String? = nil
    }

    func probe(_ device: DeviceAddress, attempt: Int, on session: DeviceSession) async -> Finding {
        let startedAt = Date().timeIntervalSince1970
        let target: CommandExecution.InstalledSource
        switch rule.source {
        case .command(let name): target = .command(name)
        case .characteristic(let name): target = .characteristic(name)
        }
        let result = await CommandExecution.installedFirmware(
            target, installed: rule.installed, version: rule.version, image: plan.images[0], on: session)
        guard case .success(let found) = result else { return Finding(skipped: nil, seconds: 0) }
        guard found.installed else { return Finding(skipped: nil, seconds: found.seconds, version: found.version) }
        var record = AttemptRecord(device: device.description, attempt: attempt, startedAt: startedAt,
                                   endedAt: Date().timeIntervalSince1970, seconds: found.seconds, bytes: 0,
                                   result: .skipped, errorKind: nil, errorMessage: nil)
        record.deviceVersion = found.version
        record.versionBefore = found.version
        return Finding(skipped: record, seconds: found.seconds, version: found.version)
    }
}
