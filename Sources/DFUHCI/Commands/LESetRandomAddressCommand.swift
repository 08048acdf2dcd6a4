import DFUBytes
import DFUGATT

/// HCI_LE_Set_Random_Address (Vol 4, Part E, 7.8.4).
public struct LESetRandomAddressCommand: HCICommand {
    public static let opcode = HCIOpcode(ogf: HCIOpcode.leController, ocf: 0x0005)
    public static let name = "LE Set Random Address"

    public var address: DeviceAddress

    public init(address: DeviceAddress) { self.address = address }

    public init(parameters: [UInt8]) throws(HCIDecodeError) {
        address = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            try reader.readAddress()
        }
    }

    public var parameters: [UInt8] {
        var writer = ByteWriter()
        writer.append(address: address)
        return writer.bytes
    }
}
