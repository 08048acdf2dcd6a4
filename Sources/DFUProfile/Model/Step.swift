/// One step of an update procedure. Every step is one of a few generic primitives; protocols
/// differ only in how they combine them.
public struct Step: Sendable {
    /// Which primitive the step is, with its settings.
    public indirect enum Kind: Sendable {
        /// Send a command and, if it has a response, wait for it and make its fields visible to
        /// later expressions as `<as>.<field>` (default `as`: the command's name).
        case send(SendStep)
        /// Loop over `data` in chunks of `size` bytes starting at `from`; `as` names the chunk.
        case chunks(ChunkLoop)
        /// Write `data` raw to a characteristic in segment-size writes, optionally waiting for
        /// receipt notifications every N writes.
        case stream(StreamStep)
        /// Fail (retryably) unless the condition holds. `holds`: the stages the device may be in
        /// when it does not (the check read what the device answered), for the report.
        /// `verifies`: when it holds, the device has shown that it checked the image and runs it
        /// (the report says verified).
        case check(condition: Expression, message: String, holds: [FirmwareStage], verifies: Bool)
        /// Bind variables.
        case set([(name: String, value: Expression)])
        /// `if`: run `then` when the condition holds, else `otherwise`.
        case conditional(condition: Expression, then: [Step], otherwise: [Step])
        /// Run `steps` again (up to `attempts` times in all) when one of them fails on the
        /// device's side (error status, timeout, failed check). A disconnect is not retried here.
        case retry(attempts: Int, steps: [Step])
        /// Drop the link (if still up) and connect again, to the same address or address + 1.
        case reconnect(ReconnectStep)
        /// Let this much time pass on the link clock.
        case wait(Duration)
        /// Stop the procedure with this message.
        case fail(message: String)
        /// Wait for a notification (declared under `notifications:`), bind it and check its
        /// status and `expect` conditions.
        case await(AwaitStep)
        /// A named part of the update that the device either has completed or not (upload,
        /// test, reset, confirm...): skipped when the device already completed it.
        case phase(PhaseStep)
        /// A transfer the device drives: it asks for block N, the steps answer with that block,
        /// until it says it is done (TI OAD).
        case serve(ServeLoop)
        /// Read a characteristic and bind its value.
        case read(ReadStep)
        /// Compare what the device reports about the image it runs (after the update) with what
        /// it reported before and with what the new image reports: the evidence of which image
        /// runs (see `ObserveStep`).
        case observe(ObserveStep)
    }

    /// What the step does.
    public var kind: Kind
    /// Where it is written in the profile.
    public var location: SourceLocation

    /// A step of `kind` written at `location`.
    public init(kind: Kind, location: SourceLocation) {
        self.kind = kind
        self.location = location
    }
}

/// `send`: one command and its response.
public struct SendStep: Sendable {
    /// The command to send.
    public var command: String
    /// Name under which the response fields are visible; defaults to the command name.
    package var alias: String
    /// Overrides the command's timeout for this step.
    public var timeout: Duration?
    /// Times to send it again after a timeout; nil: the profile's default.
    public var retries: Int?
    /// Conditions the response must meet (e.g. `data.next_offset == chunk.end`).
    public var expect: [Expression]
    /// When true, a failure (error status, timeout) does not stop the procedure: the alias
    /// gets `ok: false` (and `ok: true` with the fields on success).
    public var optional: Bool = false
    /// Overrides the command's `reboots`.
    public var reboots: RebootSpec?
    /// The device's success answer (a response, or the ATT write response of a command that has
    /// none) is its own check of the whole image: against a checksum it was sent (a SUOTA end
    /// command after the XOR byte) or one the image carries (a GBL file's end-tag CRC-32). The
    /// update then counts as verified.
    package var verifies: Bool = false
    /// Sent only the first time the procedure runs for an image (a question such as "which
    /// version do you run?" asked before the update began): a resume keeps its answer.
    package var once = false

    /// A step that sends `command`, binding its response as `alias`.
    public init(command: String, alias: String, timeout: Duration?, retries: Int?, expect: [Expression]) {
        self.command = command
        self.alias = alias
        self.timeout = timeout
        self.retries = retries
        self.expect = expect
    }
}

/// Chunk loop variables, visible as `<as>.offset`, `.end`, `.size`, `.data`, `.index`,
/// `.first` and `.last`.
public struct ChunkLoop: Sendable {
    /// The bytes to cut into chunks.
    public var data: Expression
    /// The offset of the first chunk; nil: 0.
    public var from: Expression?
    /// The chunk size in bytes.
    public var size: Expression
    package var alias: String
    /// Whether finishing a chunk counts as upload progress.
    package var reportsProgress: Bool
    /// When true, chunks end at multiples of `size` counted from offset 0 (Nordic's data
    /// objects): a loop starting mid-chunk first visits that chunk, with `<as>.from` the
    /// start offset and `<as>.offset` the chunk's boundary.
    package var aligned: Bool = false
    /// Where the next chunk starts, from what the last step learned (SMP's `upload.off`);
    /// default `<as>.end`.
    public var next: Expression?
    /// Requests in flight at once (the body must be a single `send`); nil: one at a time.
    public var window: Expression?
    /// The steps run for each chunk.
    public var steps: [Step]

