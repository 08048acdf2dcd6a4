@testable import DFUBlueZ
import DFUBytes
import DFUGATT
import DFUHCI
import XCTest

final class BlueZGATTTransportTests: XCTestCase {
    static let adapter = BlueZAdapterInfo(index: 0, name: "hci0", address: DeviceAddress(string: "00:1A:7D:DA:71:13")!,
                                          isUp: true)
    static let device = DeviceAddress(string: "F0:01:02:03:04:05")!
    static let other = DeviceAddress(string: "00:11:22:33:44:55")!
    /// SOCK_RAW | SOCK_CLOEXEC.
    static let raw = Int32(3) | Int32(0o2000000)

    /// A Device Found event (0x0012) as the management socket reads it.
    static func deviceFound(_ address: DeviceAddress, type: UInt8, rssi: Int8, flags: UInt32 = 0, data: [UInt8],
                            index: UInt16 = 0) -> [UInt8] {
        FakeBlueZSyscalls.managementEvent(0x0012, index: index,
                                          MgmtDeviceFound(address: address, addressType: type, rssi: rssi, flags: flags,
                                                          data: data).parameters)
    }

    static let advertisingPackets: [[UInt8]] = [
        // A random address: flags, 16-bit UUID 0xFE59 (Nordic DFU), then (the scan response the
        // kernel appends) the complete name.
        deviceFound(device, type: 2, rssi: -58, data: [0x02, 0x01, 0x06, 0x03, 0x03, 0x59, 0xFE, 0x08, 0x09]
                    + Array("DfuTarg".utf8)),
        // A beacon that cannot be connected to (flags bit 2), on a public address.
        deviceFound(other, type: 1, rssi: -80, flags: 0x04, data: [0x02, 0x01, 0x04]),
        // Ignored: Discovering, a BR/EDR device, another adapter's device, a truncated event.
        FakeBlueZSyscalls.managementEvent(0x0013, [0x06, 0x01]),
        deviceFound(DeviceAddress(value: 7), type: 0, rssi: -40, data: []),
        deviceFound(DeviceAddress(value: 8), type: 1, rssi: -40, data: [], index: 1),
        [0x12, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01],
    ]

    /// Start Discovery and Stop Discovery for LE (public and random) on hci0.
    static let startDiscovery: [UInt8] = [0x23, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06]
    static let stopDiscovery: [UInt8] = [0x24, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06]

    func testScanSyscallsAndParsedAdvertisements() async throws {
        let fake = FakeBlueZSyscalls(adapters: [Self.adapter])
        fake.setAdvertisingPackets(Self.advertisingPackets)
        let transport = try BlueZGATTTransport(adapter: "hci0", syscalls: fake)
        XCTAssertEqual(transport.name, "bluez:hci0")
        let found = try await transport.scan(timeout: .milliseconds(150))
        XCTAssertEqual(found, [Advertisement(address: Self.device, name: "DfuTarg",
                                             serviceUUIDs: [BluetoothUUID(littleEndianBytes: [0x59, 0xFE])!], rssi: -58)])
        XCTAssertEqual(fake.callsWithoutReads, [
            .socket(domain: 31, type: Self.raw, protocol: 1),
            .adapterInfo(10, index: 0),
            .close(10),
            .socket(domain: 31, type: Self.raw, protocol: 1),
            .bind(11, [31, 0, 0xFF, 0xFF, 3, 0]),   // sockaddr_hci: AF_BLUETOOTH, HCI_DEV_NONE, HCI_CHANNEL_CONTROL
            .write(11, Self.startDiscovery),
            .write(11, Self.stopDiscovery),
            .close(11),
        ])
        XCTAssertEqual(transport.addressTypes(for: Self.device), [.leRandom])
        XCTAssertEqual(transport.addressTypes(for: Self.other), [.lePublic])
        // A Nordic bootloader on address + 1: the application's type first.
        XCTAssertEqual(transport.addressTypes(for: Self.device.adding(1)), [.leRandom, .lePublic])
        XCTAssertNil(transport.addressTypes(for: DeviceAddress(string: "12:34:56:78:9A:BC")!))
    }

