import XCTest
import DFUBytes
import DFUGATT
@testable import DFUSimulator

/// The SMP server's framing, OS group, buffers and error formats, with golden frames from
/// PyPI `smp` 4.2.0 where it has them.
final class SMPServerDeviceTests: XCTestCase {
    func testAdvertisesTheSMPServiceWithOneCharacteristic() throws {
        let device = SMPTestSupport.device()
        XCTAssertEqual(device.advertisement.name, "Zephyr SMP")
        XCTAssertEqual(device.advertisement.serviceUUIDs, [BluetoothUUID(string: "8D53DC1D-1DB7-4CD3-868B-8A527460AA84")!])
        let characteristic = try XCTUnwrap(device.services.first?.characteristics.first)
        XCTAssertEqual(characteristic.uuid, BluetoothUUID(string: "DA2E7828-FBCE-4E01-AE9E-261174997C48")!)
        XCTAssertEqual(characteristic.properties, [.writeWithoutResponse, .write, .notify])
    }

    func testHeaderEncodesAndDecodes() throws {
        let header = SMPHeader(operation: .write, version: 1, flags: 0, length: 0x0150, group: 1, sequence: 6, command: 1)
        XCTAssertEqual(header.bytes, hexBytes("0a 00 0150 0001 06 01"))
        XCTAssertEqual(SMPHeader(decoding: hexBytes("0a 00 0150 0001 06 01")), header)
        XCTAssertNil(SMPHeader(decoding: hexBytes("0a 00 0150 0001 06")))
    }

    func testEchoV2() {
        let exchange = SMPExchange(SMPTestSupport.device())
        // PyPI smp: EchoWriteRequest(d="hello", sequence=1) and EchoWriteResponse(r="hello", sequence=1).
        XCTAssertEqual(exchange.exchange(hexBytes("0a00000900000100a161646568656c6c6f")),
                       hexBytes("0b00000900000100a161726568656c6c6f"))
    }

    func testEchoV1AnswersInV1() {
        let exchange = SMPExchange(SMPTestSupport.device())
        // PyPI smp: EchoWriteRequest(d="hi", sequence=2, version=V1).
        XCTAssertEqual(exchange.exchange(hexBytes("0200000600000200a16164626869")),
                       hexBytes("0300000600000200a16172626869"))
    }

    func testParameters() {
        let exchange = SMPExchange(SMPTestSupport.device())
        // PyPI smp: MCUMgrParametersReadRequest / Response(buf_size=2475, buf_count=4), sequence 3.
        XCTAssertEqual(exchange.exchange(hexBytes("0800000100000306a0")),
                       hexBytes("0900001800000306a2686275665f73697a651909ab696275665f636f756e7404"))
        let small = SMPExchange(SMPTestSupport.device { $0.bufferSize = 512; $0.bufferCount = 2 })
        let body = small.request(hexBytes("0800000100000306a0")).body
        XCTAssertEqual(body?["buf_size"], 512)
        XCTAssertEqual(body?["buf_count"], 2)
    }

    func testRequestSpanningSeveralWritesIsReassembled() {
        let device = SMPTestSupport.device()
        let text = String(repeating: "0123456789", count: 60)
        let request = SMPTestSupport.frame(group: 0, sequence: 9, command: 0, body: .textMap(["d": .text(text)]))
        XCTAssertEqual(request.count, 8 + 606)
        // Three writes: nothing comes back until the last byte of the frame is in.
        XCTAssertEqual(device.receiveWrite(handle: 3, value: Array(request[0..<244]), at: .zero), [])
        XCTAssertEqual(device.receiveWrite(handle: 3, value: Array(request[244..<488]), at: .milliseconds(15)), [])
        let outputs = device.receiveWrite(handle: 3, value: Array(request[488...]), at: .milliseconds(30))
        XCTAssertEqual(outputs.count, 3, "a 614-byte answer in 244-byte notifications")
        let frames = SMPExchange.frames(outputs)
        XCTAssertEqual(frames.count, 1)
        let response = frames.first ?? []
        XCTAssertEqual(Array(response.prefix(8)), hexBytes("0b 00 025e 0000 09 00"))
        XCTAssertEqual(try? CBOR.decode(Array(response[8...]))["r"], .text(text))
    }

    func testRequestFedByteByByte() {
        let exchange = SMPExchange(SMPTestSupport.device())
        exchange.writeSize = 1
        XCTAssertEqual(exchange.exchange(hexBytes("0a00000900000100a161646568656c6c6f")),
                       hexBytes("0b00000900000100a161726568656c6c6f"))
    }

