import DFUBytes
import DFUEngine
import DFUProfile
import XCTest

/// The engine flashes through a framing that inserts its length after the opcode and ends
/// every frame with a CRC-16 trailer, against a device that reads frames its own way.
final class FramedTrailerFlashTests: XCTestCase {
    private static func profileText(retries: Int) -> String {
        """
        profile: framed-store
        defaults: { timeout: 1s, retries: \(retries) }
        framings:
          store: { header-size: 3, length-offset: 1, length-width: 2, endian: little, checksum: crc16 }
        characteristics:
          control: { service: FEED, uuid: BEEF, properties: [write, notify], framing: store }
        commands:
          start:
            characteristic: control
            request:
              - { type: u8, value: 0x01 }
              - { name: size, type: u32, value: image.size }
            response:
              fields: [{ type: u8, value: 0x81 }, { name: status, type: u8 }]
              status: { field: status }
          data:
            characteristic: control
            request:
              - { type: u8, value: 0x02 }
              - { name: offset, type: u32, value: chunk.offset }
              - { name: bytes, type: bytes, value: chunk.data }
            response:
              fields: [{ type: u8, value: 0x82 }, { name: status, type: u8 }, { name: next, type: u32 }]
              status: { field: status }
          verify:
            characteristic: control
            request: [{ type: u8, value: 0x03 }]
            response:
              fields: [{ type: u8, value: 0x83 }, { name: status, type: u8 }, { name: crc32, type: u32 }]
              status: { field: status }
        procedure:
          - send: start
          - phase: upload
            achieves: received
            steps:
              - chunks:
                  data: image.data
                  size: 200
                  steps:
                    - send: data
                      expect: data.next == chunk.end
          - send: verify
            expect: verify.crc32 == image.crc32
        """
    }

    private func flash(_ device: FramedStoreDevice, size: Int = 1000, retries: Int = 0) async throws -> FlashReport {
        let profile = try ProfileLoader.load(text: Self.profileText(retries: retries), path: "framed-store.yaml")
        return await FlashSession(profile: profile, images: [EngineTestSupport.image(size: size, seed: 11)],
                                  transport: device, address: device.address, onEvent: { _ in }).run()
    }

    func testTheDeviceReceivesTheOpcodeThenTheLengthThenThePayloadThenTheCRC() async throws {
        let device = FramedStoreDevice()
        let report = try await flash(device)
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        XCTAssertEqual(device.stored, EngineTestSupport.image(size: 1000, seed: 11).data)
        XCTAssertEqual(device.badFrames, 0)
        // `start` for 1000 bytes: the message `01 e8030000`, framed. CRC-16/CCITT-FALSE of
        // `01 0400 e8030000` is 0x1777 (Python: binascii.crc_hqx(frame, 0xFFFF)).
        XCTAssertEqual(device.receivedFrames.first, [UInt8](hex: "01 0400 e8030000 7717"))
        // Each `data` carries the offset and 200 bytes: a 204-byte payload (0x00cc).
        let data = device.receivedFrames[1]
        XCTAssertEqual(Array(data.prefix(7)), [UInt8](hex: "02 cc00 00000000"))
        XCTAssertEqual(data.count, 3 + 204 + 2)
        XCTAssertEqual(device.receivedFrames.count, 1 + 5 + 1)
    }

    func testAnAnswerWithABadTrailerIsDroppedAndTheCommandSentAgain() async throws {
        let device = FramedStoreDevice()
        device.corruptAnswers = [3]
        let report = try await flash(device, retries: 1)
        XCTAssertEqual(report.status, .verified, String(describing: report.error))
        XCTAssertEqual(report.retries, 1)
        XCTAssertEqual(device.stored, EngineTestSupport.image(size: 1000, seed: 11).data)
    }

    func testWithoutRetriesTheTimeoutListsTheFrameDroppedForItsTrailer() async throws {
        let device = FramedStoreDevice()
        device.corruptAnswers = [1]
        let report = try await flash(device)
        XCTAssertEqual(report.status, .failed)
        let message = String(describing: report.error)
        // `81 0100 00` has CRC 0x187c (binascii.crc_hqx); the device flipped it to 0x197d.
        XCTAssertTrue(message.contains("no matching answer within 1.0 seconds (1 attempt(s)); ignored: garbage frame "
                                       + "810100007d19: the frame's crc16 trailer is 0x197d, its bytes give 0x187c"),
                      message)
    }
}
