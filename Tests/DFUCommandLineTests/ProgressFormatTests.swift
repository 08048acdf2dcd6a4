@testable import DFUCommandLine
import XCTest

/// The progress a person reads, as exact strings, and the per-image accounting under it.
final class ProgressFormatTests: XCTestCase {
    private func progress(done: Int = 40_000, total: Int = 100_000, held: Int = 0, sent: Int = 40_000,
                          transfer: Duration = .seconds(4), elapsed: Duration = .seconds(6)) -> TransferProgress {
        TransferProgress(image: "application", done: done, total: total, heldAtStart: held, sentThisRun: sent,
                         transferTime: transfer, elapsed: elapsed)
    }

    func testStatusLine() {
        // 40,000 bytes in 4 s: 10.0 kB/s; 60,000 left: 6 s.
        XCTAssertEqual(ProgressFormat.status(progress()), "40% 40,000/100,000 bytes, 10.0 kB/s, elapsed 0:06, ETA 0:06")
    }

    func testTerminalLineRedrawsInPlaceAndMarksTheSimulatedClock() {
        XCTAssertEqual(ProgressFormat.terminalLine(progress(), clock: .simulated),
                       "\r\u{1B}[2K'application' 40% 40,000/100,000 bytes, 10.0 kB/s, elapsed 0:06, ETA 0:06 (simulated)")
        XCTAssertEqual(ProgressFormat.terminalLine(progress(), clock: .wall),
                       "\r\u{1B}[2K'application' 40% 40,000/100,000 bytes, 10.0 kB/s, elapsed 0:06, ETA 0:06")
    }

    func testPlainLine() {
        XCTAssertEqual(ProgressFormat.plainLine(progress(done: 100_000, sent: 100_000, transfer: .milliseconds(12_500),
                                                         elapsed: .seconds(75)), clock: .wall),
                       "progress 'application': 100% 100,000/100,000 bytes, 8.0 kB/s, elapsed 1:15, ETA 0:00")
    }

    func testUnknownRateHasNoETA() {
        XCTAssertEqual(ProgressFormat.status(progress(done: 0, sent: 0, transfer: .zero, elapsed: .zero)),
                       "0% 0/100,000 bytes, -- kB/s, elapsed 0:00, ETA --:--")
    }

    func testResumedRunSaysWhatItSentItself() {
        let resumed = progress(done: 100_000, held: 40_000, sent: 60_000)
        XCTAssertEqual(ProgressFormat.resumed(resumed), "resumed at 40%: sent 60,000 of 100,000 bytes this run")
        XCTAssertNil(ProgressFormat.resumed(progress()))
        XCTAssertEqual(ProgressFormat.resuming(image: "application", held: 40_000, total: 100_000),
                       "resuming 'application' at 40%: the device already holds 40,000 of 100,000 bytes")
        XCTAssertNil(ProgressFormat.resuming(image: "application", held: 0, total: 100_000))
    }

    func testSummary() {
        XCTAssertEqual(ProgressFormat.summary(sent: 100_000, held: 0, seconds: 3.42, transferTime: .milliseconds(2500),
                                              status: "verified", clock: .simulated),
                       "97.7 KiB sent in 3.4 s (simulated), transfer 40.0 kB/s: verified")
        XCTAssertEqual(ProgressFormat.summary(sent: 61_440, held: 40_960, seconds: 2, transferTime: .seconds(1),
                                              status: "verified", clock: .wall),
                       "60.0 KiB sent in 2.0 s (the device already held 40.0 KiB), transfer 61.4 kB/s: verified")
        XCTAssertEqual(ProgressFormat.summary(sent: 100_000, held: 0, seconds: 3.42, transferTime: .milliseconds(2500),
                                              status: "verified", holds: ["unconfirmed"], clock: .wall),
                       "97.7 KiB sent in 3.4 s, transfer 40.0 kB/s: verified: the device holds unconfirmed")
        XCTAssertEqual(ProgressFormat.summary(sent: 0, held: 49_152, seconds: 0.4, transferTime: .zero,
                                              status: "verified", holds: ["installed"], clock: .simulated),
                       "0 bytes sent in 0.4 s (simulated): the device already held the image (48.0 KiB): verified: "
                           + "the device holds installed")
        XCTAssertEqual(ProgressFormat.summary(sent: 0, held: 0, seconds: 1, transferTime: .zero, status: "failed",
                                              holds: ["received", "installed"], clock: .wall),
                       "0 bytes sent in 1.0 s: failed: the device holds received or installed")
    }

