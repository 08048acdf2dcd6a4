/// How many bytes may be inflated from one zip entry.
///
/// The caller knows how large an entry should be (the manifest's `size`, or a fixed bound for
/// the manifest itself). Reading allows a little slack above that, so that a slightly wrong size
/// is still read and then reported as a size mismatch, but stops well before a zip bomb could
/// exhaust memory, whatever the zip headers claim.
package enum ZipReadLimit {
    /// Bytes allowed beyond the expected size.
    package static let slack = 64 * 1024
    /// No entry is ever read beyond this, whatever the caller expects.
    package static let hardLimit = 64 * 1024 * 1024

    /// The most bytes that may be read from an entry expected to hold `expectedSize` bytes.
    package static func limit(forExpectedSize expectedSize: Int) -> Int {
        let expected = max(0, expectedSize)
        guard expected <= hardLimit - slack else { return hardLimit }
        return expected + slack
    }
}
