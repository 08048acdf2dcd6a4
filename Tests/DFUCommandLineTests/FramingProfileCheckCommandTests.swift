import Foundation
import XCTest

/// `dfukit profile check` over issue 11's framing: a 3-byte header with the length at byte 1
/// and no placeholder in the message. Inserted (the default) it passes; laid over the message
/// it is refused where the length would overwrite the u32, with exit 65.
final class FramingProfileCheckCommandTests: XCTestCase {
    private static func profile(lengthField: String) -> String {
        """
        profile: opcode-then-length
        framings:
          f: { header-size: 3, length-offset: 1, length-width: 2, endian: little, length-field: \(lengthField) }
        characteristics:
          control: { service: FEED, uuid: BEEF, properties: [write, notify], framing: f }
        commands:
          start:
            characteristic: control
            request:
              - { type: u8, value: 0x01 }
              - { name: size, type: u32, value: image.size }
        procedure:
          - send: start

        """
    }

    func testInsertedPassesAndOverlaidIsRefusedAtTheField() throws {
        let directory = try TemporaryDirectory()
        try directory.write("insert.yaml", text: Self.profile(lengthField: "insert"))
        try directory.write("overlay.yaml", text: Self.profile(lengthField: "overlay"))

        let inserted = try DFUKitBinary.run(["profile", "check", "insert.yaml"], in: directory.path)
        XCTAssertEqual(inserted.status, 0, inserted.transcript)

        let overlaid = try DFUKitBinary.run(["profile", "check", "overlay.yaml"], in: directory.path)
        XCTAssertEqual(overlaid.status, 65, overlaid.transcript)
        XCTAssertEqual(overlaid.stdout, "")
        XCTAssertEqual(overlaid.stderr, "overlay.yaml:11:9: error: field 2 'size' (bytes 1..<5) of the request of "
                       + "command 'start' overlaps the length's bytes 1..<3: declare one u16le field exactly on "
                       + "bytes 1..<3 (framing 'f' replaces its value by the length)\n")
    }
}
