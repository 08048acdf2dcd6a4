import XCTest
import DFUBytes
import DFUPackage
@testable import DFUSimulator

/// The SMP image group over simulated MCUboot slots: uploads (resume, offsets, errors, flash
/// time) and the test / reset / confirm / revert cycle.
final class SMPImageManagementTests: XCTestCase {
    private let image = SMPTestSupport.image(payloadSize: 10_000)

    // MARK: Upload

    func testUploadFirstMiddleAndLastChunk() throws {
        let exchange = SMPExchange(SMPTestSupport.device())
        let bytes = image.bytes
        let sha = SHA256.digest(bytes)
        XCTAssertEqual(bytes.count, 10_072)
        let first = SMPTestSupport.upload(offset: 0, data: Array(bytes[0..<2000]), length: bytes.count, sha: sha, sequence: 1)
        XCTAssertEqual(exchange.exchange(first), hexBytes("0b 00 000c 0001 01 01 a2 627263 00 636f6666 1907d0"))
        XCTAssertEqual(exchange.device.server.uploadedByteCount, 2000)
        for (index, offset) in stride(from: 2000, to: 10_000, by: 2000).enumerated() {
            let middle = SMPTestSupport.upload(offset: offset, data: Array(bytes[offset..<(offset + 2000)]),
                                               sequence: UInt8(2 + index))
            let next = offset + 2000
            XCTAssertEqual(exchange.exchange(middle), hexBytes("0b 00 000c 0001") + [UInt8(2 + index), 0x01]
                + hexBytes("a2 627263 00 636f6666 19") + [UInt8(next >> 8), UInt8(next & 0xFF)])
        }
        let last = SMPTestSupport.upload(offset: 10_000, data: Array(bytes[10_000...]), sequence: 6)
        XCTAssertEqual(exchange.exchange(last),
                       hexBytes("0b 00 0013 0001 06 01 a3 627263 00 636f6666 192758 656d61746368 f5"))
        let secondary = try XCTUnwrap(exchange.device.slots.secondary)
        XCTAssertTrue(secondary.bytes == bytes, "slot 1 holds the uploaded file")
        XCTAssertEqual(secondary.hash, image.hash)
        XCTAssertEqual(exchange.device.server.uploadedByteCount, 0, "a finished upload is forgotten")
    }

    func testLastChunkReportsAMismatchedSha() {
        let exchange = SMPExchange(SMPTestSupport.device())
        let body = exchange.uploadImage(image.bytes, sha: [UInt8](repeating: 0xAB, count: 32))
        XCTAssertEqual(body?["match"], false)
    }

    func testResumeBySha() {
        let device = SMPTestSupport.device()
        let exchange = SMPExchange(device)
        let bytes = image.bytes
        let sha = SHA256.digest(bytes)
        exchange.uploadStart(of: bytes, count: 6000)
        // The link drops: the upload (img_mgmt's RAM state) survives.
        device.connectionEnded(at: .seconds(1))
        device.connectionStarted(mtu: 247, at: .seconds(4))
        // The first chunk again with the same sha: the device answers where it is.
        let again = SMPTestSupport.upload(offset: 0, data: Array(bytes[0..<2000]), length: bytes.count, sha: sha, sequence: 7)
        XCTAssertEqual(exchange.exchange(again, at: .seconds(4)),
                       hexBytes("0b 00 000c 0001 07 01 a2 627263 00 636f6666 191770"))
        XCTAssertEqual(device.server.uploadedByteCount, 6000)
        exchange.send(SMPTestSupport.upload(offset: 6000, data: Array(bytes[6000..<8000])), at: .seconds(4))
        let rest = SMPTestSupport.upload(offset: 8000, data: Array(bytes[8000...]))
        XCTAssertEqual(exchange.request(rest).body?["match"], true)
    }

    func testAResetForgetsAnUnfinishedUpload() {
        // g_img_mgmt_state is RAM: after a reboot the same first chunk starts a new upload.
        let device = SMPTestSupport.device()
        let exchange = SMPExchange(device)
        let bytes = image.bytes
        let sha = SHA256.digest(bytes)
        exchange.uploadStart(of: bytes, count: 4000)
        exchange.resetAndBoot()
        XCTAssertEqual(device.rebootCount, 1)
        XCTAssertEqual(device.server.uploadedByteCount, 0)
        let continuation = exchange.request(SMPTestSupport.upload(offset: 4000, data: Array(bytes[4000..<6000])))
        XCTAssertEqual(continuation.body?["off"], 0, "an offset the device does not expect: it asks for 0")
        let again = exchange.request(SMPTestSupport.upload(offset: 0, data: Array(bytes[0..<2000]), length: bytes.count, sha: sha))
        XCTAssertEqual(again.body?["off"], 2000, "the first chunk is written again, not resumed")
        XCTAssertEqual(device.server.uploadedByteCount, 2000)
    }

