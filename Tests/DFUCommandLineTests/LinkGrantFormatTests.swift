@testable import DFUCommandLine
import DFUGATT
import Foundation
import XCTest

/// The `link:` line of `dfukit flash` and the `link` object of `--json`, golden.
final class LinkGrantFormatTests: XCTestCase {
    /// A controller that granted less than asked: 1M PHY (no answer to LE Set PHY), the data
    /// length asked, the shortest interval.
    static let partial = LinkGrant(
        source: .controller, txPHY: .le1M, rxPHY: .le1M, txOctets: 251, rxOctets: 251, txTime: 2120, rxTime: 2120,
        mtu: 247, interval: 7500, latency: 0, supervisionTimeout: 2000,
        requested: LinkGrant.Request(phy: .le2M, dataLength: 251, mtu: 247, intervalMin: 7500, intervalMax: 15000,
                                     latency: 0, supervisionTimeout: 2000),
        notes: ["the controller did not take LE Set PHY (unknown, unsupported or unanswered)"])

    func testLineSaysWhatWasGrantedAndAsked() {
        XCTAssertEqual(LinkGrantFormat.line(Self.partial),
                       "link: 1M PHY, data length 251, MTU 247, interval 7.5 ms (asked: 2M PHY, data length 251, MTU 247, "
                       + "interval 7.5-15 ms); the controller did not take LE Set PHY (unknown, unsupported or unanswered)")
    }

    /// Values the stack does not report say so; differing directions are shown tx/rx; the
    /// simulator's link says it is a model.
    func testLineForUnreportedAndAsymmetricValues() {
        let kernel = LinkGrant(source: .kernel, txPHY: .le2M, rxPHY: .le1M, mtu: 517,
                               requested: LinkGrant.Request(mtu: 517, intervalMin: 7500, intervalMax: 7500))
        XCTAssertEqual(LinkGrantFormat.line(kernel),
                       "link: 2M/1M PHY (tx/rx), data length not reported, MTU 517, interval not reported "
                       + "(asked: MTU 517, interval 7.5 ms)")
        let model = LinkGrant(source: .model, txPHY: .le2M, rxPHY: .le2M, txOctets: 251, rxOctets: 27, mtu: 498,
                              interval: 11250, latency: 2)
        XCTAssertEqual(LinkGrantFormat.line(model),
                       "link (modelled): 2M PHY, data length 251/27 (tx/rx), MTU 498, interval 11.25 ms, latency 2")
        XCTAssertEqual(LinkGrantFormat.line(LinkGrant(source: .kernel)),
                       "link: PHY not reported, data length not reported, MTU not reported, interval not reported")
    }

    func testMillisecondsText() {
        XCTAssertEqual(LinkGrant.millisecondsText(microseconds: 7500), "7.5")
        XCTAssertEqual(LinkGrant.millisecondsText(microseconds: 15000), "15")
        XCTAssertEqual(LinkGrant.millisecondsText(microseconds: 11250), "11.25")
        XCTAssertEqual(LinkGrant.millisecondsText(microseconds: 4_000_000), "4000")
        XCTAssertEqual(LinkGrant.millisecondsText(microseconds: 1005), "1.005")
    }

    /// Every field present, null where not reported (README, "JSON output").
    func testJSONObject() throws {
        // Through the command line's one JSON emitter (JSONOutput, the library's JSONValue).
        XCTAssertEqual(JSONOutput.line(LinkGrantFormat.json(Self.partial)), """
            {"interval_ms":7.5,"latency":0,"mtu":247,"notes":["the controller did not take LE Set PHY (unknown, \
            unsupported or unanswered)"],"requested":{"data_length":251,"interval_max_ms":15,"interval_min_ms":7.5,\
            "latency":0,"mtu":247,"phy":"2M","supervision_timeout_ms":2000},"rx_octets":251,"rx_phy":"1M",\
            "rx_time_us":2120,"source":"controller","supervision_timeout_ms":2000,"tx_octets":251,"tx_phy":"1M",\
            "tx_time_us":2120}
            """)
        XCTAssertEqual(JSONOutput.line(LinkGrantFormat.json(LinkGrant(source: .kernel))), """
            {"interval_ms":null,"latency":null,"mtu":null,"notes":[],"requested":{"data_length":null,\
            "interval_max_ms":null,"interval_min_ms":null,"latency":null,"mtu":null,"phy":null,\
            "supervision_timeout_ms":null},"rx_octets":null,"rx_phy":null,"rx_time_us":null,"source":"kernel",\
            "supervision_timeout_ms":null,"tx_octets":null,"tx_phy":null,"tx_time_us":null}
            """)
    }

    /// `dfukit flash` on the simulator prints its modelled link and puts it in `--json`.
    func testFlashOnTheSimulatorReportsTheModelledLink() throws {
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 8_000)
        let result = try DFUKitBinary.run(["flash", "--profile", "vendor-ctrlpt", "--device",
                                           "sim:vendor-ctrlpt?phy=2M&data-length=200&mtu=185&interval=7.5",
                                           package, "--json"], in: directory.path)
        XCTAssertEqual(result.status, 0, result.transcript)
        XCTAssertTrue(result.stderr.contains("\nlink (modelled): 2M PHY, data length 200, MTU 185, interval 7.5 ms\n"),
                      result.transcript)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let link = try XCTUnwrap(object["link"] as? [String: Any], result.stdout)
        XCTAssertEqual(link["source"] as? String, "model")
        XCTAssertEqual(link["tx_phy"] as? String, "2M")
        XCTAssertEqual(link["rx_octets"] as? Int, 200)
        XCTAssertEqual(link["mtu"] as? Int, 185)
        XCTAssertEqual(link["interval_ms"] as? Double, 7.5)
        // 2M PHY: (11 + 200) bytes x 4 us.
        XCTAssertEqual(link["tx_time_us"] as? Int, 844)
        XCTAssertTrue(link["supervision_timeout_ms"] is NSNull)
    }
}
