import CBluetooth
@testable import DFUBlueZ
import DFUGATT
import Glibc
import XCTest

final class BlueZL2CAPBearerTests: XCTestCase {
    static let adapterAddress = DeviceAddress(string: "00:1A:7D:DA:71:13")!
    static let adapter = BlueZAdapterInfo(index: 0, name: "hci0", address: adapterAddress, isUp: true)
    static let peer = DeviceAddress(string: "C0:FF:EE:00:00:01")!
    /// SOCK_SEQPACKET | SOCK_CLOEXEC.
    static let seqpacket = Int32(5) | Int32(0o2000000)

    func testConnectMakesTheseSyscallsInOrder() throws {
        let fake = FakeBlueZSyscalls(options: [13: [0xF7, 0x00]])
        let bearer = try BlueZL2CAPBearer.open(
            adapter: Self.adapter, peer: Self.peer, peerType: .leRandom,
            options: .init(security: .medium, mtu: 517, connectTimeout: .seconds(20)), syscalls: fake)
        XCTAssertEqual(fake.callsWithoutReads, [
            .socket(domain: 31, type: Self.seqpacket, protocol: 0),
            // An encrypted link: the pairing agent's management socket (HCI_CHANNEL_CONTROL) and
            // its wake-up pipe, before connect(2) (the kernel pairs while connecting).
            .socket(domain: 31, type: Int32(3) | Int32(0o2000000), protocol: 1),
            .bind(11, [31, 0, 0xFF, 0xFF, 3, 0]),
            .pipe,
            // sockaddr_l2: family 31, psm 0, the adapter's address least significant byte first,
            // CID 4, BDADDR_LE_PUBLIC, padding.
            .bind(10, [31, 0, 0, 0, 0x13, 0x71, 0xDA, 0x7D, 0x1A, 0x00, 4, 0, 1, 0]),
            // SOL_SOCKET, SO_SNDTIMEO: struct timeval { 20 s, 0 us } bounds the connect.
            .setSocketOption(10, level: 1, option: 21, [20, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 0]),
            // SOL_BLUETOOTH, BT_SECURITY: struct bt_security { BT_SECURITY_MEDIUM, key size 0 }.
            .setSocketOption(10, level: 274, option: 4, [2, 0]),
            // The peer: BDADDR_LE_RANDOM.
            .connect(10, [31, 0, 0, 0, 0x01, 0x00, 0x00, 0xEE, 0xFF, 0xC0, 4, 0, 2, 0]),
            // BT_SECURITY read back: the link's level (this kernel does not say: not waited for).
            .getSocketOption(10, level: 274, option: 4),
            .getSocketOption(10, level: 274, option: 13),
            .pipe,
        ])
        XCTAssertEqual(bearer.mtu, 247, "capped by BT_RCVMTU")
        let closed = expectation(description: "closed")
        Task {
            await bearer.close()
            closed.fulfill()
        }
        wait(for: [closed], timeout: 2)
        // The socket, the agent's socket and pipe, the reader's pipe: all closed.
        XCTAssertTrue(fake.waitForCalls { calls in (10...15).allSatisfy { calls.contains(.close($0)) } })
        XCTAssertFalse(fake.isOpen(10))
    }

