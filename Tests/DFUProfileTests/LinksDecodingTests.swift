import DFUProfile
import Foundation
import XCTest

/// The `links:` section: how a profile's messages travel over a serial line or UDP.
final class LinksDecodingTests: XCTestCase {
    private var vendorText: String {
        get throws { try String(contentsOfFile: vendorProfilePath, encoding: .utf8) }
    }

    private static let links = """

        links:
          serial:
            framing: slip
            baud: 1000000
            buffer: 4096
            carries: { control: {}, data: { prefix: "08" } }
            answers: control
          udp:
            framing: datagram
            carries: { control: }
            answers: control

        """

    func testBothLinksAreReadWithTheirPrefixesAndDefaults() throws {
        let profile = try ProfileLoader.load(text: try vendorText + Self.links, path: "links.yaml")
        let serial = try XCTUnwrap(profile.links[.serial])
        XCTAssertEqual(serial.framing, .slip)
        XCTAssertEqual(serial.baud, 1_000_000)
        XCTAssertEqual(serial.buffer, 4096)
        XCTAssertEqual(serial.carries, [.init(characteristic: "control"), .init(characteristic: "data", prefix: [0x08])])
        XCTAssertEqual(serial.answers, "control")
        XCTAssertEqual(serial.lineLength, 127, "the default line length")
        let udp = try XCTUnwrap(profile.links[.udp])
        XCTAssertEqual(udp.framing, .datagram)
        XCTAssertNil(udp.port, "the port is the device string's, or the transport's default")
        XCTAssertEqual(udp.carries, [.init(characteristic: "control")])
    }

    func testAProfileWithoutLinksHasNone() throws {
        XCTAssertTrue(try ProfileLoader.load(text: try vendorText, path: "p.yaml").links.isEmpty)
    }

    func testMistakesAreReportedAtTheirPlaceWithWhatToWrite() throws {
        let base = try vendorText + Self.links
        let cases: [BrokenProfileTests.Case] = [
            .init(name: "datagram on serial", replace: "framing: slip", with: "framing: datagram", at: "datagram",
                  message: "'framing' of 'links.serial' must be one of smp-console, smp-raw, slip"),
            .init(name: "a framing misspelled", replace: "framing: slip", with: "framing: smp-consol", at: "smp-consol",
                  message: "did you mean 'smp-console'?"),
            .init(name: "line length on slip", replace: "baud: 1000000", with: "line-length: 512", at: "line-length",
                  message: "'line-length' of 'links.serial' belongs to the smp-console framing only"),
            .init(name: "baud on udp", replace: "framing: datagram", with: "framing: datagram\n    baud: 9600",
                  at: "baud: 9600", message: "'baud' of 'links.udp' belongs to links.serial only"),
            .init(name: "an unknown characteristic carried", replace: "data: { prefix", with: "dta: { prefix",
                  at: "dta", message: "unknown characteristic 'dta'; did you mean 'data'?"),
            .init(name: "answers names nothing", replace: "answers: control\n  udp", with: "answers: status\n  udp",
                  at: "answers: status", columnOffset: 9, message: "unknown characteristic 'status'"),
            .init(name: "a prefix that is not hex", replace: "prefix: \"08\"", with: "prefix: \"0x8g\"",
                  at: "prefix: \"0x8g\"", columnOffset: 8, message: "must be hex bytes"),
            .init(name: "nothing carried", replace: "carries: { control: }", with: "carries: {}", at: "{}",
                  message: "must name at least one characteristic"),
            .init(name: "a third link kind", replace: "  udp:", with: "  usb:", at: "usb",
                  message: "unknown key 'usb' in 'links'"),
        ]
        assertEachReportedAtItsPlace(cases, in: base, path: "links.yaml")
    }

    func testTheShippedSMPProfileRunsOverSerialAndUDP() throws {
        let path = repositoryRoot.appendingPathComponent("profiles/mcumgr-smp.yaml").path
        let profile = try ProfileLoader.load(path: path)
        XCTAssertEqual(profile.links[.serial]?.framing, .smpConsole)
        XCTAssertEqual(profile.links[.udp]?.port, 1337)
    }
}
