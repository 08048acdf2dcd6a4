import DFUGATT

/// What DFUKit answers when the kernel asks user space to confirm a pairing, as a pure state
/// machine (`BlueZPairingAgent` does the I/O).
///
/// Since Linux 5.8 the kernel asks user space (a management User Confirmation Request) even
/// for Just Works pairing, which bluetoothd hands to a registered agent. A factory station
/// often runs no bluetoothd, or no agent: then a link a profile wants encrypted would never
/// be. DFUKit accepts Just Works for the one device it is connecting to; it refuses a request
/// with a number to compare (it has no one to show it to) and ignores every other device.
struct MgmtPairingAgent {
    let index: UInt16
    let peer: DeviceAddress
    /// The kernel's Authentication Failed status for the peer, if pairing failed.
    private(set) var failure: MgmtStatus?

    init(index: UInt16, peer: DeviceAddress) {
        self.index = index
        self.peer = peer
    }

    /// The reply to send for `event`, if it is a confirmation request about the peer.
    mutating func handle(_ event: MgmtEvent?) -> MgmtCommand? {
        switch event {
        case let .userConfirmRequest(eventIndex, address, addressType, justWorks, _)?
            where eventIndex == index && address == peer:
            return .userConfirmReply(index: index, address: address, addressType: addressType, accept: justWorks)
        case let .authenticationFailed(eventIndex, address, _, status)? where eventIndex == index && address == peer:
            failure = status
            return nil
        default:
            return nil
        }
    }
}