    func testScanResultsIgnoreOtherPackets() {
        var results = BlueZScanResults()
        for packet in Self.advertisingPackets { results.add(mgmtPacket: packet, index: 0) }
        XCTAssertEqual(results.ignoredPacketCount, 4)
        XCTAssertEqual(results.order, [Self.device, Self.other])
        XCTAssertEqual(results.devices[Self.other]?.isConnectable, false)
        XCTAssertEqual(results.addressType(of: Self.device), .leRandom)
        // A later event without the scan response keeps the name; the RSSI is the latest.
        results.add(mgmtPacket: Self.deviceFound(Self.device, type: 2, rssi: -70, data: [0x02, 0x01, 0x06]), index: 0)
        XCTAssertEqual(results.advertisements.first?.name, "DfuTarg")
        XCTAssertEqual(results.advertisements.first?.rssi, -70)
        // The kernel's data holds the advertisement and its scan response: a UUID in both is listed once.
        results.add(mgmtPacket: Self.deviceFound(Self.device, type: 2, rssi: -70,
                                                 data: [0x03, 0x03, 0x59, 0xFE, 0x03, 0x09, 0x41, 0x42, 0x03, 0x03, 0x59, 0xFE]),
                    index: 0)
        XCTAssertEqual(results.advertisements.first?.serviceUUIDs, [BluetoothUUID(littleEndianBytes: [0x59, 0xFE])!])
        XCTAssertEqual(results.advertisements.first?.name, "AB")
    }

    /// bluetoothd already discovering (Busy): its Device Found events are listened to and its
    /// discovery is left running (no Stop Discovery).
    func testScanListensToDiscoveryAlreadyRunning() async throws {
        let fake = FakeBlueZSyscalls(adapters: [Self.adapter])
        fake.setAdvertisingPackets(Self.advertisingPackets)
        fake.answerStartDiscovery(with: .busy)
        let transport = try BlueZGATTTransport(adapter: "hci0", syscalls: fake)
        let found = try await transport.scan(timeout: .milliseconds(100))
        XCTAssertEqual(found.map(\.address), [Self.device])
        XCTAssertFalse(fake.calls.contains(.write(11, Self.stopDiscovery)))
    }

    /// The kernel ends LE discovery after about 10 s (Discovering 0): a longer scan starts it again.
    func testScanRestartsDiscoveryTheKernelEnded() async throws {
        let fake = FakeBlueZSyscalls(adapters: [Self.adapter])
        fake.setAdvertisingPackets([FakeBlueZSyscalls.managementEvent(0x0013, [0x06, 0x00])])
        let transport = try BlueZGATTTransport(adapter: "hci0", syscalls: fake)
        fake.answerStartDiscovery(with: .success, .invalidParameters)
        do {
            _ = try await transport.scan(timeout: .seconds(1))
            XCTFail("the second Start Discovery was refused")
        } catch {
            XCTAssertTrue(error.description.contains("mgmt Start Discovery: Invalid Parameters (0x0D)"), error.description)
        }
        XCTAssertEqual(fake.calls.filter { $0 == .write(11, Self.startDiscovery) }.count, 2)
    }

    /// A kernel that never answers Start Discovery: the scan says so rather than "nothing heard".
    func testUnansweredStartDiscoveryIsAnError() async throws {
        let fake = FakeBlueZSyscalls(adapters: [Self.adapter])
        fake.silenceManagement()
        let transport = try BlueZGATTTransport(adapter: "hci0", syscalls: fake)
        do {
            _ = try await transport.scan(timeout: .milliseconds(100))
            XCTFail("scanned")
        } catch {
            XCTAssertEqual(error.kind, .timeout)
            XCTAssertTrue(error.detail.hasPrefix("bluez:hci0: mgmt Start Discovery: the kernel did not answer within 0.1 s (ETIMEDOUT)"),
                          error.detail)
        }
    }

