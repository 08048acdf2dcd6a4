import DFUEngine
import DFUGATT
import DFUProfile
import DFUSimulator
import Foundation

/// The fault matrix: for every subject (each shipped profile in the modes users run), a
/// baseline update without faults, then one update per fault placed at every phase: a
/// disconnect on each request the baseline sent (before the device processed it, and after,
/// with the answer lost), at offsets across the transfer, and during the reconnects; dropped,
/// duplicated, corrupted and reordered notifications; busy answers; the device rebooting
/// mid-transfer. Each case must end verified with the image in place, or with an error whose
/// report says what the device holds, as the simulator knows it.
public struct FaultMatrix {
    /// `short`: the first and last request of each command, and a few of each other fault
    /// (what CI runs); else every request (up to a few per command) and 100 transfer offsets.
    public var short: Bool
    public var profilesDirectory: String

    public init(short: Bool, profilesDirectory: String) {
        self.short = short
        self.profilesDirectory = profilesDirectory
    }

    static let settleTime: Duration = .seconds(30)

    /// Runs every case of `subject` with its shipped profile.
    public func run(_ subject: MatrixSubject) async throws -> [MatrixRow] {
        try await run(subject, profile: try ProfileLoader.load(path: profilesDirectory + "/" + subject.profile + ".yaml"))
    }

    /// Runs every case of `subject` with `profile` (a variant, to check the matrix itself).
    public func run(_ subject: MatrixSubject, profile: Profile) async throws -> [MatrixRow] {
        let baseline = try await flash(subject, profile: profile, faults: [])
        guard baseline.row.outcome == "verified", !baseline.row.silent else {
            return [baseline.row]
        }
        var rows = [baseline.row]
        for fault in faults(from: baseline.world) {
            rows.append(try await flash(subject, profile: profile, faults: [fault]).row)
        }
        for refusal in subject.refusals {
            rows.append(try await flash(subject, profile: profile, faults: [], settings: [refusal]).row)
        }
        return rows
    }

    /// One update of `subject` without an injected fault, classified as every row: what a
    /// `DeviceBehaviourRow` runs.
    public func baseline(_ subject: MatrixSubject) async throws -> MatrixRow {
        try await flash(subject, profile: try ProfileLoader.load(path: profilesDirectory + "/" + subject.profile + ".yaml"),
                        faults: []).row
    }

    /// The faults to try, placed by what the baseline run did.
    func faults(from world: SimulatedWorld) -> [String] {
        let requests = (world.peripherals.first as? any CommandLogging)?.receivedCommands ?? []
        var faults: [String] = []
        // Each command's requests, by the first name each answers to.
        var occurrences: [String: Int] = [:]
        var names: [String] = []
        for request in requests {
            guard let name = request.first else { continue }
            if occurrences[name] == nil { names.append(name) }
            occurrences[name, default: 0] += 1
        }
        for name in names {
            let count = occurrences[name] ?? 0
            for occurrence in Self.sample(1...count, count: short ? 2 : 6) {
                faults.append("disconnect-on:\(name):\(occurrence)")
                faults.append("disconnect-after-command:\(name):\(occurrence)")
            }
        }
        let bytes = max(1, world.valueBytesWritten)
        for offset in Self.sample(1...bytes, count: short ? 8 : 100) { faults.append("disconnect-after:\(offset)") }
        for offset in Self.sample(1...bytes, count: short ? 3 : 10) { faults.append("reboot-after:\(offset)") }
        let notifications = max(1, world.notificationCount)
        for kind in ["drop-notification", "duplicate-notification", "corrupt-notification", "reorder-notification"] {
            for number in Self.sample(1...notifications, count: short ? 2 : 8) { faults.append("\(kind):\(number)") }
        }
        for number in Self.sample(1...max(1, requests.count), count: short ? 2 : 8) { faults.append("busy:\(number)") }
        return faults
    }

