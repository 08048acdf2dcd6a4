/// One radio of a station (an adapter, a controller, a simulated one): the name it is reported
/// under (`hci0`, `radio-2`) and where it finds and reaches its devices. A batch with several
/// radios gives each device to one of them (`BatchRunner`), and each flashes up to the line's
/// concurrency at once.
public struct BatchRadio: Sendable {
    /// The name attempts, events and summaries carry (`AttemptRecord.radio`).
    public var name: String
    /// Its devices.
    public var source: any BatchDeviceSource

    /// The radio `name` over `source`.
    public init(name: String, source: any BatchDeviceSource) {
        self.name = name
        self.source = source
    }
}

/// How one radio of a batch did (`BatchSummary.radios`).
public struct BatchRadioSummary: Sendable, Equatable {
    /// The radio's name.
    public var name: String
    /// Devices given to it that it worked on, skipped, or never tried because it failed.
    public var devices = 0
    /// Devices it flashed (and the ledger recorded).
    public var succeeded = 0
    /// Devices whose last attempt on it failed, and those it never tried because it failed.
    public var failed = 0
    /// Devices whose last attempt on it was cancelled.
    public var cancelled = 0
    /// Devices skipped on it: done before, claimed elsewhere, or running the target already.
    public var skipped = 0
    /// Attempts it made, retries included.
    public var attempts = 0
    /// Why it failed (its adapter gone, down, its controller closed), or nil when it did not.
    public var failure: String?

    /// A radio called `name` that did nothing yet.
    public init(name: String) {
        self.name = name
    }
}
