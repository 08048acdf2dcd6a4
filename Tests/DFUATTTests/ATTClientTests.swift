import DFUATT
import DFUBytes
import DFUGATT
import XCTest

/// `ATTClient` against a peer the test plays by hand, byte by byte, on the peripheral end of a
/// loopback bearer.
final class ATTClientTests: XCTestCase {
    func makeClient(mtu: Int = 23, timeout: Duration = .seconds(30), clock: any ATTClock = ManualATTClock())
        -> (ATTClient, LoopbackATTBearer) {
        let (central, peripheral) = LoopbackATTBearer.makePair(mtu: mtu)
        let client = ATTClient(bearer: central, address: "C0:FF:EE:00:00:02", transactionTimeout: timeout, clock: clock)
        return (client, peripheral)
    }

    func testOneRequestAtATime() async throws {
        let (client, peer) = makeClient()
        let first = spawn { () async throws(GATTError) in try await client.read(handle: 0x0003) }
        let second = spawn { () async throws(GATTError) in try await client.read(handle: 0x0005) }

        let firstPDU = try await peer.receive()
        // The other request is queued behind it, and its PDU is not on the wire.
        await eventually("the second request waits its turn") { await client.queuedRequestCount == 1 }
        let onTheWire = await peer.queuedCount()
        XCTAssertEqual(onTheWire, 0, "the second PDU must not be sent before the first response")
        let outstanding = await client.hasOutstandingRequest
        XCTAssertTrue(outstanding)

        let firstHandle = try ATTReadRequest(decoding: firstPDU).attributeHandle
        try await peer.send(ATTReadResponse(attributeValue: [UInt8(firstHandle)]).bytes)
        let secondPDU = try await peer.receive()
        let secondHandle = try ATTReadRequest(decoding: secondPDU).attributeHandle
        XCTAssertEqual(Set([firstHandle, secondHandle]), [0x0003, 0x0005])
        try await peer.send(ATTReadResponse(attributeValue: [UInt8(secondHandle)]).bytes)

        let values = (try await first.value.get(), try await second.value.get())
        XCTAssertEqual(values.0, [0x03])
        XCTAssertEqual(values.1, [0x05])
        let queued = await client.queuedRequestCount
        XCTAssertEqual(queued, 0)
    }

    func testWriteCommandDoesNotWaitForTheOutstandingRequest() async throws {
        let (client, peer) = makeClient()
        let read = spawn { () async throws(GATTError) in try await client.read(handle: 0x0003) }
        let observed1 = try await peer.receive()
        XCTAssertEqual(observed1, hexBytes("0a 03 00"))
        try await client.writeCommand(handle: 0x0011, value: [0xDE, 0xAD])
        let observed2 = try await peer.receive()
        XCTAssertEqual(observed2, hexBytes("52 11 00 de ad"))
        try await peer.send(hexBytes("0b 2a"))
        let value = try await read.value.get()
        XCTAssertEqual(value, [0x2A])
    }

    func testErrorResponseNamingTheRequestFailsIt() async throws {
        let (client, peer) = makeClient()
        let write = spawn { () async throws(GATTError) in try await client.write(handle: 0x0010, value: [1]) }
        _ = try await peer.receive()
        try await peer.send(hexBytes("01 12 10 00 03"))  // Write Request, 0x0010, Write Not Permitted
        let error = await write.value.failure()
        XCTAssertEqual(error?.kind, .attError(code: 0x03, handle: 0x0010))
        XCTAssertEqual(error?.address, "C0:FF:EE:00:00:02")
        XCTAssertTrue(error?.detail.contains("Write Not Permitted (0x03)") ?? false)
        // An application error code is kept by number.
        let read = spawn { () async throws(GATTError) in try await client.read(handle: 0x0020) }
        _ = try await peer.receive()
        try await peer.send(hexBytes("01 0a 20 00 81"))
        let applicationError = await read.value.failure()
        XCTAssertEqual(applicationError?.kind, .attError(code: 0x81, handle: 0x0020))
        XCTAssertTrue(applicationError?.detail.contains("Application Error 0x81") ?? false)
    }

