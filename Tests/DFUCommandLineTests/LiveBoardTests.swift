@testable import DFUCommandLine
import DFUKit
import DFULedger
import Foundation
import XCTest

/// `batch run`'s live rows decided event by event (no ledger, no clock): a device's row at its
/// start, at phase and link changes and at most once a second of progress, cleared when it
/// finishes; the station's row at start, every 5 s, halted while waiting, ended at the end.
final class LiveBoardTests: XCTestCase {
    private let device = DeviceAddress(string: "C0:FF:EE:00:00:01")!
    private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    private func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    private func published(_ writes: [LiveBoard.Write]) -> [LiveBoard.Device] {
        writes.compactMap { if case let .publish(_, device) = $0 { return device } else { return nil } }
    }

    func testADevicesRowIsWrittenAtOnceOnChangesAndAtMostOnceASecondForProgress() {
        var board = LiveBoard()
        XCTAssertEqual(board.writes(at: at(0)), [.announce(.running)], "the station announces itself first")
        XCTAssertEqual(board.writes(at: at(0.1)), [], "nothing new")

        // A probe (skip-installed) connects before the attempt starts: its link is kept.
        XCTAssertTrue(board.apply(.deviceLink(device, mtu: 247, phy: nil, rssi: -48), at: at(0.2)) == false,
                      "nothing in flight to write yet")
        XCTAssertTrue(board.apply(.deviceStarted(device, attempt: 1, slot: 0, radio: "hci1"), at: at(0.5)))
        XCTAssertEqual(board.devices[device.description]?.radio, "hci1", "the live row names the radio")
        var rows = published(board.writes(at: at(0.5)))
        XCTAssertEqual(rows.map(\.phase), ["connecting"])
        XCTAssertEqual(rows.first?.link, LiveBoard.Link(mtu: 247, phy: nil, rssi: -48))
        XCTAssertEqual(rows.first?.startedAt, at(0.5))

        XCTAssertTrue(board.apply(.deviceLink(device, mtu: nil, phy: "2M", rssi: nil), at: at(0.6)))
        XCTAssertTrue(board.apply(.devicePhase(device, phase: "transfer"), at: at(0.7)))
        rows = published(board.writes(at: at(0.7)))
        XCTAssertEqual(rows.map(\.phase), ["transfer"], "a phase change is written at once")
        XCTAssertEqual(rows.first?.link, LiveBoard.Link(mtu: 247, phy: "2M", rssi: -48), "what was told before still holds")

        XCTAssertFalse(board.apply(.progress(device, done: 0, total: 40_000), at: at(1.0)))
        XCTAssertFalse(board.apply(.progress(device, done: 4_000, total: 40_000), at: at(1.5)))
        XCTAssertEqual(board.writes(at: at(1.5)), [], "progress waits for a second after the last write")
        XCTAssertFalse(board.apply(.progress(device, done: 8_000, total: 40_000), at: at(2.0)))
        rows = published(board.writes(at: at(1.7)))
        XCTAssertEqual(rows.map(\.done), [8_000])
        XCTAssertEqual(rows.first?.bytesPerSecond, 8_000, "8000 bytes in the second since the first progress")
        XCTAssertEqual(board.writes(at: at(5)), [.announce(.running)], "no change: only the station's 5 s announcement")

        XCTAssertTrue(board.apply(.devicePhase(device, phase: "transfer"), at: at(5.1)) == false, "the same phase")
        XCTAssertTrue(board.apply(.deviceFinished(device, succeeded: true, attempt: 1, seconds: 5, error: nil), at: at(6)))
        XCTAssertEqual(board.writes(at: at(6)), [.clear(device: device.description)])

        // A retry is a new attempt: a new row.
        XCTAssertTrue(board.apply(.deviceStarted(device, attempt: 2, slot: 0, radio: "hci1"), at: at(7)))
        rows = published(board.writes(at: at(7)))
        XCTAssertEqual(rows.map(\.attempt), [2])
        XCTAssertEqual(rows.first?.done, 0)
    }

    func testTheStationIsHaltedWhileItWaitsAndEndsWithItsRowsCleared() {
        var board = LiveBoard()
        _ = board.writes(at: at(0))
        XCTAssertTrue(board.apply(.deviceStarted(device, attempt: 1, slot: 0, radio: "hci1"), at: at(1)))
        let halt = LineHalt(line: "east", rule: "failed >= 2 of last 3", station: "s1", attempts: [])
        XCTAssertFalse(board.apply(.lineHalted(halt, recordedHere: true, waiting: false), at: at(1)),
                       "a station that exits on a halt is not waiting")
        XCTAssertTrue(board.apply(.lineHalted(halt, recordedHere: true, waiting: true), at: at(2)))
        var writes = board.writes(at: at(2))
        XCTAssertEqual(writes.last, .announce(.halted))
        XCTAssertEqual(published(writes).count, 1)
        XCTAssertTrue(board.apply(.lineResumed(line: "east"), at: at(3)))
        XCTAssertEqual(board.writes(at: at(3)), [.announce(.running)])

        board.end()
        writes = board.writes(at: at(4))
        XCTAssertEqual(writes, [.clear(device: device.description), .announce(.ended)])
    }
}
