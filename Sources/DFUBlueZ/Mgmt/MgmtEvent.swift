import DFUGATT

/// An event read from the management channel: Event Code, Controller Index, Parameter Length
/// (u16 little-endian each), then the parameters. Only the events a scan needs are decoded;
/// the rest are `.other`.
package enum MgmtEvent: Sendable, Hashable {
    /// Command Complete (0x0001): Command Opcode, Status, Return Parameters.
    case commandComplete(index: UInt16, command: UInt16, status: MgmtStatus, returnParameters: [UInt8])
    /// Command Status (0x0002): Command Opcode, Status.
    case commandStatus(index: UInt16, command: UInt16, status: MgmtStatus)
    /// User Confirmation Request (0x000F): Address, Address_Type, Confirm_Hint (1: Just Works,
    /// nothing to compare), Value (the number to compare otherwise).
    case userConfirmRequest(index: UInt16, address: DeviceAddress, addressType: UInt8, justWorks: Bool, value: UInt32)
    /// Authentication Failed (0x0011): Address, Address_Type, Status.
    case authenticationFailed(index: UInt16, address: DeviceAddress, addressType: UInt8, status: MgmtStatus)
    /// Device Found (0x0012).
    case deviceFound(index: UInt16, MgmtDeviceFound)
    /// Discovering (0x0013): Address_Type, Discovering (0 stopped, 1 started).
    case discovering(index: UInt16, addressTypes: MgmtAddressTypes, active: Bool)
    case other(code: UInt16, index: UInt16)

    /// Decodes one packet as read(2) returns it; nil when it is shorter than its header says
    /// (or than its event's fixed fields).
    package init?(bytes: [UInt8]) {
        guard bytes.count >= 6 else { return nil }
        let code = readU16(bytes, 0), index = readU16(bytes, 2), length = Int(readU16(bytes, 4))
        guard bytes.count == 6 + length else { return nil }
        let parameters = Array(bytes[6...])
        switch code {
        case 0x0001:
            guard length >= 3 else { return nil }
            self = .commandComplete(index: index, command: readU16(parameters, 0),
                                    status: MgmtStatus(rawValue: parameters[2]), returnParameters: Array(parameters[3...]))
        case 0x0002:
            guard length >= 3 else { return nil }
            self = .commandStatus(index: index, command: readU16(parameters, 0), status: MgmtStatus(rawValue: parameters[2]))
        case 0x000F:
            guard length == 12, let address = DeviceAddress(bytes: Array(parameters[0..<6].reversed())) else { return nil }
            self = .userConfirmRequest(index: index, address: address, addressType: parameters[6],
                                       justWorks: parameters[7] != 0, value: readU32(parameters, 8))
        case 0x0011:
            guard length == 8, let address = DeviceAddress(bytes: Array(parameters[0..<6].reversed())) else { return nil }
            self = .authenticationFailed(index: index, address: address, addressType: parameters[6],
                                         status: MgmtStatus(rawValue: parameters[7]))
        case 0x0012:
            guard let found = MgmtDeviceFound(parameters: parameters) else { return nil }
            self = .deviceFound(index: index, found)
        case 0x0013:
            guard length >= 2 else { return nil }
            self = .discovering(index: index, addressTypes: MgmtAddressTypes(rawValue: parameters[0]),
                                active: parameters[1] != 0)
        default:
            self = .other(code: code, index: index)
        }
    }

    /// The status of `command` when this event answers it (Command Complete or Status).
    package func status(of command: UInt16, index expected: UInt16) -> MgmtStatus? {
        switch self {
        case let .commandComplete(index, code, status, _) where code == command && index == expected: return status
        case let .commandStatus(index, code, status) where code == command && index == expected: return status
        default: return nil
        }
    }
}

/// Device Found's parameters: Address (least significant byte first), Address_Type (0 BR/EDR,
/// 1 LE public, 2 LE random), RSSI (signed dBm, 127 unknown), Flags (u32), EIR_Data_Length,
/// EIR_Data. For LE the kernel puts the advertising data and the scan response, when it has
/// one, one after the other in EIR_Data.
package struct MgmtDeviceFound: Sendable, Hashable {
    package var address: DeviceAddress
    package var addressType: UInt8
    package var rssi: Int8
    package var flags: UInt32
    package var data: [UInt8]

    /// Flags bit 2: the device does not accept connections.
    package static let notConnectableFlag: UInt32 = 1 << 2

    package init(address: DeviceAddress, addressType: UInt8, rssi: Int8, flags: UInt32, data: [UInt8]) {
        self.address = address
        self.addressType = addressType
        self.rssi = rssi
        self.flags = flags
        self.data = data
    }

    package var isConnectable: Bool { flags & Self.notConnectableFlag == 0 }

    init?(parameters: [UInt8]) {
        guard parameters.count >= 14, Int(readU16(parameters, 12)) == parameters.count - 14,
              let address = DeviceAddress(bytes: Array(parameters[0..<6].reversed())) else { return nil }
        self.address = address
        addressType = parameters[6]
        rssi = Int8(bitPattern: parameters[7])
        flags = readU32(parameters, 8)
        data = Array(parameters[14...])
    }

    /// As the event carries it (for tests and fakes).
    package var parameters: [UInt8] {
        address.bytes.reversed() + [addressType, UInt8(bitPattern: rssi)] + littleEndian(flags)
            + littleEndian(UInt16(data.count)) + data
    }
}

private func readU16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
    UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
}

private func readU32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    UInt32(readU16(bytes, offset)) | UInt32(readU16(bytes, offset + 2)) << 16
}
