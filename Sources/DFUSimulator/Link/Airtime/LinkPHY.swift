/// A BLE LE physical layer, and the airtime of one LL packet on it.
///
/// Packet formats (Bluetooth Core Specification v5.4, Vol 6, Part B, 2.1 and 2.2):
/// - LE 1M: preamble 1 byte, access address 4, PDU (2-byte header + payload + 4-byte MIC when
///   encrypted), CRC 3; 1 us a bit: (10 + payload + MIC) * 8 us. An empty PDU: 80 us.
/// - LE 2M: preamble 2 bytes, the rest as 1M; 0.5 us a bit: (11 + payload + MIC) * 4 us. An
///   empty PDU: 44 us.
/// - LE Coded (2.2, and the coding of 3.3 in Part A): an 80 us preamble (uncoded), FEC block 1
///   (access address 32 bits, coding indicator 2, TERM1 3) always coded at S=8: 37 * 8 = 296 us,
///   then FEC block 2 (PDU, CRC 24 bits, TERM2 3 bits) coded at S=2 or S=8, 1 us a coded
///   symbol: 376 + (16 + 8 * (payload + MIC) + 24 + 3) * S us. An empty PDU: 462 us (S2),
///   720 us (S8).
public enum LinkPHY: String, Sendable, Hashable, CaseIterable {
    /// LE 1M: 1 Mbit/s uncoded.
    case le1M = "1M"
    /// LE 2M: 2 Mbit/s uncoded.
    case le2M = "2M"
    /// LE Coded with S=2: 500 kbit/s, longer range.
    case codedS2 = "coded-s2"
    /// LE Coded with S=8: 125 kbit/s, longest range.
    case codedS8 = "coded-s8"

    /// The inter frame space between two consecutive packets of a connection event (T_IFS,
    /// Vol 6, Part B, 4.1.1), the same on every PHY.
    package static let interFrameSpace: Duration = .microseconds(150)

    /// The airtime of an LL data packet carrying `payload` bytes (0...251), its MIC included
    /// when `encrypted` (and payload is not empty: an empty PDU carries no MIC).
    package func packetAirtime(payload: Int, encrypted: Bool = false) -> Duration {
        let mic = encrypted && payload > 0 ? 4 : 0
        let pduBytes = 2 + payload + mic
        switch self {
        case .le1M: return .microseconds((1 + 4 + pduBytes + 3) * 8)
        case .le2M: return .microseconds((2 + 4 + pduBytes + 3) * 4)
        case .codedS2: return .microseconds(80 + 296 + (pduBytes * 8 + 24 + 3) * 2)
        case .codedS8: return .microseconds(80 + 296 + (pduBytes * 8 + 24 + 3) * 8)
        }
    }

    /// The raw symbol rate's data rate in bits per second (before coding overhead counted above).
    package var bitsPerSecond: Int {
        switch self {
        case .le1M: return 1_000_000
        case .le2M: return 2_000_000
        case .codedS2: return 500_000
        case .codedS8: return 125_000
        }
    }
}
