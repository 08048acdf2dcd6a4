/// How a simulated SMP server is built (the `sim:mcumgr-smp` keys in parentheses).
public struct SMPServerSettings: Sendable, Equatable {
    /// How the upload slot is erased.
    public enum EraseMode: String, Sendable, Equatable, CaseIterable {
        /// Each 4 KiB page when the upload first reaches it (`CONFIG_IMG_ERASE_PROGRESSIVELY`).
        case progressive
        /// The first chunk erases `len` bytes of the slot at once: it can take seconds.
        case slot
        /// The slot is already erased: no erase time.
        case none
    }

    /// Largest request frame, header included, the server takes (`buf-size`; NCS with SMP
    /// reassembly: 2475). Longer requests are answered `{rc: 7}` (EMSGSIZE).
    public var bufferSize = 2475
    /// Requests that may wait or be processed at once (`buf-count`); further ones are dropped.
    public var bufferCount = 4
    /// (`erase`)
    public var eraseMode = EraseMode.progressive
    /// 2: answers in the request's version (Zephyr 3.3 and later). 1: a server that only knows
    /// the original protocol answers everything as v1 (header version 0, `{rc}` errors)
    /// (`smp-version`).
    public var protocolVersion = 2
    /// Size of each of the two image slots.
    public var slotSize = 1 << 20
    public var flash = FlashTiming()
    /// Decoding a request and building its answer, before any flash work.
    public var requestOverhead: Duration = .microseconds(500)
    /// Requests (1-based, counted over the device's life) answered `{rc: 10}` (EBUSY).
    public var busyRequests: Set<Int> = []

    public init() {}
}
