import DFUBytes
import DFUEngine
import DFUProfile
import XCTest

/// Small profiles written inline, and the values the tests compute with.
enum InlineProfiles {
    /// The characteristics and commands most machine tests share. `get` answers `0x80 value`,
    /// `verify` answers `0x83 crc u32 sha256[32]`; `ping`, `big`, `small` and `done` answer one byte.
    static let header = """
    profile: inline
    characteristics:
      control:
        service: D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F
        uuid: D0F10001-7E3C-4B8A-9C52-1A2B3C4D5E6F
        properties: [write, notify]
      packet:
        service: D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F
        uuid: D0F10002-7E3C-4B8A-9C52-1A2B3C4D5E6F
        properties: [write-without-response]
    notifications:
      receipt:
        characteristic: control
        fields:
          - { type: u8, value: 0x60 }
          - { name: offset, type: u32 }
          - { name: crc, type: u32 }
    commands:
      get:
        characteristic: control
        request:
          - { type: u8, value: 0x01 }
        response:
          fields:
            - { type: u8, value: 0x80 }
            - { name: value, type: u8 }
      verify:
        characteristic: control
        request:
          - { type: u8, value: 0x03 }
        response:
          fields:
            - { type: u8, value: 0x83 }
            - { name: crc, type: u32 }
            - { name: sha, type: bytes, count: 32 }
      big:
        characteristic: control
        request:
          - { type: u8, value: 0x10 }
      small:
        characteristic: control
        request:
          - { type: u8, value: 0x11 }
      done:
        characteristic: control
        request:
          - { type: u8, value: 0x12 }

    """

    /// `header` plus `procedure:` and the given step lines (indented by two spaces).
    static func profile(procedure: String) throws -> Profile {
        try load(header + "procedure:\n" + procedure)
    }

    /// The file line of line `line` (1-based) of a procedure given to `profile(procedure:)`.
    static func fileLine(ofProcedureLine line: Int) -> Int {
        header.filter { $0 == "\n" }.count + 1 + line
    }

    static func load(_ text: String) throws -> Profile {
        do {
            return try ProfileLoader.load(text: text, path: "inline.yaml")
        } catch {
            throw ProfileLoadFailure(text: error.description)
        }
    }

    struct ProfileLoadFailure: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }

    /// "hello": CRC32 0x3610A686, SHA-256 2cf24dba...9824 (Python zlib / hashlib).
    static let hello: [UInt8] = [0x68, 0x65, 0x6C, 0x6C, 0x6F]
    static let helloCRC32: UInt64 = 0x3610_A686
    static let helloSHA256: [UInt8] = [
        0x2C, 0xF2, 0x4D, 0xBA, 0x5F, 0xB0, 0xA3, 0x0E, 0x26, 0xE8, 0x3B, 0x2A, 0xC5, 0xB9, 0xE2, 0x9E,
        0x1B, 0x16, 0x1E, 0x5C, 0x1F, 0xA7, 0x42, 0x5E, 0x73, 0x04, 0x33, 0x62, 0x93, 0x8B, 0x98, 0x24,
    ]

    /// `image` as the engine binds it, written out by hand.
    static func imageRecord(_ data: [UInt8], crc32: UInt64, sha256: [UInt8]) -> Value {
        .record([
            "name": .string("application"), "version": .string("1.0.0"), "data": .bytes(data),
            "size": .integer(UInt64(data.count)), "crc32": .integer(crc32), "sha256": .bytes(sha256),
        ])
    }

    static var helloScope: Scope {
        Scope(["image": imageRecord(hello, crc32: helloCRC32, sha256: helloSHA256),
               "link": .record(["mtu": .integer(23)])])
    }

    static let location = SourceLocation(file: "test.yaml", line: 1, column: 1)

    static func expression(_ text: String) throws -> DFUProfile.Expression {
        try DFUProfile.Expression(parsing: text, at: location)
    }
}
