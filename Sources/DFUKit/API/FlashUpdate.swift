/// What a flash reports as it goes (`DFUKit.flash`). The last event of a flash that did not
/// fail is `.finished`; a failed or cancelled one throws a `DFUKitError` whose `report` says
/// what the device holds.
public enum FlashUpdate: Sendable {
    /// Connected to the device, with the negotiated ATT_MTU.
    case connected(address: DeviceAddress, mtu: Int)
    /// Image `index` (0-based) of `count` starts: its name in the package and its size.
    case imageStarted(name: String, size: Int, index: Int, count: Int)
    /// A phase of the profile's procedure started.
    case phaseStarted(String)
    /// A phase ended: completed now, or found already done on the device (then skipped).
    case phaseFinished(String, alreadyDone: Bool)
    /// `bytes` of the current image's `total` are on the device; `elapsed` on the
    /// transport's clock since the flash started.
    case progress(image: String, bytes: Int, total: Int, elapsed: Duration)
    /// A step is retried, and why.
    case retrying(reason: String)
    /// The link was lost and the flash resumes: attempt `attempt` of `of`.
    case resuming(attempt: Int, of: Int, reason: String)
    /// What the stack granted the connection just made (PHY, data length, MTU, interval) and
    /// what was asked, on transports that can tell.
    case linkGranted(LinkGrant)
    /// An image was accepted; `verified` when the device confirmed its checksum.
    case imageFinished(name: String, verified: Bool)
    /// Any other engine event (scanning, the device a scan picked and why, connecting, rebooting, the transfer's start), as it came.
    case detail(FlashEvent)
    /// The flash ended `verified` or `completed`: the engine's report (bytes, seconds,
    /// retries, resumes, what the device holds).
    case finished(FlashReport)

    /// The engine's event as an update.
    public init(_ event: FlashEvent) {
        switch event {
        case let .connected(address, mtu): self = .connected(address: address, mtu: mtu)
        case let .imageStarted(name, size, index, count): self = .imageStarted(name: name, size: size, index: index, count: count)
        case let .phase(name, .entered): self = .phaseStarted(name)
        case let .phase(name, .completed): self = .phaseFinished(name, alreadyDone: false)
        case let .phase(name, .alreadyDone): self = .phaseFinished(name, alreadyDone: true)
        case let .progress(image, done, total, elapsed): self = .progress(image: image, bytes: done, total: total, elapsed: elapsed)
        case let .retrying(reason): self = .retrying(reason: reason)
        case let .resuming(attempt, of, reason): self = .resuming(attempt: attempt, of: of, reason: reason)
        case let .linkGranted(grant): self = .linkGranted(grant)
        case let .imageFinished(name, verified): self = .imageFinished(name: name, verified: verified)
        case .scanning, .selected, .connecting, .transferStarted, .rebooting: self = .detail(event)
        }
    }
}
