import DFUBytes
import DFUGATT

/// The device side of the vendor control-point protocol (profiles/vendor-ctrlpt.yaml): one
/// characteristic; commands arrive as u16-LE-length-prefixed frames cut into writes, responses
/// leave as frames cut into notifications. It really stores the image, checks size, CRC32 and
/// SHA-256, and refuses commands out of order.
public final class VendorControlPointDevice: SimulatedPeripheral {
    public enum Opcode: UInt8 {
        case start = 0x01, data = 0x02, verify = 0x03, activate = 0x04, status = 0x05, info = 0x06
    }

    /// Status codes, as in the profile's `vendor-status` table.
    public struct Status: RawRepresentable, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let ok = Status(rawValue: 0x00)
        public static let badLength = Status(rawValue: 0x01)
        public static let badState = Status(rawValue: 0x02)
        public static let tooLarge = Status(rawValue: 0x03)
        public static let badOffset = Status(rawValue: 0x04)
        public static let crcMismatch = Status(rawValue: 0x05)
        public static let shaMismatch = Status(rawValue: 0x06)
        public static let busy = Status(rawValue: 0x07)
        public static let unknownOpcode = Status(rawValue: 0x09)
    }

    /// An image the device accepted and activated.
    public struct InstalledImage: Sendable, Equatable {
        public var data: [UInt8]
        public var sha256: [UInt8]
    }

    public static let serviceUUID = BluetoothUUID(string: "D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F")!
    public static let controlPointUUID = BluetoothUUID(string: "D0F10001-7E3C-4B8A-9C52-1A2B3C4D5E6F")!
    public static let frameFormat = LengthHeaderFormat(headerSize: 2, lengthWidth: 2, endianness: .little,
                                                       maximumPayloadLength: 8192)
    static let controlPointHandle: UInt16 = 3
    /// Command names for `disconnect-on` / `disconnect-after-command`: the profile's.
    public static let commandNames = ["status", "start", "data", "verify", "activate", "info"]
    static let maximumChunk = 4096

    public let advertisement: Advertisement
    public let slotSize: Int
    public let flash: FlashTiming
    private let busyCommands: Set<Int>

    private var reassembler = Reassembler(format: VendorControlPointDevice.frameFormat)
    private var mtu = 23
    private var busyUntil: Duration = .zero
    private var commandsProcessed = 0
    private var session: UploadSession?
    public private(set) var installed: InstalledImage?
    /// Every command opcode processed, in order (for tests).
    public private(set) var commandLog: [UInt8] = []

    private struct UploadSession {
        var size: Int
        var crc32: UInt32
        var sha256: [UInt8]
        var received: [UInt8] = []
        var verified = false
    }

    public init(address: DeviceAddress, name: String = "DFU-SIM", slotSize: Int = 1 << 20,
                flash: FlashTiming = FlashTiming(), busyCommands: Set<Int> = []) {
        self.advertisement = Advertisement(address: address, name: name,
                                           serviceUUIDs: [Self.serviceUUID], rssi: -40)
        self.slotSize = slotSize
        self.flash = flash
        self.busyCommands = busyCommands
    }

    public var services: [GATTService] {
        [GATTService(uuid: Self.serviceUUID, characteristics: [
            GATTCharacteristic(service: Self.serviceUUID, uuid: Self.controlPointUUID,
                               valueHandle: Self.controlPointHandle, properties: [.write, .notify]),
        ])]
    }

    /// Bytes of the image received so far in the current session.
    public var receivedByteCount: Int { session?.received.count ?? 0 }

    public func connectionStarted(mtu: Int, at time: Duration) {
        self.mtu = mtu
        reassembler.reset()
    }

    public func connectionEnded(at time: Duration) {
        // A half-received frame is lost; the upload session (in RAM and flash) survives.
        reassembler.reset()
    }

    public func readValue(handle: UInt16) -> [UInt8]? { nil }

    public func receiveWrite(handle: UInt16, value: [UInt8], at time: Duration) -> [PeripheralOutput] {
        guard handle == Self.controlPointHandle else { return [] }
        let frames: [[UInt8]]
        do {
            frames = try reassembler.append(value)
        } catch {
            return []  // an impossible length: the device drops the garbage and waits
        }
        var outputs: [PeripheralOutput] = []
        for frame in frames {
            let payload = Self.frameFormat.payload(ofFrame: frame)
            let (response, cost, reboot) = process(payload)
            busyUntil = max(busyUntil, time) + cost
            outputs += notifications(for: response, readyAt: busyUntil, reboot: reboot)
        }
        return outputs
    }

    // MARK: - Commands

    private func process(_ payload: [UInt8]) -> (response: [UInt8], cost: Duration, reboot: Bool) {
        guard let opcodeByte = payload.first else { return ([0x80, Status.badLength.rawValue], .zero, false) }
        commandsProcessed += 1
        commandLog.append(opcodeByte)
        let reply = opcodeByte | 0x80
        if busyCommands.contains(commandsProcessed) {
            return ([reply, Status.busy.rawValue] + zeros(for: opcodeByte), .zero, false)
        }
        var reader = ByteReader(payload)
        _ = try? reader.readUnsigned(width: 1, endianness: .little)
        guard let opcode = Opcode(rawValue: opcodeByte) else {
            return ([reply, Status.unknownOpcode.rawValue], .zero, false)
        }
        switch opcode {
        case .status: return (statusResponse(), .zero, false)
        case .start: return (start(&reader), .zero, false)
        case .data: return data(&reader)
        case .verify: return verify()
        case .activate: return activate()
        case .info: return (infoResponse(), .zero, false)
        }
    }

    /// Zero-filled fields so an error response still has its full length.
    private func zeros(for opcode: UInt8) -> [UInt8] {
        switch Opcode(rawValue: opcode) {
        case .status: return [UInt8](repeating: 0, count: 40)
        case .info: return [UInt8](repeating: 0, count: 36)
        case .start: return [0, 0]
        case .data: return [0, 0, 0, 0]
        case .verify: return [UInt8](repeating: 0, count: 36)
        default: return []
        }
    }

    private func statusResponse() -> [UInt8] {
        var writer = ByteWriter()
        writer.append(0x85, width: 1, endianness: .little)
        writer.append(UInt64(Status.ok.rawValue), width: 1, endianness: .little)
        if let session, !session.verified {
            writer.append(UInt64(session.received.count), width: 4, endianness: .little)
            writer.append(UInt64(CRC32.checksum(session.received)), width: 4, endianness: .little)
            writer.append(bytes: session.sha256)
        } else {
            writer.append(0, width: 4, endianness: .little)
            writer.append(0, width: 4, endianness: .little)
            writer.append(bytes: [UInt8](repeating: 0, count: 32))
        }
        return writer.bytes
    }

    /// The running firmware: size and SHA-256 (zeros before any update).
    private func infoResponse() -> [UInt8] {
        var writer = ByteWriter()
        writer.append(0x86, width: 1, endianness: .little)
        writer.append(UInt64(Status.ok.rawValue), width: 1, endianness: .little)
        writer.append(UInt64(installed?.data.count ?? 0), width: 4, endianness: .little)
        writer.append(bytes: installed?.sha256 ?? [UInt8](repeating: 0, count: 32))
        return writer.bytes
    }

    private func start(_ reader: inout ByteReader) -> [UInt8] {
        guard reader.remainingCount == 40,
              let size = try? reader.readUnsigned(width: 4, endianness: .little),
              let crc = try? reader.readUnsigned(width: 4, endianness: .little),
              let sha = try? reader.readBytes(count: 32) else {
            return [0x81, Status.badLength.rawValue, 0, 0]
        }
        guard Int(size) <= slotSize else { return [0x81, Status.tooLarge.rawValue, 0, 0] }
        session = UploadSession(size: Int(size), crc32: UInt32(crc), sha256: sha)
        var writer = ByteWriter()
        writer.append(0x81, width: 1, endianness: .little)
        writer.append(UInt64(Status.ok.rawValue), width: 1, endianness: .little)
        writer.append(UInt64(Self.maximumChunk), width: 2, endianness: .little)
        return writer.bytes
    }

    private func data(_ reader: inout ByteReader) -> ([UInt8], Duration, Bool) {
        func answer(_ status: Status, _ next: Int) -> [UInt8] {
            var writer = ByteWriter()
            writer.append(0x82, width: 1, endianness: .little)
            writer.append(UInt64(status.rawValue), width: 1, endianness: .little)
            writer.append(UInt64(next), width: 4, endianness: .little)
            return writer.bytes
        }
        guard var current = session, !current.verified else { return (answer(.badState, 0), .zero, false) }
        guard let offsetValue = try? reader.readUnsigned(width: 4, endianness: .little) else {
            return (answer(.badLength, current.received.count), .zero, false)
        }
        let offset = Int(offsetValue)
        let bytes = reader.readRemaining()
        let have = current.received.count
        guard !bytes.isEmpty, bytes.count <= Self.maximumChunk, offset + bytes.count <= current.size else {
            return (answer(.badLength, have), .zero, false)
        }
        if offset < have, offset + bytes.count <= have {
            // A chunk sent again after a lost answer: already stored, acknowledge it.
            return (answer(.ok, offset + bytes.count), .zero, false)
        }
        guard offset == have else { return (answer(.badOffset, have), .zero, false) }
        current.received += bytes
        session = current
        return (answer(.ok, current.received.count), flash.writeCost(offset: offset, count: bytes.count), false)
    }

    private func verify() -> ([UInt8], Duration, Bool) {
        func answer(_ status: Status, _ crc: UInt32, _ sha: [UInt8]) -> [UInt8] {
            var writer = ByteWriter()
            writer.append(0x83, width: 1, endianness: .little)
            writer.append(UInt64(status.rawValue), width: 1, endianness: .little)
            writer.append(UInt64(crc), width: 4, endianness: .little)
            writer.append(bytes: sha)
            return writer.bytes
        }
        guard var current = session, current.received.count == current.size else {
            return (answer(.badState, 0, [UInt8](repeating: 0, count: 32)), .zero, false)
        }
        let crc = CRC32.checksum(current.received)
        let sha = SHA256.digest(current.received)
        let cost = flash.hashPerByte * current.size
        if crc != current.crc32 { return (answer(.crcMismatch, crc, sha), cost, false) }
        if sha != current.sha256 { return (answer(.shaMismatch, crc, sha), cost, false) }
        current.verified = true
        session = current
        return (answer(.ok, crc, sha), cost, false)
    }

    private func activate() -> ([UInt8], Duration, Bool) {
        guard let current = session, current.verified else { return ([0x84, Status.badState.rawValue], .zero, false) }
        installed = InstalledImage(data: current.received, sha256: current.sha256)
        session = nil
        return ([0x84, Status.ok.rawValue], .zero, true)
    }

    private func notifications(for response: [UInt8], readyAt: Duration, reboot: Bool) -> [PeripheralOutput] {
        guard let frame = try? Self.frameFormat.frame(payload: response) else { return [] }
        let segments = Segmenter.segments(of: frame, maximumSize: mtu - 3)
        return segments.enumerated().map { index, segment in
            PeripheralOutput(pdu: .notification(handle: Self.controlPointHandle, value: segment), readyAt: readyAt,
                             disconnectAfterSending: reboot && index == segments.count - 1)
        }
    }
}
