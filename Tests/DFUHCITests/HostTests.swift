import XCTest
import DFUBytes
import DFUGATT
@testable import DFUHCI

/// The host against an in-memory controller: what Bumble never produces.
final class HostTests: XCTestCase {
    private static let peer = DeviceAddress(string: "F0:01:02:03:04:05")!
    private var peer: DeviceAddress { Self.peer }

    private func makeHost(_ settings: FakeController.Settings = .init(),
                          _ tune: (inout HCIHostConfiguration) -> Void = { _ in }) async throws -> (HCIHost, FakeController) {
        let controller = FakeController(settings)
        var configuration = HCIHostConfiguration()
        configuration.commandTimeout = .milliseconds(300)
        configuration.optionalCommandTimeout = .milliseconds(100)
        configuration.creditTimeout = .seconds(2)
        configuration.randomAddress = DeviceAddress(string: "C3:11:22:33:44:55")
        tune(&configuration)
        let host = HCIHost(pipe: controller, configuration: configuration)
        try await host.start()
        return (host, controller)
    }

    private static func connect(_ host: HCIHost) async throws -> HCIATTChannel {
        try await host.connect(to: peer, addressType: .randomDevice, timeout: .seconds(1))
    }

    func testStartUpSequenceAndControllerInfo() async throws {
        let (host, controller) = try await makeHost()
        XCTAssertEqual(controller.commands.map(\.opcode), [
            ResetCommand.opcode, ReadLocalVersionCommand.opcode, ReadBufferSizeCommand.opcode, LEReadBufferSizeCommand.opcode,
            LEReadLocalSupportedFeaturesCommand.opcode, SetEventMaskCommand.opcode, LESetEventMaskCommand.opcode,
            LESetRandomAddressCommand.opcode,
        ])
        let info = await host.controller
        XCTAssertEqual(info?.aclPacketLength, 27)
        XCTAssertEqual(info?.aclPacketCount, 8)
        XCTAssertEqual(info?.version.companyIdentifier, 0xFFFF)
        XCTAssertEqual(try controller.commands.last?.decode(as: LESetRandomAddressCommand.self).address,
                       DeviceAddress(string: "C3:11:22:33:44:55"))
        await host.close()
    }

    func testUnansweredMandatoryCommandFailsWithItsName() async throws {
        let controller = FakeController(.init(unanswered: [ResetCommand.opcode]))
        var configuration = HCIHostConfiguration()
        configuration.commandTimeout = .milliseconds(150)
        let host = HCIHost(pipe: controller, configuration: configuration)
        let error = await hciError { () async throws(HCIError) in try await host.start() }
        XCTAssertEqual(error?.kind, .commandTimeout(command: "Reset", opcode: ResetCommand.opcode))
        XCTAssertEqual(error?.description, "HCI command Reset (0x0C03) got no answer: within 0.15 s")
        await host.close()
    }

    func testRandomStaticAddressHasTopBitsSet() {
        for _ in 0..<20 {
            XCTAssertEqual(HCIHostConfiguration.makeRandomStaticAddress().bytes[0] & 0xC0, 0xC0)
        }
    }

    func testScanParsesLegacyAndExtendedReports() async throws {
        let (host, controller) = try await makeHost()
        let other = DeviceAddress(value: 1)
        let found = try await withTimeout(2, "scan") {
            try await host.scan(timeout: .milliseconds(100)) { $0.name == "DFU-BUMBLE" }
        }
        XCTAssertNil(found, "nothing advertises yet")
        let extended = HCIEvent.leExtendedAdvertisingReport(LEExtendedAdvertisingReportEvent(reports: [
            .init(eventType: [.connectable, .scannable, .legacyPDU], addressType: .publicDevice, address: other,
                  rssi: -70, data: bytes("04 09 4f 54 48"))]))
        let legacy = HCIEvent.leAdvertisingReport(LEAdvertisingReportEvent(reports: [
            .init(eventType: .connectableUndirected, addressType: .randomDevice, address: peer,
                  data: bytes("02 01 06 03 03 0d 18"), rssi: -50),
            .init(eventType: .scanResponse, addressType: .randomDevice, address: peer,
                  data: bytes("0b 09 44 46 55 2d 42 55 4d 42 4c 45"), rssi: -51)]))
        Task {
            try? await Task.sleep(for: .milliseconds(20))
            controller.inject(extended)
            controller.inject(legacy)
        }
        let match = try await withTimeout(2, "scan") {
            try await host.scan(timeout: .seconds(1)) { $0.name == "DFU-BUMBLE" }
        }
        XCTAssertEqual(match?.address, peer)
        XCTAssertEqual(match?.addressType, .randomDevice)
        XCTAssertEqual(match?.advertisement.serviceUUIDs, [BluetoothUUID(uuid16: 0x180D)])
        let all = await host.advertisements
        XCTAssertEqual(all.map(\.name), ["OTH", "DFU-BUMBLE"])
        let scanCommand = try controller.commands.first { $0.opcode == LESetScanParametersCommand.opcode }?
            .decode(as: LESetScanParametersCommand.self)
        XCTAssertEqual(scanCommand?.ownAddressType, .randomDevice)
        await host.close()
    }

