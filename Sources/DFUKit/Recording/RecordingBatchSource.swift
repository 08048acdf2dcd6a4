import DFUBatch
import DFUEngine
import DFUGATT

/// A batch's device source whose every attempt is recorded, one file per device and attempt in
/// a directory (`BatchRequest.recordDirectory`): `DIR/C0FFEE000001-1.dfurec`.
struct RecordingBatchSource: BatchDeviceSource {
    let inner: any BatchDeviceSource
    let directory: String
    let subject: SessionRecording.Subject

    var usesVirtualTime: Bool { inner.usesVirtualTime }

    func scan() async throws(FlashError) -> [Advertisement] {
        try await inner.scan()
    }

    func transport(for address: DeviceAddress, attempt: Int, concurrency: Int) throws(FlashError) -> any GATTTransport {
        let transport = try inner.transport(for: address, attempt: attempt, concurrency: concurrency)
        let path = directory + "/" + SessionRecording.batchFileName(address, attempt: attempt)
        do throws(DFUKitError) {
            return try SessionRecording.start(transport, path: path, subject: subject)
        } catch {
            throw FlashError(kind: .usage, message: error.message)
        }
    }
}
