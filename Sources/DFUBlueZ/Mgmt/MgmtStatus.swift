/// A management command's status (mgmt-api.txt "Error Codes"): an open struct, so a code this
/// build does not name still prints.
public struct MgmtStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The status byte of the Command Complete or Command Status event.
    public let rawValue: UInt8
    /// The status with this code.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: the command succeeded.
    public static let success = MgmtStatus(rawValue: 0x00)
    package static let unknownCommand = MgmtStatus(rawValue: 0x01)
    /// 0x03: the command failed.
    public static let failed = MgmtStatus(rawValue: 0x03)
    /// 0x0A: another operation is running (e.g. bluetoothd's discovery).
    public static let busy = MgmtStatus(rawValue: 0x0A)
    /// 0x0B: the kernel refused the command.
    public static let rejected = MgmtStatus(rawValue: 0x0B)
    package static let notSupported = MgmtStatus(rawValue: 0x0C)
    package static let invalidParameters = MgmtStatus(rawValue: 0x0D)
    package static let notPowered = MgmtStatus(rawValue: 0x0F)
    package static let invalidIndex = MgmtStatus(rawValue: 0x11)
    package static let rfKilled = MgmtStatus(rawValue: 0x12)
    package static let permissionDenied = MgmtStatus(rawValue: 0x14)

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