    /// `count` values spread evenly over `range`, always with its ends.
    static func sample(_ range: ClosedRange<Int>, count: Int) -> [Int] {
        let width = range.upperBound - range.lowerBound
        guard width + 1 > count, count > 1 else { return Array(range) }
        return Array(Set((0..<count).map { range.lowerBound + width * $0 / (count - 1) })).sorted()
    }

    /// One update of `subject` with `faults`, classified against what the device holds.
    /// `settings`: `sim:` keys under which the device refuses the image (a refusal row: the
    /// update must not end verified).
    func flash(_ subject: MatrixSubject, profile: Profile, faults: [String],
               settings: [String] = []) async throws -> (row: MatrixRow, world: SimulatedWorld) {
        let world = try SimulatedDeviceCatalog.makeWorld(try SimulatorConfiguration(
            parsing: subject.device(with: faults, settings: settings)))
        let tracker = PhaseTracker()
        let report = await FlashSession(profile: profile, images: [subject.image], transport: world, address: nil,
                                        options: FlashOptions(parameters: subject.parameters),
                                        onEvent: { tracker.note($0) }).run()
        // What the device holds once it has finished what the update set going (a reboot, a
        // swap, an activation), before any inactivity timeout of its own (120 s on Nordic's).
        await world.sleep(until: world.now + Self.settleTime)
        let actual = (world.peripherals.first as? any FirmwareStageReporting)?.stage(of: subject.target)
            ?? FirmwareStageReport(.unchanged, "the device cannot say")
        let verified = report.status == .verified
        // Completed without an error: what the device held let the update end without its
        // checksums confirmed (a resume that found the new version already running). Judged as
        // a success: silent unless the device is where the goal says.
        let succeeded = verified || (report.status == .completed && report.error == nil)
        let reported = report.deviceHolds.map(\.rawValue)
        // An update that stopped before its first phase says the device holds what it held
        // before: on the matrix's fresh devices, nothing of the new image.
        let silent: Bool
        if succeeded {
            // A report that leaves it open (the protocol cannot show which image runs) must
            // still name the stage the device is in.
            // A report that leaves it open (the protocol cannot show which image runs) must name
            // the stage the device is in; one that names none must mean the goal was reached.
            silent = !settings.isEmpty
                || (reported.isEmpty ? actual.stage != subject.goal : !reported.contains(actual.stage.rawValue))
        } else {
            silent = reported.isEmpty ? actual.stage != .unchanged : !reported.contains(actual.stage.rawValue)
        }
        let row = MatrixRow(
            subject: subject.name,
            fault: settings.map { "refusal:" + $0 }.first ?? (faults.isEmpty ? "none" : faults.joined(separator: " ")),
            phase: tracker.phase(ended: report), outcome: verified ? "verified" : succeeded ? "completed" : "error",
            message: report.error.map { "\($0)" } ?? "", deviceStage: actual.stage.rawValue, deviceState: actual.summary,
            reportedHolds: reported, silent: silent,
            unexplained: !succeeded && report.error?.deviceState == nil,
            resumes: report.resumes, retries: report.retries)
        return (row, world)
    }
}

/// Follows the phase events of an update to tell where a fault first showed: the phase under
/// way at the first resend or resume (or, with neither, where the update ended).
final class PhaseTracker: @unchecked Sendable {
    private var current: String?
    private var lastDone: String?
    private var atFault: String?

    func note(_ event: FlashEvent) {
        switch event {
        case let .phase(name, .entered):
            current = name
        case let .phase(name, _):
            current = nil
            lastDone = name
        case .retrying, .resuming:
            if atFault == nil { atFault = where_ }
        default:
            break
        }
    }

    private var where_: String {
        if let current { return current }
        return lastDone.map { "after \($0)" } ?? "before any phase"
    }

    func phase(ended report: FlashReport) -> String {
        if let atFault { return atFault }
        return report.status == .verified ? "no effect" : where_
    }
}
