/// One step of an update procedure. Every step is one of a few generic primitives; protocols
/// differ only in how they combine them.
public struct Step: Sendable {
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
        case conditional(condition: Expression, then: [Step], otherwise: [Step])
        /// Run `steps` again (up to `attempts` times in all) when one of them fails on the
        /// device's side (error status, timeout, failed check). A disconnect is not retried here.
        case retry(attempts: Int, steps: [Step])
        /// Drop the link (if still up) and connect again, to the same address or address + 1.
        case reconnect(ReconnectStep)
        case wait(Duration)
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
    }

    public var kind: Kind
    public var location: SourceLocation

    public init(kind: Kind, location: SourceLocation) {
        self.kind = kind
        self.location = location
    }
}

public struct SendStep: Sendable {
    public var command: String
    /// Name under which the response fields are visible; defaults to the command name.
    public var alias: String
    public var timeout: Duration?
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
    public var verifies: Bool = false

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
    public var data: Expression
    public var from: Expression?
    public var size: Expression
    public var alias: String
    /// Whether finishing a chunk counts as upload progress.
    public var reportsProgress: Bool
    /// When true, chunks end at multiples of `size` counted from offset 0 (Nordic's data
    /// objects): a loop starting mid-chunk first visits that chunk, with `<as>.from` the
    /// start offset and `<as>.offset` the chunk's boundary.
    public var aligned: Bool = false
    /// Where the next chunk starts, from what the last step learned (SMP's `upload.off`);
    /// default `<as>.end`.
    public var next: Expression?
    /// Requests in flight at once (the body must be a single `send`); nil: one at a time.
    public var window: Expression?
    public var steps: [Step]

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

public struct StreamStep: Sendable {
    /// Flow control by receipt notifications (Nordic's PRN): after every `every` writes, wait
    /// for `notification`, bind it as `alias` and check `expect`. `every` evaluating to 0
    /// turns receipts off.
    public struct Receipts: Sendable {
        public var every: Expression
        public var notification: String
        public var alias: String
        public var expect: [Expression]
        public var timeout: Duration?

        public init(every: Expression, notification: String, alias: String, expect: [Expression],
                    timeout: Duration?) {
            self.every = every
            self.notification = notification
            self.alias = alias
            self.expect = expect
            self.timeout = timeout
        }
    }

    public var data: Expression
    public var from: Expression?
    public var to: String
    /// Overrides the characteristic's write type.
    public var writeType: CharacteristicSpec.WriteType?
    public var receipts: Receipts?
    public var reportsProgress: Bool

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

public struct AwaitStep: Sendable {
    public var notification: String
    /// Further notifications that end the wait too (`await: [a, b]`): whichever comes first
    /// is bound under its own name, and `awaited` names it.
    public var alternatives: [String] = []
    public var alias: String
    public var timeout: Duration?
    public var expect: [Expression]

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
    public var request: String
    public var done: String?
    public var until: Expression?
    /// The block number asked for, from the request's fields.
    public var block: Expression
    public var size: Expression
    public var data: Expression
    public var alias: String
    /// How long the device may take to ask for the next block.
    public var timeout: Duration?
    public var reportsProgress: Bool
    public var steps: [Step]

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
    public var characteristic: String
    public var alias: String
    public var expect: [Expression]

    public init(characteristic: String, alias: String, expect: [Expression]) {
        self.characteristic = characteristic
        self.alias = alias
        self.expect = expect
    }
}

public struct ReconnectStep: Sendable {
    public enum Address: String, Sendable {
        case same
        /// The device's address plus one (Nordic bootloaders without bond sharing).
        case next
    }

    public var address: Address
    public var timeout: Duration?

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
    public var name: String
    /// Whether the device already completed this phase, from what the procedure asked it.
    public var done: Expression?
    /// The stage the device is in once this phase completed.
    public var achieves: FirmwareStage?
    /// Running it again after it completed is what the protocol wants (a bootloader that
    /// forgets everything on a disconnect starts over).
    public var repeatable: Bool
    /// Whether the update may resume after a link lost inside this phase.
    public var resumable: Bool
    /// The device may forget what this phase achieved when the link drops (an nRF5 SDK 16-17
    /// bootloader reloads its settings on a disconnect): a report then says it may be back at
    /// the stage before.
    public var lostOnDisconnect = false
    public var steps: [Step]

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
