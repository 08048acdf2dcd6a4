import DFUBytes
import DFUGATT

/// Advertising or scan response data: a list of (length, AD type, data) structures (Core spec
/// Vol 3, Part C, 11; types from the Assigned Numbers). Parsing is lenient: a structure whose
/// length runs past the end ends the list, and `isTruncated` says so.
public struct AdvertisingData: Sendable, Hashable {
    /// AD type 0x01, Flags (Core Specification Supplement, Part A, 1.3): discoverability and
    /// BR/EDR support bits.
    public static let flagsType: UInt8 = 0x01
    /// AD type 0x02: an incomplete list of 16-bit service UUIDs (Supplement, Part A, 1.1).
    public static let incomplete16BitUUIDsType: UInt8 = 0x02
    /// AD type 0x03: the complete list of 16-bit service UUIDs (Supplement, Part A, 1.1).
    public static let complete16BitUUIDsType: UInt8 = 0x03
    /// AD type 0x04: an incomplete list of 32-bit service UUIDs (Supplement, Part A, 1.1).
    public static let incomplete32BitUUIDsType: UInt8 = 0x04
    /// AD type 0x05: the complete list of 32-bit service UUIDs (Supplement, Part A, 1.1).
    public static let complete32BitUUIDsType: UInt8 = 0x05
    /// AD type 0x06: an incomplete list of 128-bit service UUIDs (Supplement, Part A, 1.1).
    public static let incomplete128BitUUIDsType: UInt8 = 0x06
    /// AD type 0x07: the complete list of 128-bit service UUIDs (Supplement, Part A, 1.1).
    public static let complete128BitUUIDsType: UInt8 = 0x07
    /// AD type 0x08: the device name cut short to fit (UTF-8; Supplement, Part A, 1.2).
    public static let shortenedLocalNameType: UInt8 = 0x08
    /// AD type 0x09: the whole device name (UTF-8; Supplement, Part A, 1.2).
    public static let completeLocalNameType: UInt8 = 0x09
    /// AD type 0xFF: manufacturer specific data, a 16-bit company identifier then the company's
    /// data (Supplement, Part A, 1.4).
    public static let manufacturerSpecificDataType: UInt8 = 0xFF

    /// One AD structure as sent: a length octet (type plus data) is implied, then these.
    public struct Structure: Sendable, Hashable {
        /// The AD type code (Assigned Numbers, Common Data Types), e.g. `completeLocalNameType`.
        public var type: UInt8
        /// The structure's data after the type octet, as sent (little-endian where numeric).
        public var data: [UInt8]

        /// A structure of `type` carrying `data` (at most 254 bytes to be encodable).
        public init(type: UInt8, data: [UInt8]) {
            self.type = type
            self.data = data
        }
    }

    /// The structures in the order they were sent; duplicates are kept.
    public var structures: [Structure]
    /// Whether the input ended inside a structure (the rest was dropped).
    public private(set) var isTruncated = false

    /// Data made of these structures, for building advertisements (tests, simulators).
    public init(structures: [Structure]) { self.structures = structures }

    /// Parses the AD octets of an advertising report or scan response (at most 31 bytes for
    /// legacy advertising, more for extended). Never fails: a zero length ends the data (the rest
    /// is padding), and a structure running past the end is dropped with `isTruncated` set.
    public init(bytes: [UInt8]) {
        structures = []
        var index = 0
        while index < bytes.count {
            let length = Int(bytes[index])
            // A zero length ends the significant part (the rest is padding).
            if length == 0 { break }
            guard index + 1 + length <= bytes.count else {
                isTruncated = true
                break
            }
            structures.append(Structure(type: bytes[index + 1], data: Array(bytes[index + 2..<index + 1 + length])))
            index += 1 + length
        }
    }

    /// The structures encoded back to AD octets (length, type, data each), without padding.
    public var bytes: [UInt8] {
        structures.flatMap { [UInt8($0.data.count + 1), $0.type] + $0.data }
    }

    private func data(ofType type: UInt8) -> [UInt8]? { structures.first { $0.type == type }?.data }

    /// The Flags value (LE General Discoverable = 0x02, BR/EDR Not Supported = 0x04...).
    public var flags: UInt8? { data(ofType: Self.flagsType)?.first }

    /// The Complete Local Name (AD type 0x09) decoded as UTF-8, if present.
    public var completeLocalName: String? {
        data(ofType: Self.completeLocalNameType).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The Shortened Local Name (AD type 0x08) decoded as UTF-8, if present.
    public var shortenedLocalName: String? {
        data(ofType: Self.shortenedLocalNameType).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The complete name, else the shortened one.
    public var localName: String? { completeLocalName ?? shortenedLocalName }

    /// Every Manufacturer Specific Data structure, in order; one shorter than its 2-byte company
    /// identifier is left out.
    public var manufacturerData: [ManufacturerData] {
        structures.filter { $0.type == Self.manufacturerSpecificDataType && $0.data.count >= 2 }.map {
            ManufacturerData(companyID: UInt16($0.data[0]) | UInt16($0.data[1]) << 8, data: Array($0.data.dropFirst(2)))
        }
    }

    /// Every service UUID listed (16-, 32- and 128-bit lists, complete or not), in order.
    public var serviceUUIDs: [BluetoothUUID] {
        var uuids: [BluetoothUUID] = []
        for structure in structures {
            let width: Int
            switch structure.type {
            case Self.incomplete16BitUUIDsType, Self.complete16BitUUIDsType: width = 2
            case Self.incomplete32BitUUIDsType, Self.complete32BitUUIDsType: width = 4
            case Self.incomplete128BitUUIDsType, Self.complete128BitUUIDsType: width = 16
            default: continue
            }
            var start = 0
            while start + width <= structure.data.count {
                if let uuid = BluetoothUUID(littleEndianBytes: Array(structure.data[start..<start + width])) {
                    uuids.append(uuid)
                }
                start += width
            }
        }
        return uuids
    }
}
