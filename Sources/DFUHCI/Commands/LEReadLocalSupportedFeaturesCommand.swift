import DFUBytes

/// HCI_LE_Read_Local_Supported_Features (Vol 4, Part E, 7.8.3).
package struct LEReadLocalSupportedFeaturesCommand: HCIParameterlessCommand {
    package static let opcode = HCIOpcode(ogf: HCIOpcode.leController, ocf: 0x0003)
    package static let name = "LE Read Local Supported Features"
    package init() {}

    package struct ReturnParameters: Sendable, Hashable {
        package var features: LEFeatures

        package init(features: LEFeatures) { self.features = features }

        package init(returnParameters bytes: [UInt8]) throws(HCIDecodeError) {
            let value = try decodeParameters("\(name) return parameters", bytes) { reader throws(ByteReaderError) in
                try reader.readUnsigned(width: 8, endianness: .little)
            }
            features = LEFeatures(rawValue: value)
        }

        package var encoded: [UInt8] {
            var writer = ByteWriter()
            writer.append(features.rawValue, endianness: .little)
            return writer.bytes
        }
    }
}

/// The LE feature bit mask (Core spec Vol 6, Part B, 4.6). Unknown bits are kept.
package struct LEFeatures: OptionSet, Sendable, Hashable {
    package let rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }

    package static let encryption = LEFeatures(rawValue: 1 << 0)
    package static let connectionParametersRequest = LEFeatures(rawValue: 1 << 1)
    package static let extendedRejectIndication = LEFeatures(rawValue: 1 << 2)
    package static let peripheralInitiatedFeaturesExchange = LEFeatures(rawValue: 1 << 3)
    package static let ping = LEFeatures(rawValue: 1 << 4)
    /// LE Data Packet Length Extension: LE_Set_Data_Length may raise the link-layer payload to 251.
    package static let dataPacketLengthExtension = LEFeatures(rawValue: 1 << 5)
    package static let llPrivacy = LEFeatures(rawValue: 1 << 6)
    package static let extendedScannerFilterPolicies = LEFeatures(rawValue: 1 << 7)
    /// LE 2M PHY: LE_Set_PHY may switch a connection to 2 Mb/s.
    package static let twoMegabitPHY = LEFeatures(rawValue: 1 << 8)
    package static let codedPHY = LEFeatures(rawValue: 1 << 11)
    /// LE Extended Advertising: controllers with it may send extended advertising reports.
    package static let extendedAdvertising = LEFeatures(rawValue: 1 << 12)
}
