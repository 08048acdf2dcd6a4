/// Frames packets with SLIP (RFC 1055) the way Nordic's serial DFU host sends them.
///
/// pc-nrfutil's `Slip.encode` (`nordicsemi/dfu/dfu_transport_serial.py`, unchanged from nrfutil
/// 5.2.0 to 6.1.7) and the nRF5 SDK's `slip_encode` (`components/libraries/slip/slip.c`, which
/// the bootloader answers with) both write END and ESC inside the packet as `DB DC` and `DB DD`
/// and end the frame with one END, with no END in front. RFC 1055 suggests a leading END too, to
/// flush line noise into an empty frame; the older `nordicsemi/bluetooth/hci/slip.py` of
/// nrfutil 5.2.0 (unused by its DFU transport) did so, and `sendsLeadingEnd` does the same.
/// Either way `SLIPDecoder` reads the frames back, since it ignores empty frames.
public struct SLIPEncoder: Sendable, Hashable {
    /// Whether each frame also starts with END (RFC 1055's advice); false, as nrfutil's DFU
    /// transport and the nRF5 SDK send.
    public let sendsLeadingEnd: Bool

    /// An encoder that sends a leading END only when `sendsLeadingEnd` is true.
    public init(sendsLeadingEnd: Bool = false) {
        self.sendsLeadingEnd = sendsLeadingEnd
    }

    /// The bytes that carry `packet` on the line: its bytes with END and ESC escaped, then END.
    public func encode(_ packet: some Sequence<UInt8>) -> [UInt8] {
        var frame: [UInt8] = sendsLeadingEnd ? [SLIP.end] : []
        frame.reserveCapacity(packet.underestimatedCount + 2)
        for byte in packet {
            switch byte {
            case SLIP.end: frame += [SLIP.escape, SLIP.escapedEnd]
            case SLIP.escape: frame += [SLIP.escape, SLIP.escapedEscape]
            default: frame.append(byte)
            }
        }
        frame.append(SLIP.end)
        return frame
    }
}
