/// Which side of the ATT bearer sent a PDU, where the capture tells.
enum ATTSender: Sendable, Hashable {
    /// The local host in an HCI capture (host to controller), or the central in a link-layer one.
    case localOrCentral
    /// The remote device in an HCI capture, or the peripheral in a link-layer one.
    case remoteOrPeripheral
}