    func testNumbers() {
        XCTAssertEqual(ProgressFormat.grouped(0), "0")
        XCTAssertEqual(ProgressFormat.grouped(999), "999")
        XCTAssertEqual(ProgressFormat.grouped(1000), "1,000")
        XCTAssertEqual(ProgressFormat.grouped(1_234_567), "1,234,567")
        XCTAssertEqual(ProgressFormat.clock(.milliseconds(4999)), "0:04")
        XCTAssertEqual(ProgressFormat.clock(.seconds(750)), "12:30")
        XCTAssertEqual(ProgressFormat.clock(.seconds(3723)), "1:02:03")
        XCTAssertEqual(ProgressFormat.percent(99_999, of: 100_000), 99)
        XCTAssertEqual(ProgressFormat.decile(progress(done: 39_999)), 3)
        XCTAssertEqual(ProgressFormat.decile(progress(done: 100_000)), 10)
    }

    /// The rate counts the image's own transfer time: not the connection before it, and for a
    /// second image, not the first.
    func testRateCountsFromTheImagesOwnStart() {
        var second = TransferMeter(image: "app", total: 50_000)
        second.started(offset: 0, at: .seconds(30))  // 30 s of connecting and a first image before
        let progress = second.progressed(done: 25_000, at: .seconds(32))
        XCTAssertEqual(progress.transferTime, .seconds(2))
        XCTAssertEqual(progress.sentThisRun, 25_000)
        XCTAssertEqual(progress.rate, 12_500)
        XCTAssertEqual(progress.elapsed, .seconds(32))
        XCTAssertEqual(progress.remaining, .seconds(2))
    }

    /// A device that held 40 % when the command started: only the rest counts as sent, and a
    /// link lost and resumed within the command leaves the reconnection out of the transfer time.
    func testResumedTransferCountsOnlyWhatThisCommandSent() {
        var meter = TransferMeter(image: "app", total: 100_000)
        meter.started(offset: 40_000, at: .seconds(1))
        _ = meter.progressed(done: 60_000, at: .seconds(3))
        meter.started(offset: 58_000, at: .seconds(10))  // resumed after 7 s of reconnecting
        let progress = meter.progressed(done: 100_000, at: .seconds(14))
        XCTAssertEqual(progress.heldAtStart, 40_000)
        XCTAssertEqual(progress.sentThisRun, 20_000 + 42_000)
        XCTAssertEqual(progress.transferTime, .seconds(6))
        XCTAssertEqual(meter.latest, progress)
        XCTAssertEqual(ProgressFormat.resumed(progress), "resumed at 40%: sent 62,000 of 100,000 bytes this run")
    }

    /// Progress with no announced start (a profile whose procedure computes it) counts from itself.
    func testProgressWithoutAStartCountsFromItself() {
        var meter = TransferMeter(image: "app", total: 10_000)
        let first = meter.progressed(done: 1_000, at: .seconds(5))
        XCTAssertEqual(first.sentThisRun, 0)
        XCTAssertEqual(first.heldAtStart, 0, "no resume is claimed without a start that says so")
        XCTAssertNil(first.rate)
        let later = meter.progressed(done: 3_000, at: .seconds(6))
        XCTAssertEqual(later.sentThisRun, 2_000)
        XCTAssertEqual(later.rate, 2_000)
    }
}