    /// A loop over `data` in chunks of `size` from `from`, running `steps` with the chunk as `alias`.
    public init(data: Expression, from: Expression?, size: Expression, alias: String, reportsProgress: Bool,
                steps: [Step]) {
        self.data = data
        self.from = from
        self.size = size
        self.alias = alias
        self.reportsProgress = reportsProgress
        self.steps = steps
    }
}

/// `stream`: raw data written to a characteristic as fast as the link takes it.
public struct StreamStep: Sendable {
    /// Flow control by receipt notifications (Nordic's PRN): after every `every` writes, wait
    /// for `notification`, bind it as `alias` and check `expect`. `every` evaluating to 0
    /// turns receipts off.
    public struct Receipts: Sendable {
        /// Writes between two receipts (0: no receipts).
        public var every: Expression
        /// The notification that acknowledges them.
        public var notification: String
        package var alias: String
        /// Conditions each receipt must meet.
        public var expect: [Expression]
        /// How long to wait for each receipt; nil: the profile's default.
        public var timeout: Duration?

        /// Receipts of `notification` every `every` writes, bound as `alias` and checked with `expect`.
        public init(every: Expression, notification: String, alias: String, expect: [Expression],
                    timeout: Duration?) {
            self.every = every
            self.notification = notification
            self.alias = alias
            self.expect = expect
            self.timeout = timeout
        }
    }

    /// The bytes to write.
    public var data: Expression
    /// The offset to start at (a resumed transfer); nil: 0.
    public var from: Expression?
    /// The characteristic written to.
    public var to: String
    /// Overrides the characteristic's write type.
    public var writeType: CharacteristicSpec.WriteType?
    /// At most this many bytes per write, below the characteristic's own segment size (Nordic's
    /// serial DFU: what the device's MTU answer allows); nil: the characteristic's.
    public var segment: Expression?
    package var receipts: Receipts?
    package var reportsProgress: Bool

    /// A stream of `data` from `from` to the characteristic `to`.
    public init(data: Expression, from: Expression?, to: String, writeType: CharacteristicSpec.WriteType?,
                receipts: Receipts?, reportsProgress: Bool) {
        self.data = data
        self.from = from
        self.to = to
        self.writeType = writeType
        self.receipts = receipts
        self.reportsProgress = reportsProgress
    }
}

/// `await`: wait for a notification and check it.
public struct AwaitStep: Sendable {
    /// The notification waited for.
    public var notification: String
    /// Further notifications that end the wait too (`await: [a, b]`): whichever comes first
    /// is bound under its own name, and `awaited` names it.
    public var alternatives: [String] = []
    package var alias: String
    /// How long to wait; nil: the profile's default.
    public var timeout: Duration?
    /// Conditions it must meet.
    public var expect: [Expression]

    /// A wait for `notification`, bound as `alias`.
    public init(notification: String, alias: String, timeout: Duration?, expect: [Expression]) {
        self.notification = notification
        self.alias = alias
        self.timeout = timeout
        self.expect = expect
    }

    /// Every notification the step waits for, the first one first.
    public var notifications: [String] { [notification] + alternatives }
}

/// A transfer the device drives (TI OAD): the device sends `request` notifications asking for
/// a block by number; for each, the steps run with the block bound (`<as>.offset`, `.end`,
/// `.size`, `.data`, `.index` = the block number, `.first`, `.last`); the loop ends when the
/// device sends `done`, or when `until` holds after a block.
public struct ServeLoop: Sendable {
    /// The notification by which the device asks for a block.
    public var request: String
    /// The notification by which it says the transfer is over; nil when `until` ends it.
    public var done: String?
    /// A condition checked after each block that ends the loop.
    public var until: Expression?
    /// The block number asked for, from the request's fields.
    package var block: Expression
    /// The block size in bytes.
    public var size: Expression
    /// The bytes the blocks are cut from.
    public var data: Expression
    package var alias: String
    /// How long the device may take to ask for the next block.
    public var timeout: Duration?
    package var reportsProgress: Bool
    /// The steps that answer one request.
    public var steps: [Step]

    /// A loop serving blocks of `data` as the device asks for them.
    public init(request: String, done: String?, until: Expression?, block: Expression, size: Expression,
                data: Expression, alias: String, timeout: Duration?, reportsProgress: Bool, steps: [Step]) {
        self.request = request
        self.done = done
        self.until = until
        self.block = block
        self.size = size
        self.data = data
        self.alias = alias
        self.timeout = timeout
        self.reportsProgress = reportsProgress
        self.steps = steps
    }
}

