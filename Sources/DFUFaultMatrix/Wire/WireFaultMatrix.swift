import DFUEngine
import DFUGATT
import DFUKit
import DFUProfile
import DFUSimulator
import DFUWire

/// The fault matrix over serial lines and UDP: for each wire subject a baseline update, then one
/// update per line fault placed across what the baseline carried: a byte lost or corrupted on the
/// way to the device or back, line noise before a request or an answer, every frame split into
/// one-byte reads, the device losing power in the middle of a frame. Each case must end verified
/// with the image where the goal says, or with an error whose report names what the device holds.
public struct WireFaultMatrix {
    public var short: Bool
    public var profilesDirectory: String

    public init(short: Bool, profilesDirectory: String) {
        self.short = short
        self.profilesDirectory = profilesDirectory
    }

    /// Every case of `subject`.
    public func run(_ subject: WireMatrixSubject) async throws -> [MatrixRow] {
        let profile = try ProfileLoader.load(path: profilesDirectory + "/" + subject.profile + ".yaml")
        let baseline = try await flash(subject, profile: profile, fault: nil)
        guard baseline.row.outcome == "verified", !baseline.row.silent else { return [baseline.row] }
        var rows = [baseline.row]
        for fault in faults(from: baseline.statistics) {
            rows.append(try await flash(subject, profile: profile, fault: fault).row)
        }
        return rows
    }

    /// The faults, placed by what the baseline carried each way.
    func faults(from statistics: SimulatedWireStatistics) -> [WireFault] {
        let toDevice = max(1, statistics.bytesToDevice), toHost = max(1, statistics.bytesToHost)
        let count = short ? 3 : 12
        var faults: [WireFault] = []
        for byte in FaultMatrix.sample(1...toDevice, count: count) {
            faults.append(.lostToDevice(byte))
            faults.append(.corruptedToDevice(byte))
        }
        for byte in FaultMatrix.sample(1...toHost, count: count) {
            faults.append(.lostToHost(byte))
            faults.append(.corruptedToHost(byte))
        }
        for byte in FaultMatrix.sample(1...toDevice, count: short ? 2 : 6) { faults.append(.resetAt(byte)) }
        for send in [1, 2, 5] { faults.append(.garbageToDevice(send)) }
        for output in [1, 2, 5] { faults.append(.garbageToHost(output)) }
        faults.append(.oneByteReads)
        return faults
    }

    func flash(_ subject: WireMatrixSubject, profile: Profile,
               fault: WireFault?) async throws -> (row: MatrixRow, statistics: SimulatedWireStatistics) {
        let device = subject.makeDevice()
        var faults = SimulatedWireFaults()
        fault?.apply(to: &faults)
        let endpoint = SimulatedWireEndpoint(device: device, link: subject.link, faults: faults, name: subject.name)
        let binding = try WireBinding.make(profile: profile, kind: subject.kind, options: WireLinkOptions(), device: subject.name)
        let address = DeviceAddress(string: "C0:FF:EE:00:00:01")!
        let transport = WireTransport(endpoint: endpoint, binding: binding, address: address)
        let tracker = PhaseTracker()
        let report = await FlashSession(profile: profile, images: [subject.image], transport: transport, address: address,
                                        options: FlashOptions(parameters: subject.parameters),
                                        onEvent: { tracker.note($0) }).run()
        await endpoint.sleep(until: endpoint.now + FaultMatrix.settleTime)
        let actual = device.stage(of: subject.target)
        let verified = report.status == .verified
        let succeeded = verified || (report.status == .completed && report.error == nil)
        let reported = report.deviceHolds.map(\.rawValue)
        let silent = succeeded
            ? (reported.isEmpty ? actual.stage != subject.goal : !reported.contains(actual.stage.rawValue))
            : (reported.isEmpty ? actual.stage != .unchanged : !reported.contains(actual.stage.rawValue))
        let row = MatrixRow(
            subject: subject.name, fault: fault?.description ?? "none", phase: tracker.phase(ended: report),
            outcome: verified ? "verified" : succeeded ? "completed" : "error",
            message: report.error.map { "\($0)" } ?? "", deviceStage: actual.stage.rawValue, deviceState: actual.summary,
            reportedHolds: reported, silent: silent, unexplained: !succeeded && report.error?.deviceState == nil,
            resumes: report.resumes, retries: report.retries)
        return (row, endpoint.statistics)
    }
}

/// One line fault of the wire matrix.
enum WireFault: CustomStringConvertible {
    case lostToDevice(Int), corruptedToDevice(Int), lostToHost(Int), corruptedToHost(Int)
    case resetAt(Int), garbageToDevice(Int), garbageToHost(Int), oneByteReads

    func apply(to faults: inout SimulatedWireFaults) {
        switch self {
        case let .lostToDevice(byte): faults.lostBytesToDevice.insert(byte)
        case let .corruptedToDevice(byte): faults.corruptedBytesToDevice.insert(byte)
        case let .lostToHost(byte): faults.lostBytesToHost.insert(byte)
        case let .corruptedToHost(byte): faults.corruptedBytesToHost.insert(byte)
        case let .resetAt(byte): faults.resetAtByteToDevice.insert(byte)
        case let .garbageToDevice(send): faults.garbageToDevice[send] = SimulatedWireFaults.garbageLine
        case let .garbageToHost(output): faults.garbageToHost[output] = SimulatedWireFaults.garbageLine
        case .oneByteReads: faults.bytesPerRead = 1
        }
    }

    var description: String {
        switch self {
        case let .lostToDevice(byte): "lose-byte:\(byte)"
        case let .corruptedToDevice(byte): "corrupt-byte:\(byte)"
        case let .lostToHost(byte): "lose-reply-byte:\(byte)"
        case let .corruptedToHost(byte): "corrupt-reply-byte:\(byte)"
        case let .resetAt(byte): "reset-at-byte:\(byte)"
        case let .garbageToDevice(send): "garbage:\(send)"
        case let .garbageToHost(output): "reply-garbage:\(output)"
        case .oneByteReads: "one-byte-reads"
        }
    }
}
