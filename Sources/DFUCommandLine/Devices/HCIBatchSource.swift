import DFUBatch
import DFUEngine
import DFUGATT
import DFUHCITransport

/// `hci:...` as the device source of a batch: one controller holding a link per device being
/// flashed, on the wall clock.
struct HCIBatchSource: BatchDeviceSource {
    let transport: HCIGATTTransport

    var usesVirtualTime: Bool { false }

    func scan() async throws(FlashError) -> [Advertisement] {
        do {
            return try await transport.scan(timeout: .seconds(3))
        } catch {
            throw FlashError(kind: .transport, message: error.kind == .transportUnavailable ? error.detail : "scanning failed: \(error)")
        }
    }

    func transport(for address: DeviceAddress, attempt: Int, concurrency: Int) throws(FlashError) -> any GATTTransport {
        transport
    }
}