/// Reads a characteristic (e.g. the Device Information service's Firmware Revision after a
/// reboot) and binds `<as>.value` (bytes), `.text` (UTF-8, trailing NULs dropped), `.size`.
public struct ReadStep: Sendable {
    /// The characteristic read.
    public var characteristic: String
    package var alias: String
    /// Conditions its value must meet.
    public var expect: [Expression]
    /// Read only the first time the procedure runs for an image: a resume keeps what was read
    /// before the update began (the version the device ran before), instead of reading what it
    /// runs halfway through.
    package var once = false

    /// A read of `characteristic`, bound as `alias`.
    public init(characteristic: String, alias: String, expect: [Expression]) {
        self.characteristic = characteristic
        self.alias = alias
        self.expect = expect
    }
}

/// `reconnect`: drop the link and connect again.
public struct ReconnectStep: Sendable {
    /// Where the device is found after reconnecting.
    public enum Address: String, Sendable {
        /// The address it had.
        case same
        /// The device's address plus one (Nordic bootloaders without bond sharing).
        case next
    }

    /// Where to connect.
    public var address: Address
    /// How long to wait for the device; nil: the resume policy's reconnect timeout.
    public var timeout: Duration?

    /// A reconnect to `address`.
    public init(address: Address, timeout: Duration?) {
        self.address = address
        self.timeout = timeout
    }
}

/// A phase of the update: steps that take the device from one stage to the next, e.g. "upload",
/// "test", "reset", "confirm".
///
/// When the procedure reaches a phase (the first time, or again after a resume) and `done`
/// holds, the device already completed it and the phase is skipped. A phase completed earlier
/// in this update is never run again unless it is `repeatable`: if the device no longer shows
/// it done, the update stops and says so. A link lost inside a phase that is not `resumable`,
/// after the phase wrote to the device, stops the update too, with what the device may hold.
public struct PhaseStep: Sendable {
    /// The phase's name, as reports and events show it.
    public var name: String
    /// Whether the device already completed this phase, from what the procedure asked it.
    public var done: Expression?
    /// The stage the device is in once this phase completed.
    package var achieves: FirmwareStage?
    /// Running it again after it completed is what the protocol wants (a bootloader that
    /// forgets everything on a disconnect starts over).
    public var repeatable: Bool
    /// Whether the update may resume after a link lost inside this phase.
    package var resumable: Bool
    /// The device may forget what this phase achieved when the link drops (an nRF5 SDK 16-17
    /// bootloader reloads its settings on a disconnect): a report then says it may be back at
    /// the stage before.
    package var lostOnDisconnect = false
    /// For a phase that `achieves` a stage in which the device runs the new image
    /// (`unconfirmed`, `installed`): what to report when nothing in the phase proves that it
    /// does (no `observe` saw the new image run, no check confirmed it). Nil: the default, the
    /// stage before the phase or the phase's stage, and a sentence saying nothing proved which.
    package var unproven: UnprovenOutcome?
    /// The steps that do it.
    public var steps: [Step]

    /// A phase `name` that is skipped when `done` holds and leaves the device at `achieves`.
    public init(name: String, done: Expression?, achieves: FirmwareStage?, repeatable: Bool = false,
                resumable: Bool = true, steps: [Step]) {
        self.name = name
        self.done = done
        self.achieves = achieves
        self.repeatable = repeatable
        self.resumable = resumable
        self.steps = steps
    }
}

/// `observe`: the evidence of which image a device runs after its update. `after` is what the
/// device reports now (a version read back after the reboot); `before` what it reported before
/// the update began (a `read` with `once: true`); `new` what the new image reports (its version
/// from the package). `RunningImageEvidence` judges them: the new image is shown to run, the
/// previous one is, or the values cannot tell (the new image reports what the old one did).
public struct ObserveStep: Sendable {
    /// What is compared, in words, for reports ("the software version (get_sw_version)").
    public var subject: String
    /// What the device reported before the update; nil, or a name not bound: not known.
    public var before: Expression?
    /// What it reports now.
    public var after: Expression
    /// What the new image reports; nil: the package does not say (only a change can show it).
    public var new: Expression?
    /// The device starts an image only once it checked it (a Telink server checks the image's
    /// CRC-32 before it boots it): the new image shown running verifies the update.
    package var verifies = false

    /// An observation of `subject`, comparing `after` with `before` and `new`.
    public init(subject: String, before: Expression?, after: Expression, new: Expression?) {
        self.subject = subject
        self.before = before
        self.after = after
        self.new = new
    }
}

/// What a phase that would have the device run the new image reports when nothing proved it
/// does: the stages it may be in, and why the protocol cannot tell.
public struct UnprovenOutcome: Sendable {
    /// The stages the device may be in (`unproven-holds`); empty: the stage before the phase or
    /// the phase's own.
    public var holds: [FirmwareStage]
    /// Why nothing proves it (`unproven`), e.g. "the device gives no way to tell which image runs".
    public var message: String?

    /// An outcome of `holds` (empty: the default stages) said with `message` (nil: the default).
    public init(holds: [FirmwareStage], message: String?) {
        self.holds = holds
        self.message = message
    }
}
