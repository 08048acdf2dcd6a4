/// HCI_LE_Create_Connection_Cancel (Vol 4, Part E, 7.8.13). On success the pending connection
/// ends with an LE Connection Complete carrying Unknown Connection Identifier (0x02).
package struct LECreateConnectionCancelCommand: HCIParameterlessCommand {
    package static let opcode = HCIOpcode(ogf: HCIOpcode.leController, ocf: 0x000E)
    package static let name = "LE Create Connection Cancel"
    package init() {}
}
