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
/// - `Rules` (from `SilabsOTASettings`) make it as strict as a shipped AppLoader, each before any
///   program data of the file reaches flash: compressed program tags refused, program data
///   below the application area refused, version dependency tags evaluated.
struct AppLoaderGBLParser: Sendable, Equatable {
    /// What this bootloader build takes beyond the plain format; the defaults take everything.
    struct Rules: Sendable, Equatable {
        /// The LZ4 (`0xFD0505FD`) and LZMA (`0xFD0707FD`) program tags are parsed by custom tags
        /// that only the compression components add (`gbl_isCustomTag`); without them
        /// `parser_parseNewTagHeader` returns `BOOTLOADER_ERROR_PARSER_UNKNOWN_TAG` (0x84).
        var acceptsCompression = true
        /// Program data must start at or above this address (`mainBootloaderTable->startOfAppSpace`):
        /// lower addresses would write over the bootloader and the AppLoader (0x87).
        var applicationStart: UInt32?
        /// The versions a version dependency tag is evaluated against (`parser_parseVersionDependency`:
        /// the running application's, nil when none is valid, and the bootloader's); nil: the tag
        /// is skipped as today (a build without `BTL_PARSER_SUPPORT_VERSION_DEPENDENCY_TAG` would
        /// refuse it as unknown instead).
        var dependencyVersions: (application: UInt32?, bootloader: UInt32)?

        static func == (lhs: Rules, rhs: Rules) -> Bool {
            lhs.acceptsCompression == rhs.acceptsCompression && lhs.applicationStart == rhs.applicationStart
                && lhs.dependencyVersions?.application == rhs.dependencyVersions?.application
                && lhs.dependencyVersions?.bootloader == rhs.dependencyVersions?.bootloader
        }
    }

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
    let rules: Rules

    init(capacity: Int, rules: Rules = Rules()) {
        self.capacity = capacity
        self.rules = rules
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
    static let versionDependency: UInt32 = 0x76A6_17EB
    static let compressedProgram: Set<UInt32> = [0xFD05_05FD, 0xFD07_07FD]
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

    /// `parser_parseVersionDependency`: each 8-byte `VersionDependency_t` (image type, statement,
    /// reserved, version) compares the running application's (type 1) or the bootloader's (2)
    /// version with its operator (statement bits 0-3: LT 0, LEQ 2, EQ 4, GEQ 6, GT 8, bit 0
    /// negates) and folds it into that type's result with its connective (bits 4-7: AND 0, OR 2,
    /// bit 4 negates); the AppLoader (`BOOTLOADER_SUPPORT_COMMUNICATION`) refuses the file
    /// unless every result is true (`BOOTLOADER_ERROR_PARSER_VERSION`). No valid application:
    /// its result is false. A malformed statement is refused too.
    static func dependenciesMet(_ body: [UInt8], _ versions: (application: UInt32?, bootloader: UInt32)) -> Bool {
        guard body.count % 8 == 0 else { return false }
        var application: UInt8 = 1
        var bootloader: UInt8 = 1
        for start in stride(from: 0, to: body.count, by: 8) {
            let wanted = u32(body, start + 4), statement = body[start + 1]
            let current: UInt32
            switch body[start] {
            case 0x01:
                if versions.application == nil { application = 0 }
                current = versions.application ?? 0
            case 0x02: current = versions.bootloader
            default: return false
            }
            var result: UInt8
            switch statement & 0x0E {
            case 0x00: result = current < wanted ? 1 : 0
            case 0x02: result = current <= wanted ? 1 : 0
            case 0x04: result = current == wanted ? 1 : 0
            case 0x06: result = current >= wanted ? 1 : 0
            case 0x08: result = current > wanted ? 1 : 0
            default: return false
            }
            result ^= statement & 0x01
            let connective = statement >> 4
            func fold(_ value: inout UInt8) -> Bool {
                switch connective & 0x0E {
                case 0x00: value &= result
                case 0x02: value |= result
                default: return false
                }
                value ^= connective & 0x01
                return true
            }
            guard body[start] == 0x01 ? fold(&application) : fold(&bootloader) else { return false }
        }
        return application != 0 && bootloader != 0
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
        if Self.compressedProgram.contains(id), !rules.acceptsCompression { return state = .failed(.notSupported) }
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
            let address = Array((kept + chunk.prefix(addressBytes)).prefix(4))
            if kept.count < 4, address.count == 4, let start = rules.applicationStart, Self.u32(address, 0) < start {
                return state = .failed(.applicationOverlapsAppLoader)
            }
            let data = chunk.count - addressBytes
            programmed += data
            if programmed > capacity { return state = .failed(.imageTooBig) }
            state = .body(id: id, remaining: left, kept: address)
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
        case Self.versionDependency:
            if let versions = rules.dependencyVersions, !Self.dependenciesMet(body, versions) {
                return state = .failed(.notSupported)
            }
        case Self.end:
            state = Self.u32(body, 0) == crc.value ? .done : .failed(.crcError)
            return
        default:
            break
        }
        state = .tagHeader
    }
}
