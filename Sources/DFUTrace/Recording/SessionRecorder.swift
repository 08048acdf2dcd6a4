import DFUCapture
import DFUEngine
import DFUGATT
import Synchronization

/// Stamps events with the recording's clock (the link's, from the recording's start) and hands
/// them to the writer. Sendable, so the engine's event handler can add notes from any task; a
/// note carries the time of the link event before it (the engine's events have no time of their
/// own).
public final class SessionRecorder: Sendable {
    /// The file being written.
    public let writer: RecordingWriter
    private let origin: Duration
    private let last = Mutex(Duration.zero)

    /// A recorder whose time zero is `origin` on the link's clock.
    public init(writer: RecordingWriter, origin: Duration) {
        self.writer = writer
        self.origin = origin
    }

    /// Records `kind` at `time` on the link's clock.
    public func record(_ kind: RecordingEvent.Kind, at time: Duration) {
        let elapsed = time - origin
        last.withLock { $0 = Swift.max($0, elapsed) }
        writer.append(RecordingEvent(time: elapsed, kind: kind))
    }

    /// Records a note at the time of the last event.
    public func note(_ text: String) {
        writer.append(RecordingEvent(time: last.withLock { $0 }, kind: .note(text)))
    }

    /// Records what the engine reports that the link does not show: phases, images, retries,
    /// reboots, resumes (progress is left out: the writes show it).
    public func note(_ event: FlashEvent) {
        switch event {
        case let .imageStarted(name, size, index, count): note("image \(index + 1) of \(count): \(name), \(size) bytes")
        case let .phase(name, change): note("phase \(name): \(change.rawValue)")
        case let .transferStarted(image, offset, total, _): note("transfer of \(image) from byte \(offset) of \(total)")
        case let .retrying(reason): note("retrying: \(reason)")
        case let .rebooting(reason): note("rebooting: \(reason)")
        case let .resuming(attempt, of, reason): note("resuming, attempt \(attempt) of \(of): \(reason)")
        case let .imageFinished(name, verified): note("image \(name) finished" + (verified ? ", verified" : ""))
        case let .selected(address, reason): note("selected \(address): \(reason)")
        case .scanning, .connecting, .connected, .linkGranted, .progress: break
        }
    }
}
