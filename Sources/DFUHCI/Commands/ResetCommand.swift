/// HCI_Reset (Vol 4, Part E, 7.3.2). Returns: Status.
public struct ResetCommand: HCIParameterlessCommand {
    public static let opcode = HCIOpcode(ogf: HCIOpcode.controllerBaseband, ocf: 0x0003)
    public static let name = "Reset"
    public init() {}
}