    func testAPowerGlitchForgetsTheUploadToo() {
        let device = SMPTestSupport.device()
        let exchange = SMPExchange(device)
        let bytes = image.bytes
        exchange.send(SMPTestSupport.upload(offset: 0, data: Array(bytes[0..<2000]), length: bytes.count, sha: SHA256.digest(bytes)))
        device.powerCycle(at: .seconds(1))
        XCTAssertFalse(device.isAdvertising(at: .seconds(1)))
        XCTAssertEqual(device.nextTimer, .seconds(2), "nothing to swap: the 1 s boot")
        exchange.runTimers()
        XCTAssertTrue(device.isAdvertising(at: .seconds(2)))
        XCTAssertEqual(device.server.uploadedByteCount, 0)
        XCTAssertEqual(device.rebootCount, 1)
    }

    func testAnotherShaStartsOver() {
        let exchange = SMPExchange(SMPTestSupport.device())
        let bytes = image.bytes
        exchange.send(SMPTestSupport.upload(offset: 0, data: Array(bytes[0..<2000]), length: bytes.count, sha: SHA256.digest(bytes)))
        let other = SMPTestSupport.image(payloadSize: 5000, seed: 99).bytes
        let body = exchange.request(SMPTestSupport.upload(offset: 0, data: Array(other[0..<1000]), length: other.count,
                                                          sha: SHA256.digest(other))).body
        XCTAssertEqual(body?["off"], 1000)
    }

    func testUnexpectedOffsetIsAnsweredWithTheDeviceOffset() {
        let exchange = SMPExchange(SMPTestSupport.device())
        // No upload at all: continue from 0.
        XCTAssertEqual(exchange.exchange(SMPTestSupport.upload(offset: 512, data: [1, 2, 3], sequence: 1)),
                       hexBytes("0b 00 000a 0001 01 01 a2 627263 00 636f6666 00"))
        let bytes = image.bytes
        exchange.send(SMPTestSupport.upload(offset: 0, data: Array(bytes[0..<1000]), length: bytes.count, sha: SHA256.digest(bytes)))
        // A chunk from the future and one sent twice: both dropped, the device says 1000.
        for offset in [3000, 0 + 500] {
            let chunk = SMPTestSupport.upload(offset: offset, data: Array(bytes[offset..<(offset + 500)]), sequence: 2)
            XCTAssertEqual(exchange.exchange(chunk), hexBytes("0b 00 000c 0001 02 01 a2 627263 00 636f6666 1903e8"))
        }
        XCTAssertEqual(exchange.device.server.uploadedByteCount, 1000)
    }

    func testUploadErrors() {
        let exchange = SMPExchange(SMPTestSupport.device { $0.slotSize = 8192 })
        let bytes = image.bytes
        func first(_ data: [UInt8], length: Int?, version: UInt8) -> [UInt8] {
            SMPTestSupport.upload(offset: 0, data: data, length: length, sha: SHA256.digest(bytes), sequence: 1, version: version)
        }
        // Too large for the slot: {err: {group: 1, rc: 30}}; v1 {rc: 1} (Zephyr translates
        // IMG_MGMT_ERR_INVALID_IMAGE_TOO_LARGE to EUNKNOWN).
        XCTAssertEqual(exchange.exchange(first(Array(bytes[0..<512]), length: bytes.count, version: 1)),
                       hexBytes("0b 00 0012 0001 01 01 a1 63657272 a2 6567726f7570 01 627263 181e"))
        XCTAssertEqual(exchange.exchange(first(Array(bytes[0..<512]), length: bytes.count, version: 0)),
                       hexBytes("03 00 0005 0001 01 01 a1 627263 01"))
        // No `len` on the first chunk: rc 21, v1 EINVAL.
        XCTAssertEqual(exchange.request(first(Array(bytes[0..<512]), length: nil, version: 1)).body?["err"]?["rc"], 21)
        XCTAssertEqual(exchange.request(first(Array(bytes[0..<512]), length: nil, version: 0)).body?["rc"], 3)
        // Not an MCUboot image: rc 23 (bad header magic).
        XCTAssertEqual(exchange.request(first([UInt8](repeating: 0, count: 512), length: 4096, version: 1)).body?["err"]?["rc"], 23)
        // No `off`: rc 20.
        let noOffset = SMPTestSupport.frame(group: 1, command: 1, body: .textMap(["data": .bytes([1])]))
        XCTAssertEqual(exchange.request(noOffset).body?["err"]?["rc"], 20)
        // More data than announced: rc 31.
        XCTAssertEqual(exchange.request(first(Array(bytes[0..<512]), length: 100, version: 1)).body?["err"]?["rc"], 31)
    }

