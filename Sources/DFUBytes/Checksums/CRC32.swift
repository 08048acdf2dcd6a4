import CZlib

/// CRC-32 as in zlib, ZIP and PNG (reflected polynomial 0xEDB88320, init and final XOR
/// 0xFFFFFFFF): "123456789" -> 0xCBF43926. Computed by zlib's `crc32_z`, which is several
/// times faster than a Swift loop, especially in debug builds.
package struct CRC32: Sendable, Hashable {
    /// The CRC of everything passed to `update` so far.
    package private(set) var value: UInt32 = 0

    package init() {}

    package mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        let next = crc32_z(UInt(value), base.assumingMemoryBound(to: Bytef.self), buffer.count)
        value = UInt32(truncatingIfNeeded: next)
    }

    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    package mutating func update(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The CRC so far (same as `value`; named for symmetry with the other checksums).
    package func finalize() -> UInt32 { value }

    /// The CRC-32 of `bytes` in one call.
    package static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}
