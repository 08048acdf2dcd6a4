import DFUCapture
import DFUEngine
import DFUPackage
import DFUProfile
import DFUTrace

/// What `DFUKit.verify` is asked: does this profile, flashing this package, do what the
/// captured client did against the captured device?
public struct ProfileVerificationRequest: Sendable {
    /// The profile under test.
    public var profile: Profile
    /// The package to flash: the one the captured client sent, for the closest comparison.
    public var package: FirmwarePackage
    /// The capture: a `--record` file, a btsnoop log (Android, btmon, Bumble) or a pcap.
    public var capture: String
    /// Profile parameters for the run.
    public var options = FlashOptions()
    /// Send a package of a kind the profile does not list anyway.
    public var force = false

    /// A request with default options.
    public init(profile: Profile, package: FirmwarePackage, capture: String) {
        self.profile = profile
        self.package = package
        self.capture = capture
    }
}

/// The answer: whether the profile reproduced the captured session, and where it did not.
public struct ProfileVerification: Sendable {
    /// The capture's format.
    public var format: String
    /// How many connections the capture holds.
    public var connections: Int
    /// The capture's client sent this package's image (samples of it are in what it wrote): the
    /// fields made from the image must then match too.
    public var sameImage: Bool
    /// How `sameImage` was decided ("8 of 8 samples of the image found in what the client wrote").
    public var imageEvidence: String
    /// The first message DFUKit sends that the captured client did not, field by field.
    public var divergence: ReplayDivergence?
    /// Differences let through as legitimate (sequence numbers; image-derived fields for
    /// another image), in order.
    public var tolerated: [FieldDifference]
    /// What the captured client did that the profile never did.
    public var unfinished: String?
    /// What the replay noticed without failing (a subscription the client did not make...).
    public var notes: [String]
    /// The flash's report against the replayed device.
    public var report: FlashReport?
    /// Why the flash failed, where it did.
    public var flashError: String?

    /// The profile reproduced the captured session: no divergence, nothing left over, and the
    /// flash reached its end.
    public var reproduced: Bool { divergence == nil && unfinished == nil && flashError == nil }
}

extension DFUKit {
    /// Runs the profile's procedure against the capture's device side, comparing every message
    /// it sends with the one the captured client sent, field by field. The same checks as a
    /// flash come first (profile, package, parameters), then the capture is read.
    /// - Throws: `.usage`, `.profile`, `.package` for what is wrong before anything runs.
    public static func verify(_ request: ProfileVerificationRequest) async throws(DFUKitError) -> ProfileVerification {
        let target = SimulatedReplayTarget(capture: request.capture)
        var flash = FlashRequest(package: request.package, profile: request.profile,
                                 device: "sim:\(SimulatedReplayTarget.deviceName)?capture=\(request.capture)")
        flash.options = request.options
        flash.force = request.force
        let plan = try Preflight.flash(flash)
        let session = try target.session()
        let sampled = ImageSampling.found(plan.images, in: session)
        let sameImage = sampled.taken > 0 && sampled.found * 4 >= sampled.taken * 3
        let replay = ReplayTransport(session: session, profile: request.profile, name: flash.device, strict: false,
                                     sameImage: sameImage)
        let run = FlashSession(profile: request.profile, images: plan.images, transport: replay,
                               address: replay.soleDevice, options: plan.options, onEvent: { _ in })
        let report = await run.run()
        return ProfileVerification(
            format: session.format.description, connections: session.connections.count, sameImage: sameImage,
            imageEvidence: "\(sampled.found) of \(sampled.taken) samples of the package's image found in what the "
                + "capture's client wrote", divergence: replay.divergence, tolerated: replay.toleratedDifferences,
            unfinished: replay.divergence == nil ? replay.unfinished : nil, notes: replay.notes, report: report,
            flashError: report.status == .failed ? report.error.map { "\($0)" } ?? "the flash failed" : nil)
    }

    /// Reads a capture (a `--record` file, btsnoop, pcap), its messages by `profile` when given.
    /// - Throws: `.usage` for a file that cannot be read or is no capture.
    public static func inspectCapture(_ path: String, profile: Profile?) throws(DFUKitError) -> CaptureInspection {
        CaptureInspection(try CaptureFile.read(path), profile: profile)
    }
}
