/// Why an operation of the embedding API stopped: what failed, in words that say where and
/// what to do, and, once a device was reached, the engine's report of what it holds.
public struct DFUKitError: Error, Sendable, CustomStringConvertible {
    /// What kind of thing failed; `exitCode` maps each to the status `dfukit` exits with.
    public enum Kind: String, Sendable {
        /// The request itself is wrong: an unknown transport scheme, a bad option or parameter.
        case usage
        /// The profile cannot be read, or cannot run this request.
        case profile
        /// The package cannot be read, is damaged, fails its signature, or is of a kind the
        /// profile does not take: nothing was sent.
        case package
        /// The transport cannot be opened or used here (no adapter, no permission, no device).
        case transport
        /// The device refused, stopped answering, or the link was lost for good.
        case device
        /// The consuming task was cancelled; the report says where the device stopped.
        case cancelled
    }

    /// What the caller could change to go on, where that is one thing: the command line names
    /// the flag that does it, an embedder the request's property.
    public enum Remedy: Sendable, Equatable {
        /// Send the package although the profile does not take its kind (`FlashRequest.force`).
        case force
        /// Give (another) value for this parameter.
        case setParameter(String)
        /// Allow a command that changes the device (`ExecRequest.allowChangingDevice`).
        case confirmChange
        /// Name the device by its address.
        case giveAddress
    }

    /// What failed.
    public var kind: Kind
    /// What failed, where and what to do, in one or more lines.
    public var message: String
    /// The engine's report, for a flash or command that got as far as the transport: the
    /// bytes sent, the retries and `deviceHolds`, what the device holds now.
    public var report: FlashReport?
    /// What would help, when one change would.
    public var remedy: Remedy?

    /// An error of `kind`; `report` when the engine ran.
    public init(kind: Kind, message: String, report: FlashReport? = nil, remedy: Remedy? = nil) {
        self.kind = kind
        self.message = message
        self.report = report
        self.remedy = remedy
    }

    /// An error from the engine's report of a failed run.
    public init(report: FlashReport) {
        self.init(report.error ?? FlashError(kind: .device, message: "the update failed"))
        self.report = report
    }

    /// An engine error without a report.
    public init(_ error: FlashError) {
        let kind: Kind = switch error.kind {
        case .cancelled: .cancelled
        case .transport: .transport
        case .usage: .usage
        case .profile: .profile
        case .device, .timeout, .disconnected, .incompatibleDevice: .device
        }
        self.init(kind: kind, message: error.description)
    }

    /// The status `dfukit` exits with for this error (sysexits): 64 usage, 65 profile or
    /// package, 69 transport, 1 device, 130 cancelled.
    public var exitCode: Int32 {
        switch kind {
        case .usage: 64
        case .profile, .package: 65
        case .transport: 69
        case .device: 1
        case .cancelled: 130
        }
    }

    /// The message.
    public var description: String { message }
}
