/// An HCI error code (Core spec Vol 1, Part F), as carried by Command Complete, Command Status,
/// connection and disconnection events. Open: an unknown code is still printed.
package struct HCIStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let success = HCIStatus(rawValue: 0x00)
    package static let unknownCommand = HCIStatus(rawValue: 0x01)
    package static let unknownConnectionIdentifier = HCIStatus(rawValue: 0x02)
    package static let hardwareFailure = HCIStatus(rawValue: 0x03)
    package static let pageTimeout = HCIStatus(rawValue: 0x04)
    package static let authenticationFailure = HCIStatus(rawValue: 0x05)
    package static let memoryCapacityExceeded = HCIStatus(rawValue: 0x07)
    package static let connectionTimeout = HCIStatus(rawValue: 0x08)
    package static let connectionLimitExceeded = HCIStatus(rawValue: 0x09)
    package static let connectionAlreadyExists = HCIStatus(rawValue: 0x0B)
    package static let commandDisallowed = HCIStatus(rawValue: 0x0C)
    package static let unsupportedFeatureOrParameter = HCIStatus(rawValue: 0x11)
    package static let invalidParameters = HCIStatus(rawValue: 0x12)
    package static let remoteUserTerminated = HCIStatus(rawValue: 0x13)
    package static let remoteLowResources = HCIStatus(rawValue: 0x14)
    package static let remotePowerOff = HCIStatus(rawValue: 0x15)
    package static let localHostTerminated = HCIStatus(rawValue: 0x16)
    package static let unsupportedRemoteFeature = HCIStatus(rawValue: 0x1A)
    package static let unspecifiedError = HCIStatus(rawValue: 0x1F)
    package static let unsupportedLLParameterValue = HCIStatus(rawValue: 0x20)
    package static let llResponseTimeout = HCIStatus(rawValue: 0x22)
    package static let llProcedureCollision = HCIStatus(rawValue: 0x23)
    package static let instantPassed = HCIStatus(rawValue: 0x28)
    package static let differentTransactionCollision = HCIStatus(rawValue: 0x2A)
    package static let controllerBusy = HCIStatus(rawValue: 0x3A)
    package static let unacceptableConnectionParameters = HCIStatus(rawValue: 0x3B)
    package static let advertisingTimeout = HCIStatus(rawValue: 0x3C)
    package static let connectionFailedToBeEstablished = HCIStatus(rawValue: 0x3E)
    package static let unknownAdvertisingIdentifier = HCIStatus(rawValue: 0x42)

    private static let names: [UInt8: String] = [
        0x00: "success", 0x01: "unknown HCI command", 0x02: "unknown connection identifier",
        0x03: "hardware failure", 0x04: "page timeout", 0x05: "authentication failure",
        0x07: "memory capacity exceeded", 0x08: "connection timeout", 0x09: "connection limit exceeded",
        0x0B: "connection already exists", 0x0C: "command disallowed",
        0x11: "unsupported feature or parameter value", 0x12: "invalid HCI command parameters",
        0x13: "remote user terminated connection", 0x14: "remote device terminated connection (low resources)",
        0x15: "remote device terminated connection (power off)",
        0x16: "connection terminated by local host", 0x1A: "unsupported remote feature",
        0x1F: "unspecified error", 0x20: "unsupported LL parameter value", 0x22: "LL response timeout",
        0x23: "LL procedure collision", 0x28: "instant passed", 0x2A: "different transaction collision",
        0x3A: "controller busy", 0x3B: "unacceptable connection parameters", 0x3C: "advertising timeout",
        0x3E: "connection failed to be established", 0x42: "unknown advertising identifier",
    ]

    /// The spec's name, or nil for a code this table does not know.
    package var name: String? { Self.names[rawValue] }

    /// "remote user terminated connection (0x13)", or "HCI status 0x99" for an unknown code.
    package var description: String {
        if let name { return "\(name) (0x\(hexByte(rawValue)))" }
        return "HCI status 0x\(hexByte(rawValue))"
    }
}
