@testable import DFUEngine
import XCTest

/// `RunningImageEvidence`: which image runs, judged from what the device reports after its update
/// against what it reported before and what the new image reports; every combination of the
/// three values, and whether the device was seen to reset.
final class RunningImageEvidenceTests: XCTestCase {
    private func verdict(before: String?, after: String, new: String?,
                         reboot: RunningImageEvidence.Reboot = .observed) -> RunningImageEvidence.Verdict {
        RunningImageEvidence(subject: "the version", before: before.map { .string($0) }, after: .string(after),
                             new: new.map { .string($0) }, reboot: reboot).verdict
    }

    func testTheNewImagesValueAfterAnotherBeforeShowsTheNewImageRuns() {
        guard case let .newRuns(text) = verdict(before: "1.0", after: "1.1", new: "1.1") else {
            return XCTFail("not proven")
        }
        XCTAssertTrue(text.contains("'1.1', the new image's"), text)
        XCTAssertTrue(text.contains("reported '1.0' before"), text)
    }

    func testAValueThatDidNotChangeWhenTheNewImageReportsTheSameCannotTell() {
        // TI: a BIM that kept the old image, and a new image with the same softVer.
        guard case let .cannotTell(text) = verdict(before: "1.0", after: "1.0", new: "1.0") else {
            return XCTFail("claimed a verdict")
        }
        XCTAssertTrue(text.contains("cannot tell"), text)
    }

    func testTheOldValueAfterAResetShowsThePreviousImageRuns() {
        guard case let .previousRuns(text, reset) = verdict(before: "1.0", after: "1.0", new: "1.1") else {
            return XCTFail("not the previous image")
        }
        XCTAssertTrue(reset)
        XCTAssertTrue(text.contains("dropped the link"), text)
    }

    func testTheOldValueOnALinkTheDeviceKeptShowsItDidNotReset() {
        guard case let .previousRuns(text, reset) = verdict(before: "1.0", after: "1.0", new: "1.1", reboot: .keptLink)
        else { return XCTFail("not the previous image") }
        XCTAssertFalse(reset)
        XCTAssertTrue(text.contains("did not reset"), text)
    }

    func testTheOldValueOnALinkThatCannotShowAResetLeavesBothOpen() {
        // A UART stays up while the device resets: it may have reset (and refused the image) or not.
        guard case let .previousRuns(text, reset) = verdict(before: "1.0", after: "1.0", new: "1.1", reboot: .unobservable)
        else { return XCTFail("not the previous image") }
        XCTAssertTrue(reset, "a reset is not ruled out, so the report keeps the bootloader's refusal open")
        XCTAssertFalse(text.contains("did not reset"), text)
        XCTAssertTrue(text.contains("cannot show whether the device reset"), text)
    }

    func testAChangedValueThatIsNotTheExpectedOneStillShowsAnotherImageRuns() {
        // Telink with --set version that differs from what the image reports.
        guard case let .newRuns(text) = verdict(before: "1.0", after: "1.2", new: "9.9") else {
            return XCTFail("not proven")
        }
        XCTAssertTrue(text.contains("changed from '1.0' to '1.2'"), text)
        XCTAssertTrue(text.contains("'9.9'"), text)
    }

    func testWithoutTheNewImagesValueOnlyAChangeShowsAnything() {
        XCTAssertEqual(verdict(before: "6.0.14", after: "6.0.14", new: nil),
                       .cannotTell("the version is '6.0.14' before and after the update, and the package does not say "
                                   + "what the new image reports: it cannot tell which image runs"))
        guard case .newRuns = verdict(before: "6.0.14", after: "6.0.15", new: nil) else { return XCTFail("not proven") }
    }

    func testWithoutTheValueBeforeTheNewImagesValueShowsItAndAnotherDoesNot() {
        guard case .newRuns = verdict(before: nil, after: "1.1", new: "1.1") else { return XCTFail("not proven") }
        guard case .previousRuns = verdict(before: nil, after: "1.0", new: "1.1") else { return XCTFail("proven") }
        guard case .cannotTell = verdict(before: nil, after: "1.0", new: nil) else { return XCTFail("claimed") }
    }
}
