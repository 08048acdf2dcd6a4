import DFUBytes
import DFUCapture
import DFUGATT
import DFUProfile

/// The captured device's answers to a step, on the capture's timing.
extension ReplayScript {
    func answer(_ operations: [CapturedOperation], after time: Duration?, connection: CapturedConnection,
                        refusal: (code: UInt8, handle: UInt16)?, open: OpenConnection? = nil) -> Answer {
        var answer = Answer()
        answer.refusal = refusal
        let start = time ?? operations.first?.time ?? .zero
        for operation in operations {
            guard case let .notification(handle, value, _) = operation.kind else { continue }
            let patched = open?.sequenceSwap?.apply(to: value) ?? value
            answer.notifications.append((max(.zero, operation.time - start),
                                         GATTNotification(valueHandle: handle, value: patched, receivedAt: .zero)))
        }
        if let open, open.next >= open.steps.steps.count, let ending = connection.ending, ending.byDevice {
            answer.disconnectAfter = max(.zero, ending.time - start)
        }
        return answer
    }
}
