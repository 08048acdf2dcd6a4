@testable import DFUEngine
import XCTest

/// `ChunkCursor`, the one cursor of sequential and windowed chunk loops.
final class ChunkCursorTests: XCTestCase {
    private func chunks(_ cursor: inout ChunkCursor) -> [ChunkCursor.Chunk] {
        var all: [ChunkCursor.Chunk] = []
        while !cursor.isFinished { all.append(cursor.next()) }
        return all
    }

    func testChunksCoverTheDataTheLastShorter() {
        var cursor = ChunkCursor(count: 10, from: 0, size: 4, aligned: false)
        XCTAssertEqual(chunks(&cursor).map { [$0.offset, $0.from, $0.end] }, [[0, 0, 4], [4, 4, 8], [8, 8, 10]])
    }

    /// A first answer past the chunk it answers: the device held that much already (MCUmgr's
    /// kept upload). A later jump, or a first answer in order, is no resume.
    func testAFirstAnswerPastItsChunkIsWhereTheDeviceResumed() throws {
        var resumed = ChunkCursor(count: 100, from: 0, size: 10, aligned: false)
        let first = resumed.next()
        try resumed.answered(first, wants: 62)
        XCTAssertEqual(resumed.resumedAt, 62)
        XCTAssertEqual(resumed.next().from, 62)

        var inOrder = ChunkCursor(count: 100, from: 0, size: 10, aligned: false)
        let chunk = inOrder.next()
        try inOrder.answered(chunk, wants: 10)
        let second = inOrder.next()
        try inOrder.answered(second, wants: 50)
        XCTAssertNil(inOrder.resumedAt, "only the first answer says what the device held before")
    }

    func testEmptyDataAndAStartAtTheEndHaveNoChunk() {
        XCTAssertTrue(ChunkCursor(count: 0, from: 0, size: 4, aligned: false).isFinished)
        XCTAssertTrue(ChunkCursor(count: 10, from: 10, size: 4, aligned: true).isFinished)
        XCTAssertTrue(ChunkCursor(count: 10, from: 99, size: 4, aligned: false).isFinished)
    }

    func testAlignedStartsInsideAChunkVisitItFirstFromItsBoundary() {
        var cursor = ChunkCursor(count: 10, from: 5, size: 4, aligned: true)
        let all = chunks(&cursor)
        XCTAssertEqual(all.map { [$0.offset, $0.from, $0.end] }, [[4, 5, 8], [8, 8, 10]])
        XCTAssertEqual(all.map(\.index), [0, 1])
        XCTAssertEqual(all.map(\.isLast), [false, true])
    }

    func testUnalignedStartsWhereAsked() {
        var cursor = ChunkCursor(count: 10, from: 5, size: 4, aligned: false)
        XCTAssertEqual(chunks(&cursor).map { [$0.offset, $0.end] }, [[5, 9], [9, 10]])
    }

    func testTheDeviceMovesTheCursorAndThreeStallsStopIt() throws {
        var cursor = ChunkCursor(count: 100, from: 0, size: 10, aligned: false)
        let first = cursor.next()
        try cursor.answered(first, wants: 10)
        XCTAssertEqual(cursor.position, 10, "in order: nothing changes")
        let second = cursor.next()
        try cursor.answered(second, wants: 50)
        XCTAssertEqual(cursor.position, 50, "the device holds more")
        let third = cursor.next()
        XCTAssertEqual([third.offset, third.end], [50, 60])
        try cursor.answered(third, wants: 20)
        XCTAssertEqual(cursor.position, 20, "the device holds less")
        let fourth = cursor.next()
        try cursor.answered(fourth, wants: 20)
        XCTAssertThrowsError(try cursor.answered(cursor.next(), wants: 20)) { error in
            XCTAssertEqual(error as? ChunkCursor.Stalled, ChunkCursor.Stalled(wanted: 20))
        }
    }

    func testRecordHoldsTheChunkVariables() {
        var cursor = ChunkCursor(count: 6, from: 3, size: 4, aligned: true)
        let chunk = cursor.next()
        XCTAssertEqual(ChunkCursor.record(chunk, of: Array("abcdef".utf8)), .record([
            "offset": .integer(0), "from": .integer(3), "end": .integer(4), "size": .integer(4),
            "data": .bytes(Array("abcd".utf8)), "index": .integer(0), "first": .boolean(true), "last": .boolean(false),
        ]))
    }
}
