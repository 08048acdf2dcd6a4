import DFUProfile
import DFUWire

/// The framing a profile's `links:` entry names, made fresh for each link.
enum WireFramingCatalog {
    static func framing(_ kind: WireFramingKind, lineLength: Int) -> any MessageFraming {
        switch kind {
        case .smpConsole: SMPConsoleMessageFraming(lineLength: lineLength)
        case .smpRaw: SMPRawMessageFraming()
        case .slip: SLIPMessageFraming()
        case .datagram: DatagramFraming()
        }
    }
}
