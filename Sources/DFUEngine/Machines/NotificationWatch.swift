import DFUBytes
import DFUProfile

/// The notifications a profile marks `watch: true`, listened for whatever step runs: a result
/// the device sends when it ends an operation on its own (Telink's OTA server notifies
/// `06 FF <result> 00` before it drops the link, `blt_ota_procOtaResultFeedback`). Pure: the
/// driver hands it each notification it reads (while a step waits for one, while the engine
/// waits for a rebooting device to drop the link, and those left when the link dropped), and it
/// says whether one was a refusal.
package struct NotificationWatch {
    /// What one notification was to the watch.
    package enum Heard: Equatable {
        /// A watched notification with a failing status: the device refused (`notification` set).
        case refusal(DeviceStatus)
        /// A watched notification with a successful status (its name).
        case success(String)
        /// Not a watched notification.
        case other
    }

    private let candidates: [NotificationWait.Candidate]
    private let scope: Scope
    private let codeTables: [String: CodeTable]
    /// One reassembler per characteristic the watched notifications come from.
    private var messages: [UInt16: NotificationMessages] = [:]

    /// Nil when nothing is watched.
    package init?(candidates: [NotificationWait.Candidate], scope: Scope, codeTables: [String: CodeTable]) {
        guard !candidates.isEmpty else { return nil }
        self.candidates = candidates
        self.scope = scope
        self.codeTables = codeTables
        for candidate in candidates where messages[candidate.handle] == nil {
            messages[candidate.handle] = NotificationMessages(framing: candidate.framing)
        }
    }

    /// Reads a notification from `handle`: the first watched message it completes decides.
    package mutating func hear(_ value: [UInt8], from handle: UInt16) -> Heard {
        guard var reassembly = messages[handle] else { return .other }
        let received = reassembly.append(value)
        messages[handle] = reassembly
        for message in received.messages {
            for candidate in candidates where candidate.handle == handle {
                guard let status = candidate.message.status,
                      case let .matched(fields)? = try? MessageDecoder.decode(message, as: candidate.message, in: scope,
                                                                              status: status) else { continue }
                guard var failure = DeviceStatus.failure(in: fields, spec: status, tables: codeTables) else {
                    return .success(candidate.name)
                }
                failure.notification = candidate.name
                return .refusal(failure)
            }
        }
        return .other
    }
}
