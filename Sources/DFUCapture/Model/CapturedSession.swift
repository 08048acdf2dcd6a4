import DFUGATT

/// What a capture file holds, read into GATT terms: the connections it saw, each with the ATT
/// operations that went over it in order. Every reader (btsnoop, pcap, a DFUKit recording)
/// produces one; `capture inspect`, `profile verify --against` and `sim:replay` read only this.
public struct CapturedSession: Sendable {
    /// Where it was read from (a file path).
    public var source: String
    /// The file's format.
    public var format: CaptureFormat
    /// The connections in the order they were opened.
    public var connections: [CapturedConnection]
    /// What the reader could not read and why (an encrypted link, a truncated record, a
    /// connection whose start the capture missed), in file order.
    public var notes: [String]

    /// A session read from `source`.
    public init(source: String, format: CaptureFormat, connections: [CapturedConnection] = [], notes: [String] = []) {
        self.source = source
        self.format = format
        self.connections = connections
        self.notes = notes
    }
}

/// The formats DFUKit reads.
public enum CaptureFormat: Sendable, Hashable, CustomStringConvertible {
    /// btsnoop with its datalink: 1001 HCI (no H4 byte), 1002 HCI UART (H4: Android's HCI snoop
    /// log, Bumble), 2001 Linux monitor (`btmon -w`).
    case btsnoop(datalink: UInt32)
    /// pcap with its link type: 251 Bluetooth LE link layer, 256 the same with a pseudo-header,
    /// 272 the Nordic BLE sniffer's, 201 HCI H4 with a direction word.
    case pcap(linkType: UInt32)
    /// pcapng (Wireshark's default, the nRF Sniffer's) with the link type of the interface read.
    case pcapng(linkType: UInt32)
    /// A DFUKit session recording (`--record`) of this format version.
    case recording(version: Int)

    /// "btsnoop (HCI UART)", "pcap (Bluetooth LE link layer)", "DFUKit recording v1".
    public var description: String {
        switch self {
        case let .btsnoop(datalink):
            let names: [UInt32: String] = [1001: "HCI", 1002: "HCI UART", 2001: "Linux monitor"]
            return "btsnoop (\(names[datalink] ?? "datalink \(datalink)"))"
        case let .pcap(linkType):
            return "pcap (\(Self.linkTypeName(linkType)))"
        case let .pcapng(linkType):
            return "pcapng (\(Self.linkTypeName(linkType)))"
        case let .recording(version):
            return "DFUKit recording v\(version)"
        }
    }

    private static func linkTypeName(_ linkType: UInt32) -> String {
        let names: [UInt32: String] = [251: "Bluetooth LE link layer", 256: "Bluetooth LE link layer with pseudo-header",
                                       272: "Nordic BLE sniffer", 201: "HCI H4 with direction"]
        return names[linkType] ?? "link type \(linkType)"
    }
}
