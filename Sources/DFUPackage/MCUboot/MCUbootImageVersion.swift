/// `struct image_version` of an MCUboot header: major u8, minor u8, revision u16, build u32,
/// written by `imgtool sign --version MAJOR.MINOR.REVISION+BUILD`.
public struct MCUbootImageVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major version.
    public var major: UInt8
    /// The minor version.
    public var minor: UInt8
    /// The revision.
    public var revision: UInt16
    /// The build number.
    public var build: UInt32

    /// The version `major.minor.revision+build`.
    public init(major: UInt8, minor: UInt8, revision: UInt16, build: UInt32) {
        self.major = major
        self.minor = minor
        self.revision = revision
        self.build = build
    }

    /// Parses `1.2.3+4` as imgtool does: `MAJOR[.MINOR[.REVISION]][+BUILD]`, missing parts 0.
    /// Returns `nil` for anything else or a part too large for its field.
    public init?(_ text: String) {
        let halves = text.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)
        let parts = halves[0].split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        func number(_ part: Substring?, limit: UInt64) -> UInt64? {
            guard let part else { return 0 }
            guard !part.isEmpty, part.count <= 10, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = UInt64(part), value <= limit else { return nil }
            return value
        }
        guard let major = number(parts[0], limit: UInt64(UInt8.max)),
              let minor = number(parts.count > 1 ? parts[1] : nil, limit: UInt64(UInt8.max)),
              let revision = number(parts.count > 2 ? parts[2] : nil, limit: UInt64(UInt16.max)),
              let build = number(halves.count > 1 ? halves[1] : nil, limit: UInt64(UInt32.max)) else { return nil }
        self.init(major: UInt8(major), minor: UInt8(minor), revision: UInt16(revision), build: UInt32(build))
    }

    /// `1.2.3+4`, as `imgtool dumpinfo` prints it.
    public var description: String { "\(major).\(minor).\(revision)+\(build)" }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.major, lhs.minor, lhs.revision, lhs.build) < (rhs.major, rhs.minor, rhs.revision, rhs.build)
    }
}
