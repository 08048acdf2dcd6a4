import DFUBytes
import DFUCapture
import DFUGATT
import DFUProfile

/// Holding a message DFUKit completed against the one the captured client sent there.
extension ReplayScript {
    mutating func compare(_ message: [UInt8], values: [(value: [UInt8], withResponse: Bool)], with captured: [UInt8],
                                  _ capturedValues: [(value: [UInt8], withResponse: Bool)], handle: UInt16,
                                  connection: CapturedConnection, open: inout OpenConnection) -> ReplayDivergence? {
        let role = role(of: handle, connection)
        let framing = role.flatMap { profile.flatMap(MessageCatalog.init)?.framing(of: $0) }
        let command = role.flatMap { commandName(message, role: $0) }
        let differences = profile.map {
            MessageComparison(profile: $0).differences(captured: captured, now: message, command: command,
                                                       role: role ?? "handle 0x\(String(handle, radix: 16))", framing: framing)
        } ?? (captured == message ? [] : [FieldDifference(message: "handle 0x\(String(handle, radix: 16))", field: "value",
                                                          captured: MessageComparison.render(captured),
                                                          now: MessageComparison.render(message), variance: .fixed)])
        let stepNumber = open.next + 1
        switch strictness {
        case .strict:
            if let first = differences.first {
                return diverge(connection: open.index, step: stepNumber, first.description, fields: differences)
            }
            if values.map(\.value.count) != capturedValues.map(\.value.count) {
                return diverge(connection: open.index, step: stepNumber, "message '\(command ?? role ?? "?")' went in "
                               + "\(values.count) write(s) of \(values.map { "\($0.value.count)" }.joined(separator: ", ")) "
                               + "bytes; the capture's client wrote it in \(capturedValues.count) of "
                               + capturedValues.map { "\($0.value.count)" }.joined(separator: ", "))
            }
            if values.map(\.withResponse) != capturedValues.map(\.withResponse) {
                let kind = { (withResponse: Bool) in withResponse ? "with response" : "without response" }
                return diverge(connection: open.index, step: stepNumber, "message '\(command ?? role ?? "?")' was written "
                               + "\(kind(values[0].withResponse)); the capture's client wrote it \(kind(capturedValues[0].withResponse))")
            }
        case .tolerant:
            let refused = differences.filter { difference in
                switch difference.variance {
                case .fixed: return true
                case .sequence: return false
                case .imageDerived: return sameImage
                }
            }
            if let first = refused.first {
                return diverge(connection: open.index, step: stepNumber, first.description, fields: refused)
            }
            tolerate(differences)
            open.sequenceSwap = nil
            for difference in differences where difference.variance == .sequence {
                open.sequenceSwap = sequenceSwap(difference, captured: captured, now: message, command: command)
            }
        }
        return nil
    }

    /// A sequence number's bytes both ways, and where the command's response carries it back
    /// (its field of the same name, matched by `response.seq == request.seq`).
    func sequenceSwap(_ difference: FieldDifference, captured: [UInt8], now: [UInt8],
                              command: String?) -> SequenceSwap? {
        guard let command, let spec = profile?.commands[command], let response = spec.response,
              let request = SequenceSwap.fixedOffset(of: difference.field, in: spec.request.fields),
              let answer = SequenceSwap.fixedOffset(of: difference.field, in: response.message.fields),
              request.offset + request.width <= min(captured.count, now.count), answer.width == request.width else { return nil }
        return SequenceSwap(offset: answer.offset, captured: Array(captured[request.offset..<request.offset + request.width]),
                            now: Array(now[request.offset..<request.offset + request.width]))
    }

    func commandName(_ message: [UInt8], role: String) -> String? {
        guard let profile else { return nil }
        if case let .decoded(decoded) = MessageCatalog(profile: profile).readWritten(message, to: role) { return decoded.name }
        return nil
    }
}