    func testUpgradeOnlyRefusesAnOlderImage() {
        let exchange = SMPExchange(SMPTestSupport.device())
        let old = SMPTestSupport.image(payloadSize: 2000, version: MCUbootImageVersion(major: 0, minor: 9, revision: 0, build: 0)).bytes
        let request = SMPTestSupport.frame(group: 1, command: 1, body: .textMap([
            "len": CBORValue(integer: old.count), "off": 0, "data": .bytes(Array(old[0..<1000])), "upgrade": true,
        ]))
        XCTAssertEqual(exchange.request(request).body?["err"]?["rc"], 27)
    }

    // MARK: Flash time

    func testProgressiveEraseCostsOnePagePerNewPage() {
        let device = SMPTestSupport.device()
        let exchange = SMPExchange(device)
        let bytes = image.bytes
        let first = exchange.send(SMPTestSupport.upload(offset: 0, data: Array(bytes[0..<2000]), length: bytes.count,
                                                        sha: SHA256.digest(bytes)))
        // 0.5 ms + one 85 ms page erase + 2000 x 10.75 us.
        XCTAssertEqual(first.last?.readyAt, .microseconds(500) + .milliseconds(85) + .nanoseconds(10_750 * 2000))
        let second = exchange.send(SMPTestSupport.upload(offset: 2000, data: Array(bytes[2000..<4000])), at: .seconds(1))
        XCTAssertEqual(second.last?.readyAt, .seconds(1) + .microseconds(500) + .nanoseconds(10_750 * 2000))
        let third = exchange.send(SMPTestSupport.upload(offset: 4000, data: Array(bytes[4000..<6000])), at: .seconds(2))
        XCTAssertEqual(third.last?.readyAt, .seconds(2) + .microseconds(500) + .milliseconds(85) + .nanoseconds(10_750 * 2000))
    }

    func testSlotEraseTakesTheWholeImageOnTheFirstChunk() {
        let exchange = SMPExchange(SMPTestSupport.device { $0.eraseMode = .slot })
        let bytes = image.bytes  // 10072 bytes: 3 pages
        let first = exchange.send(SMPTestSupport.upload(offset: 0, data: Array(bytes[0..<2000]), length: bytes.count,
                                                        sha: SHA256.digest(bytes)))
        XCTAssertEqual(first.last?.readyAt, .microseconds(500) + .milliseconds(85 * 3) + .nanoseconds(10_750 * 2000))
        let second = exchange.send(SMPTestSupport.upload(offset: 2000, data: Array(bytes[2000..<4000])), at: .seconds(1))
        XCTAssertEqual(second.last?.readyAt, .seconds(1) + .microseconds(500) + .nanoseconds(10_750 * 2000))
    }

    func testNoEraseWhenTheSlotIsBlank() {
        let exchange = SMPExchange(SMPTestSupport.device { $0.eraseMode = .none })
        let bytes = image.bytes
        let first = exchange.send(SMPTestSupport.upload(offset: 0, data: Array(bytes[0..<2000]), length: bytes.count,
                                                        sha: SHA256.digest(bytes)))
        XCTAssertEqual(first.last?.readyAt, .microseconds(500) + .nanoseconds(10_750 * 2000))
    }

    // MARK: Image state

    private func entry(_ list: [CBORValue], slot: Int) -> CBORValue? {
        list.first { $0["slot"]?.integerValue == slot }
    }

    private func flags(_ entry: CBORValue?) -> [String] {
        ["pending", "confirmed", "active", "permanent"].filter { entry?[$0]?.booleanValue == true }
    }