    func testDiscoveryStateMachine() {
        var discovery = MgmtDiscovery(index: 0)
        XCTAssertEqual(discovery.start().bytes, Self.startDiscovery)
        XCTAssertFalse(discovery.isListening)
        // Another command's answer and another adapter's are not Start Discovery's.
        XCTAssertEqual(discovery.handle(MgmtEvent(bytes: FakeBlueZSyscalls.commandComplete(0x0024, status: .failed))), .none)
        XCTAssertEqual(discovery.handle(MgmtEvent(bytes: FakeBlueZSyscalls.commandComplete(0x0023, index: 1, status: .failed))), .none)
        XCTAssertFalse(discovery.isListening)
        XCTAssertEqual(discovery.handle(MgmtEvent(bytes: FakeBlueZSyscalls.managementEvent(0x0002, [0x23, 0x00, 0x00]))), .none)
        XCTAssertTrue(discovery.isListening)
        XCTAssertEqual(discovery.handle(MgmtEvent(bytes: FakeBlueZSyscalls.managementEvent(0x0013, [0x06, 0x01]))), .none)
        XCTAssertEqual(discovery.handle(MgmtEvent(bytes: FakeBlueZSyscalls.managementEvent(0x0013, [0x06, 0x00]))),
                       .send(.startDiscovery(index: 0)))
        XCTAssertEqual(discovery.handle(MgmtEvent(bytes: FakeBlueZSyscalls.commandComplete(0x0023, status: .permissionDenied))),
                       .fail(.permissionDenied))
        XCTAssertNil(discovery.finish())
        var started = MgmtDiscovery(index: 2)
        _ = started.start()
        XCTAssertEqual(started.finish()?.bytes, [0x24, 0x00, 0x02, 0x00, 0x01, 0x00, 0x06], "a start not yet answered is stopped")
    }

    /// Golden bytes of the management packets (doc/mgmt-api.txt) and their decoding.
    func testManagementPacketCodec() {
        XCTAssertEqual(MgmtCommand.startDiscovery(index: 0).bytes, Self.startDiscovery)
        XCTAssertEqual(MgmtCommand.stopDiscovery(index: 1, addressTypes: .leRandom).bytes,
                       [0x24, 0x00, 0x01, 0x00, 0x01, 0x00, 0x04])
        XCTAssertEqual(MgmtEvent(bytes: [0x01, 0x00, 0x00, 0x00, 0x04, 0x00, 0x23, 0x00, 0x14, 0x06]),
                       .commandComplete(index: 0, command: 0x23, status: .permissionDenied, returnParameters: [0x06]))
        XCTAssertEqual(MgmtEvent(bytes: [0x02, 0x00, 0x03, 0x00, 0x03, 0x00, 0x23, 0x00, 0x0A]),
                       .commandStatus(index: 3, command: 0x23, status: .busy))
        XCTAssertEqual(MgmtEvent(bytes: [0x13, 0x00, 0x00, 0x00, 0x02, 0x00, 0x06, 0x00]),
                       .discovering(index: 0, addressTypes: .le, active: false))
        // Device Found: F0:01:02:03:04:05 (sent least significant byte first), LE random,
        // RSSI -58, flags 4, two bytes of data.
        let found: [UInt8] = [0x12, 0x00, 0x00, 0x00, 0x10, 0x00, 0x05, 0x04, 0x03, 0x02, 0x01, 0xF0, 0x02, 0xC6,
                              0x04, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x06]
        let expected = MgmtDeviceFound(address: Self.device, addressType: 2, rssi: -58, flags: 4, data: [0x01, 0x06])
        XCTAssertEqual(MgmtEvent(bytes: found), .deviceFound(index: 0, expected))
        XCTAssertEqual(Array(found[6...]), expected.parameters)
        XCTAssertFalse(expected.isConnectable)
        XCTAssertEqual(MgmtEvent(bytes: [0x06, 0x00, 0x00, 0x00, 0x00, 0x00]), .other(code: 6, index: 0))
        // Lengths that disagree, and events shorter than their fixed fields.
        XCTAssertNil(MgmtEvent(bytes: Array(found.dropLast())))
        XCTAssertNil(MgmtEvent(bytes: [0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x23, 0x00]))
        XCTAssertNil(MgmtEvent(bytes: [0x12, 0x00, 0x00]))
        XCTAssertEqual(MgmtStatus(rawValue: 0x42).description, "status (0x42)")
        XCTAssertEqual(MgmtStatus.notPowered.description, "Not Powered (0x0F)")
    }

