/// A management command's status (mgmt-api.txt "Error Codes"): an open struct, so a code this
/// build does not name still prints.
public struct MgmtStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let success = MgmtStatus(rawValue: 0x00)
    public static let unknownCommand = MgmtStatus(rawValue: 0x01)
    public static let failed = MgmtStatus(rawValue: 0x03)
    public static let busy = MgmtStatus(rawValue: 0x0A)
    public static let rejected = MgmtStatus(rawValue: 0x0B)
    public static let notSupported = MgmtStatus(rawValue: 0x0C)
    public static let invalidParameters = MgmtStatus(rawValue: 0x0D)
    public static let notPowered = MgmtStatus(rawValue: 0x0F)
    public static let invalidIndex = MgmtStatus(rawValue: 0x11)
    public static let rfKilled = MgmtStatus(rawValue: 0x12)
    public static let permissionDenied = MgmtStatus(rawValue: 0x14)

    private static let names: [UInt8: String] = [
        0x00: "Success", 0x01: "Unknown Command", 0x02: "Not Connected", 0x03: "Failed", 0x04: "Connect Failed",
        0x05: "Authentication Failed", 0x06: "Not Paired", 0x07: "No Resources", 0x08: "Timeout",
        0x09: "Already Connected", 0x0A: "Busy", 0x0B: "Rejected", 0x0C: "Not Supported",
        0x0D: "Invalid Parameters", 0x0E: "Disconnected", 0x0F: "Not Powered", 0x10: "Cancelled",
        0x11: "Invalid Index", 0x12: "RFKilled", 0x13: "Already Paired", 0x14: "Permission Denied",
    ]

    /// "Permission Denied (0x14)".
    public var description: String {
        let hex = "0x" + (rawValue < 0x10 ? "0" : "") + String(rawValue, radix: 16, uppercase: true)
        return "\(Self.names[rawValue] ?? "status") (\(hex))"
    }
}