    func testUnansweredOptionalCommandsCountAsUnsupportedWithoutHanging() async throws {
        let (host, controller) = try await makeHost(.init(dataLength: .unanswered, phy: .unanswered))
        let started = ContinuousClock.now
        let channel = try await withTimeout(3, "connect") { try await Self.connect(host) }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(1))
        let unsupported = await host.unsupportedOptionalCommands
        XCTAssertEqual(unsupported, [LESetDataLengthCommand.opcode, LESetPHYCommand.opcode])
        let create = try controller.commands.first { $0.opcode == LECreateConnectionCommand.opcode }?
            .decode(as: LECreateConnectionCommand.self)
        XCTAssertEqual(create?.ownAddressType, .randomDevice)
        XCTAssertEqual(create?.peerAddress, peer)
        // Later commands still work, and the unsupported ones are not sent again.
        try await channel.disconnect()
        _ = try await Self.connect(host)
        XCTAssertEqual(controller.commands.filter { $0.opcode == LESetPHYCommand.opcode }.count, 1)
        await host.close()
    }

    func testSupportedOptionalCommandsUpdateTheConnection() async throws {
        let (host, _) = try await makeHost(.init(dataLength: .supported, phy: .supported))
        let channel = try await Self.connect(host)
        // The Data Length Change and PHY Update Complete events may follow the connection:
        // wait (at most a second) for the controller's answers to be applied.
        var connection = await channel.connection
        for _ in 0..<100 where connection?.maxTxOctets != 251 || connection?.txPHY != 2 {
            try await Task.sleep(for: .milliseconds(10))
            connection = await channel.connection
        }
        XCTAssertEqual(connection?.maxTxOctets, 251)
        XCTAssertEqual(connection?.txPHY, 2)
        await host.close()
    }

    func testConnectTimeoutCancelsAndSaysWhichDevice() async throws {
        let (host, controller) = try await makeHost(.init(connects: false))
        let error = await hciError { () async throws(HCIError) in
            _ = try await host.connect(to: Self.peer, addressType: .randomDevice, timeout: .milliseconds(100))
        }
        XCTAssertEqual(error?.kind, .connectionTimeout(address: peer))
        XCTAssertTrue(controller.commands.contains { $0.opcode == LECreateConnectionCancelCommand.opcode })
        await host.close()
    }

    func testIncomingContinuationFragmentsBecomeOneATTPDU() async throws {
        let (host, controller) = try await makeHost()
        let channel = try await Self.connect(host)
        let pdu: [UInt8] = [0x1B, 0x03, 0x00] + Array(0..<60)  // a 63-byte notification
        let frame = L2CAPBasicFrame(channel: .att, payload: pdu).bytes
        controller.inject(ACLPacket(handle: 0x40, boundary: .continuation, data: [9, 9]).packet)  // orphan: dropped
        controller.inject(ACLPacket(handle: 0x40, boundary: .firstFlushable, data: Array(frame[0..<27])).packet)
        controller.inject(ACLPacket(handle: 0x40, boundary: .continuation, data: Array(frame[27..<54])).packet)
        controller.inject(ACLPacket(handle: 0x40, boundary: .continuation, data: Array(frame[54...])).packet)
        let received = try await withTimeout(2, "receive") { await channel.receive() }
        XCTAssertEqual(received, pdu)
        let discarded = await host.discardedFragmentCount
        XCTAssertEqual(discarded, 1)
        await host.close()
    }

    /// Pairing over L2CAP CID 6: the Pairing Request goes out first; a device that refuses, or
    /// never answers, fails the pairing with the reason (the exchange itself is tested against
    /// Bumble's Security Manager in `make test-bumble`).
    func testPairingRefusedOrUnansweredSaysWhy() async throws {
        let (host, controller) = try await makeHost()
        let channel = try await Self.connect(host)
        let handle = channel.handle
        let refused = Task { () -> HCIError? in
            do throws(HCIError) { try await host.pair(handle, timeout: .seconds(2)); return nil } catch { return error }
        }
        let sent = await controller.waitForACL(count: 1)
        XCTAssertEqual(try L2CAPBasicFrame(bytes: sent[0].data),
                       L2CAPBasicFrame(channel: .securityManager, payload: [0x01, 0x03, 0x00, 0x00, 0x10, 0x00, 0x00]))
        controller.inject(ACLPacket(handle: handle, boundary: .firstFlushable,
                                    data: L2CAPBasicFrame(channel: .securityManager, payload: [0x05, 0x05]).bytes).packet)
        let outcome: HCIError? = await refused.value
        let error = try XCTUnwrap(outcome)
        XCTAssertEqual(error.kind, .pairingFailed(handle: handle))
        XCTAssertEqual(error.description, "connection 0x0040: pairing failed: the device refused pairing: "
                       + "Pairing Not Supported (0x05)")
        do {
            try await host.pair(handle, timeout: .milliseconds(200))
            XCTFail("paired with nobody")
        } catch {
            XCTAssertEqual(error.description, "connection 0x0040: pairing failed: the device did not answer within "
                           + "0.2 s (Security Manager timeout)")
        }
        await host.close()
    }

    /// A cancelled pairing stops waiting for the device at once and says so; the link stays up.
    func testCancelledPairingSaysSo() async throws {
        let (host, controller) = try await makeHost()
        let channel = try await Self.connect(host)
        let handle = channel.handle
        let pairing = Task { () -> HCIError? in
            do throws(HCIError) { try await host.pair(handle, timeout: .seconds(30)); return nil } catch { return error }
        }
        _ = await controller.waitForACL(count: 1)
        pairing.cancel()
        let outcome = try await withTimeout(2, "the cancelled pairing") { await pairing.value }
        XCTAssertEqual(outcome?.description, "connection 0x0040: pairing failed: cancelled while waiting for the device")
        let phase = await host.connectionPhase(handle)
        XCTAssertEqual(phase, .connected)
        await host.close()
    }

    func testOutgoingPDUIsFragmentedToTheBufferLength() async throws {
        let (host, controller) = try await makeHost(.init(aclLength: 27))
        let channel = try await Self.connect(host)
        let pdu = [UInt8](repeating: 0x52, count: 100)
        try await channel.send(pdu)
        let sent = controller.sentACL
        XCTAssertEqual(sent.map(\.data.count), [27, 27, 27, 23])
        XCTAssertEqual(sent.map(\.boundary), [.firstNonFlushable, .continuation, .continuation, .continuation])
        XCTAssertEqual(try L2CAPBasicFrame(bytes: sent.flatMap(\.data)), L2CAPBasicFrame(channel: .att, payload: pdu))
        await host.close()
    }

    func testSendingWaitsForCreditsUntilNumberOfCompletedPackets() async throws {
        let (host, controller) = try await makeHost(.init(aclCount: 2, completePacketsAutomatically: false))
        let channel = try await Self.connect(host)
        let sender = Task { () async -> Result<Void, HCIError> in
            await sendResult(channel, [UInt8](repeating: 0x52, count: 100))  // 4 fragments, 2 credits
        }
        let firstTwo = try await withTimeout(2, "first fragments") { await controller.waitForACL(count: 2) }
        XCTAssertEqual(firstTwo.count, 2)
        try await Task.sleep(for: .milliseconds(50))
        XCTAssertEqual(controller.sentACL.count, 2, "no credit, no packet")
        let credits = await host.availableCredits
        XCTAssertEqual(credits, 0)
        controller.inject(.numberOfCompletedPackets(NumberOfCompletedPacketsEvent(entries: [.init(handle: 0x40, completedPackets: 2)])))
        let sent = try await withTimeout(2, "send") { await sender.value }
        if case let .failure(error) = sent { XCTFail("\(error)") }
        XCTAssertEqual(controller.sentACL.count, 4)
        controller.inject(.numberOfCompletedPackets(NumberOfCompletedPacketsEvent(entries: [.init(handle: 0x40, completedPackets: 2)])))
        try await Task.sleep(for: .milliseconds(20))
        let after = await host.availableCredits
        XCTAssertEqual(after, 2)
        await host.close()
    }

    /// A send returns once its packets are in the controller; `waitUntilSent` returns only once
    /// the controller reported them completed (on air): what ends a transfer written without
    /// response, so that its rate counts bytes carried.
    func testWaitUntilSentReturnsOnlyOnceTheControllerCompletedThePackets() async throws {
        let (host, controller) = try await makeHost(.init(aclCount: 8, completePacketsAutomatically: false))
        let channel = try await Self.connect(host)
        try await channel.send([UInt8](repeating: 0x52, count: 60))  // 3 fragments, all in the controller
        let finished = SentFlag()
        let waiter = Task { () async -> Bool in
            let sent = (try? await channel.waitUntilSent(timeout: .seconds(5))) != nil
            finished.set()
            return sent
        }
        try await Task.sleep(for: .milliseconds(50))
        let inController = await host.packetsInController(on: 0x40)
        XCTAssertEqual(inController, 3)
        controller.inject(.numberOfCompletedPackets(NumberOfCompletedPacketsEvent(entries: [.init(handle: 0x40, completedPackets: 2)])))
        try await Task.sleep(for: .milliseconds(50))
        let stillOne = await host.packetsInController(on: 0x40)
        XCTAssertEqual(stillOne, 1, "one packet still in the controller")
        XCTAssertFalse(finished.value, "not sent while a packet is still in the controller")
        controller.inject(.numberOfCompletedPackets(NumberOfCompletedPacketsEvent(entries: [.init(handle: 0x40, completedPackets: 1)])))
        let returned = try await withTimeout(2, "waitUntilSent") { await waiter.value }
        XCTAssertTrue(returned)
        let none = await host.packetsInController(on: 0x40)
        XCTAssertEqual(none, 0)
        await host.close()
    }

    /// Controllers reuse connection handles: the ATT channel of a link that dropped cannot send
    /// on the next connection that got the same handle, whose own channel works.
    func testAChannelOfAnEndedLinkNeverReachesTheNextLinkOnTheSameHandle() async throws {
        let (host, controller) = try await makeHost()
        let old = try await Self.connect(host)
        controller.inject(.disconnectionComplete(DisconnectionCompleteEvent(handle: 0x40, reason: .connectionTimeout)))
        _ = await old.waitUntilDisconnected()
        let new = try await Self.connect(host)
        XCTAssertEqual(new.handle, old.handle)
        let before = controller.sentACL.count
        let error = await hciError { () async throws(HCIError) in try await old.send([0x52, 0x10, 0x00, 0x01]) }
        XCTAssertEqual(error?.kind, .disconnected(handle: 0x40, reason: .connectionTimeout))
        XCTAssertEqual(controller.sentACL.count, before, "nothing of the old link went out")
        try await new.send([0x52, 0x10, 0x00, 0x02])
        XCTAssertEqual(controller.sentACL.count, before + 1)
        await host.close()
    }

    func testCreditsThatNeverComeBackFailTheSend() async throws {
        let (host, _) = try await makeHost(.init(aclCount: 1, completePacketsAutomatically: false)) {
            $0.creditTimeout = .milliseconds(100)
        }
        let channel = try await Self.connect(host)
        let error = await hciError { () async throws(HCIError) in try await channel.send([UInt8](repeating: 1, count: 40)) }
        XCTAssertEqual(error?.kind, .noACLCredits(handle: 0x40))
        await host.close()
    }

    func testDisconnectionMidTransferFailsTheSenderAndReturnsCredits() async throws {
        let (host, controller) = try await makeHost(.init(aclCount: 1, completePacketsAutomatically: false))
        let channel = try await Self.connect(host)
        let sender = Task { () async -> Result<Void, HCIError> in
            await sendResult(channel, [UInt8](repeating: 0x52, count: 100))
        }
        _ = try await withTimeout(2, "first fragment") { await controller.waitForACL(count: 1) }
        controller.inject(.disconnectionComplete(DisconnectionCompleteEvent(handle: 0x40, reason: .connectionTimeout)))
        let result = try await withTimeout(2, "sender") { await sender.value }
        guard case let .failure(error) = result else { return XCTFail("the send must fail") }
        XCTAssertEqual(error.kind, .disconnected(handle: 0x40, reason: .connectionTimeout))
        XCTAssertEqual(error.description, "connection 0x0040 is gone: connection timeout (0x08)")
        let pdu = try await withTimeout(1, "receive") { await channel.receive() }
        XCTAssertNil(pdu)
        let end = await channel.waitUntilDisconnected()
        XCTAssertEqual(end.kind, .disconnected(handle: 0x40, reason: .connectionTimeout))
        var reports = host.disconnections.makeAsyncIterator()
        let report = await reports.next()
        XCTAssertEqual(report, HCIDisconnection(handle: 0x40, peerAddress: peer, reason: .connectionTimeout))
        let credits = await host.availableCredits
        XCTAssertEqual(credits, 1, "the controller flushed the dead link's packets")
        let sendAfter = await hciError { () async throws(HCIError) in try await channel.send([1]) }
        XCTAssertEqual(sendAfter?.kind, .disconnected(handle: 0x40, reason: .connectionTimeout))
        await host.close()
    }

    func testPeripheralParameterUpdateRequestIsAnsweredAndApplied() async throws {
        let (host, controller) = try await makeHost()
        _ = try await Self.connect(host)
        let request = LESignalingPacket(code: .connectionParameterUpdateRequest, identifier: 5, data: ConnectionParameterUpdateRequest(
            parameters: HCIConnectionParameters(intervalMin: 6, intervalMax: 12, latency: 0, supervisionTimeout: 500)).data)
        controller.inject(ACLPacket(handle: 0x40, boundary: .firstFlushable,
                                    data: L2CAPBasicFrame(channel: .leSignaling, payload: request.bytes).bytes).packet)
        let sent = try await withTimeout(2, "response") { await controller.waitForACL(count: 1) }
        XCTAssertEqual(try L2CAPBasicFrame(bytes: sent[0].data),
                       L2CAPBasicFrame(channel: .leSignaling, payload: bytes("13 05 02 00 00 00")))
        // An unknown signaling command is rejected.
        controller.inject(ACLPacket(handle: 0x40, boundary: .firstFlushable,
                                    data: L2CAPBasicFrame(channel: .leSignaling, payload: bytes("7f 09 00 00")).bytes).packet)
        let both = try await withTimeout(2, "reject") { await controller.waitForACL(count: 2) }
        XCTAssertEqual(try L2CAPBasicFrame(bytes: both[1].data).payload, bytes("01 09 02 00 00 00"))
        try await Task.sleep(for: .milliseconds(50))
        let connection = await host.connection(0x40)
        XCTAssertEqual(connection?.interval, 12)
        await host.close()
    }

    func testTransportLossEndsEverything() async throws {
        let (host, controller) = try await makeHost()
        let channel = try await Self.connect(host)
        controller.close()
        let end = try await withTimeout(2, "disconnection") { await channel.waitUntilDisconnected() }
        XCTAssertEqual(end.kind, .transportClosed)
        let error = await hciError { () async throws(HCIError) in try await host.execute(ResetCommand()) }
        XCTAssertEqual(error?.kind, .transportClosed)
    }
}

private func sendResult(_ channel: HCIATTChannel, _ pdu: [UInt8]) async -> Result<Void, HCIError> {
    do {
        try await channel.send(pdu)
        return .success(())
    } catch {
        return .failure(error)
    }
}

/// Whether a task got past a wait, read from the test.
private final class SentFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false
    func set() { lock.withLock { isSet = true } }
    var value: Bool { lock.withLock { isSet } }
}