    func testFactoryImageList() throws {
        let exchange = SMPExchange(SMPTestSupport.device())
        let response = exchange.request(SMPTestSupport.imageStateRead)
        XCTAssertEqual(response.header?.bytes.prefix(2).map { $0 }, [0x09, 0x00])
        XCTAssertEqual(response.header?.sequence, 5)
        XCTAssertEqual(response.body?["splitStatus"], 0)
        let list = try XCTUnwrap(response.body?["images"]?.arrayValue)
        XCTAssertEqual(list.count, 1)
        let factory = SMPServerDevice.factoryImage
        XCTAssertEqual(list.first, .textMap([
            "slot": 0, "version": "1.0.0", "hash": .bytes(factory.hash), "bootable": true,
            "pending": false, "confirmed": true, "active": true, "permanent": false,
        ]))
        XCTAssertEqual(factory.hash, SHA256.digest(Array(factory.bytes[0..<(32 + 49_152)])))
    }

    func testTestResetConfirm() throws {
        let device = SMPTestSupport.device()
        let exchange = SMPExchange(device)
        exchange.uploadImage(image.bytes)
        var list = exchange.imageList()
        XCTAssertEqual(entry(list, slot: 1)?["version"], "1.2.3.4")
        XCTAssertEqual(entry(list, slot: 1)?["hash"], .bytes(image.hash))
        XCTAssertEqual(flags(entry(list, slot: 1)), [])

        // Test: slot 1 pending; the answer is the image list.
        let answer = exchange.request(SMPTestSupport.testState(hash: image.hash, confirm: false)).body
        XCTAssertEqual(flags(entry(answer?["images"]?.arrayValue ?? [], slot: 1)), ["pending"])
        XCTAssertEqual(flags(entry(answer?["images"]?.arrayValue ?? [], slot: 0)), ["confirmed", "active"])

        // Reset: MCUboot swaps, the new image runs unconfirmed, the old one is the fallback.
        exchange.resetAndBoot()
        list = exchange.imageList()
        XCTAssertEqual(entry(list, slot: 0)?["hash"], .bytes(image.hash))
        XCTAssertEqual(flags(entry(list, slot: 0)), ["active"])
        XCTAssertEqual(entry(list, slot: 1)?["version"], "1.0.0")
        XCTAssertEqual(flags(entry(list, slot: 1)), ["confirmed"])
        // The fallback is in use: no upload into slot 1 now.
        let refused = exchange.request(SMPTestSupport.upload(offset: 0, data: Array(image.bytes[0..<512]),
                                                             length: image.bytes.count, sha: [1]))
        XCTAssertEqual(refused.body?["err"]?["rc"], 9)

        // Confirm the running image (PyPI smp: ImageStatesWriteRequest(confirm=True), seq 10).
        let confirmed = exchange.request(hexBytes("0a00000a00010a00a167636f6e6669726df5")).body
        XCTAssertEqual(flags(entry(confirmed?["images"]?.arrayValue ?? [], slot: 0)), ["confirmed", "active"])
        XCTAssertEqual(flags(entry(confirmed?["images"]?.arrayValue ?? [], slot: 1)), [])

        // Another reset keeps it.
        exchange.resetAndBoot()
        XCTAssertEqual(device.lastBoot, .none)
        XCTAssertEqual(device.slots.primary.hash, image.hash)
        XCTAssertEqual(device.rebootCount, 2)
    }

    func testResetWithoutConfirmReverts() {
        let device = SMPTestSupport.device()
        let exchange = SMPExchange(device)
        exchange.uploadImage(image.bytes)
        exchange.send(SMPTestSupport.testState(hash: image.hash, confirm: false))
        for _ in 0..<2 { exchange.resetAndBoot() }
        XCTAssertEqual(device.lastBoot, .swapped(bytes: SMPServerDevice.factoryImage.bytes.count), "reverted")
        let list = exchange.imageList()
        XCTAssertEqual(entry(list, slot: 0)?["version"], "1.0.0")
        XCTAssertEqual(flags(entry(list, slot: 0)), ["confirmed", "active"])
        XCTAssertEqual(entry(list, slot: 1)?["hash"], .bytes(image.hash))
        XCTAssertEqual(flags(entry(list, slot: 1)), [])
    }

    func testConfirmWithHashMakesTheSwapPermanent() {
        let device = SMPTestSupport.device()
        let exchange = SMPExchange(device)
        exchange.uploadImage(image.bytes)
        let answer = exchange.request(SMPTestSupport.testState(hash: image.hash, confirm: true)).body
        XCTAssertEqual(flags(entry(answer?["images"]?.arrayValue ?? [], slot: 1)), ["pending", "permanent"])
        exchange.resetAndBoot()
        XCTAssertEqual(flags(entry(exchange.imageList(), slot: 0)), ["confirmed", "active"])
        XCTAssertEqual(device.slots.primary.hash, image.hash)
    }

