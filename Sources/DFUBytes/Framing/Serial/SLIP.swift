/// The four special bytes of SLIP framing (RFC 1055, "A Nonstandard for Transmission of IP
/// Datagrams over Serial Lines: SLIP"), as Nordic's serial DFU uses them: pc-nrfutil
/// `nordicsemi/dfu/dfu_transport_serial.py` (class `Slip`) on the host and the nRF5 SDK
/// `components/libraries/slip/slip.c` on the device. `SLIPEncoder` writes frames,
/// `SLIPDecoder` reads them back from a byte stream.
public enum SLIP {
    /// END, 0xC0 (octal 300): ends a frame.
    public static let end: UInt8 = 0xC0
    /// ESC, 0xDB (octal 333): the next byte stands for END or ESC inside a frame.
    public static let escape: UInt8 = 0xDB
    /// ESC_END, 0xDC (octal 334): after ESC, a data byte 0xC0.
    public static let escapedEnd: UInt8 = 0xDC
    /// ESC_ESC, 0xDD (octal 335): after ESC, a data byte 0xDB.
    public static let escapedEscape: UInt8 = 0xDD
}
