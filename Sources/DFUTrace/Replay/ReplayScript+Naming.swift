import DFUBytes
import DFUCapture
import DFUGATT
import DFUProfile

/// How the replay names handles, messages and steps in what it says, and how it stops.
extension ReplayScript {
    mutating func skipSubscriptions(_ open: inout OpenConnection) {
        while open.next < open.steps.steps.count, case .subscribe = open.steps.steps[open.next].kind { open.next += 1 }
    }

    func role(of handle: UInt16, _ connection: CapturedConnection) -> String? {
        guard let profile, let characteristic = connection.characteristic(valueHandle: handle) else { return nil }
        return profile.characteristics.first { $0.uuid == characteristic.uuid && $0.service == characteristic.service }?.name
    }

    func framing(connection: CapturedConnection, handle: UInt16) -> LengthHeaderFormat? {
        guard let profile, let role = role(of: handle, connection) else { return nil }
        return MessageCatalog(profile: profile).framing(of: role)
    }

    func name(of handle: UInt16, _ connection: CapturedConnection) -> String {
        role(of: handle, connection).map { "'\($0)'" } ?? "handle 0x" + String(handle, radix: 16)
    }

    func describe(_ message: [UInt8], to handle: UInt16, _ connection: CapturedConnection) -> String {
        if let role = role(of: handle, connection), let command = commandName(message, role: role) {
            return "'\(command)' to '\(role)' (\(MessageComparison.render(message)))"
        }
        return "\(MessageComparison.render(message)) to \(name(of: handle, connection))"
    }

    func describe(_ kind: CapturedClientSteps.Step.Kind, _ connection: CapturedConnection) -> String {
        switch kind {
        case let .message(handle, bytes, _): return "wrote " + describe(bytes, to: handle, connection)
        case let .read(handle): return "read \(name(of: handle, connection))"
        case let .subscribe(handle, _): return "subscribed to \(handle.map { name(of: $0, connection) } ?? "a descriptor")"
        }
    }

    func ending(_ connection: CapturedConnection, doing what: String) -> String {
        switch connection.ending {
        case let ending? where ending.byDevice:
            return "\(what), but in the capture the device had ended this connection"
        default:
            return "\(what), but the capture's client sent nothing more on this connection"
        }
    }
}
