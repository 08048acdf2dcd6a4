import DFUProfile

/// What one procedure run counted, kept by the `ProcedureRunner` and folded into the session's
/// totals by `FlashSession` after the run (whether it finished or not).
struct RunStatistics {
    /// Commands sent again after a timeout, and `retry` blocks started again.
    var retries = 0
    /// The next request sequence number (`sequence` in profiles).
    var sequence: Int
    /// Bytes of the image the device holds, as far as progress tells.
    var bytesHeld = 0
    /// Image bytes this run moved onto the device: how far its progress advanced past where
    /// the device stood (data sent again after the device went back counts again).
    var bytesSent = 0
    /// What the device held of the image when this run first moved its data (nil: it moved none).
    var heldAtTransferStart: Int?
    /// The transfer phase: from the first step that moved image data to the last progress.
    var transferStartedAt: Duration?
    var transferEndedAt: Duration?
}

/// What the session knows of the device's progress with one image, across the runs of a
/// resumed update.
struct ImageProgress {
    /// Phases completed (or found done) in this update, for the next run's machine, and in
    /// the order they were.
    var completedPhases: Set<String> = []
    var phaseOrder: [String] = []
    /// Phases the device showed done before this update did them (their `done:` held on entry).
    var phasesFoundDone: [String] = []
    /// The stage the device reached for certain, as the last phases passed tell; nil when the
    /// profile declares no phases.
    var stage: FirmwareStage?
    /// The stage the device keeps even if it forgets what `lost-on-disconnect` phases achieved.
    var floor: FirmwareStage?
    /// The phase under way, whether it wrote to the device yet, and whether a command of it was
    /// answered (the device may have moved on even if a later step fails).
    var currentPhase: PhaseStep?
    var currentPhaseWrote = false
    var currentPhaseAnswered = false
    /// A rebooting command went out and the device has not been reconnected to since.
    var pendingReboot: PendingReboot?
    /// The stages the device may be in after a phase that would have it run the new image
    /// ended without proof of that (nil: `stage` alone).
    var openHolds: [FirmwareStage]?
    /// What proved the stage, in words (`FlashReport.evidence`).
    var evidence: String?
    /// Whether a run of this update (an earlier one, before a resume) saw the device confirm
    /// the image.
    var verified = false
    /// What `once` reads got, for the runs after a resume.
    var onceAnswers: [String: [String: Value]] = [:]
}