    func testExchangeMTU() async throws {
        let (client, peer) = makeClient(mtu: 247)
        XCTAssertEqual(client.mtu, 23)
        let mtu = spawn { () async throws(GATTError) in try await client.exchangeMTU() }
        let observed3 = try await peer.receive()
        XCTAssertEqual(observed3, hexBytes("02 f7 00"))
        try await peer.send(hexBytes("03 9e 00"))  // 158
        let agreed = try await mtu.value.get()
        XCTAssertEqual(agreed, 158)
        XCTAssertEqual(client.mtu, 158)
        // Once per connection.
        let again = try await client.exchangeMTU()
        XCTAssertEqual(again, 158)
        let queued = await peer.queuedCount()
        XCTAssertEqual(queued, 0)
    }

    func testExchangeMTUNotSupportedKeeps23() async throws {
        let (client, peer) = makeClient(mtu: 247)
        let mtu = spawn { () async throws(GATTError) in try await client.exchangeMTU() }
        _ = try await peer.receive()
        try await peer.send(hexBytes("01 02 00 00 06"))
        let agreed = try await mtu.value.get()
        XCTAssertEqual(agreed, 23)
    }

    func testIndicationsAreConfirmedAndValuesBufferedInOrder() async throws {
        let (client, peer) = makeClient()
        await client.start()
        try await peer.send(hexBytes("1b 03 00 01"))
        try await peer.send(hexBytes("1d 13 00 02"))
        let observed4 = try await peer.receive()
        XCTAssertEqual(observed4, hexBytes("1e"), "confirmation sent on arrival")
        try await peer.send(hexBytes("1b 03 00 03"))
        await eventually("three values buffered") { await client.bufferedValueCount == 3 }
        var values: [ATTReceivedValue] = []
        for _ in 0..<3 {
            if let value = try await client.nextValue(until: .seconds(1)) { values.append(value) }
        }
        XCTAssertEqual(values.map(\.attributeValue), [[1], [2], [3]])
        XCTAssertEqual(values.map(\.kind), [.notification, .indication, .notification])
        XCTAssertEqual(values.map(\.attributeHandle), [0x0003, 0x0013, 0x0003])
    }

    func testNextValueWaitsUntilItsDeadlineOnTheClientClock() async throws {
        let clock = ManualATTClock()
        let (client, peer) = makeClient(clock: clock)
        // Already past: nil at once.
        let immediate = try await client.nextValue(until: .zero)
        XCTAssertNil(immediate)

        let waiting = spawn { () async throws(GATTError) in try await client.nextValue(until: .seconds(2)) }
        await eventually("the wait is armed") { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(1))
        try await peer.send(hexBytes("1b 07 00 aa"))
        let value = try await waiting.value.get()
        XCTAssertEqual(value?.attributeValue, [0xAA])
        XCTAssertEqual(value?.receivedAt, .seconds(1))

        let expiring = spawn { () async throws(GATTError) in try await client.nextValue(until: .seconds(3)) }
        await eventually("the second wait is armed") { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(2))
        let none = try await expiring.value.get()
        XCTAssertNil(none)
    }

    func testTransactionTimeoutOnTheManualClock() async throws {
        let clock = ManualATTClock()
        let (client, peer) = makeClient(clock: clock)
        let read = spawn { () async throws(GATTError) in try await client.read(handle: 0x0003) }
        _ = try await peer.receive()
        clock.advance(by: .seconds(29))
        let stillOutstanding = await client.hasOutstandingRequest
        XCTAssertTrue(stillOutstanding)
        clock.advance(by: .seconds(1))
        let error = await read.value.failure()
        XCTAssertEqual(error?.kind, .timeout)
        XCTAssertEqual(error?.description,
                       "C0:FF:EE:00:00:02: no answer: no answer to Read Request (0x0A) within 30.0 seconds "
                       + "(ATT transaction timeout); the ATT bearer was closed, reconnect to go on")
        await eventually("the bearer is closed") { await peer.isClosed() }
        let later = await expectGATTError { () async throws(GATTError) in _ = try await client.read(handle: 0x0003) }
        XCTAssertEqual(later?.kind, .disconnected)
        // A late answer cannot reach a closed bearer.
        let lateSend = await expectGATTError { () async throws(GATTError) in try await peer.send(hexBytes("0b 00")) }
        XCTAssertEqual(lateSend?.kind, .disconnected)
    }

