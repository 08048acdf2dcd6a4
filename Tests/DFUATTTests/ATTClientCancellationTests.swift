import DFUATT
import DFUBytes
import DFUGATT
import XCTest

/// A request whose caller is cancelled (Ctrl-C) ends without waiting for the answer or the
/// 30 s ATT timeout, and closes the bearer (no other request may go out before that answer).
final class ATTClientCancellationTests: XCTestCase {
    func testCancelledRequestEndsAndClosesTheBearer() async throws {
        let (central, peer) = LoopbackATTBearer.makePair(mtu: 23)
        let client = ATTClient(bearer: central, address: "C0:FF:EE:00:00:02", transactionTimeout: .seconds(30),
                               clock: ManualATTClock())
        let read = spawn { () async throws(GATTError) in try await client.read(handle: 0x0003) }
        _ = try await peer.receive()
        read.cancel()
        let error = await read.value.failure()
        XCTAssertEqual(error?.kind, .disconnected)
        XCTAssertEqual(error?.detail, "Read Request (0x0A) cancelled before its answer")
        await eventually("the bearer is closed") { await peer.isClosed() }
    }

    /// A request still queued behind the outstanding one was never sent: cancelling it fails it
    /// alone, the bearer stays open and the outstanding request gets its answer.
    func testCancelledQueuedRequestIsNeverSentAndTheBearerStays() async throws {
        let (central, peer) = LoopbackATTBearer.makePair(mtu: 23)
        let client = ATTClient(bearer: central, address: "C0:FF:EE:00:00:02", transactionTimeout: .seconds(30),
                               clock: ManualATTClock())
        let first = spawn { () async throws(GATTError) in try await client.read(handle: 0x0003) }
        _ = try await peer.receive()
        let queued = spawn { () async throws(GATTError) in try await client.read(handle: 0x0005) }
        await eventually("the second request waits its turn") { await client.queuedRequestCount == 1 }
        queued.cancel()
        let error = await queued.value.failure()
        XCTAssertEqual(error?.detail, "Read Request (0x0A) cancelled before it was sent")
        try await peer.send(hexBytes("0b 2a"))
        let value = try await first.value.get()
        XCTAssertEqual(value, [0x2A])
        let closed = await peer.isClosed()
        XCTAssertFalse(closed)
        let onTheWire = await peer.queuedCount()
        XCTAssertEqual(onTheWire, 0, "the cancelled request never went out")
    }
}
