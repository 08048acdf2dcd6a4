/// The ATT operations that cross a simulated link. Each goes out as the LL data PDUs its size
/// takes through L2CAP (`LinkAirtime.fragments(ofATTPDU:)`).
public enum SimulatedPDU: Sendable, Equatable {
    // central -> peripheral
    /// ATT Write Request: answered by a Write Response.
    case writeRequest(handle: UInt16, value: [UInt8])
    /// ATT Write Command: not answered.
    case writeCommand(handle: UInt16, value: [UInt8])
    /// ATT Read Request.
    case readRequest(handle: UInt16)
    // peripheral -> central
    /// ATT Write Response.
    case writeResponse
    /// ATT Read Response with the value.
    case readResponse(value: [UInt8])
    /// ATT Error Response: the ATT error code and the handle it concerns.
    case errorResponse(code: UInt8, handle: UInt16)
    /// ATT Handle Value Notification.
    case notification(handle: UInt16, value: [UInt8])
    /// LL_TERMINATE_IND: the peripheral ends the connection without a last ATT PDU (a device
    /// that resets on a command it does not answer). Send it with `disconnectAfterSending`.
    case terminate

    /// The ATT PDU's size in bytes (opcode, handle, value), as L2CAP carries it; nil for
    /// `terminate`, an LL control PDU.
    package var attSize: Int? {
        switch self {
        case let .writeRequest(_, value), let .writeCommand(_, value), let .notification(_, value):
            return 3 + value.count
        case .readRequest: return 3
        case .writeResponse: return 1
        case let .readResponse(value): return 1 + value.count
        case .errorResponse: return 5
        case .terminate: return nil
        }
    }

    /// The LL payloads this PDU goes out as on `airtime`'s link: LL_TERMINATE_IND is one
    /// 2-byte control PDU.
    func linkLayerPayloads(on airtime: LinkAirtime) -> [Int] {
        attSize.map { airtime.fragments(ofATTPDU: $0) } ?? [2]
    }

    /// Attribute value bytes carried (0 for acknowledgements).
    package var valueByteCount: Int {
        switch self {
        case let .writeRequest(_, value), let .writeCommand(_, value), let .readResponse(value),
             let .notification(_, value):
            return value.count
        case .readRequest, .writeResponse, .errorResponse, .terminate:
            return 0
        }
    }
}

/// Something a peripheral sends, and the earliest moment it is ready to go out (after the
/// device's processing time). It still waits for a connection event after that.
public struct PeripheralOutput: Sendable, Equatable {
    package var pdu: SimulatedPDU
    package var readyAt: Duration
    /// The device ends the link once this PDU is sent.
    package var disconnectAfterSending: Bool
    /// Why the link ends after this PDU (`disconnectAfterSending`), as the central hears it.
    package var disconnectReason: String
    /// Not sent at all: the link is lost the moment the device produces this (a command fault),
    /// before anything else goes either way.
    package var losesLinkAtOnce: Bool

    /// `pdu`, ready to go at `readyAt` (device time); with `disconnectAfterSending`, the device ends
    /// the link once it is sent, for `disconnectReason`.
    public init(pdu: SimulatedPDU, readyAt: Duration, disconnectAfterSending: Bool = false,
                disconnectReason: String = "the device rebooted") {
        self.pdu = pdu
        self.readyAt = readyAt
        self.disconnectAfterSending = disconnectAfterSending
        self.disconnectReason = disconnectReason
        self.losesLinkAtOnce = false
    }

    /// The link is lost at `time` for `reason`; whatever the device produced in the same write
    /// is lost with it.
    package static func linkLoss(reason: String, at time: Duration) -> PeripheralOutput {
        var output = PeripheralOutput(pdu: .terminate, readyAt: time, disconnectAfterSending: true,
                                      disconnectReason: reason)
        output.losesLinkAtOnce = true
        return output
    }
}
