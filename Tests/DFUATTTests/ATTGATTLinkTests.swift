import DFUATT
import DFUBytes
import DFUGATT
import XCTest

/// `ATTGATTLink` end to end against `SimulatedATTServer`, in ATT bytes over a loopback bearer.
final class ATTGATTLinkTests: XCTestCase {
    let address = DeviceAddress(string: "C0:FF:EE:00:00:01")!
    let dfuService = BluetoothUUID(string: "FE59")!
    let controlPoint = BluetoothUUID(string: "8EC90001-F315-4F60-9FB8-838830DAEA50")!
    let packet = BluetoothUUID(string: "8EC90002-F315-4F60-9FB8-838830DAEA50")!
    let longValue = (0..<100).map { UInt8($0) }

    struct Handles {
        var deviceName: UInt16 = 0
        var controlPoint: UInt16 = 0
        var packet: UInt16 = 0
        var revision: UInt16 = 0
        var battery: UInt16 = 0
    }

    /// GAP (1800) with the device name; a DFU service (FE59) with a 128-bit control point
    /// (write, notify; a User Description before its CCCD), a packet characteristic (write
    /// without response) and a 100-byte firmware revision; Battery (180F) that indicates.
    func makeServer(mtu: Int, serverRxMTU: UInt16 = 247) -> (SimulatedATTServer, LoopbackATTBearer, Handles) {
        var database = GATTDatabaseBuilder()
        var handles = Handles()
        database.service(BluetoothUUID(uuid16: 0x1800))
        handles.deviceName = database.characteristic(BluetoothUUID(uuid16: 0x2A00), [.read], value: Array("DfuTarg".utf8))
        database.service(dfuService)
        handles.controlPoint = database.characteristic(controlPoint, [.write, .notify],
                                                       extraDescriptors: [BluetoothUUID(uuid16: 0x2901)])
        handles.packet = database.characteristic(packet, [.writeWithoutResponse])
        handles.revision = database.characteristic(BluetoothUUID(uuid16: 0x2A26), [.read], value: longValue)
        database.service(BluetoothUUID(uuid16: 0x180F))
        handles.battery = database.characteristic(BluetoothUUID(uuid16: 0x2A19), [.read, .indicate], value: [97])
        let (central, peripheral) = LoopbackATTBearer.makePair(mtu: mtu)
        let server = SimulatedATTServer(bearer: peripheral, attributes: database.attributes, serverRxMTU: serverRxMTU)
        return (server, central, handles)
    }

    func connect(mtu: Int, serverRxMTU: UInt16 = 247, timeout: Duration = .seconds(30),
                 clock: any ATTClock = ContinuousATTClock()) async throws
        -> (ATTGATTLink, SimulatedATTServer, Handles) {
        let (server, central, handles) = makeServer(mtu: mtu, serverRxMTU: serverRxMTU)
        await server.start()
        let link = try await ATTGATTLink.connect(bearer: central, address: address,
                                                 transactionTimeout: timeout, clock: clock)
        return (link, server, handles)
    }

    func characteristic(_ services: [GATTService], _ uuid: BluetoothUUID) throws -> GATTCharacteristic {
        try XCTUnwrap(services.flatMap(\.characteristics).first { $0.uuid == uuid }, "\(uuid) discovered")
    }

