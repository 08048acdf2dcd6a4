/// HCI_Reset (Vol 4, Part E, 7.3.2). Returns: Status.
package struct ResetCommand: HCIParameterlessCommand {
    package static let opcode = HCIOpcode(ogf: HCIOpcode.controllerBaseband, ocf: 0x0003)
    package static let name = "Reset"
    package init() {}
}
