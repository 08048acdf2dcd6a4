import DFUBytes
import DFUGATT
import DFUSimulator
import XCTest

/// An SMP client just good enough for the tests: keeps up to `window` requests in flight
/// and reassembles answers from notifications.
final class SMPLinkClient {
    let link: SimulatedLink
    let characteristic: GATTCharacteristic
    private var reassembler = Reassembler(format: SMPServerDevice.frameFormat)
    private var sequence: UInt8 = 0

    /// Connects to the world's first device, discovers and subscribes.
    static func connect(_ world: SimulatedWorld, timeout: Duration = .seconds(1)) async throws -> SMPLinkClient {
        let address = try XCTUnwrap(world.peripherals.first?.advertisement.address)
        return try await SMPLinkClient(try world.connectLink(to: address, timeout: timeout))
    }

    /// A client that knows the GATT database from an earlier connection (as BlueZ caches it):
    /// no discovery and no subscription round trips.
    init(cached link: SimulatedLink, characteristic: GATTCharacteristic) {
        self.link = link
        self.characteristic = characteristic
    }

    init(_ link: SimulatedLink) async throws {
        self.link = link
        let services = try await link.discoverServices()
        characteristic = try XCTUnwrap(services.first?.characteristics.first)
        try await link.setNotifications(enabled: true, for: characteristic)
    }

    func write(_ frame: [UInt8]) async throws {
        for segment in Segmenter.segments(of: frame, maximumSize: link.mtu - 3) {
            try await link.write(segment, to: characteristic, type: .withoutResponse)
        }
    }

    func nextResponse(timeout: Duration = .seconds(5)) async throws -> CBORValue? {
        let deadline = link.now + timeout
        while let notification = try await link.nextNotification(until: deadline) {
            if let frame = try reassembler.append(notification.value).first {
                return try CBOR.decode(Array(frame[8...]))
            }
        }
        return nil
    }

    func request(group: UInt16, command: UInt8, op: UInt8 = 2, body: CBORValue = .map([])) async throws -> CBORValue? {
        sequence &+= 1
        try await write(SMPTestSupport.frame(op: op, group: group, sequence: sequence, command: command, body: body))
        return try await nextResponse()
    }

    /// Uploads with up to `window` chunks in flight; returns the last answer.
    func upload(_ image: [UInt8], chunk: Int, window: Int) async throws -> CBORValue? {
        var next = 0
        var inFlight = 0
        var confirmed = 0
        var last: CBORValue?
        let sha = SHA256.digest(image)
        while confirmed < image.count {
            while inFlight < window, next < image.count {
                let end = min(image.count, next + chunk)
                let frame = next == 0
                    ? SMPTestSupport.upload(offset: 0, data: Array(image[0..<end]), length: image.count, sha: sha)
                    : SMPTestSupport.upload(offset: next, data: Array(image[next..<end]))
                try await write(frame)
                next = end
                inFlight += 1
            }
            guard let answer = try await nextResponse() else { return nil }
            inFlight -= 1
            last = answer
            if let offset = answer["off"]?.integerValue { confirmed = max(confirmed, offset) }
        }
        return last
    }
}
