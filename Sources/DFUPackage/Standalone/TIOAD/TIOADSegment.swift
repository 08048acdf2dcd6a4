import DFUBytes

/// A segment of an OAD image, after the 44-byte core header (oad_image_header.h): each starts
/// `type u8, wirelessTech u16, rfu u8, len u32` (`len` counts the whole segment, its 8 bytes
/// included), and `oad_image_tool` (imgBinUtil.py `getSegAddr`) and the BIM
/// (`Bim_findImageStartAddr`) walk them by `len` up to the image's `len`. The contiguous image
/// payload segment comes last: its `len` runs to the end of the image.
package struct TIOADSegment: Sendable, Equatable {
    package static let headerSize = 8

    /// Where it starts in the image.
    public var offset: Int
    public var type: TIOADSegmentType
    package var technology: TIOADWirelessTechnology
    /// `rfu`, or a security segment's `verifStat`.
    package var statusByte: UInt8
    public var length: UInt32
    package var content: Content

    /// What is read of a segment's body.
    public enum Content: Sendable, Equatable {
        /// A boundary segment (`boundarySeg_t`, 24 bytes).
        case boundary(stackStart: UInt32, stackEntry: UInt32, ramStart: UInt32, ramEnd: UInt32)
        /// A contiguous or non-contiguous image payload: where it goes in flash (`startAddr`).
        case payload(startAddress: UInt32)
        /// A security segment (`securityInfoSeg_t`, 85 bytes): version, timestamp, signer.
        case security(version: UInt8, timestamp: UInt32, signer: [UInt8])
        /// Any other type, or a body too short for its type.
        case opaque
    }

    /// Reads the segments of `image` from byte 44 up to `length`.
    /// - Throws: `TIOADSegmentError` naming the offset of a segment that does not fit.
    package static func segments(of image: [UInt8], length: Int) throws(TIOADSegmentError) -> [TIOADSegment] {
        var segments: [TIOADSegment] = []
        var offset = TIOADImageHeader.size
        let end = min(length, image.count)
        while offset < end {
            guard offset + headerSize <= end else { throw .truncated(offset: offset, available: end - offset) }
            var reader = ByteReader(Array(image[offset..<offset + headerSize]))
            let type = TIOADSegmentType(rawValue: (try? reader.readByte()) ?? 0)
            let technology = TIOADWirelessTechnology(rawValue: UInt16((try? reader.readUnsigned(width: 2, endianness: .little)) ?? 0))
            let status = (try? reader.readByte()) ?? 0
            let segmentLength = UInt32((try? reader.readUnsigned(width: 4, endianness: .little)) ?? 0)
            guard segmentLength >= UInt32(headerSize) else { throw .badLength(offset: offset, length: segmentLength) }
            guard UInt64(offset) + UInt64(segmentLength) <= UInt64(end) else {
                throw .beyondImage(offset: offset, length: segmentLength, imageLength: end)
            }
            let body = Array(image[offset + headerSize..<offset + Int(segmentLength)])
            segments.append(TIOADSegment(offset: offset, type: type, technology: technology, statusByte: status,
                                         length: segmentLength, content: content(of: type, body: body)))
            offset += Int(segmentLength)
        }
        return segments
    }

    private static func content(of type: TIOADSegmentType, body: [UInt8]) -> Content {
        var reader = ByteReader(body)
        func u32() -> UInt32? { (try? reader.readUnsigned(width: 4, endianness: .little)).map(UInt32.init) }
        switch type {
        case .boundary:
            guard let stackStart = u32(), let stackEntry = u32(), let ramStart = u32(), let ramEnd = u32() else { return .opaque }
            return .boundary(stackStart: stackStart, stackEntry: stackEntry, ramStart: ramStart, ramEnd: ramEnd)
        case .contiguous, .nonContiguous:
            return u32().map { .payload(startAddress: $0) } ?? .opaque
        case .security:
            guard let version = try? reader.readByte(), let timestamp = u32(),
                  let signer = try? reader.readBytes(count: 8) else { return .opaque }
            return .security(version: version, timestamp: timestamp, signer: signer)
        default:
            return .opaque
        }
    }

    /// One line for `package inspect`.
    public var summary: String {
        var text = "\(type) at \(offset), \(length) bytes, \(technology)"
        switch content {
        case let .boundary(stackStart, stackEntry, ramStart, ramEnd):
            text += ", stack at \(hex(stackStart)) entry \(hex(stackEntry)), RAM \(hex(ramStart))-\(hex(ramEnd))"
        case let .payload(startAddress):
            text += ", to \(hex(startAddress))"
        case let .security(version, timestamp, signer):
            text += ", security version \(version), timestamp \(timestamp), signer \(signer.hexString)"
        case .opaque:
            break
        }
        return text
    }

    private func hex(_ value: UInt32) -> String { "0x" + String(value, radix: 16, uppercase: true) }
}

/// A segment type (`IMG_BOUNDARY_SEG_ID` ... imgBinUtil.py `SEG_TYPE_*`). Open.
public struct TIOADSegmentType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The segment type byte.
    public let rawValue: UInt8
    /// The segment type with this value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let boundary = TIOADSegmentType(rawValue: 0)
    package static let contiguous = TIOADSegmentType(rawValue: 1)
    package static let nonContiguous = TIOADSegmentType(rawValue: 2)
    /// A security segment: the image's signature and its signer.
    public static let security = TIOADSegmentType(rawValue: 3)
    package static let nvram = TIOADSegmentType(rawValue: 4)
    package static let delta = TIOADSegmentType(rawValue: 5)

    public var description: String {
        let names: [UInt8: String] = [0: "boundary", 1: "contiguous image", 2: "non-contiguous image",
                                      3: "security", 4: "NVRAM", 5: "delta image"]
        return names[rawValue].map { "\($0) segment" } ?? "segment type \(rawValue)"
    }
}

/// A segment that does not fit in the image.
package enum TIOADSegmentError: Error, Sendable, Equatable, CustomStringConvertible {
    case truncated(offset: Int, available: Int)
    case badLength(offset: Int, length: UInt32)
    case beyondImage(offset: Int, length: UInt32, imageLength: Int)

    public var description: String {
        switch self {
        case let .truncated(offset, available):
            return "a segment header at byte \(offset) needs 8 bytes, the image has \(available) left"
        case let .badLength(offset, length):
            return "the segment at byte \(offset) says it is \(length) bytes long, less than its own 8-byte header"
        case let .beyondImage(offset, length, imageLength):
            return "the segment at byte \(offset) is \(length) bytes long and would end at \(offset + Int(length)), "
                + "past the image's \(imageLength) bytes"
        }
    }
}
