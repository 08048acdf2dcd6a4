import DFUBytes

/// The Gecko bootloader's GBL parser as the AppLoader runs it, byte stream in, flash writes out
/// (gecko_sdk 4.4.1 `platform/bootloader/parser/gbl/btl_gbl_parser.c`, `btl_gbl_format.c`):
/// written here from those sources, apart from DFUPackage's GBL reader, so that the simulator
/// does not share the engine's reading of the format.
///
/// - The first tag must be the header (`0x03A617EB`, major version 3); no tag may come after one
///   of a higher `GBL_TAG_ORDER_*`, and one-time tags bar their own order afterwards; an unknown
///   tag id stops the parse (`BOOTLOADER_ERROR_PARSER_UNKNOWN_TAG`).
/// - A CRC-32 runs over every byte parsed; at the end tag the file is good when the CRC of
///   everything up to the end tag's header equals the tag's value (the residue check of
///   `parser_finalize`). Bytes after the end tag are not parsed (state Done).
/// - Program data goes to flash as it arrives (`gbl_writeProgData`), except the application's
///   reset vector area, flashed only once the CRC passed ("PC last"); here: `programmed`
///   counts the bytes written, and `verified` says the vectors went out.
/// - An encrypted file needs a key this simulator does not have: refused as not supported.
struct AppLoaderGBLParser: Sendable, Equatable {
    enum State: Sendable, Equatable {
        /// Waiting for 8 bytes of tag header.
        case tagHeader
        /// Inside a tag: its id, the bytes of its body still to come, and the body so far
        /// (kept for the small tags whose fields matter; program data is not kept).
        case body(id: UInt32, remaining: Int, kept: [UInt8])
        /// The end tag passed the CRC: the image is complete and verified.
        case done
        /// The parse stopped; every later byte is refused with the same code.
        case failed(AppLoaderError)
    }

    private(set) var state = State.tagHeader
    /// Program data bytes written into the application area.
    private(set) var programmed = 0
    /// The application tag's version (`ApplicationData_t.version`), once parsed.
    private(set) var applicationVersion: UInt32?
    private var pending: [UInt8] = []
    private var crc = CRC32()
    private var order = 0
    private var tags = 0
    /// Program data the application area can take.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The image is complete and its CRC matched (`imageCompleted && imageVerified`).
    var verified: Bool { state == .done }

    /// The first error, once the parse stopped.
    var error: AppLoaderError? {
        if case let .failed(code) = state { return code }
        return nil
    }

    // Tag ids and GBL_TAG_ORDER (btl_gbl_format.h, btl_gbl_format.c).
    static let header: UInt32 = 0x03A6_17EB
    static let application: UInt32 = 0xF40A_0AF4
    static let end: UInt32 = 0xFC04_04FC
    static let encryptionInit: UInt32 = 0xFA06_06FA
    static let program: Set<UInt32> = [0xFE01_01FE, 0xFD03_03FD, 0xFD05_05FD, 0xFD07_07FD]
    /// (order, occurs once) per tag id the bootloader takes.
    static let orders: [UInt32: (Int, Bool)] = [
        0x03A6_17EB: (1, true), 0x76A6_17EB: (2, false), 0xFA06_06FA: (4, true), 0xF40A_0AF4: (5, true),
        0x5EA6_17EB: (6, true), 0xF509_09F5: (7, true), 0xFE01_01FE: (8, false), 0xFD03_03FD: (8, false),
        0xFD05_05FD: (8, false), 0xFD07_07FD: (8, false), 0xF608_08F6: (8, false), 0xF907_07F9: (9, false),
        0xF30B_0BF3: (10, true), 0xF70A_0AF7: (11, true), 0xFC04_04FC: (12, true),
    ]

    /// Parses `bytes`; returns the error that stopped the parse, if it stopped now or earlier.
    mutating func feed(_ bytes: [UInt8]) -> AppLoaderError? {
        var index = 0
        while index < bytes.count {
            switch state {
            case .done:
                return nil  // bytes after the end tag: padding, not parsed
            case let .failed(code):
                return code
            case .tagHeader:
                let take = min(8 - pending.count, bytes.count - index)
                pending += bytes[index..<(index + take)]
                index += take
                if pending.count == 8 { beginTag() }
            case let .body(id, remaining, kept):
                let take = min(remaining, bytes.count - index)
                let chunk = Array(bytes[index..<(index + take)])
                index += take
                continueTag(id: id, remaining: remaining, kept: kept, chunk: chunk)
            }
        }
        return error
    }

    private static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }

    private mutating func beginTag() {
        let id = Self.u32(pending, 0), length = Int(Self.u32(pending, 4))
        crc.update(pending)
        pending = []
        if tags == 0, id != Self.header { return state = .failed(.notSupported) }
        guard let (tagOrder, once) = Self.orders[id], tagOrder >= order else { return state = .failed(.notSupported) }
        if id == Self.encryptionInit { return state = .failed(.notSupported) }
        order = once ? tagOrder + 1 : tagOrder
        tags += 1
        if id == Self.end, length != 4 { return state = .failed(.notSupported) }
        state = .body(id: id, remaining: length, kept: [])
        if length == 0 { finishTag(id: id, body: []) }
    }

    private mutating func continueTag(id: UInt32, remaining: Int, kept: [UInt8], chunk: [UInt8]) {
        let left = remaining - chunk.count
        if id == Self.end {
            // The CRC field itself is compared, not hashed on: the CRC so far must equal it.
            let body = kept + chunk
            state = .body(id: id, remaining: left, kept: body)
            if left == 0 { finishTag(id: id, body: body) }
            return
        }
        crc.update(chunk)
        if Self.program.contains(id) {
            // The first 4 bytes are the flash address; the rest goes to flash now.
            let addressBytes = max(0, min(chunk.count, 4 - kept.count))
            let data = chunk.count - addressBytes
            programmed += data
            if programmed > capacity { return state = .failed(.imageTooBig) }
            state = .body(id: id, remaining: left, kept: Array((kept + chunk.prefix(addressBytes)).prefix(4)))
        } else {
            state = .body(id: id, remaining: left, kept: kept + chunk)
        }
        if left == 0 { finishTag(id: id, body: kept + chunk) }
    }

    private mutating func finishTag(id: UInt32, body: [UInt8]) {
        switch id {
        case Self.header:
            guard body.count == 8, Self.u32(body, 0) & 0xFF00_0000 == 0x0300_0000,
                  Self.u32(body, 4) & 1 == 0 else { return state = .failed(.notSupported) }
        case Self.application:
            guard body.count >= 28 else { return state = .failed(.notSupported) }
            applicationVersion = Self.u32(body, 4)
        case Self.end:
            state = Self.u32(body, 0) == crc.value ? .done : .failed(.crcError)
            return
        default:
            break
        }
        state = .tagHeader
    }
}
