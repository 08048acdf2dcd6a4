import DFUEngine
import DFUGATT
import DFUProfile
import XCTest

/// A device-driven transfer end to end, against a scripted device: the device asks for blocks
/// in its own order (one twice), the engine answers each, paces its block writes, subscribes to
/// indications as the profile says, and reads the firmware revision back.
final class ServedTransferTests: XCTestCase {
    private static let profile = """
        profile: served
        characteristics:
          control: { service: FEED, uuid: F001, properties: [write, indicate], subscribe: indications }
          blocks: { service: FEED, uuid: F002, properties: [write-without-response], write-interval: 6ms }
          revision: { service: 180A, uuid: 2A26, properties: [read] }
        notifications:
          block_request:
            characteristic: control
            fields: [{ type: u8, value: 0x81 }, { name: number, type: u16 }]
          transfer_done:
            characteristic: control
            fields: [{ type: u8, value: 0x82 }, { name: status, type: u8 }]
            status: { field: status, success: [0] }
        commands:
          start:
            characteristic: control
            request: [{ type: u8, value: 0x01 }, { type: u32, value: image.size }]
          put_block:
            characteristic: blocks
            request: [{ type: u16, value: block.index }, { type: bytes, value: block.data }]
        procedure:
          - phase: transfer
            achieves: installed
            steps:
              - send: start
              - serve:
                  request: block_request
                  done: transfer_done
                  block: block_request.number
                  size: 16
                  data: image.data
                  timeout: 2s
                  steps:
                    - send: put_block
          - read: revision
            as: fw
            expect: [fw.text == '2.0.0']
        """

    func testTheDeviceDrivesTheTransferAndTheRevisionIsReadBack() async throws {
        let profile = try ProfileLoader.load(text: Self.profile, path: "served.yaml")
        let data = (0..<70).map { UInt8($0) }
        let device = ScriptedBlockServer(blockSize: 16, order: [0, 3, 1, 4, 2, 3])
        nonisolated(unsafe) var progress: [Int] = []
        let report = await FlashSession(profile: profile, images: [FlashImage(name: "app", version: "2.0.0", data: data)],
                                        transport: device, address: device.address,
                                        onEvent: { if case let .progress(_, done, _, _) = $0 { progress.append(done) } }).run()
        XCTAssertEqual(report.status, .completed, String(describing: report.error))
        // The revision is read after the phase: nothing in the phase showed the new image run.
        XCTAssertEqual(report.deviceHolds, [.unchanged, .installed])
        XCTAssertEqual(device.image, data, "the device holds exactly the image")
        XCTAssertEqual(device.subscription, .indications)
        XCTAssertEqual(device.blockWriteTimes.count, 6, "block 3 was asked for twice and sent twice")
        for (earlier, later) in zip(device.blockWriteTimes, device.blockWriteTimes.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later - earlier, .milliseconds(6), "writes to blocks are paced")
        }
        XCTAssertEqual(progress.last, 70)
    }

    func testAReadThatDoesNotMatchFailsSayingWhatItRead() async throws {
        let profile = try ProfileLoader.load(text: Self.profile.replacingOccurrences(of: "fw.text == '2.0.0'", with: "fw.text == '3.0.0'"),
                                             path: "served.yaml")
        let device = ScriptedBlockServer(blockSize: 16, order: [0])
        let report = await FlashSession(profile: profile, images: [FlashImage(name: "app", version: "3.0.0", data: Array(repeating: 7, count: 10))],
                                        transport: device, address: device.address).run()
        XCTAssertEqual(report.status, .failed)
        XCTAssertEqual(report.error?.message, "read 'revision': expected fw.text == '3.0.0' (fw.text = '2.0.0')")
    }
}
