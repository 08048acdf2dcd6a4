import DFUBytes

/// The command handling of the vendor control-point reference design as a pure state machine:
/// a command payload in, the answer payload out with the device time it takes. No link and no
/// clock; `VendorControlPointDevice` adds framing, timing and the reboot.
///
/// What lives where (our design; there is no vendor firmware to follow): the upload session
/// (announced size, CRC32 and SHA-256, the bytes received, whether `verify` passed) and the
/// image to boot are in flash, so they survive a disconnect and a reset; `status` reports the
/// session, received bytes and all, until `activate` ends it, so a client that lost the link
/// between `verify` and `activate` can see the image is complete.
struct VendorControlPointFirmware: Sendable {
    static let maximumChunk = 4096

    /// An image in flash.
    struct Image: Sendable, Equatable {
        var data: [UInt8]
        var sha256: [UInt8]
    }

    struct UploadSession: Sendable, Equatable {
        var size: Int
        var crc32: UInt32
        var sha256: [UInt8]
        var received: [UInt8] = []
        var verified = false
    }

    /// What one command produced.
    struct Reply: Equatable {
        var payload: [UInt8]
        var cost: Duration = .zero
        /// `activate` succeeded: the device reboots into the new image.
        var activates = false
    }

    let slotSize: Int
    let flash: FlashTiming
    /// Commands (1-based, counted over the device's life) answered "busy".
    let busyCommands: Set<Int>

    private(set) var session: UploadSession?
    /// The image the device runs (nil: the factory image).
    private(set) var running: Image?
    /// The image `activate` chose; it runs after the next reboot.
    private(set) var activated: Image?
    private(set) var commandsProcessed = 0
    private(set) var commandLog: [UInt8] = []

    init(slotSize: Int, flash: FlashTiming, busyCommands: Set<Int>) {
        self.slotSize = slotSize
        self.flash = flash
        self.busyCommands = busyCommands
    }

    /// Flash as a state file describes it (`sim:vendor-ctrlpt?state=FILE`).
    mutating func restore(session: UploadSession?, running: Image?, activated: Image?) {
        self.session = session
        self.running = running
        self.activated = activated
    }

    /// The device reset: the bootloader boots the activated image, if any.
    mutating func reboot() {
        if let activated { running = activated }
    }

    mutating func process(_ payload: [UInt8]) -> Reply {
        guard let opcodeByte = payload.first else { return Reply(payload: [0x80, VendorControlPointStatus.badLength.rawValue]) }
        commandsProcessed += 1
        commandLog.append(opcodeByte)
        if busyCommands.contains(commandsProcessed) {
            return Reply(payload: [opcodeByte | 0x80, VendorControlPointStatus.busy.rawValue] + zeros(for: opcodeByte))
        }
        guard let opcode = VendorControlPointOpcode(rawValue: opcodeByte) else {
            return Reply(payload: [opcodeByte | 0x80, VendorControlPointStatus.unknownOpcode.rawValue])
        }
        var reader = ByteReader(Array(payload.dropFirst()))
        switch opcode {
        case .status: return Reply(payload: statusResponse())
        case .start: return Reply(payload: start(&reader))
        case .data: return data(&reader)
        case .verify: return verify()
        case .activate: return activate()
        case .info: return Reply(payload: infoResponse())
        }
    }

    /// Zero-filled fields so an error response still has its full length.
    private func zeros(for opcode: UInt8) -> [UInt8] {
        switch VendorControlPointOpcode(rawValue: opcode) {
        case .status: return [UInt8](repeating: 0, count: 40)
        case .info: return [UInt8](repeating: 0, count: 36)
        case .start: return [0, 0]
        case .data: return [0, 0, 0, 0]
        case .verify: return [UInt8](repeating: 0, count: 36)
        default: return []
        }
    }

    /// The session: bytes received, their CRC32 and the announced SHA-256 (zeros without one).
    private func statusResponse() -> [UInt8] {
        var writer = ByteWriter()
        writer.append(0x85, width: 1, endianness: .little)
        writer.append(UInt64(VendorControlPointStatus.ok.rawValue), width: 1, endianness: .little)
        writer.append(UInt64(session?.received.count ?? 0), width: 4, endianness: .little)
        writer.append(UInt64(session.map { CRC32.checksum($0.received) } ?? 0), width: 4, endianness: .little)
        writer.append(bytes: session?.sha256 ?? [UInt8](repeating: 0, count: 32))
        return writer.bytes
    }

