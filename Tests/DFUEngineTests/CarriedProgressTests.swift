@testable import DFUEngine
import XCTest

/// `CarriedProgress`: the progress of writes without response counts what the link carried,
/// not what it queued.
final class CarriedProgressTests: XCTestCase {
    func testProgressIsThatOfTheLastWriteOnAir() {
        var carried = CarriedProgress()
        carried.wrote(progress: 244)
        XCTAssertNil(carried.carried(inFlight: 1), "the only write is still queued")
        carried.wrote(progress: 488)
        XCTAssertEqual(carried.carried(inFlight: 1), 244, "the first went out, the second is queued")
        carried.wrote(progress: 732)
        XCTAssertEqual(carried.carried(inFlight: 0), 732)
    }

    func testNothingIsReportedTwiceNorBackwards() {
        var carried = CarriedProgress()
        for progress in [100, 200, 300] { carried.wrote(progress: progress) }
        XCTAssertEqual(carried.carried(inFlight: 1), 200)
        XCTAssertNil(carried.carried(inFlight: 1), "the same progress again")
        XCTAssertNil(carried.carried(inFlight: 2), "less went out than was reported: not reported")
    }

    func testOtherProgressMovesTheMark() {
        var carried = CarriedProgress()
        carried.wrote(progress: 100)
        carried.reported(500)
        carried.wrote(progress: 600)
        XCTAssertNil(carried.carried(inFlight: 1), "100 is behind the 500 reported otherwise")
        XCTAssertEqual(carried.carried(inFlight: 0), 600)
    }
}