    func testTwoRequestsInOneWrite() {
        let device = SMPTestSupport.device()
        let both = hexBytes("0a00000900000100a161646568656c6c6f") + hexBytes("0800000100000306a0")
        let frames = SMPExchange.frames(device.receiveWrite(handle: 3, value: both, at: .zero))
        XCTAssertEqual(frames.map { $0.prefix(8).map { $0 } },
                       [hexBytes("0b00000900000100"), hexBytes("0900001800000306")])
    }

    func testRequestLongerThanBufSizeIsAnsweredMessageTooLarge() {
        let exchange = SMPExchange(SMPTestSupport.device { $0.bufferSize = 256 })
        let request = SMPTestSupport.frame(group: 0, sequence: 4, command: 0,
                                           body: .textMap(["d": .text(String(repeating: "x", count: 300))]))
        XCTAssertEqual(exchange.exchange(request), hexBytes("0b 00 0005 0000 04 00 a1 627263 07"))
        // The next request is understood again.
        XCTAssertEqual(exchange.exchange(hexBytes("0a00000900000100a161646568656c6c6f")),
                       hexBytes("0b00000900000100a161726568656c6c6f"))
    }

    func testMoreThanBufCountRequestsWaitingAreDropped() {
        let device = SMPTestSupport.device()  // buf_count 4, 0.5 ms per request
        var outputs: [PeripheralOutput] = []
        for sequence in 0..<6 {
            let echo = SMPTestSupport.frame(group: 0, sequence: UInt8(sequence), command: 0, body: .textMap(["d": "x"]))
            outputs += device.receiveWrite(handle: 3, value: echo, at: .milliseconds(100))
        }
        let frames = SMPExchange.frames(outputs)
        XCTAssertEqual(frames.map { $0[6] }, [0, 1, 2, 3], "sequence numbers answered")
        XCTAssertEqual(device.droppedRequestCount, 2)
        // One at a time, in order: ready 0.5, 1.0, 1.5, 2.0 ms after arrival.
        XCTAssertEqual(outputs.map(\.readyAt), [500, 1000, 1500, 2000].map { .milliseconds(100) + .microseconds($0) })
        // Once the first is done, a buffer is free again.
        let later = SMPTestSupport.frame(group: 0, sequence: 6, command: 0, body: .textMap(["d": "x"]))
        XCTAssertEqual(SMPExchange.frames(device.receiveWrite(handle: 3, value: later, at: .milliseconds(100) + .microseconds(600))).count, 1)
    }

    func testResetAnswersThenKeepsRunningUntilItsResetDelayEnds() {
        let device = SMPTestSupport.device()
        let outputs = device.receiveWrite(handle: 3, value: SMPTestSupport.resetRequest, at: .zero)
        // PyPI smp: ResetWriteResponse(sequence=4).
        XCTAssertEqual(SMPExchange.frames(outputs), [hexBytes("0b00000100000405a0")])
        XCTAssertEqual(outputs.last?.disconnectAfterSending, false, "the answer does not end the link")
        XCTAssertTrue(device.isResetPending)
        // The handler ran 0.5 ms; the reboot comes 250 ms later (CONFIG_MCUMGR_GRP_OS_RESET_MS).
        XCTAssertEqual(device.nextTimer, .microseconds(500) + .milliseconds(250))
        // Meanwhile the old image answers requests and advertises.
        XCTAssertEqual(SMPExchange.frames(device.receiveWrite(handle: 3, value: hexBytes("0800000100000306a0"),
                                                              at: .milliseconds(100))).count, 1)
        XCTAssertTrue(device.isAdvertising(at: .milliseconds(100)))
        XCTAssertEqual(device.fireTimers(at: .microseconds(250_500)),
                       [.reset(reason: "the device rebooted (its reset came due 0.25 seconds after the request)")])
        XCTAssertEqual(device.rebootCount, 1)
        XCTAssertFalse(device.isAdvertising(at: .microseconds(250_500)), "booting: silent")
        XCTAssertEqual(device.nextTimer, .microseconds(1_250_500), "nothing marked: no swap, 1 s to boot")
        XCTAssertEqual(device.fireTimers(at: .microseconds(1_250_500)), [])
        XCTAssertTrue(device.isAdvertising(at: .microseconds(1_250_500)))
        XCTAssertNil(device.nextTimer)
    }

    func testASecondResetDoesNotPostponeTheFirst() {
        let device = SMPTestSupport.device()
        _ = device.receiveWrite(handle: 3, value: SMPTestSupport.resetRequest, at: .zero)
        _ = device.receiveWrite(handle: 3, value: SMPTestSupport.resetRequest, at: .milliseconds(200))
        XCTAssertEqual(device.nextTimer, .microseconds(250_500), "k_work_schedule leaves scheduled work alone")
    }

