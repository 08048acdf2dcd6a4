/// How long a simulated device's flash takes. Defaults follow nRF52 datasheet figures
/// (protocols.md section 7): about 43 us per 32-bit word written and 85 ms per 4 KiB page erase.
public struct FlashTiming: Sendable, Hashable {
    /// Writing one byte to flash (`write-ns-per-byte`).
    public var writePerByte: Duration
    /// Erasing one page (`erase-ms`).
    public var pageErase: Duration
    /// The flash page size in bytes: what one erase clears.
    public var pageSize: Int
    /// Hashing the received image for a verify command, per byte.
    public var hashPerByte: Duration

    /// Flash timing, nRF52's unless given.
    public init(writePerByte: Duration = .nanoseconds(10_750), pageErase: Duration = .milliseconds(85),
                pageSize: Int = 4096, hashPerByte: Duration = .nanoseconds(40)) {
        self.writePerByte = writePerByte
        self.pageErase = pageErase
        self.pageSize = pageSize
        self.hashPerByte = hashPerByte
    }

    /// Time to write `count` bytes at `offset`, erasing every page the write enters first.
    public func writeCost(offset: Int, count: Int) -> Duration {
        guard count > 0 else { return .zero }
        let firstNewPage = (offset + pageSize - 1) / pageSize
        let endPage = (offset + count + pageSize - 1) / pageSize
        let erases = max(0, endPage - firstNewPage)
        return writePerByte * count + pageErase * erases
    }
}
