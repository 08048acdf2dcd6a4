import XCTest
import DFUBytes
import DFUGATT
import DFUPackage
@testable import DFUSimulator

/// Builds SMP request frames and runs them through an `SMPServerDevice` without a link.
enum SMPTestSupport {
    static let address = DeviceAddress(string: "C0:FF:EE:00:00:05")!

    static func device(_ configure: (inout SMPServerSettings) -> Void = { _ in }) -> SMPServerDevice {
        var settings = SMPServerSettings()
        configure(&settings)
        let device = SMPServerDevice(address: address, settings: settings)
        device.connectionStarted(mtu: 247, at: .zero)
        return device
    }

    /// A request frame; `version` 1 is SMP v2, 0 the original protocol.
    static func frame(op: UInt8 = 2, version: UInt8 = 1, group: UInt16, sequence: UInt8 = 0, command: UInt8,
                      body: CBORValue = .map([])) -> [UInt8] {
        let encoded = CBOR.encode(body)
        let header = SMPHeader(operation: .init(rawValue: op), version: version, length: encoded.count, group: group,
                               sequence: sequence, command: command)
        return header.bytes + encoded
    }

    /// An image upload request with its keys in the order PyPI `smp` writes them.
    static func upload(offset: Int, data: [UInt8], length: Int? = nil, sha: [UInt8]? = nil, sequence: UInt8 = 0,
                       version: UInt8 = 1) -> [UInt8] {
        var entries: [CBORMapEntry] = []
        if let length { entries.append(CBORMapEntry("len", CBORValue(integer: length))) }
        entries.append(CBORMapEntry("off", CBORValue(integer: offset)))
        if let sha { entries.append(CBORMapEntry("sha", .bytes(sha))) }
        entries.append(CBORMapEntry("data", .bytes(data)))
        if offset == 0 { entries.append(CBORMapEntry("image", 0)) }
        return frame(version: version, group: 1, sequence: sequence, command: 1, body: .map(entries))
    }

    static let imageStateRead = hexBytes("0800000100010500a0")  // PyPI smp ImageStatesReadRequest, seq 5
    static let resetRequest = hexBytes("0a00000100000405a0")    // PyPI smp ResetWriteRequest, seq 4

    static func testState(hash: [UInt8], confirm: Bool, sequence: UInt8 = 9) -> [UInt8] {
        frame(group: 1, sequence: sequence, command: 0, body: .textMap(["hash": .bytes(hash), "confirm": .boolean(confirm)]))
    }

    /// A valid MCUboot image of `payloadSize` bytes, and its SHA256 TLV computed here (not by
    /// the parser under test): SHA-256 over the 32-byte header and the payload.
    static func image(payloadSize: Int, version: MCUbootImageVersion = MCUbootImageVersion(major: 1, minor: 2, revision: 3, build: 4),
                      seed: UInt64 = 7) -> (bytes: [UInt8], hash: [UInt8]) {
        let bytes = SimulatedMCUbootImage.make(payload: pseudoRandom(count: payloadSize, seed: seed), version: version)
        return (bytes, SHA256.digest(Array(bytes[0..<(32 + payloadSize)])))
    }

    static func pseudoRandom(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed | 1
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }
}

/// Sends frames to a device as writes without response and collects its answers. Without an
/// explicit time, each request goes out once the previous answer is ready (no pipelining).
final class SMPExchange {
    let device: SMPServerDevice
    var writeSize = 244
    private(set) var outputs: [PeripheralOutput] = []
    /// When the last answer is ready.
    private(set) var now: Duration = .zero

    init(_ device: SMPServerDevice) {
        self.device = device
    }

    /// Writes `frame` in `writeSize` pieces at `time`; returns the outputs of this frame.
    @discardableResult
    func send(_ frame: [UInt8], at explicitTime: Duration? = nil) -> [PeripheralOutput] {
        let time = explicitTime ?? now
        var produced: [PeripheralOutput] = []
        var start = 0
        while start < frame.count {
            let end = min(frame.count, start + writeSize)
            produced += device.receiveWrite(handle: 3, value: Array(frame[start..<end]), at: time)
            start = end
        }
        outputs += produced
        now = max(now, time, produced.map(\.readyAt).max() ?? time)
        return produced
    }

