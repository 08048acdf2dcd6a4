import DFUBytes
import DFUGATT
import DFUHCI

/// The host's own address per controller, from the commands that set or read it: what names the
/// device when the capture was taken at the device's own HCI (Bumble's snooper on a
/// peripheral), where a connection complete event names only the phone.
struct LocalAddressLog: Sendable {
    /// LE Set Random Address (Core Vol 4, Part E, 7.8.4): Random_Address.
    static let setRandomAddress: UInt16 = 0x2005
    /// LE Set Advertising Set Random Address (7.8.52): Advertising_Handle, Random_Address.
    static let setAdvertisingSetRandomAddress: UInt16 = 0x2035
    /// Read BD_ADDR (7.4.6): its Command Complete returns Status, BD_ADDR.
    static let readPublicAddress: UInt16 = 0x1009

    private var addresses: [UInt16: DeviceAddress] = [:]

    /// The address the host of controller `index` advertised or connected with last.
    func address(index: UInt16) -> DeviceAddress? { addresses[index] }

    mutating func command(_ opcode: UInt16, parameters: [UInt8], index: UInt16) {
        switch opcode {
        case Self.setRandomAddress where parameters.count >= 6:
            addresses[index] = Self.address(parameters.prefix(6))
        case Self.setAdvertisingSetRandomAddress where parameters.count >= 7:
            addresses[index] = Self.address(parameters.dropFirst().prefix(6))
        default:
            break
        }
    }

    /// A public address read back counts only until a random one is set.
    mutating func commandComplete(_ opcode: UInt16, returnParameters: [UInt8], index: UInt16) {
        guard opcode == Self.readPublicAddress, returnParameters.count >= 7, returnParameters[0] == 0,
              addresses[index] == nil else { return }
        addresses[index] = Self.address(returnParameters.dropFirst().prefix(6))
    }

    /// HCI carries addresses least significant byte first.
    private static func address(_ bytes: ArraySlice<UInt8>) -> DeviceAddress? {
        DeviceAddress(bytes: bytes.reversed())
    }
}
