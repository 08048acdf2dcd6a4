/// The application tag's body: `ApplicationData_t` (gecko_sdk
/// `platform/bootloader/api/application_properties.h`), 28 bytes little-endian. Simplicity
/// Commander copies it from the application's `ApplicationProperties_t`; AppLoader shows
/// `version` in its Application Version characteristic.
public struct GBLApplicationData: Sendable, Equatable {
    /// The body's size in bytes.
    public static let size = 28

    /// `APPLICATION_TYPE_*` bits.
    public var type: UInt32
    /// The application's version; its encoding is the application's own.
    public var version: UInt32
    package var capabilities: UInt32
    /// The product's UUID or GUID.
    package var productID: [UInt8]

    /// The application data in `tag`; nil unless it is an application tag of at least 28 bytes.
    public init?(_ tag: GBLTag) {
        guard tag.id == .application, tag.body.count >= Self.size, let type = tag.u32(at: 0),
              let version = tag.u32(at: 4), let capabilities = tag.u32(at: 8) else { return nil }
        self.type = type
        self.version = version
        self.capabilities = capabilities
        productID = Array(tag.body[12..<28])
    }

    /// `APPLICATION_TYPE_ZIGBEE` ... `APPLICATION_TYPE_ZWAVE`, bit by bit.
    static let typeNames: [(bit: UInt32, name: String)] = [
        (1 << 0, "Zigbee"), (1 << 1, "Thread"), (1 << 2, "Flex"), (1 << 3, "Bluetooth"), (1 << 4, "MCU"),
        (1 << 5, "Bluetooth app"), (1 << 6, "bootloader"), (1 << 7, "Z-Wave"),
    ]

    /// "Bluetooth app" for 0x20; bits without a name by number.
    package var typeText: String {
        var names = Self.typeNames.filter { type & $0.bit != 0 }.map(\.name)
        let unnamed = type & ~Self.typeNames.reduce(0) { $0 | $1.bit }
        if unnamed != 0 { names.append("0x" + String(unnamed, radix: 16, uppercase: true)) }
        return names.isEmpty ? "none" : names.joined(separator: ", ")
    }

    /// The version as the file has it, "0x00010203".
    package var versionText: String { GBLApplicationData.hex(version) }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
