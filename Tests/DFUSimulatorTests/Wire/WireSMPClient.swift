import DFUBytes
import DFUWire
import XCTest
@testable import DFUSimulator

/// A host that sends SMP requests over a `ByteWire` with the host framings (DFUWire's
/// `SMPConsoleMessageFraming`, `SMPRawMessageFraming`, `DatagramFraming`) and reads the answers.
final class WireSMPClient {
    let wire: any ByteWire
    private var framing: any MessageFraming
    private(set) var text: [String] = []
    private(set) var discarded: [String] = []
    private var pending: [[UInt8]] = []

    init(wire: any ByteWire, framing: any MessageFraming) {
        self.wire = wire
        self.framing = framing
    }

    /// Sends `packet` and returns the next message, or nil after `timeout`.
    func request(_ packet: [UInt8], timeout: Duration = .seconds(5)) async throws -> [UInt8]? {
        try await wire.send(framing.encode(packet))
        return try await next(timeout: timeout)
    }

    /// The next message, or nil after `timeout`.
    func next(timeout: Duration = .seconds(5)) async throws -> [UInt8]? {
        let deadline = wire.now + timeout
        while pending.isEmpty {
            guard let bytes = try await wire.receive(until: deadline) else { return nil }
            for output in framing.decode(bytes) {
                switch output {
                case let .message(message): pending.append(message)
                case let .text(line): text.append(line)
                case let .discarded(why): discarded.append(why)
                }
            }
        }
        return pending.removeFirst()
    }

    /// The CBOR body of an SMP answer.
    static func body(_ answer: [UInt8]?) throws -> CBORValue {
        let answer = try XCTUnwrap(answer)
        return try CBOR.decode(Array(answer[8...]))
    }

    /// Uploads `image` in chunks of `chunk` bytes (SMP image upload, as smpclient does: `len`
    /// and `sha` in the first); returns the offsets the device answered.
    func upload(_ image: [UInt8], chunk: Int) async throws -> [Int] {
        var offset = 0
        var offsets: [Int] = []
        var sequence: UInt8 = 0
        while offset < image.count {
            let data = Array(image[offset..<min(image.count, offset + chunk)])
            let packet = SMPTestSupport.upload(offset: offset, data: data, length: offset == 0 ? image.count : nil,
                                               sha: offset == 0 ? SHA256.digest(image) : nil, sequence: sequence)
            sequence &+= 1
            let body = try Self.body(try await request(packet))
            let next = try XCTUnwrap(body["off"]?.integerValue, "upload answer \(body)")
            offsets.append(next)
            guard next > offset else { break }
            offset = next
        }
        return offsets
    }
}
