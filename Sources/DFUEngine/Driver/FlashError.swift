import DFUProfile

/// Why a flash did not end verified: what failed, where (device, image, offset, profile
/// location) and, where we can tell, what to do.
public struct FlashError: Error, Sendable, CustomStringConvertible {
    /// The class of failure, which decides the exit status; the raw value is what `--json` and the
    /// ledger print.
    public enum Kind: String, Sendable {
        /// The device refused a command or failed a check.
        case device
        /// The device stopped answering.
        case timeout
        /// The link dropped and could not be resumed.
        case disconnected
        /// The device lacks a service or characteristic the profile needs.
        case incompatibleDevice = "incompatible-device"
        /// The profile could not be evaluated.
        case profile
        /// No device could be found or reached, or the transport cannot be used.
        case transport
        /// The command line asked for something the profile does not have.
        case usage
        /// The user stopped the update (Ctrl-C, or the task was cancelled).
        case cancelled
    }

    /// The class of failure.
    public var kind: Kind
    /// What failed, in words for the user.
    public var message: String
    /// The device's address, when the failure concerns one.
    public var address: String?
    /// The image being sent, when there was one.
    public var image: String?
    /// The image offset (bytes) the device had reached, when known.
    public var offset: Int?
    /// The profile step or key (`FILE:LINE:COL`) the failure happened at, when it came from one.
    public var location: SourceLocation?
    /// What to do about it, when we can tell.
    public var hint: String?
    /// What the device holds of the image, as far as the engine can tell: one stage, or two
    /// when a command whose answer was lost may or may not have taken effect; empty when
    /// unknown (the profile declares no phases).
    public var deviceHolds: [FirmwareStage] = []
    /// What the device holds, in words ("the device still runs its previous firmware; ...").
    public var deviceState: String?
    /// The device's answer (a code the profile does not know), or its absence (a timeout, a lost
    /// link), does not tell whether it did what it was asked.
    package var outcomeUnknown = false

    /// An error of `kind`; the optional parts say where it happened and what to do.
    public init(kind: Kind, message: String, address: String? = nil, image: String? = nil, offset: Int? = nil,
                location: SourceLocation? = nil, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.address = address
        self.image = image
        self.offset = offset
        self.location = location
        self.hint = hint
    }

    public var description: String {
        var context: [String] = []
        if let address { context.append("device \(address)") }
        if let image { context.append("image '\(image)'") }
        if let offset { context.append("offset \(offset)") }
        var text = context.isEmpty ? message : context.joined(separator: ", ") + ": " + message
        if let location { text += " (profile step at \(location))" }
        if let deviceState { text += "\n  device: \(deviceState)" }
        if let hint { text += "\n  hint: \(hint)" }
        return text
    }
}