    /// The running firmware: size and SHA-256 (zeros for the factory image).
    private func infoResponse() -> [UInt8] {
        var writer = ByteWriter()
        writer.append(0x86, width: 1, endianness: .little)
        writer.append(UInt64(VendorControlPointStatus.ok.rawValue), width: 1, endianness: .little)
        writer.append(UInt64(running?.data.count ?? 0), width: 4, endianness: .little)
        writer.append(bytes: running?.sha256 ?? [UInt8](repeating: 0, count: 32))
        return writer.bytes
    }

    private mutating func start(_ reader: inout ByteReader) -> [UInt8] {
        guard reader.remainingCount == 40,
              let size = try? reader.readUnsigned(width: 4, endianness: .little),
              let crc = try? reader.readUnsigned(width: 4, endianness: .little),
              let sha = try? reader.readBytes(count: 32) else {
            return [0x81, VendorControlPointStatus.badLength.rawValue, 0, 0]
        }
        guard Int(size) <= slotSize else { return [0x81, VendorControlPointStatus.tooLarge.rawValue, 0, 0] }
        session = UploadSession(size: Int(size), crc32: UInt32(crc), sha256: sha)
        var writer = ByteWriter()
        writer.append(0x81, width: 1, endianness: .little)
        writer.append(UInt64(VendorControlPointStatus.ok.rawValue), width: 1, endianness: .little)
        writer.append(UInt64(Self.maximumChunk), width: 2, endianness: .little)
        return writer.bytes
    }

    private mutating func data(_ reader: inout ByteReader) -> Reply {
        func answer(_ status: VendorControlPointStatus, _ next: Int, cost: Duration = .zero) -> Reply {
            var writer = ByteWriter()
            writer.append(0x82, width: 1, endianness: .little)
            writer.append(UInt64(status.rawValue), width: 1, endianness: .little)
            writer.append(UInt64(next), width: 4, endianness: .little)
            return Reply(payload: writer.bytes, cost: cost)
        }
        guard var current = session, !current.verified else { return answer(.badState, 0) }
        guard let offsetValue = try? reader.readUnsigned(width: 4, endianness: .little) else {
            return answer(.badLength, current.received.count)
        }
        let offset = Int(offsetValue)
        let bytes = reader.readRemaining()
        let have = current.received.count
        guard !bytes.isEmpty, bytes.count <= Self.maximumChunk, offset + bytes.count <= current.size else {
            return answer(.badLength, have)
        }
        if offset < have, offset + bytes.count <= have {
            // A chunk sent again after a lost answer: already stored, acknowledge it.
            return answer(.ok, offset + bytes.count)
        }
        guard offset == have else { return answer(.badOffset, have) }
        current.received += bytes
        session = current
        return answer(.ok, current.received.count, cost: flash.writeCost(offset: offset, count: bytes.count))
    }

    private mutating func verify() -> Reply {
        func answer(_ status: VendorControlPointStatus, _ crc: UInt32, _ sha: [UInt8], cost: Duration = .zero) -> Reply {
            var writer = ByteWriter()
            writer.append(0x83, width: 1, endianness: .little)
            writer.append(UInt64(status.rawValue), width: 1, endianness: .little)
            writer.append(UInt64(crc), width: 4, endianness: .little)
            writer.append(bytes: sha)
            return Reply(payload: writer.bytes, cost: cost)
        }
        guard var current = session, current.received.count == current.size else {
            return answer(.badState, 0, [UInt8](repeating: 0, count: 32))
        }
        let crc = CRC32.checksum(current.received)
        let sha = SHA256.digest(current.received)
        let cost = flash.hashPerByte * current.size
        if crc != current.crc32 { return answer(.crcMismatch, crc, sha, cost: cost) }
        if sha != current.sha256 { return answer(.shaMismatch, crc, sha, cost: cost) }
        current.verified = true
        session = current
        return answer(.ok, crc, sha, cost: cost)
    }

    private mutating func activate() -> Reply {
        guard let current = session, current.verified else {
            return Reply(payload: [0x84, VendorControlPointStatus.badState.rawValue])
        }
        activated = Image(data: current.received, sha256: current.sha256)
        session = nil
        return Reply(payload: [0x84, VendorControlPointStatus.ok.rawValue], activates: true)
    }
}