    func testMalformedResponseEndsTheBearer() async throws {
        let (client, peer) = makeClient()
        let read = spawn { () async throws(GATTError) in try await client.read(handle: 0x0003) }
        _ = try await peer.receive()
        try await peer.send(hexBytes("01 0a 03"))  // an Error Response cut short
        let error = await read.value.failure()
        XCTAssertEqual(error?.kind, .disconnected)
        XCTAssertTrue(error?.detail.contains("malformed PDU: Error Response (0x01) too short") ?? false,
                      "\(String(describing: error))")
        await eventually("the bearer is closed") { await peer.isClosed() }
    }

    func testMismatchedResponseEndsTheBearer() async throws {
        let (client, peer) = makeClient()
        let write = spawn { () async throws(GATTError) in try await client.write(handle: 0x0003, value: [1]) }
        _ = try await peer.receive()
        try await peer.send(hexBytes("0b 01"))  // a Read Response to a Write Request
        let error = await write.value.failure()
        XCTAssertEqual(error?.kind, .disconnected)
        XCTAssertTrue(error?.detail.contains("Read Response (0x0B) does not answer the outstanding Write Request (0x12)")
                      ?? false, "\(String(describing: error))")

        let (other, otherPeer) = makeClient()
        let read = spawn { () async throws(GATTError) in try await other.read(handle: 0x0003) }
        _ = try await otherPeer.receive()
        try await otherPeer.send(hexBytes("01 12 03 00 01"))  // an Error Response for another request
        let otherError = await read.value.failure()
        XCTAssertEqual(otherError?.kind, .disconnected)
    }

    func testUnknownAndMalformedPDUsFromThePeer() async throws {
        let (client, peer) = makeClient(mtu: 100)
        await client.start()
        // A request this client does not serve: Request Not Supported.
        try await peer.send(hexBytes("0a 01 00"))
        let observed5 = try await peer.receive()
        XCTAssertEqual(observed5, hexBytes("01 0a 00 00 06"))
        // A malformed request: Invalid PDU.
        try await peer.send(hexBytes("0a 01"))
        let observed6 = try await peer.receive()
        XCTAssertEqual(observed6, hexBytes("01 0a 00 00 04"))
        // The peer's own MTU exchange is answered with ours.
        try await peer.send(hexBytes("02 40 00"))
        let observed7 = try await peer.receive()
        XCTAssertEqual(observed7, hexBytes("03 64 00"))
        XCTAssertEqual(client.mtu, 64)
        // Unknown commands and malformed notifications are dropped.
        try await peer.send(hexBytes("ff 00"))
        try await peer.send(hexBytes("1b 03"))
        await eventually("both dropped") { await client.droppedPDUCount == 2 }
        let buffered = await client.bufferedValueCount
        XCTAssertEqual(buffered, 0)
        // And the bearer still works.
        let value = spawn { () async throws(GATTError) in try await client.read(handle: 0x0001) }
        _ = try await peer.receive()
        try await peer.send(hexBytes("0b 07"))
        let read = try await value.value.get()
        XCTAssertEqual(read, [0x07])
    }

    func testDisconnectFailsTheRequestButKeepsBufferedValues() async throws {
        let (client, peer) = makeClient()
        await client.start()
        try await peer.send(hexBytes("1b 03 00 01"))
        await eventually("the notification is buffered") { await client.bufferedValueCount == 1 }
        let read = spawn { () async throws(GATTError) in try await client.read(handle: 0x0003) }
        _ = try await peer.receive()
        await peer.close()
        let error = await read.value.failure()
        XCTAssertEqual(error?.kind, .disconnected)
        XCTAssertEqual(error?.address, "C0:FF:EE:00:00:02")
        let buffered = try await client.nextValue(until: .seconds(1))
        XCTAssertEqual(buffered?.attributeValue, [0x01])
        let afterwards = await expectGATTError { () async throws(GATTError) in
            _ = try await client.nextValue(until: .seconds(1))
        }
        XCTAssertEqual(afterwards?.kind, .disconnected)
    }

    func testARequestLargerThanTheMTUIsRefused() async throws {
        let (client, peer) = makeClient()
        let error = await expectGATTError { () async throws(GATTError) in
            try await client.write(handle: 0x0003, value: Array(repeating: 0, count: 21))
        }
        XCTAssertEqual(error?.kind, .unsupported)
        let queued = await peer.queuedCount()
        XCTAssertEqual(queued, 0)
    }
}
