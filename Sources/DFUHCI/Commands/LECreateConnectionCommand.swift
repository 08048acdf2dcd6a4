import DFUBytes
import DFUGATT

/// HCI_LE_Create_Connection (Vol 4, Part E, 7.8.12). Answered by Command Status; the outcome is
/// an LE (Enhanced) Connection Complete event. Intervals: scan in 0.625 ms units, connection in
/// 1.25 ms units, supervision timeout in 10 ms units.
package struct LECreateConnectionCommand: HCICommand {
    package static let opcode = HCIOpcode(ogf: HCIOpcode.leController, ocf: 0x000D)
    package static let name = "LE Create Connection"
    package static let completion = HCICommandCompletion.commandStatus

    package var scanInterval: UInt16
    package var scanWindow: UInt16
    /// Initiator_Filter_Policy; 0 connects to the peer address given here.
    package var filterPolicy: UInt8
    package var peerAddressType: HCIAddressType
    package var peerAddress: DeviceAddress
    /// Must be random on Bumble's virtual controller: with a public own address ACL is dropped.
    package var ownAddressType: HCIAddressType
    package var connectionIntervalMin: UInt16
    package var connectionIntervalMax: UInt16
    package var maxLatency: UInt16
    package var supervisionTimeout: UInt16
    package var minCELength: UInt16
    package var maxCELength: UInt16

    package init(peerAddressType: HCIAddressType, peerAddress: DeviceAddress,
                ownAddressType: HCIAddressType = .randomDevice,
                scanInterval: UInt16 = 0x0060, scanWindow: UInt16 = 0x0060, filterPolicy: UInt8 = 0,
                connectionIntervalMin: UInt16 = 0x0018, connectionIntervalMax: UInt16 = 0x0028,
                maxLatency: UInt16 = 0, supervisionTimeout: UInt16 = 0x00C8,
                minCELength: UInt16 = 0, maxCELength: UInt16 = 0) {
        self.scanInterval = scanInterval
        self.scanWindow = scanWindow
        self.filterPolicy = filterPolicy
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.ownAddressType = ownAddressType
        self.connectionIntervalMin = connectionIntervalMin
        self.connectionIntervalMax = connectionIntervalMax
        self.maxLatency = maxLatency
        self.supervisionTimeout = supervisionTimeout
        self.minCELength = minCELength
        self.maxCELength = maxCELength
    }

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        self = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            let scanInterval = try reader.readUInt16()
            let scanWindow = try reader.readUInt16()
            let filterPolicy = try reader.readByte()
            let peerAddressType = HCIAddressType(rawValue: try reader.readByte())
            let peerAddress = try reader.readAddress()
            let ownAddressType = HCIAddressType(rawValue: try reader.readByte())
            return LECreateConnectionCommand(
                peerAddressType: peerAddressType, peerAddress: peerAddress, ownAddressType: ownAddressType,
                scanInterval: scanInterval, scanWindow: scanWindow, filterPolicy: filterPolicy,
                connectionIntervalMin: try reader.readUInt16(), connectionIntervalMax: try reader.readUInt16(),
                maxLatency: try reader.readUInt16(), supervisionTimeout: try reader.readUInt16(),
                minCELength: try reader.readUInt16(), maxCELength: try reader.readUInt16())
        }
    }

    package var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 25)
        writer.appendUInt16(scanInterval)
        writer.appendUInt16(scanWindow)
        writer.append(byte: filterPolicy)
        writer.append(byte: peerAddressType.rawValue)
        writer.append(address: peerAddress)
        writer.append(byte: ownAddressType.rawValue)
        writer.appendUInt16(connectionIntervalMin)
        writer.appendUInt16(connectionIntervalMax)
        writer.appendUInt16(maxLatency)
        writer.appendUInt16(supervisionTimeout)
        writer.appendUInt16(minCELength)
        writer.appendUInt16(maxCELength)
        return writer.bytes
    }
}
