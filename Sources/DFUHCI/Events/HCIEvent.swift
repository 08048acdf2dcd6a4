/// An event from the controller, decoded when this host knows it.
package enum HCIEvent: Sendable, Hashable {
    case commandComplete(CommandCompleteEvent)
    case commandStatus(CommandStatusEvent)
    case disconnectionComplete(DisconnectionCompleteEvent)
    case encryptionChange(EncryptionChangeEvent)
    case numberOfCompletedPackets(NumberOfCompletedPacketsEvent)
    /// LE Connection Complete (0x01) or LE Enhanced Connection Complete (0x0A).
    case leConnectionComplete(LEConnectionCompleteEvent)
    case leAdvertisingReport(LEAdvertisingReportEvent)
    case leExtendedAdvertisingReport(LEExtendedAdvertisingReportEvent)
    case leConnectionUpdateComplete(LEConnectionUpdateCompleteEvent)
    case leDataLengthChange(LEDataLengthChangeEvent)
    case lePHYUpdateComplete(LEPHYUpdateCompleteEvent)
    /// An LE Meta subevent this host does not decode.
    case leMetaOther(subeventCode: UInt8, parameters: [UInt8])
    /// An event this host does not decode.
    case other(code: UInt8, parameters: [UInt8])

    /// Event_Code of LE Meta events.
    package static let leMetaCode: UInt8 = 0x3E

    /// Decodes an event packet (body: event code, parameter length, parameters).
    package init(packet: HCIPacket) throws(HCIDecodeError) {
        guard packet.type == .event else {
            throw HCIDecodeError("HCI event", "packet type is \(packet.type)")
        }
        guard packet.body.count >= 2 else {
            throw HCIDecodeError("HCI event", "\(packet.body.count) byte(s), the header alone has 2")
        }
        let code = packet.body[0]
        let length = Int(packet.body[1])
        guard packet.body.count - 2 == length else {
            throw HCIDecodeError("HCI event 0x\(hexByte(code))",
                                 "parameter length says \(length) byte(s), \(packet.body.count - 2) present")
        }
        try self.init(code: code, parameters: Array(packet.body[2...]))
    }

    package init(code: UInt8, parameters: [UInt8]) throws(HCIDecodeError) {
        switch code {
        case CommandCompleteEvent.code: self = .commandComplete(try CommandCompleteEvent(parameters: parameters))
        case CommandStatusEvent.code: self = .commandStatus(try CommandStatusEvent(parameters: parameters))
        case DisconnectionCompleteEvent.code:
            self = .disconnectionComplete(try DisconnectionCompleteEvent(parameters: parameters))
        case EncryptionChangeEvent.code: self = .encryptionChange(try EncryptionChangeEvent(parameters: parameters))
        case NumberOfCompletedPacketsEvent.code:
            self = .numberOfCompletedPackets(try NumberOfCompletedPacketsEvent(parameters: parameters))
        case Self.leMetaCode:
            guard let subevent = parameters.first else {
                throw HCIDecodeError("LE Meta event", "no subevent code")
            }
            let rest = Array(parameters.dropFirst())
            switch subevent {
            case LEConnectionCompleteEvent.subeventCode, LEConnectionCompleteEvent.enhancedSubeventCode:
                self = .leConnectionComplete(
                    try LEConnectionCompleteEvent(parameters: rest,
                                                  enhanced: subevent == LEConnectionCompleteEvent.enhancedSubeventCode))
            case LEAdvertisingReportEvent.subeventCode:
                self = .leAdvertisingReport(try LEAdvertisingReportEvent(parameters: rest))
            case LEExtendedAdvertisingReportEvent.subeventCode:
                self = .leExtendedAdvertisingReport(try LEExtendedAdvertisingReportEvent(parameters: rest))
            case LEConnectionUpdateCompleteEvent.subeventCode:
                self = .leConnectionUpdateComplete(try LEConnectionUpdateCompleteEvent(parameters: rest))
            case LEDataLengthChangeEvent.subeventCode:
                self = .leDataLengthChange(try LEDataLengthChangeEvent(parameters: rest))
            case LEPHYUpdateCompleteEvent.subeventCode:
                self = .lePHYUpdateComplete(try LEPHYUpdateCompleteEvent(parameters: rest))
            default:
                self = .leMetaOther(subeventCode: subevent, parameters: rest)
            }
        default:
            self = .other(code: code, parameters: parameters)
        }
    }

    /// The event code and its parameters (LE Meta: subevent code first).
    package var codeAndParameters: (code: UInt8, parameters: [UInt8]) {
        switch self {
        case let .commandComplete(event): return (CommandCompleteEvent.code, event.parameters)
        case let .commandStatus(event): return (CommandStatusEvent.code, event.parameters)
        case let .disconnectionComplete(event): return (DisconnectionCompleteEvent.code, event.parameters)
        case let .encryptionChange(event): return (EncryptionChangeEvent.code, event.parameters)
        case let .numberOfCompletedPackets(event): return (NumberOfCompletedPacketsEvent.code, event.parameters)
        case let .leConnectionComplete(event): return (Self.leMetaCode, [event.subeventCode] + event.parameters)
        case let .leAdvertisingReport(event): return Self.meta(event)
        case let .leExtendedAdvertisingReport(event): return Self.meta(event)
        case let .leConnectionUpdateComplete(event): return Self.meta(event)
        case let .leDataLengthChange(event): return Self.meta(event)
        case let .lePHYUpdateComplete(event): return Self.meta(event)
        case let .leMetaOther(subevent, parameters): return (Self.leMetaCode, [subevent] + parameters)
        case let .other(code, parameters): return (code, parameters)
        }
    }

    private static func meta<Event: LEMetaSubeventParameters>(_ event: Event) -> (code: UInt8, parameters: [UInt8]) {
        (leMetaCode, [Event.subeventCode] + event.parameters)
    }

    /// The event packet.
    package var packet: HCIPacket {
        let (code, parameters) = codeAndParameters
        precondition(parameters.count <= 255, "HCI event parameters are at most 255 bytes")
        return HCIPacket(type: .event, body: [code, UInt8(parameters.count)] + parameters)
    }
}
