import DFUBytes

/// HCI_LE_Read_Local_Supported_Features (Vol 4, Part E, 7.8.3).
public struct LEReadLocalSupportedFeaturesCommand: HCIParameterlessCommand {
    public static let opcode = HCIOpcode(ogf: HCIOpcode.leController, ocf: 0x0003)
    public static let name = "LE Read Local Supported Features"
    public init() {}

    public struct ReturnParameters: Sendable, Hashable {
        public var features: LEFeatures

        public init(features: LEFeatures) { self.features = features }

        public init(returnParameters bytes: [UInt8]) throws(HCIDecodeError) {
            let value = try decodeParameters("\(name) return parameters", bytes) { reader throws(ByteReaderError) in
                try reader.readUnsigned(width: 8, endianness: .little)
            }
            features = LEFeatures(rawValue: value)
        }

        public var encoded: [UInt8] {
            var writer = ByteWriter()
            writer.append(features.rawValue, endianness: .little)
            return writer.bytes
        }
    }
}

/// The LE feature bit mask (Core spec Vol 6, Part B, 4.6). Unknown bits are kept.
public struct LEFeatures: OptionSet, Sendable, Hashable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let encryption = LEFeatures(rawValue: 1 << 0)
    public static let connectionParametersRequest = LEFeatures(rawValue: 1 << 1)
    public static let extendedRejectIndication = LEFeatures(rawValue: 1 << 2)
    public static let peripheralInitiatedFeaturesExchange = LEFeatures(rawValue: 1 << 3)
    public static let ping = LEFeatures(rawValue: 1 << 4)
    /// LE Data Packet Length Extension: LE_Set_Data_Length may raise the link-layer payload to 251.
    public static let dataPacketLengthExtension = LEFeatures(rawValue: 1 << 5)
    public static let llPrivacy = LEFeatures(rawValue: 1 << 6)
    public static let extendedScannerFilterPolicies = LEFeatures(rawValue: 1 << 7)
    /// LE 2M PHY: LE_Set_PHY may switch a connection to 2 Mb/s.
    public static let twoMegabitPHY = LEFeatures(rawValue: 1 << 8)
    public static let codedPHY = LEFeatures(rawValue: 1 << 11)
    /// LE Extended Advertising: controllers with it may send extended advertising reports.
    public static let extendedAdvertising = LEFeatures(rawValue: 1 << 12)
}
