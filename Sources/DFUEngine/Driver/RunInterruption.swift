import DFUGATT
import DFUProfile

/// The link dropped, or an ATT request went unanswered (after which the bearer is unusable):
/// the session may reconnect and resume.
struct LinkLoss: Error, Sendable {
    /// `.disconnected` or `.timeout`.
    var kind: FlashError.Kind
    var detail: String
    /// The step that was running ("send 'data'"), if any.
    var step: String?
    var location: SourceLocation?

    init(kind: FlashError.Kind = .disconnected, detail: String, step: String? = nil, location: SourceLocation? = nil) {
        self.kind = kind
        self.detail = detail
        self.step = step
        self.location = location
    }

    /// "send 'data': link lost: ..." for messages.
    var summary: String { step.map { "\($0): \(detail)" } ?? detail }
}

/// Why a procedure run stopped before its end: the link was lost (resumable), the user
/// cancelled, or a final error (the device refused, the profile cannot be evaluated, the
/// device lacks what the profile needs).
enum RunInterruption: Error {
    case linkLost(LinkLoss)
    case cancelled
    case failed(FlashError)

    /// A transport error while `step` ran: a lost link (resumable) or a final error.
    init(_ error: GATTError, step: String?, location: SourceLocation?) {
        var detail = error.description
        if let address = error.address, detail.hasPrefix(address + ": ") { detail.removeFirst(address.count + 2) }
        switch error.kind {
        case .disconnected:
            self = .linkLost(LinkLoss(kind: .disconnected, detail: detail, step: step, location: location))
        case .timeout:
            self = .linkLost(LinkLoss(kind: .timeout, detail: detail, step: step, location: location))
        default:
            let kind: FlashError.Kind = error.kind == .transportUnavailable ? .transport : .device
            self = .failed(FlashError(kind: kind, message: step.map { "\($0): \(detail)" } ?? detail,
                                      address: error.address, location: location, hint: Self.hint(for: error.kind)))
        }
    }

    /// What to do about an ATT error that asks for link security (Core Vol 3, Part F, 3.4.1.1:
    /// Insufficient Authentication 0x05, Encryption Key Size Too Short 0x0C, Insufficient
    /// Encryption 0x0F).
    static func hint(for kind: GATTError.Kind) -> String? {
        guard case let .attError(code, _) = kind, [0x05, 0x0C, 0x0F].contains(code) else { return nil }
        return "the device wants an encrypted link: give the profile `security: medium` (bluez: and hci: then "
            + "pair with Just Works; `high`, an authenticated link, over bluez: only); sim: links are not encrypted"
    }
}

extension GATTWriteType {
    init(_ type: CharacteristicSpec.WriteType) {
        self = type == .withResponse ? .withResponse : .withoutResponse
    }
}