    func testTimingSettings() {
        let device = SMPTestSupport.device { $0.resetDelay = .milliseconds(40); $0.bootTime = .milliseconds(300) }
        _ = device.receiveWrite(handle: 3, value: SMPTestSupport.resetRequest, at: .zero)
        XCTAssertEqual(device.nextTimer, .microseconds(40_500))
        _ = device.fireTimers(at: .microseconds(40_500))
        XCTAssertEqual(device.nextTimer, .microseconds(340_500))
    }

    func testBusyFaultAnswersEBUSY() {
        let exchange = SMPExchange(SMPTestSupport.device { $0.busyRequests = [2, 3] })
        let echo = hexBytes("0a00000900000100a161646568656c6c6f")
        XCTAssertEqual(exchange.exchange(echo), hexBytes("0b00000900000100a161726568656c6c6f"))
        XCTAssertEqual(exchange.exchange(echo), hexBytes("0b 00 0005 0000 01 00 a1 627263 0a"), "v2: {rc: 10}")
        XCTAssertEqual(exchange.exchange(hexBytes("0200000600000200a16164626869")),
                       hexBytes("03 00 0005 0000 02 00 a1 627263 0a"), "v1: {rc: 10}")
        XCTAssertEqual(exchange.exchange(echo), hexBytes("0b00000900000100a161726568656c6c6f"))
    }

    func testUnknownCommandsAndMalformedBodies() {
        let exchange = SMPExchange(SMPTestSupport.device())
        // Group 63 does not exist: {rc: 8} (ENOTSUP).
        XCTAssertEqual(exchange.exchange(hexBytes("0a 00 0001 003f 01 00 a0")), hexBytes("0b 00 0005 003f 01 00 a1 627263 08"))
        // Params is read-only.
        XCTAssertEqual(exchange.exchange(hexBytes("0a 00 0001 0000 02 06 a0")), hexBytes("0b 00 0005 0000 02 06 a1 627263 08"))
        // A body that is not CBOR, or not a map: {rc: 3} (EINVAL).
        XCTAssertEqual(exchange.exchange(hexBytes("0a 00 0002 0000 03 00 1c00")), hexBytes("0b 00 0005 0000 03 00 a1 627263 03"))
        XCTAssertEqual(exchange.exchange(hexBytes("0a 00 0001 0000 04 00 80")), hexBytes("0b 00 0005 0000 04 00 a1 627263 03"))
        // Echo without `d`.
        XCTAssertEqual(exchange.exchange(hexBytes("0a 00 0001 0000 05 00 a0")), hexBytes("0b 00 0005 0000 05 00 a1 627263 03"))
        // A response op is not a request: dropped.
        XCTAssertEqual(exchange.send(hexBytes("0b00000900000100a161726568656c6c6f")), [])
    }

    func testVersionTooNewIsRefused() {
        let exchange = SMPExchange(SMPTestSupport.device())
        XCTAssertEqual(exchange.exchange(hexBytes("12 00 0001 0000 07 00 a0")), hexBytes("0b 00 0005 0000 07 00 a1 627263 0d"))
    }

    func testV1OnlyServerAnswersV2RequestsAsV1() {
        let exchange = SMPExchange(SMPTestSupport.device { $0.protocolVersion = 1 })
        XCTAssertEqual(exchange.exchange(hexBytes("0a00000900000100a161646568656c6c6f")),
                       hexBytes("0300000900000100a161726568656c6c6f"))
        // An image group error in the original format: {rc: 3} (EINVAL for a short header).
        let shortFirstChunk = SMPTestSupport.upload(offset: 0, data: Array(0..<16), length: 4096, sequence: 6)
        XCTAssertEqual(exchange.exchange(shortFirstChunk), hexBytes("03 00 0005 0001 06 01 a1 627263 03"))
    }

    func testImageGroupErrorsInV1AndV2() {
        let exchange = SMPExchange(SMPTestSupport.device())
        // PyPI smp: ImageUploadWriteRequest(off=0, data=bytes(range(16)), image=0, len=4096,
        // sha=sha256(b"whole"), sequence=6): 16 bytes cannot hold an MCUboot header.
        let v2 = hexBytes("0a00005000010601a5636c656e191000636f6666006373686158205d5766cf2d78701614200418ee1450690d9af12c"
            + "84d52545e4802f001ad53099646461746150000102030405060708090a0b0c0d0e0f65696d61676500")
        // {err: {group: 1, rc: 22}} (IMG_MGMT_ERR_INVALID_IMAGE_HEADER), group first as Zephyr writes it.
        XCTAssertEqual(exchange.exchange(v2), hexBytes("0b 00 0011 0001 06 01 a1 63657272 a2 6567726f7570 01 627263 16"))
        // The same request as v1: {rc: 3} (EINVAL); PyPI smp's ErrorV1(rc=3) body.
        var v1 = v2
        v1[0] = 0x02
        XCTAssertEqual(exchange.exchange(v1), hexBytes("0300000500010601a162726303"))
    }
}