    func testAdapterErrors() async throws {
        let permission = "not permitted: needs CAP_NET_ADMIN (scanning goes through the kernel's management interface): "
            + "run as root or `sudo setcap cap_net_admin+eip $(which dfukit)`"
        let down = BlueZAdapterInfo(index: 0, name: "hci0", address: Self.adapter.address, isUp: false)
        func refusing(_ status: MgmtStatus) -> FakeBlueZSyscalls {
            let fake = FakeBlueZSyscalls(adapters: [Self.adapter])
            fake.answerStartDiscovery(with: status, status)
            return fake
        }
        let cases: [(FakeBlueZSyscalls, String)] = [
            ({ let fake = FakeBlueZSyscalls(); fake.fail(.socket, with: .addressFamilyNotSupported, .addressFamilyNotSupported); return fake }(),
             "transport unavailable: bluez:hci0: socket: this kernel has no Bluetooth support (no AF_BLUETOOTH)"),
            (FakeBlueZSyscalls(), "transport unavailable: bluez:hci0: HCIGETDEVINFO: no adapter hci0 (ENODEV)"),
            (FakeBlueZSyscalls(adapters: [down]),
             "transport unavailable: bluez:hci0: HCIGETDEVINFO: adapter hci0 is down; run `btmgmt -i hci0 power on` (ENETDOWN)"),
            (refusing(.permissionDenied),
             "transport unavailable: bluez:hci0: mgmt Start Discovery: Permission Denied (0x14): \(permission) (EPERM)"),
            (refusing(.notPowered),
             "transport unavailable: bluez:hci0: mgmt Start Discovery: Not Powered (0x0F): adapter hci0 is down; "
                + "run `btmgmt -i hci0 power on` (ENETDOWN)"),
            (refusing(.rfKilled),
             "transport unavailable: bluez:hci0: mgmt Start Discovery: RFKilled (0x12): adapter hci0 is blocked by rfkill; "
                + "run `rfkill unblock bluetooth` (ERFKILL)"),
        ]
        for (fake, message) in cases {
            let transport = try BlueZGATTTransport(adapter: "hci0", syscalls: fake)
            do {
                _ = try await transport.scan(timeout: .milliseconds(50))
                XCTFail("scanned: \(message)")
            } catch {
                XCTAssertEqual(error.kind, .transportUnavailable)
                XCTAssertTrue(error.description.hasPrefix(message), "\(error.description)\n  vs \(message)")
            }
            // A refused scan does not stop a connect (testConnectWithoutScanPermission); an
            // adapter that is missing or down does.
            if !message.contains("Start Discovery") {
                do {
                    _ = try await transport.connect(to: Self.device, timeout: .milliseconds(50))
                    XCTFail("connected: \(message)")
                } catch {
                    XCTAssertEqual(error.kind, .transportUnavailable)
                    XCTAssertTrue(error.description.hasPrefix(message), "\(error.description)\n  vs \(message)")
                }
            }
            XCTAssertFalse(fake.isOpen(10) || fake.isOpen(11), "the HCI sockets are closed: \(message)")
        }
    }

    func testAdapterNameIsValidated() {
        for bad in ["", "hci", "hciX", "hci-1", "usb0", "hci01"] {
            XCTAssertFalse(BlueZGATTTransport.isValidAdapterName(bad), bad)
            XCTAssertThrowsError(try BlueZGATTTransport(adapter: bad, syscalls: FakeBlueZSyscalls()))
        }
        XCTAssertTrue(BlueZGATTTransport.isValidAdapterName("hci12"))
    }

