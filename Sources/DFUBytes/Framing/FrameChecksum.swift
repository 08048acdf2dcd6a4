/// A checksum a framing appends after the payload (its trailer): an algorithm name, how many
/// bytes the value takes in the frame, and how to compute it over the bytes before it.
///
/// Two checksums are equal when their names and widths are; the computation is the catalogue's.
public struct FrameChecksum: Sendable {
    /// The name a profile gives it (`checksum: crc16`).
    public let name: String
    /// Bytes of the trailer, 1...8.
    public let width: Int
    private let compute: @Sendable ([UInt8]) -> UInt64

    /// A checksum called `name`, `width` bytes wide in the frame, computed by `compute` over the
    /// bytes before the trailer.
    public init(name: String, width: Int, compute: @escaping @Sendable ([UInt8]) -> UInt64) {
        self.name = name
        self.width = width
        self.compute = compute
    }

    /// The checksum of `bytes` (the frame before its trailer).
    public func value(of bytes: [UInt8]) -> UInt64 { compute(bytes) }

    /// The algorithm called `name` in `FrameChecksumCatalogue`, or nil when it has none.
    public static func named(_ name: String) -> FrameChecksum? {
        FrameChecksumCatalogue.lookup(name).map { FrameChecksum(name: name, width: $0.width, compute: $0.compute) }
    }
}

extension FrameChecksum: Hashable {
    public static func == (left: FrameChecksum, right: FrameChecksum) -> Bool {
        left.name == right.name && left.width == right.width
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(width)
    }
}
