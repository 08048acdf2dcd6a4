import DFUBytes
import DFUGATT

/// HCI_LE_Create_Connection (Vol 4, Part E, 7.8.12). Answered by Command Status; the outcome is
/// an LE (Enhanced) Connection Complete event. Intervals: scan in 0.625 ms units, connection in
/// 1.25 ms units, supervision timeout in 10 ms units.
public struct LECreateConnectionCommand: HCICommand {
    public static let opcode = HCIOpcode(ogf: HCIOpcode.leController, ocf: 0x000D)
    public static let name = "LE Create Connection"
    public static let completion = HCICommandCompletion.commandStatus

    public var scanInterval: UInt16
    public var scanWindow: UInt16
    /// Initiator_Filter_Policy; 0 connects to the peer address given here.
    public var filterPolicy: UInt8
    public var peerAddressType: HCIAddressType
    public var peerAddress: DeviceAddress
    /// Must be random on Bumble's virtual controller: with a public own address ACL is dropped.
    public var ownAddressType: HCIAddressType
    public var connectionIntervalMin: UInt16
    public var connectionIntervalMax: UInt16
    public var maxLatency: UInt16
    public var supervisionTimeout: UInt16
    public var minCELength: UInt16
    public var maxCELength: UInt16

    public init(peerAddressType: HCIAddressType, peerAddress: DeviceAddress,
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

    public init(parameters: [UInt8]) throws(HCIDecodeError) {
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

    public var parameters: [UInt8] {
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
