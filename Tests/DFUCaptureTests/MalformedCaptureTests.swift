import DFUCapture
import XCTest

/// Wrong magic, truncation at every byte, random bytes: a `CaptureError` or notes, never a trap.
final class MalformedCaptureTests: XCTestCase {
    static let fixtures = ["bumble-session.btsnoop", "bumble-session.pcap", "bumble-session-monitor.btsnoop",
                           "ll-session-251.pcap", "ll-session-256.pcap", "ll-session-272.pcap"]

    func testUnknownMagicNamesTheFileTheBytesAndTheFormats() {
        XCTAssertThrowsError(try CaptureReader.read(bytes: Array("hello world".utf8), source: "notes.txt")) { error in
            let error = error as! CaptureError
            XCTAssertEqual(error.kind, .unknownFormat)
            XCTAssertEqual(error.description,
                           "notes.txt at byte 0: the first bytes (68 65 6C 6C 6F 20 77 6F 72 6C 64) are no capture "
                               + "format DFUKit reads; DFUKit reads btsnoop (datalinks 1001, 1002, 2001), pcap and pcapng "
                               + "(link types 201, 251, 256, 272), DFUKit recordings (--record), each also gzip-compressed; "
                               + "`capinfos FILE` "
                               + "(Wireshark) tells what a file is")
        }
    }

    func testPcapngWithoutAnInterfaceSaysSo() {
        // A Section Header Block alone (28 bytes, little-endian), no Interface Description Block.
        let pcapng: [UInt8] = [0x0A, 0x0D, 0x0D, 0x0A, 0x1C, 0, 0, 0, 0x4D, 0x3C, 0x2B, 0x1A, 1, 0, 0, 0,
                               0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x1C, 0, 0, 0]
        XCTAssertThrowsError(try CaptureReader.read(bytes: pcapng, source: "trace.pcapng")) { error in
            let error = error as! CaptureError
            XCTAssertEqual(error.kind, .unsupportedFormat)
            XCTAssertTrue(error.description.contains("the pcapng file describes no interface"), error.description)
        }
    }

    func testMissingFile() {
        XCTAssertThrowsError(try CaptureReader.read(path: "/nonexistent/capture.btsnoop")) { error in
            XCTAssertEqual((error as! CaptureError).kind, .unreadableFile)
        }
    }

    func testUnsupportedLinkType() throws {
        var bytes = try fixtureBytes("ll-session-251.pcap")
        bytes[20] = 1  // Ethernet (the file is little-endian)
        XCTAssertThrowsError(try CaptureReader.read(bytes: bytes, source: "ethernet.pcap")) { error in
            XCTAssertEqual((error as! CaptureError).kind, .unsupportedFormat)
        }
    }

    func testCutShortRecordIsNotedWithItsNumberAndOffset() throws {
        let bytes = try fixtureBytes("bumble-session.btsnoop")
        let session = try CaptureReader.read(bytes: Array(bytes.dropLast(3)), source: "cut.btsnoop")
        XCTAssertEqual(session.connections.count, 1)
        let note = try XCTUnwrap(session.notes.first)
        XCTAssertTrue(note.hasPrefix("record "), note)
        XCTAssertTrue(note.contains("is cut short: the capture ends there"), note)
    }

    func testEveryTruncationOfEveryFixture() throws {
        for name in Self.fixtures {
            let bytes = try fixtureBytes(name)
            for length in 0...bytes.count {
                do {
                    _ = try CaptureReader.read(bytes: Array(bytes.prefix(length)), source: name)
                } catch {
                    // A header cut short throws; that is all a truncation may do.
                    XCTAssertTrue(length < 24, "\(name) cut to \(length): \(error)")
                }
            }
        }
    }

    func testRandomBytesAndFlippedBytes() throws {
        var generator = XorShift64Star(seed: 0xDF0C)
        let headers: [[UInt8]] = try Self.fixtures.map { Array(try fixtureBytes($0).prefix(24)) }
        for round in 0..<300 {
            let count = Int(generator.next() % 600)
            let noise = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            // Pure noise, and noise behind each real header (so that the record readers run).
            _ = try? CaptureReader.read(bytes: noise, source: "noise-\(round)")
            _ = try? CaptureReader.read(bytes: headers[round % headers.count] + noise, source: "noise-\(round)")
        }
        for name in Self.fixtures {
            let original = try fixtureBytes(name)
            for _ in 0..<200 {
                var bytes = original
                for _ in 0..<4 {
                    let index = 16 + Int(generator.next() % UInt64(bytes.count - 16))
                    bytes[index] = UInt8(truncatingIfNeeded: generator.next())
                }
                _ = try? CaptureReader.read(bytes: bytes, source: name)
            }
        }
    }
}

/// xorshift64* (Vigna), a small deterministic generator: a failure replays from its seed.
struct XorShift64Star {
    var state: UInt64
    init(seed: UInt64) { state = seed | 1 }
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
