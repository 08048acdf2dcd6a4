import XCTest
import DFUBytes

final class SegmenterTests: XCTestCase {
    func testATTPayloadSize() {
        XCTAssertEqual(Segmenter.attPayloadSize(mtu: 23), 20)
        XCTAssertEqual(Segmenter.attPayloadSize(mtu: 247), 244)
        XCTAssertEqual(Segmenter.attPayloadSize(mtu: 517), 514)
    }

    func testDefaultMTUCutsTwentyByteWrites() {
        let frame = (0..<45).map { UInt8($0) }
        let writes = Segmenter.segments(of: frame, maximumSize: Segmenter.attPayloadSize(mtu: 23))
        XCTAssertEqual(writes, [Array(0..<20), Array(20..<40), Array(40..<45)].map { $0.map { UInt8($0) } })
    }

    func testExactMultipleHasNoEmptyTail() {
        let frame = [UInt8](repeating: 7, count: 40)
        XCTAssertEqual(Segmenter.segments(of: frame, maximumSize: 20).map(\.count), [20, 20])
        XCTAssertEqual(Segmenter.segments(of: frame, maximumSize: 40), [frame])
        XCTAssertEqual(Segmenter.segments(of: frame, maximumSize: 500), [frame])
    }

    func testEmptyFrameYieldsOneEmptyWrite() {
        XCTAssertEqual(Segmenter.segments(of: [], maximumSize: 20), [[]])
    }

    func testOneByteSegmentsAndConcatenation() {
        let frame = pseudoRandomBytes(count: 1_000)
        XCTAssertEqual(Segmenter.segments(of: frame, maximumSize: 1).count, 1_000)
        for size in [1, 3, 20, 244, 999, 1_000, 1_001] {
            let writes = Segmenter.segments(of: frame, maximumSize: size)
            XCTAssertEqual(writes.flatMap { $0 }, frame)
            XCTAssertTrue(writes.dropLast().allSatisfy { $0.count == size })
            XCTAssertEqual(writes.count, (frame.count + size - 1) / size)
        }
    }
}