    func testImageStateWriteErrors() {
        let exchange = SMPExchange(SMPTestSupport.device())
        // An unknown hash: rc 8 (v2), EUNKNOWN (v1).
        XCTAssertEqual(exchange.request(SMPTestSupport.testState(hash: [UInt8](repeating: 7, count: 32), confirm: false))
            .body?["err"]?["rc"], 8)
        // Testing the running image: rc 33.
        XCTAssertEqual(exchange.request(SMPTestSupport.testState(hash: SMPServerDevice.factoryImage.hash, confirm: false))
            .body?["err"]?["rc"], 33)
        // PyPI smp: ImageStatesWriteRequest(hash=bytes(range(32)), confirm=False), seq 9, as v1.
        var v1 = hexBytes("0a00003100010900a264686173685820000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f67636f6e6669726df4")
        v1[0] = 0x02
        XCTAssertEqual(exchange.exchange(v1), hexBytes("03 00 0005 0001 09 00 a1 627263 01"))
    }

    func testWhileATestSwapIsPendingOnlyThatTestMayBeAskedAgain() {
        // img_mgmt_set_next_boot_slot: 28 (IMAGE_ALREADY_PENDING) for any other change.
        let device = SMPTestSupport.device()
        let exchange = SMPExchange(device)
        exchange.uploadImage(image.bytes)
        exchange.send(SMPTestSupport.testState(hash: image.hash, confirm: false))
        let again = exchange.request(SMPTestSupport.testState(hash: image.hash, confirm: false)).body
        XCTAssertNotNil(again?["images"], "the same test again: the list, rc 0")
        let confirmRunning = exchange.request(hexBytes("0a00000a00010a00a167636f6e6669726df5")).body
        XCTAssertEqual(confirmRunning?["err"]?["rc"], 28, "{confirm: true} while a test is pending")
        XCTAssertEqual(exchange.request(SMPTestSupport.testState(hash: image.hash, confirm: true)).body?["err"]?["rc"], 28)
        XCTAssertEqual(exchange.request(SMPTestSupport.testState(hash: SMPServerDevice.factoryImage.hash, confirm: false))
            .body?["err"]?["rc"], 33, "testing the running image is refused first")
        var v1 = hexBytes("0a00000a00010a00a167636f6e6669726df5")
        v1[0] = 0x02
        XCTAssertEqual(exchange.request(v1).body?["rc"], 6, "v1: EBADSTATE")
        XCTAssertEqual(device.slots.swapType, .test)
    }

    func testAnImageWithABadHashIsNotBooted() {
        let device = SMPTestSupport.device()
        let exchange = SMPExchange(device)
        var bytes = image.bytes
        bytes[100] ^= 0xFF  // payload changed after signing: the SHA256 TLV no longer matches
        exchange.uploadImage(bytes)
        exchange.send(SMPTestSupport.testState(hash: image.hash, confirm: false))
        exchange.resetAndBoot()
        XCTAssertEqual(device.slots.primary.hash, SMPServerDevice.factoryImage.hash)
        XCTAssertNil(device.slots.secondary)
        XCTAssertEqual(device.lastBoot, .erasedInvalidImage(bytes: bytes.count))
    }

    func testEraseClearsSlotOne() {
        let device = SMPTestSupport.device()
        let exchange = SMPExchange(device)
        exchange.uploadImage(image.bytes)
        XCTAssertEqual(exchange.imageList().count, 2)
        // PyPI smp: ImageEraseRequest(sequence=11).
        let outputs = exchange.send(hexBytes("0a00000100010b05a0"), at: .seconds(10))
        XCTAssertEqual(SMPExchange.frames(outputs), [hexBytes("0b 00 0005 0001 0b 05 a1 627263 00")])
        // The whole 1 MiB slot: 256 pages of 85 ms.
        XCTAssertEqual(outputs.last?.readyAt, .seconds(10) + .microseconds(500) + .milliseconds(85 * 256))
        XCTAssertEqual(exchange.imageList().count, 1)
        // A marked slot 1 cannot be erased.
        exchange.uploadImage(image.bytes)
        exchange.send(SMPTestSupport.testState(hash: image.hash, confirm: false))
        XCTAssertEqual(exchange.request(hexBytes("0a00000100010b05a0")).body?["err"]?["rc"], 9)
    }
}
