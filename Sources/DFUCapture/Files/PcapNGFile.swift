/// pcapng (draft-ietf-opsawg-pcapng), Wireshark's default save format and the nRF Sniffer's:
/// blocks of type, length, body, length. A Section Header Block gives the byte order; each
/// Interface Description Block an interface's link type and timestamp unit; Enhanced (and
/// Simple) Packet Blocks the packets. One interface's packets are read: the first whose link
/// type DFUKit decodes.
enum PcapNGFile {
    static let sectionHeader: UInt32 = 0x0A0D_0D0A
    static let interfaceDescription: UInt32 = 0x0000_0001
    static let simplePacket: UInt32 = 0x0000_0003
    static let enhancedPacket: UInt32 = 0x0000_0006
    /// The byte-order magic inside a Section Header Block.
    static let byteOrderMagic: UInt32 = 0x1A2B_3C4D
    /// if_tsresol: the timestamp unit of an interface.
    static let timestampResolutionOption: UInt16 = 9

    /// One interface: its link type and its timestamp unit.
    struct Interface: Sendable {
        var linkType: UInt32
        var resolution: Resolution
    }

    /// A timestamp unit: 10^-n seconds, or 2^-n (if_tsresol's high bit).
    struct Resolution: Sendable {
        var exponent: Int
        var binary: Bool

        /// Microseconds, when an interface does not say.
        static let microseconds = Resolution(exponent: 6, binary: false)

        /// `units` in nanoseconds, in integers where the unit is decimal (a Double would round
        /// today's timestamps, 10^15 microseconds and more, to 256 ns).
        func nanoseconds(_ units: UInt64) -> Int64 {
            if binary { return Int64(Double(units) / Double(UInt64(1) << UInt64(min(exponent, 63))) * 1e9) }
            if exponent <= 9 { return Int64(truncatingIfNeeded: units &* Self.power(9 - exponent)) }
            return Int64(truncatingIfNeeded: units / Self.power(exponent - 9))
        }

        private static func power(_ exponent: Int) -> UInt64 {
            (0..<min(exponent, 19)).reduce(UInt64(1)) { value, _ in value * 10 }
        }
    }

    /// The packets of the first interface whose link type is in `readable`, with that link type;
    /// nil link type when no interface has one (then `interfaces` says which there were).
    static func records(_ bytes: [UInt8], readable: Set<UInt32>) -> (linkType: UInt32?, interfaces: [UInt32], records: CaptureRecords) {
        var result = CaptureRecords()
        var interfaces: [Interface] = []
        var chosen: Int?
        var bigEndian = false
        var offset = 0
        var number = 0
        while offset + 12 <= bytes.count {
            // The section header's byte order decides how everything after it is read.
            if FileBytes.uint32(bytes, at: offset, bigEndian: true) == sectionHeader {
                bigEndian = FileBytes.uint32(bytes, at: offset + 8, bigEndian: true) == byteOrderMagic
                interfaces = []   // interface ids restart in each section
                chosen = nil
            }
            guard let type = FileBytes.uint32(bytes, at: offset, bigEndian: bigEndian),
                  let length = FileBytes.uint32(bytes, at: offset + 4, bigEndian: bigEndian).map(Int.init),
                  length >= 12, length % 4 == 0 else {
                result.notes.append("the block at byte \(offset) has no valid length; the rest of the file is left out")
                break
            }
            guard offset + length <= bytes.count else {
                result.notes.append("the block at byte \(offset) is cut short: the capture ends there")
                break
            }
            let body = Array(bytes[(offset + 8)..<(offset + length - 4)])
            switch type {
            case interfaceDescription:
                let linkType = UInt32(FileBytes.uint16(body, at: 0, bigEndian: bigEndian) ?? 0)
                interfaces.append(Interface(linkType: linkType, resolution: resolution(body, bigEndian: bigEndian)))
                if chosen == nil, readable.contains(linkType) { chosen = interfaces.count - 1 }
            case enhancedPacket:
                guard let interface = FileBytes.uint32(body, at: 0, bigEndian: bigEndian).map(Int.init),
                      interface == chosen, interface < interfaces.count,
                      let high = FileBytes.uint32(body, at: 4, bigEndian: bigEndian),
                      let low = FileBytes.uint32(body, at: 8, bigEndian: bigEndian),
                      let captured = FileBytes.uint32(body, at: 12, bigEndian: bigEndian).map(Int.init) else { break }
                number += 1
                let units = UInt64(high) << 32 | UInt64(low)
                let packet = Array(body.dropFirst(20).prefix(captured))
                result.records.append(CaptureRecord(number: number, offset: offset,
                                                    nanoseconds: interfaces[interface].resolution.nanoseconds(units),
                                                    flags: 0, bytes: packet))
            case simplePacket where chosen == 0:
                guard let original = FileBytes.uint32(body, at: 0, bigEndian: bigEndian).map(Int.init) else { break }
                number += 1
                result.records.append(CaptureRecord(number: number, offset: offset, nanoseconds: 0, flags: 0,
                                                    bytes: Array(body.dropFirst(4).prefix(original))))
            default:
                break
            }
            offset += length
        }
        return (chosen.map { interfaces[$0].linkType }, interfaces.map(\.linkType), result)
    }

    /// if_tsresol: 10^-n seconds (high bit clear) or 2^-n (set); microseconds by default.
    private static func resolution(_ body: [UInt8], bigEndian: Bool) -> Resolution {
        var offset = 8
        while offset + 4 <= body.count {
            guard let code = FileBytes.uint16(body, at: offset, bigEndian: bigEndian),
                  let length = FileBytes.uint16(body, at: offset + 2, bigEndian: bigEndian).map(Int.init), code != 0 else { break }
            if code == timestampResolutionOption, length >= 1, offset + 4 < body.count {
                let value = body[offset + 4]
                return Resolution(exponent: Int(value & 0x7F), binary: value & 0x80 != 0)
            }
            offset += 4 + (length + 3) / 4 * 4
        }
        return .microseconds
    }
}