    /// An LE ATT socket may connect before pairing ends: `open` returns once BT_SECURITY reads
    /// back the level asked for; a failed pairing and one never confirmed are errors that say so.
    func testOpenWaitsForTheLinkToReachTheSecurityLevel() throws {
        let fake = FakeBlueZSyscalls(options: [4: [1, 0], 13: [0xF7, 0x00]])
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.15) { fake.setOption(4, [2, 16]) }
        let started = Date()
        let bearer = try BlueZL2CAPBearer.open(adapter: Self.adapter, peer: Self.peer, peerType: .leRandom,
                                               options: .init(security: .medium, connectTimeout: .seconds(5)), syscalls: fake)
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 0.1, "waited for encryption")
        XCTAssertGreaterThan(fake.calls.filter { $0 == .getSocketOption(10, level: 274, option: 4) }.count, 1)
        runClose(bearer)

        let refused = FakeBlueZSyscalls(options: [4: [1, 0]])
        refused.deliver(.success(FakeBlueZSyscalls.managementEvent(0x0011, [0x01, 0x00, 0x00, 0xEE, 0xFF, 0xC0, 2, 0x05])),
                        to: 11)
        XCTAssertThrowsError(try BlueZL2CAPBearer.open(adapter: Self.adapter, peer: Self.peer, peerType: .leRandom,
                                                       options: .init(security: .medium), syscalls: refused)) { error in
            XCTAssertTrue((error as! BlueZError).description.hasPrefix(
                "bluez:hci0: pairing for security medium: pairing failed: Authentication Failed (0x05); "), "\(error)")
        }
        XCTAssertTrue(refused.waitForCalls { calls in (10...13).allSatisfy { calls.contains(.close($0)) } })

        let unanswered = FakeBlueZSyscalls(options: [4: [1, 0]])
        XCTAssertThrowsError(try BlueZL2CAPBearer.open(adapter: Self.adapter, peer: Self.peer, peerType: .leRandom,
                                                       options: .init(security: .high, connectTimeout: .milliseconds(100)),
                                                       syscalls: unanswered)) { error in
            let error = error as! BlueZError
            XCTAssertEqual(error.errno, .timedOut)
            XCTAssertTrue(error.description.contains("the link stayed at security low for 0.1 s: pairing was not confirmed"),
                          error.description)
        }
    }

    /// The agent confirms Just Works pairing for the peer only, refuses a number it cannot
    /// show, and names a failed pairing in the error of the link it broke.
    func testPairingAgentAnswersTheKernel() throws {
        let fake = FakeBlueZSyscalls(options: [13: [0xF7, 0x00]])
        let bearer = try BlueZL2CAPBearer.open(adapter: Self.adapter, peer: Self.peer, peerType: .leRandom,
                                               options: .init(security: .medium), syscalls: fake)
        let peer: [UInt8] = [0x01, 0x00, 0x00, 0xEE, 0xFF, 0xC0]
        func request(_ address: [UInt8], hint: UInt8) -> [UInt8] {
            FakeBlueZSyscalls.managementEvent(0x000F, address + [2, hint, 0x40, 0xE2, 0x01, 0x00])
        }
        fake.deliver(.success(request([9, 9, 9, 9, 9, 9], hint: 1)), to: 11)   // another device: ignored
        fake.deliver(.success(request(peer, hint: 1)), to: 11)                 // Just Works: accepted
        // The kernel's failure before the last request: once the agent has answered that one, it
        // has taken the failure in too (it reads in order), so the link error below finds it.
        fake.deliver(.success(FakeBlueZSyscalls.managementEvent(0x0011, peer + [2, 0x05])), to: 11)
        fake.deliver(.success(request(peer, hint: 0)), to: 11)                 // compare 123456: refused
        let replies: [FakeBlueZSyscalls.Call] = [.write(11, [0x1C, 0, 0, 0, 7, 0] + peer + [2]),
                                                 .write(11, [0x1D, 0, 0, 0, 7, 0] + peer + [2])]
        XCTAssertTrue(fake.waitForCalls { calls in replies.allSatisfy(calls.contains) }, "\(fake.calls)")
        XCTAssertEqual(fake.calls.filter { if case .write(11, _) = $0 { return true } else { return false } }.count, 2)
        fake.deliver(.failure(.connectionReset), to: 10)
        let ended = expectation(description: "link ended")
        Task {
            do throws(GATTError) {
                _ = try await bearer.receive()
                XCTFail("received")
            } catch {
                XCTAssertTrue(error.detail.hasSuffix("(pairing failed: Authentication Failed (0x05))"), error.detail)
            }
            ended.fulfill()
        }
        wait(for: [ended], timeout: 2)
        XCTAssertTrue(fake.waitForCalls { calls in (10...15).allSatisfy { calls.contains(.close($0)) } })
    }

    func testPublicPeerWithoutSecurityAndWithoutKernelMTU() throws {
        let fake = FakeBlueZSyscalls()
        let bearer = try BlueZL2CAPBearer.open(adapter: Self.adapter, peer: Self.peer, peerType: .lePublic,
                                               options: .init(mtu: 247), syscalls: fake)
        let calls = fake.callsWithoutReads
        XCTAssertFalse(calls.contains { if case .setSocketOption(_, 274, 4, _) = $0 { return true } else { return false } })
        XCTAssertTrue(calls.contains(.connect(10, [31, 0, 0, 0, 0x01, 0x00, 0x00, 0xEE, 0xFF, 0xC0, 4, 0, 1, 0])))
        XCTAssertEqual(bearer.mtu, 247)
        XCTAssertEqual(fake.calls.last, .pipe)
        runClose(bearer)
    }

    /// The byte layout agrees with the C struct libbluetooth's users fill in.
    func testSocketAddressMatchesCStruct() {
        XCTAssertEqual(MemoryLayout<sockaddr_l2>.size, L2CAPSocketAddress.size)
        var address = sockaddr_l2()
        address.l2_family = sa_family_t(AF_BLUETOOTH)
        address.l2_psm = 0
        address.l2_bdaddr = bdaddr_t(b: (0x01, 0x00, 0x00, 0xEE, 0xFF, 0xC0))
        address.l2_cid = cbluetooth_htobs(4)
        address.l2_bdaddr_type = UInt8(BDADDR_LE_RANDOM)
        let cBytes = withUnsafeBytes(of: address) { Array($0) }
        XCTAssertEqual(L2CAPSocketAddress(address: Self.peer, addressType: BlueZConstants.addressTypeLERandom).bytes,
                       cBytes)
        XCTAssertEqual(BlueZConstants.addressFamily, Int32(AF_BLUETOOTH))
        XCTAssertEqual(BlueZConstants.protocolL2CAP, Int32(BTPROTO_L2CAP))
        XCTAssertEqual(BlueZConstants.protocolHCI, Int32(BTPROTO_HCI))
        XCTAssertEqual(BlueZConstants.solBluetooth, Int32(SOL_BLUETOOTH))
        XCTAssertEqual(BlueZConstants.btSecurity, Int32(BT_SECURITY))
        XCTAssertEqual(BlueZConstants.btReceiveMTU, Int32(BT_RCVMTU))
        XCTAssertEqual(BlueZConstants.hciChannelControl, UInt16(HCI_CHANNEL_CONTROL))
        XCTAssertEqual(MgmtCommand.noController, UInt16(HCI_DEV_NONE))
        XCTAssertEqual(BlueZConstants.addressTypeLEPublic, UInt8(BDADDR_LE_PUBLIC))
        XCTAssertEqual(BlueZSecurityLevel.medium.rawValue, UInt8(BT_SECURITY_MEDIUM))
        XCTAssertEqual(MemoryLayout<sockaddr_hci>.size, HCISocketAddress(index: 0).bytes.count)
        XCTAssertEqual(cbluetooth_bdaddr_any().b.0, 0)
    }

    /// Each failing call gives its errno's message, and the socket is closed.
    func testErrnoPathsAndMessages() {
        let permission = "not permitted: needs CAP_NET_ADMIN (scanning goes through the kernel's management interface): "
            + "run as root or `sudo setcap cap_net_admin+eip $(which dfukit)`"
        let cases: [(FakeBlueZSyscalls.Operation, SystemErrno, String, GATTError.Kind)] = [
            (.socket, .addressFamilyNotSupported,
             "socket: this kernel has no Bluetooth support (no AF_BLUETOOTH)", .transportUnavailable),
            (.bind, .noDevice, "bind: no adapter hci0", .transportUnavailable),
            (.bind, .operationNotPermitted, "bind: " + permission, .transportUnavailable),
            (.setSocketOption, .permissionDenied, "setsockopt SO_SNDTIMEO: " + permission, .transportUnavailable),
            (.connect, .networkDown, "connect (random address): adapter hci0 is down; run `btmgmt -i hci0 power on`",
             .transportUnavailable),
            (.connect, .hostDown, "connect (random address): adapter hci0 is down; run `btmgmt -i hci0 power on`",
             .transportUnavailable),
            (.connect, .connectionRefused, "connect (random address): the device refused the connection",
             .connectionFailed),
            (.connect, .timedOut, "connect (random address): the device did not answer the connection",
             .connectionFailed),
            (.connect, .hostUnreachable, "connect (random address): the device cannot be reached through hci0",
             .connectionFailed),
        ]
        for (operation, errno, message, kind) in cases {
            let fake = FakeBlueZSyscalls()
            fake.fail(operation, with: errno)
            do {
                _ = try BlueZL2CAPBearer.open(adapter: Self.adapter, peer: Self.peer, peerType: .leRandom, syscalls: fake)
                XCTFail("\(operation) \(errno.name) did not fail")
            } catch {
                XCTAssertEqual(error.errno, errno)
                XCTAssertTrue(error.description.hasPrefix("bluez:hci0: " + message), error.description)
                XCTAssertTrue(error.description.hasSuffix("(\(errno.name))"), error.description)
                XCTAssertEqual(error.gattError.kind, kind, "\(errno.name)")
                XCTAssertTrue(error.gattError.description.contains(message), error.gattError.description)
                if kind == .connectionFailed {
                    XCTAssertEqual(error.gattError.address, "C0:FF:EE:00:00:01")
                }
                if operation != .socket {
                    XCTAssertEqual(fake.calls.last, .close(10), "\(operation) \(errno.name): socket closed")
                } else {
                    XCTAssertFalse(fake.calls.contains(.close(10)))
                }
            }
        }
    }

    func testSecurityLevelRefusedNamesTheLevel() {
        let fake = FakeBlueZSyscalls()
        fake.fail(.setSocketOption, with: .interrupted) // not retried: SO_SNDTIMEO
        fake.fail(.setSocketOption, with: .protocolNotAvailable)
        XCTAssertThrowsError(try BlueZL2CAPBearer.open(adapter: Self.adapter, peer: Self.peer, peerType: .lePublic,
                                                       syscalls: fake)) { error in
            XCTAssertEqual((error as? BlueZError)?.operation, "setsockopt SO_SNDTIMEO")
        }
        let second = FakeBlueZSyscalls()
        second.fail(.connect, with: .connectionRefused)
        _ = try? BlueZL2CAPBearer.open(adapter: Self.adapter, peer: Self.peer, peerType: .lePublic,
                                       options: .init(security: .high), syscalls: second)
        XCTAssertTrue(second.calls.contains(.setSocketOption(10, level: 274, option: 4, [3, 0])))
    }

    func testInterruptedCallsAreRetried() async throws {
        let fake = FakeBlueZSyscalls()
        fake.fail(.connect, with: .interrupted, .interrupted)
        let bearer = try BlueZL2CAPBearer.open(adapter: Self.adapter, peer: Self.peer, peerType: .lePublic, syscalls: fake)
        XCTAssertEqual(fake.calls.filter { if case .connect = $0 { return true } else { return false } }.count, 3)

        fake.fail(.write, with: .interrupted)
        try await bearer.send([0x02, 0x05, 0x02])
        XCTAssertEqual(fake.calls.filter { $0 == .write(10, [0x02, 0x05, 0x02]) }.count, 2)

        fake.fail(.read, with: .interrupted)
        fake.fail(.poll, with: .interrupted)
        fake.deliver(.success([0x03, 0xF7, 0x00]), to: 10)
        let pdu = try await bearer.receive()
        XCTAssertEqual(pdu, [0x03, 0xF7, 0x00])
        await bearer.close()
    }

    func testPeerClosingDisconnects() async throws {
        let fake = FakeBlueZSyscalls()
        let bearer = try BlueZL2CAPBearer.open(adapter: Self.adapter, peer: Self.peer, peerType: .lePublic, syscalls: fake)
        fake.deliver(.success([0x1B, 0x10, 0x00, 0xAA]), to: 10)
        fake.deliver(.success([]), to: 10)
        let first = try await bearer.receive()
        XCTAssertEqual(first, [0x1B, 0x10, 0x00, 0xAA], "PDUs before the end are delivered")
        do {
            _ = try await bearer.receive()
            XCTFail("no end")
        } catch {
            XCTAssertEqual(error.kind, .disconnected)
            XCTAssertEqual(error.address, "C0:FF:EE:00:00:01")
            XCTAssertTrue(error.detail.contains("the device closed the link"), error.detail)
        }
        XCTAssertTrue(fake.waitForCalls { $0.contains(.close(10)) })
        do {
            try await bearer.send([0x52, 0x10, 0x00])
            XCTFail("sent on a closed link")
        } catch {
            XCTAssertEqual(error.kind, .disconnected)
        }
        await bearer.close()
    }

    func testReadErrorDisconnectsWithErrno() async throws {
        let fake = FakeBlueZSyscalls()
        let bearer = try BlueZL2CAPBearer.open(adapter: Self.adapter, peer: Self.peer, peerType: .lePublic, syscalls: fake)
        fake.deliver(.failure(.connectionReset), to: 10)
        do {
            _ = try await bearer.receive()
            XCTFail("no end")
        } catch {
            XCTAssertEqual(error.kind, .disconnected)
            XCTAssertTrue(error.detail.contains("read: "), error.detail)
            XCTAssertTrue(error.detail.hasSuffix("(ECONNRESET)"), error.detail)
        }
        // The supervision timeout ends an established link with ETIMEDOUT: lost, not refused.
        let timedOut = BlueZError("read", errno: .timedOut, adapter: "hci0", address: Self.peer).gattError
        XCTAssertEqual(timedOut.kind, .disconnected)
    }

    /// A device that answers and reboots at once: the kernel reports the link's error
    /// (ETIMEDOUT) before the answer still queued, which a second read returns. The answer
    /// must reach the client before the disconnection (seen in the qemu kernel tests).
    func testAnAnswerQueuedBehindTheLinkErrorIsDelivered() async throws {
        let fake = FakeBlueZSyscalls()
        let bearer = try BlueZL2CAPBearer.open(adapter: Self.adapter, peer: Self.peer, peerType: .lePublic, syscalls: fake)
        // In one call: delivered one by one, the reader could read the error (and find nothing
        // behind it yet) before the answer was queued.
        fake.deliver(.failure(.timedOut), .success([0x1B, 0x10, 0x00, 0x84, 0x00]), to: 10)
        let answer = try await bearer.receive()
        XCTAssertEqual(answer, [0x1B, 0x10, 0x00, 0x84, 0x00])
        do {
            _ = try await bearer.receive()
            XCTFail("no end")
        } catch {
            XCTAssertEqual(error.kind, .disconnected)
            XCTAssertTrue(error.detail.hasSuffix("(ETIMEDOUT)"), error.detail)
        }
    }

    func testWriteErrorIsDisconnected() async throws {
        let fake = FakeBlueZSyscalls()
        let bearer = try BlueZL2CAPBearer.open(adapter: Self.adapter, peer: Self.peer, peerType: .lePublic, syscalls: fake)
        fake.fail(.write, with: .notConnected)
        do {
            try await bearer.send([0x12, 0x10, 0x00, 0x01])
            XCTFail("sent")
        } catch {
            XCTAssertEqual(error.kind, .disconnected)
            XCTAssertTrue(error.detail.hasSuffix("(ENOTCONN)"), error.detail)
        }
        await bearer.close()
    }

    func testCloseEndsAPendingReceive() async throws {
        let fake = FakeBlueZSyscalls()
        let bearer = try BlueZL2CAPBearer.open(adapter: Self.adapter, peer: Self.peer, peerType: .lePublic, syscalls: fake)
        let pending = Task { () -> GATTError? in
            do throws(GATTError) {
                _ = try await bearer.receive()
                return nil
            } catch {
                return error
            }
        }
        try await Task.sleep(for: .milliseconds(20))
        await bearer.close()
        await bearer.close()
        let error = await pending.value
        XCTAssertEqual(error?.kind, .disconnected)
        XCTAssertTrue(fake.waitForCalls { $0.contains(.close(10)) })
        XCTAssertEqual(fake.calls.filter { $0 == .write(12, [1]) }.count, 1, "one wake-up")
    }

    private func runClose(_ bearer: BlueZL2CAPBearer) {
        let closed = expectation(description: "closed")
        Task {
            await bearer.close()
            closed.fulfill()
        }
        wait(for: [closed], timeout: 2)
    }
}