    /// Lets device time pass until every timer the device armed has fired (a reset comes
    /// due, MCUboot swaps, the application boots), then connects again; later requests go out
    /// from then on. Returns what the timers did.
    @discardableResult
    func runTimers() -> [PeripheralEvent] {
        var events: [PeripheralEvent] = []
        while let due = device.nextTimer {
            events += device.fireTimers(at: due)
            now = max(now, due)
        }
        device.connectionStarted(mtu: 247, at: now)
        return events
    }

    /// Sends `reset` and lets the device reboot and boot.
    func resetAndBoot() {
        send(SMPTestSupport.resetRequest)
        runTimers()
    }

    /// The response frames in `outputs`, reassembled from notifications.
    static func frames(_ outputs: [PeripheralOutput], file: StaticString = #filePath, line: UInt = #line) -> [[UInt8]] {
        var reassembler = Reassembler(format: SMPServerDevice.frameFormat)
        var frames: [[UInt8]] = []
        for output in outputs {
            guard case let .notification(handle, value) = output.pdu, handle == 3 else {
                XCTFail("unexpected output \(output.pdu)", file: file, line: line)
                continue
            }
            frames += (try? reassembler.append(value)) ?? []
        }
        XCTAssertEqual(reassembler.bufferedByteCount, 0, "a partial response frame", file: file, line: line)
        return frames
    }

    /// Sends `frame` and returns the one response frame.
    func exchange(_ frame: [UInt8], at time: Duration? = nil, file: StaticString = #filePath,
                  line: UInt = #line) -> [UInt8] {
        let frames = Self.frames(send(frame, at: time), file: file, line: line)
        XCTAssertEqual(frames.count, 1, "response frames", file: file, line: line)
        return frames.first ?? []
    }

    /// Sends `frame` and returns the response's header and body.
    func request(_ frame: [UInt8], at time: Duration? = nil, file: StaticString = #filePath,
                 line: UInt = #line) -> (header: SMPHeader?, body: CBORValue?) {
        let response = exchange(frame, at: time, file: file, line: line)
        return (SMPHeader(decoding: response), response.count >= 8 ? try? CBOR.decode(Array(response[8...])) : nil)
    }

    /// Sends the first `count` bytes of `image` in 2000-byte chunks, the first with `len` and
    /// `sha`, without looking at the answers.
    func uploadStart(of image: [UInt8], count: Int) {
        for offset in stride(from: 0, to: count, by: 2000) {
            let data = Array(image[offset..<min(count, offset + 2000)])
            send(offset == 0 ? SMPTestSupport.upload(offset: 0, data: data, length: image.count, sha: SHA256.digest(image))
                             : SMPTestSupport.upload(offset: offset, data: data))
        }
    }

    /// Uploads a whole image in `chunk`-byte pieces; returns the last response body.
    @discardableResult
    func uploadImage(_ image: [UInt8], chunk: Int = 1024, sha: [UInt8]? = nil, file: StaticString = #filePath,
                     line: UInt = #line) -> CBORValue? {
        var offset = 0
        var last: CBORValue?
        while offset < image.count {
            let end = min(image.count, offset + chunk)
            let frame = offset == 0
                ? SMPTestSupport.upload(offset: 0, data: Array(image[0..<end]), length: image.count,
                                        sha: sha ?? SHA256.digest(image))
                : SMPTestSupport.upload(offset: offset, data: Array(image[offset..<end]))
            last = request(frame, file: file, line: line).body
            guard let next = last?["off"]?.integerValue, next > offset else {
                XCTFail("upload stalled at \(offset): \(last.map(\.description) ?? "no answer")", file: file, line: line)
                return last
            }
            offset = next
        }
        return last
    }

    func imageList(file: StaticString = #filePath, line: UInt = #line) -> [CBORValue] {
        request(SMPTestSupport.imageStateRead, file: file, line: line).body?["images"]?.arrayValue ?? []
    }
}

/// Bytes from hex text in a test vector (spaces allowed); fails the test on a typo.
func hexBytes(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [UInt8] {
    guard let bytes = [UInt8](hex: text) else {
        XCTFail("bad hex in test vector: \(text)", file: file, line: line)
        return []
    }
    return bytes
}