    func testDiscoveryAtMTU23FindsEveryServiceCharacteristicAndCCCD() async throws {
        let (link, server, handles) = try await connect(mtu: 23)
        XCTAssertEqual(link.mtu, 23)
        let services = try await link.discoverServices()
        XCTAssertEqual(services.map(\.uuid), [BluetoothUUID(uuid16: 0x1800), dfuService, BluetoothUUID(uuid16: 0x180F)])
        XCTAssertEqual(services[1].characteristics, [
            GATTCharacteristic(service: dfuService, uuid: controlPoint, valueHandle: handles.controlPoint,
                               properties: [.write, .notify]),
            GATTCharacteristic(service: dfuService, uuid: packet, valueHandle: handles.packet,
                               properties: [.writeWithoutResponse]),
            GATTCharacteristic(service: dfuService, uuid: BluetoothUUID(uuid16: 0x2A26), valueHandle: handles.revision,
                               properties: [.read]),
        ])
        XCTAssertEqual(services[2].characteristics.map(\.properties), [[.read, .indicate]])

        // The PDUs the client sent, in order: MTU, then services until Attribute Not Found,
        // then characteristics per service, then descriptors for the two that notify/indicate.
        let sent = await server.received.map { ATTPDU(bytes: $0)! }
        XCTAssertEqual(sent.first, .exchangeMTURequest(ATTExchangeMTURequest(clientRxMTU: 23)))
        let groupStarts = sent.compactMap { pdu -> UInt16? in
            if case let .readByGroupTypeRequest(request) = pdu { return request.startingHandle }
            return nil
        }
        // Handles: GAP 1-3, DFU 4-12, Battery 13-16. All three 16-bit services fit one
        // response at MTU 23; the next request starts after the last group's end and gets
        // Attribute Not Found.
        XCTAssertEqual(groupStarts, [0x0001, 0x0011])
        let characteristicRanges = sent.compactMap { pdu -> [UInt16]? in
            if case let .readByTypeRequest(request) = pdu { return [request.startingHandle, request.endingHandle] }
            return nil
        }
        // Each service is searched from after its declaration until Attribute Not Found;
        // a response lists declarations of one length only (the two 128-bit ones, 19 bytes,
        // come one per response at MTU 23).
        XCTAssertEqual(characteristicRanges, [
            [0x0002, 0x0003], [0x0003, 0x0003],
            [0x0005, 0x000C], [0x0006, 0x000C], [0x000A, 0x000C], [0x000C, 0x000C],
            [0x000E, 0x0010], [0x000F, 0x0010],
        ])
        let findInformation = sent.compactMap { pdu -> [UInt16]? in
            if case let .findInformationRequest(request) = pdu { return [request.startingHandle, request.endingHandle] }
            return nil
        }
        // From after the value to before the next declaration, or to the service's end.
        XCTAssertEqual(findInformation, [[0x0007, 0x0008], [0x0010, 0x0010]])
    }

    func testDiscoveryAtMTU247UsesFewerRequests() async throws {
        let (link, server, _) = try await connect(mtu: 247)
        XCTAssertEqual(link.mtu, 247)
        let services = try await link.discoverServices()
        XCTAssertEqual(services.count, 3)
        let groupRequests = await server.received.filter { $0.first == ATTOpcode.readByGroupTypeRequest.rawValue }
        XCTAssertEqual(groupRequests.count, 2, "one answer with all three services, then Attribute Not Found")
    }

    func testMTUIsTheSmallerOfBothSides() async throws {
        let (link, _, _) = try await connect(mtu: 517, serverRxMTU: 185)
        XCTAssertEqual(link.mtu, 185)
    }

