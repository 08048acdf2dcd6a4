import DFUBytes

/// A GBL file read tag by tag, as Silicon Labs' Gecko Bootloader parses it (gecko_sdk
/// `platform/bootloader/parser/gbl/btl_gbl_parser.c`): the header tag first, then tags in the
/// order `GBL_TAG_ORDER_*` allows, up to the end tag, whose CRC-32 covers everything before it.
/// Reading never fails: a damaged file is read as far as it goes and `problems` says what is
/// wrong, so that `package inspect` can show the damage.
package struct GBLFile: Sendable, Equatable {
    package private(set) var tags: [GBLTag] = []
    /// Bytes after the end tag. Simplicity Commander pads its files with 0xFF to a multiple of
    /// 4 bytes; the bootloader stops parsing at the end tag.
    package private(set) var trailing: [UInt8] = []
    /// What makes the file unparseable by a bootloader, in file order; empty when none.
    package private(set) var problems: [String] = []
    /// Identifiers this reader does not know (a newer SDK's?), with their offsets.
    package private(set) var unknownTags: [GBLTag] = []
    /// The CRC-32 of the file up to and including the end tag's header; nil without an end tag.
    package private(set) var computedCRC: UInt32?
    private let bytes: [UInt8]

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        readTags()
        checkContents()
    }

    package var header: GBLHeader? { tags.first.flatMap(GBLHeader.init) }
    package var application: GBLApplicationData? { tags.lazy.compactMap(GBLApplicationData.init).first }
    package var programData: [GBLProgramData] { tags.compactMap(GBLProgramData.init) }
    package var endTag: GBLEndTag? { tags.last.flatMap(GBLEndTag.init) }
    package var signature: GBLSignatureTag? { tags.lazy.compactMap(GBLSignatureTag.init).first }
    package var isSigned: Bool { header?.type.contains(.signed) == true || signature != nil }
    package var isEncrypted: Bool { header?.type.contains(.encrypted) == true }

    /// Whether the end tag's CRC matches the bytes; nil without an end tag.
    package var crcMatches: Bool? {
        guard let endTag, let computedCRC else { return nil }
        return endTag.crc32 == computedCRC
    }

    /// What the signature signs: every tag but the signature and end tags, as they lie in the
    /// file (`gbl_parseHeader` hashes each tag header and body except those two).
    package var signedBytes: [UInt8] {
        tags.filter { $0.id != .signature && $0.id != .end }.flatMap { bytes[$0.offset..<$0.end] }
    }

    // MARK: - Reading

    private mutating func readTags() {
        var offset = 0
        var order = 0
        while offset < bytes.count {
            guard bytes.count - offset >= GBLTag.headerSize else {
                problems.append("\(bytes.count - offset) bytes at offset \(offset) are too few for a tag header: "
                    + "the file is truncated")
                return
            }
            let id = GBLTagID(rawValue: GBLTag.u32(bytes, at: offset))
            let length = Int(GBLTag.u32(bytes, at: offset + 4))
            let remaining = bytes.count - offset - GBLTag.headerSize
            guard length <= remaining else {
                problems.append("\(id) at offset \(offset) claims \(length) bytes, but only \(remaining) follow: "
                    + "the file is truncated or the length is damaged")
                return
            }
            let tag = GBLTag(id: id, offset: offset,
                             body: Array(bytes[(offset + GBLTag.headerSize)..<(offset + GBLTag.headerSize + length)]))
            if tags.isEmpty, id != .header {
                problems.append("the file does not start with a GBL header tag (0x03A617EB) but with "
                    + "0x\(String(id.rawValue, radix: 16, uppercase: true)): not a GBL file, or a damaged one")
                return
            }
            tags.append(tag)
            offset = tag.end
            if let tagOrder = id.order {
                if tagOrder < order {
                    problems.append("\(id) at offset \(tag.offset) comes after a tag it must precede: "
                        + "bootloaders refuse tags out of order (GBL_TAG_ORDER)")
                }
                order = max(order, id.occursOnce ? tagOrder + 1 : tagOrder)
            } else {
                unknownTags.append(tag)
            }
            if id == .end {
                computedCRC = CRC32.checksum(Array(bytes[0..<(tag.offset + GBLTag.headerSize)]))
                trailing = Array(bytes[offset...])
                if trailing.contains(where: { $0 != 0xFF }) {
                    problems.append("\(trailing.count) bytes after the end tag are not 0xFF padding")
                }
                return
            }
        }
        if !tags.isEmpty { problems.append("no end tag: the file is truncated") }
        if bytes.isEmpty { problems.append("the file is empty") }
    }

    private mutating func checkContents() {
        guard let first = tags.first else { return }
        if let header = GBLHeader(first) {
            if !header.isCompatible {
                problems.append("GBL version \(header.versionText) (0x\(String(header.version, radix: 16))): "
                    + "bootloaders take version 3 only")
            }
        } else {
            problems.append("the header tag has \(first.body.count) bytes, not 8")
        }
        for tag in tags.dropFirst() {
            if let problem = Self.bodyProblem(tag) { problems.append(problem) }
        }
        if header?.type.contains(.signed) == true, !tags.contains(where: { $0.id == .signature }) {
            problems.append("the header says the file is signed, but it has no signature tag")
        }
    }

    /// Why a known tag's body cannot be what its identifier says.
    private static func bodyProblem(_ tag: GBLTag) -> String? {
        let wanted: String
        switch tag.id {
        case .header:
            return "a second header tag at offset \(tag.offset)"
        case .application:
            if GBLApplicationData(tag) != nil { return nil }
            wanted = "at least \(GBLApplicationData.size)"
        case .end:
            if GBLEndTag(tag) != nil { return nil }
            wanted = "4"
        case .signature:
            if GBLSignatureTag(tag) != nil { return nil }
            wanted = "64"
        case .bootloader, .seUpgrade:
            if tag.body.count >= 8 { return nil }
            wanted = "at least 8"
        case .versionDependency:
            if GBLVersionDependency.entries(tag) != nil { return nil }
            wanted = "a multiple of 8"
        case let id where id.isProgramData:
            if tag.body.count >= 4 { return nil }
            wanted = "at least 4"
        default:
            return nil
        }
        return "\(tag.id) at offset \(tag.offset) has \(tag.body.count) bytes, not \(wanted)"
    }
}
