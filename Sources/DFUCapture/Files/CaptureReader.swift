#if canImport(Glibc)
import Glibc
#endif

/// Reads a capture file into a `CapturedSession`, telling its format by its magic number:
/// btsnoop (datalinks 1001 HCI, 1002 HCI UART/H4, 2001 Linux monitor) and pcap in either byte
/// order with microsecond or nanosecond timestamps (link types 201 HCI H4 with direction, 251
/// Bluetooth LE link layer, 256 the same with a pseudo-header, 272 Nordic BLE sniffer), and
/// DFUKit's own session recordings (`--record`, read by `RecordingReader`).
/// A damaged record ends the reading with a note, never a failure.
public enum CaptureReader {
    /// "btsnoop (datalinks 1001, 1002, 2001), pcap (link types 201, 251, 256, 272) and DFUKit
    /// recordings (--record)".
    public static let formatsRead = "btsnoop (datalinks 1001, 1002, 2001), pcap and pcapng (link types 201, 251, 256, "
        + "272), DFUKit recordings (--record), each also gzip-compressed"

    /// Reads the capture at `path`.
    public static func read(path: String) throws(CaptureError) -> CapturedSession {
        try read(bytes: try contents(of: path), source: path)
    }

    /// Reads capture bytes; `source` names them in notes and errors.
    public static func read(bytes: [UInt8], source: String) throws(CaptureError) -> CapturedSession {
        if bytes.starts(with: Gzip.magic) {
            guard let inflated = Gzip.inflate(bytes) else {
                throw CaptureError(.unknownFormat, file: source, offset: 0, detail: "the gzip file is damaged or cut short",
                                   remedy: "check it with `gzip -t \(source)`")
            }
            return try read(bytes: inflated, source: source)
        }
        if bytes.starts(with: btsnoopMagic) {
            return try readBTSnoop(bytes, source: source)
        }
        if let layout = PcapFile.layout(magic: bytes) {
            return try readPcap(bytes, layout: layout, source: source)
        }
        if RecordingReader.isRecording(bytes) {
            return try RecordingReader.session(bytes: bytes, source: source)
        }
        if bytes.starts(with: [0x0A, 0x0D, 0x0D, 0x0A]) {
            return try readPcapNG(bytes, source: source)
        }
        throw CaptureError(.unknownFormat, file: source, offset: 0,
                           detail: bytes.isEmpty ? "the file is empty"
                               : "the first bytes (\(FileBytes.hexPrefix(bytes))) are no capture format DFUKit reads",
                           remedy: "DFUKit reads \(formatsRead); `capinfos FILE` (Wireshark) tells what a file is")
    }

    private static let btsnoopMagic: [UInt8] = Array("btsnoop".utf8) + [0]

    private static func readBTSnoop(_ bytes: [UInt8], source: String) throws(CaptureError) -> CapturedSession {
        let datalink = try BTSnoopFile.datalink(bytes, source: source)
        guard [1001, 1002, 2001].contains(datalink) else {
            throw CaptureError(.unsupportedFormat, file: source, offset: 12,
                               detail: "btsnoop datalink \(datalink) is not read (only 1001, 1002 and 2001 are)",
                               remedy: "capture HCI traffic (Android's HCI snoop log, `btmon -w`) or convert with "
                                   + "Wireshark to pcap")
        }
        let records = BTSnoopFile.records(bytes)
        var decoder = HCITraceDecoder()
        for record in records.records {
            guard let packet = HCIRecordPacket(btsnoop: record, datalink: datalink) else { continue }
            decoder.receive(packet.packet, sent: packet.sent, index: packet.index, at: records.time(of: record),
                            record: record.number)
        }
        return decoder.builder.session(source: source, format: .btsnoop(datalink: datalink), notes: records.notes)
    }

    private static func readPcap(_ bytes: [UInt8], layout: PcapFile.Layout,
                                 source: String) throws(CaptureError) -> CapturedSession {
        let linkType = try PcapFile.linkType(bytes, layout: layout, source: source)
        return try decodePackets(PcapFile.records(bytes, layout: layout), linkType: linkType,
                                 format: .pcap(linkType: linkType), source: source)
    }

    /// The link types whose packets DFUKit decodes.
    private static let packetLinkTypes: Set<UInt32> = [201, 251, 256, 272]

    private static func readPcapNG(_ bytes: [UInt8], source: String) throws(CaptureError) -> CapturedSession {
        let read = PcapNGFile.records(bytes, readable: packetLinkTypes)
        guard let linkType = read.linkType else {
            throw CaptureError(.unsupportedFormat, file: source, offset: 0,
                               detail: read.interfaces.isEmpty ? "the pcapng file describes no interface"
                                   : "no interface of the pcapng file has a link type DFUKit reads (it has "
                                   + read.interfaces.map(String.init).joined(separator: ", ") + ")",
                               remedy: "DFUKit reads \(formatsRead); capture HCI or the LE link layer")
        }
        var records = read.records
        if read.interfaces.count > 1 {
            records.notes.insert("the pcapng file has \(read.interfaces.count) interfaces; read: the first with link type "
                                 + "\(linkType)", at: 0)
        }
        return try decodePackets(records, linkType: linkType, format: .pcapng(linkType: linkType), source: source)
    }

    private static func decodePackets(_ records: CaptureRecords, linkType: UInt32, format: CaptureFormat,
                                      source: String) throws(CaptureError) -> CapturedSession {
        switch linkType {
        case 201:
            var decoder = HCITraceDecoder()
            for record in records.records {
                guard let packet = HCIRecordPacket(pcapH4WithDirection: record) else { continue }
                decoder.receive(packet.packet, sent: packet.sent, index: 0, at: records.time(of: record),
                                record: record.number)
            }
            return decoder.builder.session(source: source, format: format, notes: records.notes)
        case 251, 256, 272:
            var decoder = LinkLayerTraceDecoder()
            for record in records.records {
                guard let packet = LinkLayerRecordPacket(record: record, linkType: linkType) else { continue }
                decoder.receive(packet, at: records.time(of: record), record: record.number)
            }
            return decoder.builder.session(source: source, format: format, notes: records.notes)
        default:
            throw CaptureError(.unsupportedFormat, file: source, offset: 20,
                               detail: "pcap link type \(linkType) is not read",
                               remedy: "DFUKit reads \(formatsRead); capture HCI or the LE link layer")
        }
    }

    private static func contents(of path: String) throws(CaptureError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw CaptureError(.unreadableFile, file: path, detail: "cannot open it: \(reason)",
                               remedy: "check the path and that the file is readable")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += chunk[0..<count]
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                let reason = String(cString: strerror(errno))
                throw CaptureError(.unreadableFile, file: path, offset: bytes.count, detail: "cannot read it: \(reason)",
                                   remedy: "check that the file is a regular, readable file")
            }
        }
    }
}
