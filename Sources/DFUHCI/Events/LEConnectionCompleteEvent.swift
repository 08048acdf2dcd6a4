import DFUBytes
import DFUGATT

/// LE Connection Complete (subevent 0x01, Vol 4, Part E, 7.7.65.1) and LE Enhanced Connection
/// Complete (0x0A, 7.7.65.10), which adds the two resolvable private addresses. A controller
/// sends the enhanced one when it is unmasked.
package struct LEConnectionCompleteEvent: Sendable, Hashable {
    package static let subeventCode: UInt8 = 0x01
    package static let enhancedSubeventCode: UInt8 = 0x0A
    package static let name = "LE Connection Complete"

    /// Role of this device: central or peripheral.
    package struct Role: RawRepresentable, Sendable, Hashable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        package static let central = Role(rawValue: 0x00)
        package static let peripheral = Role(rawValue: 0x01)
    }

    package var status: HCIStatus
    package var handle: UInt16
    package var role: Role
    package var peerAddressType: HCIAddressType
    package var peerAddress: DeviceAddress
    /// Connection_Interval in 1.25 ms units.
    package var interval: UInt16
    package var latency: UInt16
    /// Supervision_Timeout in 10 ms units.
    package var supervisionTimeout: UInt16
    package var centralClockAccuracy: UInt8
    /// Present in the enhanced form only: (local, peer) resolvable private addresses.
    package var resolvablePrivateAddresses: (local: DeviceAddress, peer: DeviceAddress)? {
        get { enhancedAddresses.map { ($0[0], $0[1]) } }
        set { enhancedAddresses = newValue.map { [$0.local, $0.peer] } }
    }

    private var enhancedAddresses: [DeviceAddress]?

    package init(status: HCIStatus, handle: UInt16, role: Role, peerAddressType: HCIAddressType,
                peerAddress: DeviceAddress, interval: UInt16, latency: UInt16, supervisionTimeout: UInt16,
                centralClockAccuracy: UInt8 = 0,
                resolvablePrivateAddresses: (local: DeviceAddress, peer: DeviceAddress)? = nil) {
        self.status = status
        self.handle = handle
        self.role = role
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.interval = interval
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
        self.centralClockAccuracy = centralClockAccuracy
        self.enhancedAddresses = resolvablePrivateAddresses.map { [$0.local, $0.peer] }
    }

    package var isEnhanced: Bool { enhancedAddresses != nil }
    package var subeventCode: UInt8 { isEnhanced ? Self.enhancedSubeventCode : Self.subeventCode }

    package init(parameters: [UInt8], enhanced: Bool) throws(HCIDecodeError) {
        let name = enhanced ? "LE Enhanced Connection Complete" : Self.name
        self = try decodeParameters(name, parameters) { reader throws(ByteReaderError) in
            let status = HCIStatus(rawValue: try reader.readByte())
            let handle = try reader.readUInt16() & 0x0FFF
            let role = Role(rawValue: try reader.readByte())
            let peerAddressType = HCIAddressType(rawValue: try reader.readByte())
            let peerAddress = try reader.readAddress()
            let privateAddresses = enhanced ? (local: try reader.readAddress(), peer: try reader.readAddress()) : nil
            return LEConnectionCompleteEvent(
                status: status, handle: handle, role: role, peerAddressType: peerAddressType,
                peerAddress: peerAddress, interval: try reader.readUInt16(), latency: try reader.readUInt16(),
                supervisionTimeout: try reader.readUInt16(), centralClockAccuracy: try reader.readByte(),
                resolvablePrivateAddresses: privateAddresses)
        }
    }

    /// Parameters after the subevent code.
    package var parameters: [UInt8] {
        var writer = ByteWriter(capacity: 30)
        writer.append(byte: status.rawValue)
        writer.appendUInt16(handle)
        writer.append(byte: role.rawValue)
        writer.append(byte: peerAddressType.rawValue)
        writer.append(address: peerAddress)
        for address in enhancedAddresses ?? [] {
            writer.append(address: address)
        }
        writer.appendUInt16(interval)
        writer.appendUInt16(latency)
        writer.appendUInt16(supervisionTimeout)
        writer.append(byte: centralClockAccuracy)
        return writer.bytes
    }
}
