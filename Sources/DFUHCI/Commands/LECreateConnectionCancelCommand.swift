/// HCI_LE_Create_Connection_Cancel (Vol 4, Part E, 7.8.13). On success the pending connection
/// ends with an LE Connection Complete carrying Unknown Connection Identifier (0x02).
public struct LECreateConnectionCancelCommand: HCIParameterlessCommand {
    public static let opcode = HCIOpcode(ogf: HCIOpcode.leController, ocf: 0x000E)
    public static let name = "LE Create Connection Cancel"
    public init() {}
}