    func testLongReadsUseReadBlob() async throws {
        let (link, server, handles) = try await connect(mtu: 23)
        let services = try await link.discoverServices()
        let revision = try characteristic(services, BluetoothUUID(uuid16: 0x2A26))
        let before = await server.received.count
        let observed1 = try await link.read(revision)
        XCTAssertEqual(observed1, longValue)
        let reads = await server.received.dropFirst(before).map { ATTPDU(bytes: $0)! }
        XCTAssertEqual(reads, [
            .readRequest(ATTReadRequest(attributeHandle: handles.revision)),
            .readBlobRequest(ATTReadBlobRequest(attributeHandle: handles.revision, valueOffset: 22)),
            .readBlobRequest(ATTReadBlobRequest(attributeHandle: handles.revision, valueOffset: 44)),
            .readBlobRequest(ATTReadBlobRequest(attributeHandle: handles.revision, valueOffset: 66)),
            .readBlobRequest(ATTReadBlobRequest(attributeHandle: handles.revision, valueOffset: 88)),
        ])

        // Exactly MTU - 1 bytes: the server answers Attribute Not Long to the first blob.
        await server.setValue(Array(repeating: 7, count: 22), at: handles.revision)
        let observed2 = try await link.read(revision)
        XCTAssertEqual(observed2, Array(repeating: 7, count: 22))
        // Exactly two parts: the last blob is empty.
        await server.setValue(Array(repeating: 8, count: 44), at: handles.revision)
        let observed3 = try await link.read(revision)
        XCTAssertEqual(observed3, Array(repeating: 8, count: 44))
        // Short values take one request.
        let name = try characteristic(services, BluetoothUUID(uuid16: 0x2A00))
        let observed4 = try await link.read(name)
        XCTAssertEqual(observed4, Array("DfuTarg".utf8))
    }

    func testWritesWithAndWithoutResponse() async throws {
        let (link, server, handles) = try await connect(mtu: 23)
        let services = try await link.discoverServices()
        let controlPointCharacteristic = try characteristic(services, controlPoint)
        let packetCharacteristic = try characteristic(services, packet)

        try await link.write([0x06, 0x01], to: controlPointCharacteristic, type: .withResponse)
        let controlPointValue = await server.value(at: handles.controlPoint)
        XCTAssertEqual(controlPointValue, [0x06, 0x01])
        let observed5 = await server.received.last
        XCTAssertEqual(observed5, hexBytes("12") + [UInt8(handles.controlPoint), 0x00, 0x06, 0x01])

        let segment = (0..<20).map { UInt8($0) }
        try await link.write(segment, to: packetCharacteristic, type: .withoutResponse)
        await eventually("the Write Command arrived") { await server.value(at: handles.packet) == segment }

        let tooLong = await expectGATTError { () async throws(GATTError) in
            try await link.write(Array(repeating: 0, count: 21), to: packetCharacteristic, type: .withoutResponse)
        }
        XCTAssertEqual(tooLong?.kind, .unsupported)
        XCTAssertEqual(tooLong?.address, "C0:FF:EE:00:00:01")
        XCTAssertTrue(tooLong?.detail.contains("longer than ATT_MTU - 3 = 20") ?? false, "\(String(describing: tooLong))")
        let tooLongRequest = await expectGATTError { () async throws(GATTError) in
            try await link.write(Array(repeating: 0, count: 21), to: controlPointCharacteristic, type: .withResponse)
        }
        XCTAssertEqual(tooLongRequest?.kind, .unsupported)
    }

    func testNotificationsAndIndicationsThroughTheCCCD() async throws {
        let (link, server, handles) = try await connect(mtu: 23)
        let services = try await link.discoverServices()
        let controlPointCharacteristic = try characteristic(services, controlPoint)
        let battery = try characteristic(services, BluetoothUUID(uuid16: 0x2A19))

        try await link.setNotifications(enabled: true, for: controlPointCharacteristic)
        let observed6 = await server.value(at: handles.controlPoint + 2)
        XCTAssertEqual(observed6, [0x01, 0x00], "CCCD after the User Description")
        try await link.setNotifications(enabled: true, for: battery)
        let observed7 = await server.value(at: handles.battery + 1)
        XCTAssertEqual(observed7, [0x02, 0x00], "indications when it cannot notify")

        await server.notify(handles.controlPoint, [0x60, 0x06, 0x01])
        await server.indicate(handles.battery, [42])
        let first = try await link.nextNotification(until: link.now + .seconds(2))
        XCTAssertEqual(first?.valueHandle, handles.controlPoint)
        XCTAssertEqual(first?.value, [0x60, 0x06, 0x01])
        let second = try await link.nextNotification(until: link.now + .seconds(2))
        XCTAssertEqual(second?.valueHandle, handles.battery)
        XCTAssertEqual(second?.value, [42])
        await eventually("the indication was confirmed") { await server.confirmations == 1 }
        let observed8 = await server.received.last
        XCTAssertEqual(observed8, [0x1E])

        // Nothing left: nil once the deadline passes (a short real wait).
        let start = link.now
        let none = try await link.nextNotification(until: link.now + .milliseconds(20))
        XCTAssertNil(none)
        XCTAssertGreaterThanOrEqual(link.now - start, .milliseconds(20))

        try await link.setNotifications(enabled: false, for: controlPointCharacteristic)
        let observed9 = await server.value(at: handles.controlPoint + 2)
        XCTAssertEqual(observed9, [0x00, 0x00])

        let packetCharacteristic = try characteristic(services, packet)
        let noCCCD = await expectGATTError { () async throws(GATTError) in try await link.setNotifications(enabled: true, for: packetCharacteristic) }
        XCTAssertEqual(noCCCD?.kind, .unsupported)
    }

