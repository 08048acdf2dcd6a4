import DFUGATT
import DFUProfile

/// Internal: either a lost link (the link dropped, or an ATT request went unanswered, after
/// which the bearer is unusable: resuming may help) or a final error wrapped to pass through.
struct LinkLost: Error {
    var detail: String
    var kind: FlashError.Kind = .disconnected
    var step: String?
    var location: SourceLocation?
    var fatal: FlashError?

    init(detail: String) { self.detail = detail }
    init(fatal: FlashError) {
        self.detail = fatal.message
        self.fatal = fatal
    }
    init(_ error: GATTError, step: String?, location: SourceLocation?) {
        self.detail = error.description
        if let address = error.address, detail.hasPrefix(address + ": ") {
            detail.removeFirst(address.count + 2)
        }
        self.step = step
        self.location = location
        switch error.kind {
        case .disconnected: kind = .disconnected
        case .timeout: kind = .timeout
        default:
            let kind: FlashError.Kind = error.kind == .transportUnavailable ? .transport : .device
            fatal = FlashError(kind: kind, message: step.map { "\($0): \(detail)" } ?? detail,
                               address: error.address, location: location, hint: Self.hint(for: error.kind))
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

    /// "send 'data': link lost: ..." for messages.
    var summary: String { step.map { "\($0): \(detail)" } ?? detail }
}

extension GATTWriteType {
    init(_ type: CharacteristicSpec.WriteType) {
        self = type == .withResponse ? .withResponse : .withoutResponse
    }
}
