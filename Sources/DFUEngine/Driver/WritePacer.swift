import DFUGATT

/// Keeps writes to a characteristic at least its `write-interval` apart, for devices that take
/// data without acknowledging it, paced as their vendors' tools pace them (fwupd writes Telink
/// OTA packets 5 ms apart).
/// One per procedure run, so the spacing holds across the commands and streams of the run.
final class WritePacer {
    private var lastWrite: [UInt16: Duration] = [:]

    /// Waits on the link's clock until a write to `target` may go out.
    func wait(before target: WriteTarget, on link: any GATTLink) async throws(GATTError) {
        guard let interval = target.minimumInterval, let last = lastWrite[target.characteristic.valueHandle] else { return }
        let due = last + interval
        if link.now < due { try await link.sleep(until: due) }
    }

    /// A write to `target` went out at `time`.
    func wrote(to target: WriteTarget, at time: Duration) {
        guard target.minimumInterval != nil else { return }
        lastWrite[target.characteristic.valueHandle] = time
    }
}