    func testErrorResponsesBecomeATTErrors() async throws {
        let (link, _, _) = try await connect(mtu: 23)
        _ = try await link.discoverServices()
        let missing = GATTCharacteristic(service: dfuService, uuid: controlPoint, valueHandle: 0x0099, properties: [.read])
        let error = await expectGATTError { () async throws(GATTError) in _ = try await link.read(missing) }
        XCTAssertEqual(error?.kind, .attError(code: 0x01, handle: 0x0099))
        XCTAssertEqual(error?.address, "C0:FF:EE:00:00:01")
        XCTAssertEqual(error?.description,
                       "C0:FF:EE:00:00:01: ATT error 0x1 on handle 0x99: Read Request (0x0A) on handle 0x0099 failed: "
                       + "Invalid Handle (0x01)")
        // The bearer is still usable after an Error Response.
        let observed10 = try await link.discoverServices().count
        XCTAssertEqual(observed10, 3)
    }

    func testTimeoutWithAShortRealDeadline() async throws {
        let (link, server, _) = try await connect(mtu: 23, timeout: .milliseconds(40))
        let services = try await link.discoverServices()
        await server.setBehaviour(.silent)
        let name = try characteristic(services, BluetoothUUID(uuid16: 0x2A00))
        let started = link.now
        let error = await expectGATTError { () async throws(GATTError) in _ = try await link.read(name) }
        XCTAssertEqual(error?.kind, .timeout)
        XCTAssertGreaterThanOrEqual(link.now - started, .milliseconds(40))
        XCTAssertTrue(error?.detail.contains("no answer to Read Request (0x0A) within") ?? false)
        // No more PDUs on a bearer whose transaction timed out.
        let after = await expectGATTError { () async throws(GATTError) in _ = try await link.read(name) }
        XCTAssertEqual(after?.kind, .disconnected)
        await eventually("the bearer is closed") { await server.bearer.isClosed() }
    }

    func testDisconnectEndsTheLink() async throws {
        let (link, server, _) = try await connect(mtu: 23)
        let services = try await link.discoverServices()
        await link.disconnect()
        let observed12 = await server.bearer.isClosed()
        XCTAssertTrue(observed12)
        let error = await expectGATTError { () async throws(GATTError) in _ = try await link.read(services[0].characteristics[0]) }
        XCTAssertEqual(error?.kind, .disconnected)
        XCTAssertEqual(error?.address, "C0:FF:EE:00:00:01")
    }

    func testSleepRunsOnTheLinkClock() async throws {
        let clock = ManualATTClock()
        let (link, _, _) = try await connect(mtu: 23, clock: clock)
        XCTAssertEqual(link.now, .zero)
        let advancer = Task {
            await eventually("the sleep is waiting") { clock.sleeperCount == 1 }
            clock.advance(by: .seconds(5))
        }
        try await link.sleep(until: .seconds(5))
        await advancer.value
        XCTAssertEqual(link.now, .seconds(5))
    }
}