    /// Exchange MTU Response with a server MTU of 247.
    static let attServer: @Sendable ([UInt8]) -> [UInt8]? = { pdu in
        pdu.first == 0x02 ? [0x03, 0xF7, 0x00] : nil
    }

    func testConnectUsesTheScannedAddressTypeAndExchangesMTU() async throws {
        let fake = FakeBlueZSyscalls(adapters: [Self.adapter])
        fake.setAdvertisingPackets(Self.advertisingPackets)
        fake.setResponder(Self.attServer)
        let transport = try BlueZGATTTransport(adapter: "hci0", security: .medium, syscalls: fake)
        let link = try await transport.connect(to: Self.device, timeout: .seconds(1))
        XCTAssertEqual(link.mtu, 247)
        let connects = fake.calls.compactMap { call -> [UInt8]? in
            if case let .connect(_, address) = call { return address } else { return nil }
        }
        XCTAssertEqual(connects, [[31, 0, 0, 0, 0x05, 0x04, 0x03, 0x02, 0x01, 0xF0, 4, 0, 2, 0]])
        XCTAssertTrue(fake.calls.contains { if case .setSocketOption(_, 274, 4, [2, 0]) = $0 { return true } else { return false } })
        XCTAssertTrue(fake.calls.contains { if case let .write(_, pdu) = $0 { return pdu.first == 0x02 } else { return false } })
        XCTAssertGreaterThan(transport.now, .zero)
        await link.disconnect()
    }

    /// Not heard: the likelier type first (random for an address that looks random static),
    /// the other after a timeout, including the kernel's EINPROGRESS when SO_SNDTIMEO ran out.
    func testUnknownAddressTypeTriesTheLikelierTypeFirst() async throws {
        for (address, errno, expected) in [(Self.device, SystemErrno.inProgress, [UInt8(2), 1]),
                                           (Self.other, .timedOut, [1, 2])] {
            let fake = FakeBlueZSyscalls(adapters: [Self.adapter])
            fake.setResponder(Self.attServer)
            fake.fail(.connect, with: errno)
            let transport = try BlueZGATTTransport(adapter: "hci0", syscalls: fake)
            let link = try await transport.connect(to: address, timeout: .milliseconds(100))
            let types = fake.calls.compactMap { call -> UInt8? in
                if case let .connect(_, address) = call { return address[12] } else { return nil }
            }
            XCTAssertEqual(types, expected, "\(address)")
            await link.disconnect()
        }
        XCTAssertEqual(BlueZGATTTransport.likelyAddressTypes(of: DeviceAddress(string: "C0:00:00:00:00:00")!),
                       [.leRandom, .lePublic])
        XCTAssertEqual(BlueZGATTTransport.likelyAddressTypes(of: DeviceAddress(string: "BF:FF:FF:FF:FF:FF")!),
                       [.lePublic, .leRandom])
    }

    /// After the application rebooted into a Nordic bootloader on address + 1, which is not
    /// (yet) heard: the application's address type is tried first, then the other.
    func testBootloaderOnAddressPlusOneGetsTheApplicationsAddressType() async throws {
        let fake = FakeBlueZSyscalls(adapters: [Self.adapter])
        fake.setAdvertisingPackets(Self.advertisingPackets)
        fake.setResponder(Self.attServer)
        let transport = try BlueZGATTTransport(adapter: "hci0", syscalls: fake)
        _ = try await transport.scan(timeout: .milliseconds(50))
        fake.setAdvertisingPackets([])
        fake.fail(.connect, with: .hostUnreachable)
        let link = try await transport.connect(to: Self.device.adding(1), timeout: .milliseconds(100))
        XCTAssertEqual(link.address, DeviceAddress(string: "F0:01:02:03:04:06"))
        let connects = fake.calls.compactMap { call -> [UInt8]? in
            if case let .connect(_, address) = call { return address } else { return nil }
        }
        XCTAssertEqual(connects, [[31, 0, 0, 0, 0x06, 0x04, 0x03, 0x02, 0x01, 0xF0, 4, 0, 2, 0],
                                  [31, 0, 0, 0, 0x06, 0x04, 0x03, 0x02, 0x01, 0xF0, 4, 0, 1, 0]])
        await link.disconnect()
    }

