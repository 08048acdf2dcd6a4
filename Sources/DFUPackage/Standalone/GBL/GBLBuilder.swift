import DFUBytes

/// Builds GBL3 files the way Simplicity Commander 1v25 lays them out (`commander gbl create
/// --app`): header (version 3.0), application tag, one erase & program tag, an optional
/// metadata tag, the end tag with its CRC-32, then 0xFF padding to a multiple of 4 bytes. For
/// tests, benchmarks and fault matrices that need GBL files of any size; the test suite checks
/// it against Commander's own files.
public struct GBLBuilder: Sendable {
    /// The application tag's fields: type bits, version, capabilities and the 16-byte product ID.
    public var application: (type: UInt32, version: UInt32, capabilities: UInt32, productID: [UInt8])
    package var programAddress: UInt32
    package var metadata: [UInt8]?
    /// Pad the file with 0xFF to a multiple of 4 bytes after the end tag, as Commander does.
    package var padsToWord = true

    /// `APPLICATION_TYPE_BLUETOOTH_APP`.
    public static let bluetoothApplication: UInt32 = 1 << 5

    /// A builder of GBL files for an application at `version`; the rest as Commander's defaults.
    public init(version: UInt32, type: UInt32 = GBLBuilder.bluetoothApplication, capabilities: UInt32 = 0,
                productID: [UInt8] = Array(repeating: 0, count: 16), programAddress: UInt32 = 0x6000,
                metadata: [UInt8]? = nil) {
        application = (type, version, capabilities, productID)
        self.programAddress = programAddress
        self.metadata = metadata
    }

    /// The GBL file carrying `program` (the application's flash bytes).
    public func build(program: [UInt8]) -> [UInt8] {
        var writer = ByteWriter()
        func tag(_ id: GBLTagID, _ body: [UInt8]) {
            writer.append(id.rawValue, endianness: .little)
            writer.append(UInt32(body.count), endianness: .little)
            writer.append(bytes: body)
        }
        tag(.header, Self.u32(GBLHeader.compatibleMajorVersion) + Self.u32(0))
        tag(.application, Self.u32(application.type) + Self.u32(application.version)
            + Self.u32(application.capabilities) + application.productID)
        tag(.eraseProgram, Self.u32(programAddress) + program)
        if let metadata { tag(.metadata, metadata) }
        writer.append(GBLTagID.end.rawValue, endianness: .little)
        writer.append(UInt32(4), endianness: .little)
        let crc = CRC32.checksum(writer.bytes)
        writer.append(crc, endianness: .little)
        var bytes = writer.bytes
        if padsToWord { bytes += Array(repeating: 0xFF, count: (4 - bytes.count % 4) % 4) }
        return bytes
    }

    /// Bytes a GBL adds around `program` bytes of application (without padding): header 16,
    /// application 36, erase & program header 12, end 12.
    package static let overhead = 76

    static func u32(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
