import DFUBytes
import DFUGATT

/// HCI_LE_Set_Random_Address (Vol 4, Part E, 7.8.4).
package struct LESetRandomAddressCommand: HCICommand {
    package static let opcode = HCIOpcode(ogf: HCIOpcode.leController, ocf: 0x0005)
    package static let name = "LE Set Random Address"

    package var address: DeviceAddress

    package init(address: DeviceAddress) { self.address = address }

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        address = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            try reader.readAddress()
        }
    }

    package var parameters: [UInt8] {
        var writer = ByteWriter()
        writer.append(address: address)
        return writer.bytes
    }
}