    /// Scanning needs CAP_NET_ADMIN but an L2CAP connect does not: a refused scan does not stop
    /// a connect.
    func testConnectWithoutScanPermission() async throws {
        let fake = FakeBlueZSyscalls(adapters: [Self.adapter])
        fake.setResponder(Self.attServer)
        fake.answerStartDiscovery(with: .permissionDenied)
        let transport = try BlueZGATTTransport(adapter: "hci0", syscalls: fake)
        let link = try await transport.connect(to: Self.device, timeout: .milliseconds(100))
        XCTAssertEqual(link.mtu, 247)
        await link.disconnect()
    }

    func testConnectFailureNamesTheDevice() async throws {
        let fake = FakeBlueZSyscalls(adapters: [Self.adapter])
        fake.setAdvertisingPackets(Self.advertisingPackets)
        fake.fail(.connect, with: .timedOut)
        let transport = try BlueZGATTTransport(adapter: "hci0", syscalls: fake)
        do {
            _ = try await transport.connect(to: Self.device, timeout: .milliseconds(100))
            XCTFail("connected")
        } catch {
            XCTAssertEqual(error.kind, .connectionFailed)
            XCTAssertEqual(error.address, "F0:01:02:03:04:05")
            XCTAssertTrue(error.detail.hasSuffix("(ETIMEDOUT)"), error.detail)
        }
    }

    /// A blocking L2CAP connect whose SO_SNDTIMEO runs out fails with EINPROGRESS: reported as
    /// the timeout it is, with the time it waited, and the errno named once.
    func testConnectTimeoutIsReportedAsATimeout() async throws {
        let fake = FakeBlueZSyscalls(adapters: [Self.adapter])
        fake.setAdvertisingPackets(Self.advertisingPackets)
        fake.fail(.connect, with: .inProgress)
        let transport = try BlueZGATTTransport(adapter: "hci0", syscalls: fake)
        do {
            _ = try await transport.connect(to: Self.device, timeout: .seconds(3))
            XCTFail("connected")
        } catch {
            XCTAssertEqual(error.kind, .connectionFailed)
            XCTAssertTrue(error.detail.hasPrefix("bluez:hci0: connect (random address, no answer within "), error.detail)
            XCTAssertTrue(error.detail.hasSuffix("): the device did not answer the connection (is it advertising and in "
                                                 + "range?) (ETIMEDOUT)"), error.detail)
        }
    }
}

/// Garbage from the management socket never crashes the decoders, a scan or the pairing agent.
final class MgmtGarbageTests: XCTestCase {
    func testRandomManagementPacketsNeverCrash() {
        var state: UInt64 = 0x4D47_4D54
        func byte() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        var results = BlueZScanResults()
        var discovery = MgmtDiscovery(index: 0)
        _ = discovery.start()
        var agent = MgmtPairingAgent(index: 0, peer: DeviceAddress(value: 5))
        for round in 0..<20_000 {
            var packet = (0..<Int(byte() % 40)).map { _ in byte() }
            if packet.count >= 6, round % 2 == 0 {
                // A plausible header: a known event code, index 0, the true parameter length.
                packet[0] = [0x01, 0x02, 0x0F, 0x11, 0x12, 0x13][Int(byte() % 6)]
                packet[1] = 0; packet[2] = 0; packet[3] = 0
                packet[4] = UInt8(packet.count - 6); packet[5] = 0
            }
            let event = MgmtEvent(bytes: packet)
            results.add(mgmtPacket: packet, index: 0)
            _ = discovery.handle(event)
            _ = agent.handle(event)
        }
        XCTAssertGreaterThan(results.ignoredPacketCount, 0)
    }
}
