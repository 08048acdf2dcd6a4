import DFUBatch
import DFUEngine
import DFUGATT

/// A radio transport as the device source of a batch: `hci:...` (DFUKit's HCI host on one
/// controller) or `bluez:hciN` (the kernel's stack on one adapter). One transport holds a link
/// per device being flashed; each holds its own connections apart, so every attempt shares it.
/// Wall clock.
public struct SharedTransportBatchSource: BatchDeviceSource {
    /// The transport every attempt uses.
    public let transport: any GATTTransport & Sendable

    /// A source over `transport`.
    public init(transport: any GATTTransport & Sendable) {
        self.transport = transport
    }

    /// False: radios run on the wall clock.
    public var usesVirtualTime: Bool { false }

    /// Three seconds of listening.
    public func scan() async throws(FlashError) -> [Advertisement] {
        do {
            return try await transport.scan(timeout: .seconds(3))
        } catch {
            throw FlashError(kind: .transport, message: error.kind == .transportUnavailable ? error.description : "scanning failed: \(error)")
        }
    }

    /// The shared transport.
    public func transport(for address: DeviceAddress, attempt: Int, concurrency: Int) throws(FlashError) -> any GATTTransport {
        transport
    }
}
