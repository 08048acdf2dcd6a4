import DFUBytes
import DFUSimulator
import DFUWire
import XCTest

/// The host side of serial Secure DFU at the byte level, as pc-nrfutil 6.1.7's
/// `nordicsemi/dfu/dfu_transport_serial.py` runs it (see scripts/serial-peers.md): SLIP frames
/// ending in C0 only, every answer awaited for at most 1 s (`DEFAULT_SERIAL_PORT_TIMEOUT`),
/// writes of `(mtu - 1) / 2 - 1` data bytes, a receipt read after every PRN-th write.
final class NordicSerialClient {
    let endpoint: SimulatedWireEndpoint
    private(set) var wire: any ByteWire
    private var decoder = SLIPDecoder()
    private var pending: [[UInt8]] = []
    /// Every answer frame read, in order (unescaped, without the END).
    private(set) var answers: [[UInt8]] = []

    init(endpoint: SimulatedWireEndpoint) async throws {
        self.endpoint = endpoint
        self.wire = try await endpoint.open()
    }

    /// Opens the port again (a USB device that reset took the old one away).
    func reopen() async throws {
        wire = try await endpoint.open()
        decoder = SLIPDecoder()
        pending = []
    }

    /// Sends `packet` (opcode first) as one SLIP frame.
    func send(_ packet: [UInt8]) async throws {
        try await wire.send(SLIPEncoder().encode(packet))
    }

    /// Sends bytes as they are: broken frames, noise.
    func sendRaw(_ bytes: [UInt8]) async throws {
        try await wire.send(bytes)
    }

    /// The next answer frame; nil when none came within `timeout` (nrfutil's 1 s).
    func answer(within timeout: Duration = .seconds(1)) async throws -> [UInt8]? {
        let deadline = wire.now + timeout
        while pending.isEmpty {
            guard let chunk = try await wire.receive(until: deadline) else { return nil }
            for case let .frame(frame) in decoder.feed(chunk) { pending.append(frame) }
        }
        let frame = pending.removeFirst()
        answers.append(frame)
        return frame
    }

    /// Sends `packet` and returns the answer (nil after 1 s).
    func request(_ packet: [UInt8]) async throws -> [UInt8]? {
        try await send(packet)
        return try await answer()
    }

    /// The raw bytes that arrive within `timeout`, up to `count` of them.
    func rawBytes(count: Int, within timeout: Duration = .seconds(1)) async throws -> [UInt8] {
        let deadline = wire.now + timeout
        var bytes: [UInt8] = []
        while bytes.count < count, let chunk = try await wire.receive(until: deadline) { bytes += chunk }
        return bytes
    }

    /// nrfutil's `dfu serial` for one image: ping, Set PRN, Get MTU, the init packet as the
    /// command object, then the image in data objects of the device's max size, each created,
    /// written, checksummed and executed; a receipt read after every `prn`-th write. Stops at
    /// the first missing answer. Returns the answer to the last Execute.
    @discardableResult
    func update(initPacket: [UInt8], firmware: [UInt8], prn: Int) async throws -> [UInt8]? {
        guard try await request([0x09, 0x01]) != nil,
              try await request([0x02] + [UInt8(truncatingIfNeeded: prn), UInt8(truncatingIfNeeded: prn >> 8)]) != nil,
              let mtuAnswer = try await request([0x07]), mtuAnswer.count == 5 else { return nil }
        let mtu = Int(mtuAnswer[3]) | Int(mtuAnswer[4]) << 8
        let writeSize = (mtu - 1) / 2 - 1
        guard try await request([0x06, 0x01]) != nil,
              try await request([0x01, 0x01] + SecureDFUClient.le32(initPacket.count)) != nil,
              try await stream(initPacket, writeSize: writeSize, prn: prn),
              try await request([0x03]) != nil,
              try await request([0x04]) != nil,
              let select = try await request([0x06, 0x02]), select.count == 15 else { return nil }
        let maxSize = Int(select[3]) | Int(select[4]) << 8 | Int(select[5]) << 16 | Int(select[6]) << 24
        var offset = 0
        var last: [UInt8]?
        while offset < firmware.count {
            let object = Array(firmware[offset..<min(offset + maxSize, firmware.count)])
            guard try await request([0x01, 0x02] + SecureDFUClient.le32(object.count)) != nil,
                  try await stream(object, writeSize: writeSize, prn: prn),
                  try await request([0x03]) != nil else { return nil }
            last = try await request([0x04])
            guard last != nil else { return nil }
            offset += object.count
        }
        return last
    }

    /// Writes `object` in `writeSize` pieces (`08 <data>`), reading a receipt after every
    /// `prn`-th; false when one did not come.
    private func stream(_ object: [UInt8], writeSize: Int, prn: Int) async throws -> Bool {
        var writes = 0
        for start in stride(from: 0, to: object.count, by: writeSize) {
            try await send([0x08] + object[start..<min(start + writeSize, object.count)])
            writes += 1
            if prn > 0, writes % prn == 0, try await answer() == nil { return false }
        }
        return true
    }
}
