import DFUKit

/// The JSON Schemas (draft 2020-12) of what `flash`, `batch run`, `scan` and `exec` print with
/// `--json`, as `dfukit schema output NAME` publishes them. Each command prints one object in
/// every outcome that gets past reading its command line (success, a refusal before the radio,
/// a failure on the device, an interruption), with every key present: null where the outcome
/// cannot tell. So every object here lists all its properties in `required` and allows no
/// other; the one exception is the answer of `exec`, whose fields are the profile's.
/// `make test` runs the commands in those outcomes and checks each output against these
/// schemas with python3-jsonschema (OutputSchemaTests).
enum OutputSchema {
    /// The outputs that have a schema, by the name `dfukit schema output` takes.
    enum Output: String, CaseIterable {
        case flash
        case batchRun = "batch-run"
        case scan
        case exec

        /// The command whose `--json` output it is.
        var command: String {
            switch self {
            case .flash: "flash"
            case .batchRun: "batch run"
            case .scan: "scan"
            case .exec: "exec"
            }
        }
    }

    static let dialect = "https://json-schema.org/draft/2020-12/schema"

    static func schema(_ output: Output) -> JSONValue {
        let (description, root, definitions): (String, JSONValue, [Property]) = switch output {
        case .flash: (flashDescription, flashReport, [("error", error), ("link", link)])
        case .batchRun: (batchDescription, batchSummary, [("error", error), ("radio", radio)])
        case .scan: (scanDescription, scanResult, [("error", error), ("advertiser", advertiser)])
        case .exec: (execDescription, execResult, [("error", error), ("value", answerValue)])
        }
        guard case let .object(members) = describe(root, description) else { return root }
        return .object([
            ("$schema", .string(dialect)),
            ("title", .string("dfukit \(output.command) --json")),
        ] + members + [("$defs", .object(definitions.map { ($0.name, $0.schema) }))])
    }

    // MARK: - flash

    private static let flashDescription = """
        What 'dfukit flash --json' prints: one object, at the end, in every outcome (verified, \
        completed, failed on the device, refused before the radio, interrupted). Every key is \
        present; null where the outcome cannot tell (before any device was reached: address, \
        clock, device_holds, phases_done, link, transfer_seconds, bytes_already_on_device).
        """

    private static var flashReport: JSONValue {
        object("", [
            ("status", choice(FlashStatusName.all, "How the flash ended: verified (every image accepted and its checksums "
                              + "confirmed by the device), completed (the procedure ran to its end but no step compared "
                              + "checksums), failed (see error and device_holds).")),
            ("bytes", count("Image bytes this command moved onto the device: not what it held already, nor a checksum "
                            + "byte a transfer adds; data sent again after a loss counts again.")),
            ("seconds", seconds("The whole run, on the transport's clock (see clock); 0 when it stopped before the radio.")),
            ("bytes_per_second", seconds("bytes over seconds; 0 when no time passed.")),
            ("profile", text("The profile's name (as given when it could not be loaded).")),
            ("device", text("The transport, e.g. sim:vendor-ctrlpt or hci:tcp:127.0.0.1:9002.")),
            ("address", nullable(text("The address of the device that was flashed; null when none was chosen."))),
            ("retries", count("Steps tried again (retry blocks and command attempts).")),
            ("resumes", count("Reconnections after a lost link that went on with the update.")),
            ("clock", nullable(choice(["wall", "simulated"], "What seconds, transfer_seconds and bytes_per_second are "
                                      + "measured on: simulated on sim: without realtime=1, wall otherwise; null when "
                                      + "nothing ran."))),
            ("bytes_already_on_device", nullable(count("Image bytes the device held before this command sent any: where "
                                                       + "a resumed upload started, or the whole image when it was not "
                                                       + "sent; null when no device was reached."))),
            ("not_sent", nullable(text("Why no data of an image was sent although the update went on (the device already "
                                       + "held it); null when every image was sent or nothing ran."))),
            ("transfer_seconds", nullable(seconds("The transfer phase alone, from the first step that moved image data "
                                                  + "to the last progress; null when nothing was transferred."))),
            ("device_holds", nullable(.object([
                ("type", .string("array")),
                ("description", .string("The stage the device is in, or the two it may be in when a command whose answer "
                                        + "was lost may or may not have taken effect: " + stageList + "; [] when the "
                                        + "profile declares no phases; null when no device was reached.")),
                ("items", .object([("enum", .array(DFUProfile.FirmwareStage.allCases.map { .string($0.rawValue) }))])),
                ("maxItems", .integer(2)),
            ]))),
            ("phases_done", nullable(list(of: text("A phase's name."),
                                          "The phases of the (last) image completed or found done, in order; null when "
                                          + "no device was reached."))),
            ("evidence", nullable(text("What proved the stage in device_holds: what the device was observed to run or "
                                       + "hold after the update (the version it reports before and after its reboot, its "
                                       + "image list, its own check of the image), or that the protocol offers no such "
                                       + "proof; null when nothing was sent, no phase ran, or the engine does not say."))),
            ("link", nullable(reference("link", "The link the last connection got; null when no connection was made "
                                        + "or the transport cannot tell."))),
            ("error", nullable(reference("error", "Why it failed; null when status is verified or completed."))),
        ])
    }

    private static var stageList: String {
        DFUProfile.FirmwareStage.allCases.map { "\($0.rawValue) (it \($0.summary))" }.joined(separator: ", ")
    }

    private static var link: JSONValue {
        let phy = nullable(choice(LinkPHYName.all, "1M, 2M or Coded."))
        return object("What the stack granted a connection (README, 'JSON output'); null where the stack did not "
                      + "report a value, never a guess.", [
            ("source", choice(LinkSourceName.all, "Where the values come from: controller (DFUKit's HCI host, from the "
                              + "controller's events), kernel (BlueZ: socket options and the HCI events a raw socket "
                              + "saw), model (the simulator's settings).")),
            ("tx_phy", describe(phy, "The PHY the device is sent on: 1M, 2M or Coded.")),
            ("rx_phy", describe(phy, "The PHY the device is heard on: 1M, 2M or Coded.")),
            ("tx_octets", nullable(count("LL payload bytes per packet sent (27 until an LE Data Length Change)."))),
            ("rx_octets", nullable(count("LL payload bytes per packet received."))),
            ("tx_time_us", nullable(count("Longest packet sent, in microseconds."))),
            ("rx_time_us", nullable(count("Longest packet received, in microseconds."))),
            ("mtu", nullable(count("The ATT_MTU."))),
            ("interval_ms", nullable(seconds("The connection interval, in milliseconds."))),
            ("latency", nullable(count("The peripheral latency, in connection events."))),
            ("supervision_timeout_ms", nullable(count("The supervision timeout, in milliseconds."))),
            ("requested", object("What DFUKit asked for; null where it asked nothing.", [
                ("phy", describe(phy, "The PHY asked for.")),
                ("data_length", nullable(count("The LL data length asked for."))),
                ("mtu", nullable(count("The ATT_MTU asked for."))),
                ("interval_min_ms", nullable(seconds("The shortest connection interval asked for, in milliseconds."))),
                ("interval_max_ms", nullable(seconds("The longest connection interval asked for, in milliseconds."))),
                ("latency", nullable(count("The peripheral latency asked for."))),
                ("supervision_timeout_ms", nullable(count("The supervision timeout asked for, in milliseconds."))),
            ])),
            ("notes", list(of: text("A note."), "Why something asked for was not had, or what the stack does not report.")),
        ])
    }

    // MARK: - batch run

    private static let batchDescription = """
        What 'dfukit batch run --json' prints: one summary object, at the end, in every outcome \
        (every device done, some failed or cancelled, stopped by a signal, the ledger lost, the \
        line refused before any device). Per-device results are in the ledger ('dfukit batch \
        report --json'). Every key is present; null where the outcome cannot tell.
        """

    private static var batchSummary: JSONValue {
        object("", [
            ("devices", count("Devices this run dealt with: flashed, failed, cancelled or skipped.")),
            ("succeeded", count("Devices flashed, and recorded in the ledger.")),
            ("failed", count("Devices whose last attempt failed.")),
            ("cancelled", count("Devices whose attempt was cancelled (a second signal, or the claim lost), as the ledger "
                                + "records them; never counted as failed.")),
            ("skipped", count("Devices skipped: done before with this package, running the target already, or claimed by "
                              + "another station.")),
            ("attempts", count("Attempts made, retries included.")),
            ("seconds", seconds("The run, on the clock named by clock; 0 when it was refused.")),
            ("clock", nullable(choice(["wall", "simulated"], "What seconds is measured on: simulated on a sim: fleet "
                                      + "without realtime=, wall otherwise; null when no device source was opened."))),
            ("stopped_early", boolean("Whether the run ended before every matching device was done (a signal, --count, "
                                      + "the ledger lost).")),
            ("stopped", boolean("Whether a signal or an unreachable ledger stopped the run.")),
            ("signal", nullable(choice(["SIGINT", "SIGTERM"], "The first signal that stopped the run; null when none did."))),
            ("claims_lost", count("Devices abandoned because this station lost its claim on them.")),
            ("unconfirmed_records", count("Attempt records the ledger did not confirm (their devices are not counted as "
                                          + "done).")),
            ("station", nullable(text("This station's name in the ledger; null when the line file could not be read."))),
            ("line", nullable(text("The line's name in the ledger (--line, 'line:', else the line file's name, else the "
                                   + "station's); null when the line file could not be read."))),
            ("line_halted", nullable(text("With --exit-when-halted: the halt that ended the run, e.g. 'line L halted: "
                                          + "failed >= 3 of last 10 held'; null when the line was not halted."))),
            ("halts", count("Halts this station recorded: its line's halt rule held after one of its attempts.")),
            ("quarantined", count("Devices this station quarantined: their failed attempts reached --quarantine-after.")),
            ("radios", nullable(list(of: reference("radio", "One radio."),
                                     "The station's radios, in the order given (--device, repeated or a list such as "
                                     + "bluez:hci0,hci1): each device went to one of them; null when the radios were not "
                                     + "opened (the run was refused before)."))),
            ("package_sha256", nullable(.object([
                ("type", .string("string")),
                ("description", .string("The package file's SHA-256 (lowercase hex), which the ledger keys devices by; "
                                        + "null when the package could not be read.")),
                ("pattern", .string("^[0-9a-f]{64}$")),
            ]))),
            ("lease_seconds", nullable(seconds("How long a claim lasts without a heartbeat; null when the line file could "
                                               + "not be read."))),
            ("ledger_error", nullable(text("Why the ledger could not be used (opened, or reached while the run went on); "
                                           + "null when it could."))),
            ("error", nullable(reference("error", "Why the run was refused or could not start (a line, profile or package "
                                         + "error, a parameter, the transport, the ledger); null when it ran."))),
        ])
    }

    private static var radio: JSONValue {
        object("One radio of the station and its share of the run.", [
            ("name", text("Its name: the adapter's (hci0 for bluez:hci0, hci:user:0), else radio-N by its place.")),
            ("device", text("Its device string alone, e.g. bluez:hci1.")),
            ("devices", count("Devices given to it: worked on, skipped, or never tried because it failed.")),
            ("succeeded", count("Devices it flashed.")),
            ("failed", count("Devices whose last attempt on it failed, and those it never tried because it failed.")),
            ("cancelled", count("Devices whose last attempt on it was cancelled.")),
            ("skipped", count("Devices skipped on it: done before, running the target, or claimed elsewhere.")),
            ("attempts", count("Attempts it made, retries included.")),
            ("failure", nullable(text("Why it failed (its adapter gone or down, it could not scan): it started no more "
                                      + "devices, and the others went on; null when it did not fail."))),
        ])
    }

    // MARK: - scan

    private static let scanDescription = """
        What 'dfukit scan --json' prints: one object in every outcome (devices heard, none, the \
        transport unavailable, interrupted). Every key is present; null where the outcome cannot tell.
        """

    private static var scanResult: JSONValue {
        object("", [
            ("device", text("The transport scanned, e.g. sim:vendor-ctrlpt or bluez:hci0.")),
            ("profile", nullable(text("The profile named with --profile (only its devices are listed); null when every "
                                      + "profile was matched."))),
            ("seconds", count("How long the scan listened, as asked (--seconds).")),
            ("devices", nullable(list(of: reference("advertiser", "An advertising device."),
                                      "The devices heard, in the order first heard; [] when none; null when the scan did "
                                      + "not finish (see error)."))),
            ("error", nullable(reference("error", "Why the scan did not finish; null when it did."))),
        ])
    }

    private static var advertiser: JSONValue {
        object("An advertising device.", [
            ("address", text("Its address, e.g. C0:FF:EE:00:00:01.")),
            ("name", nullable(text("The name it advertises; null when it advertises none."))),
            ("rssi", .object([("type", .string("integer")), ("description", .string("How strongly it was heard, in dBm."))])),
            ("profiles", list(of: text("A profile's name."), "The profiles whose match rule it meets.")),
            ("services", list(of: text("A 16- or 128-bit UUID."), "The service UUIDs it advertises.")),
        ])
    }

    // MARK: - exec

    private static let execDescription = """
        What 'dfukit exec --json' prints: one object in every outcome (answered, refused before the \
        radio, no answer or a refusal from the device, interrupted). Every key is present; null \
        where the outcome cannot tell. The answer's own fields are the profile's: they are named \
        and typed by the command's response in the profile.
        """

    private static var execResult: JSONValue {
        object("", [
            ("status", choice(["answered", "failed"], "answered: the device answered and the answer meets the profile's "
                              + "status rule; failed: see error.")),
            ("command", text("The profile's command that was sent (a key of its commands).")),
            ("profile", text("The profile's name (as given when it could not be loaded).")),
            ("device", text("The transport, e.g. sim:mcumgr-smp.")),
            ("address", nullable(text("The address of the device that was sent the command; null when none was reached."))),
            ("answer", nullable(.object([
                ("type", .string("object")),
                ("description", .string("The answer's fields, named as the profile's response names them: integers, "
                                        + "booleans, text, bytes as lowercase hex, lists and records of them; {} for a "
                                        + "command the profile gives no response fields; null when there is no answer.")),
                ("additionalProperties", .object([("$ref", .string("#/$defs/value"))])),
            ]))),
            ("error", nullable(reference("error", "Why there is no answer; null when status is answered."))),
        ])
    }

    private static var answerValue: JSONValue {
        .object([
            ("description", .string("A field's value: an integer, a boolean, text (bytes as lowercase hex), or a list or "
                                    + "record of values.")),
            ("anyOf", .array([
                .object([("type", .array([.string("integer"), .string("boolean"), .string("string")]))]),
                .object([("type", .string("array")), ("items", .object([("$ref", .string("#/$defs/value"))]))]),
                .object([("type", .string("object")), ("additionalProperties", .object([("$ref", .string("#/$defs/value"))]))]),
            ])),
        ])
    }

    // MARK: - error

    private static var error: JSONValue {
        object("What failed, as the command's last line on standard error says it.", [
            ("kind", choice(ErrorKindName.all, "The class of failure: " + ErrorKindName.described + ".")),
            ("message", text("What failed, where and what to do, in one or more lines.")),
            ("device", nullable(text("What the device holds, in words; null when the failure does not say."))),
            ("offset", nullable(count("The image offset (bytes) the device had reached; null when not known."))),
            ("location", nullable(text("The profile step or key (FILE:LINE:COL) the failure happened at; null when it "
                                       + "came from none."))),
        ])
    }

    // MARK: - Building blocks

    private typealias Property = (name: String, schema: JSONValue)

    /// An object with exactly `properties`, every one required.
    private static func object(_ description: String, _ properties: [Property]) -> JSONValue {
        .object([
            ("type", .string("object")),
            ("description", .string(description)),
            ("properties", .object(properties.map { ($0.name, $0.schema) })),
            ("required", .array(properties.map { .string($0.name) })),
            ("additionalProperties", .bool(false)),
        ])
    }

    private static func text(_ description: String) -> JSONValue {
        .object([("type", .string("string")), ("description", .string(description))])
    }

    private static func boolean(_ description: String) -> JSONValue {
        .object([("type", .string("boolean")), ("description", .string(description))])
    }

    /// A whole number of something, never negative.
    private static func count(_ description: String) -> JSONValue {
        .object([("type", .string("integer")), ("minimum", .integer(0)), ("description", .string(description))])
    }

    /// A quantity that may have a fraction (seconds, milliseconds, a rate), never negative.
    private static func seconds(_ description: String) -> JSONValue {
        .object([("type", .string("number")), ("minimum", .integer(0)), ("description", .string(description))])
    }

    private static func choice(_ values: [String], _ description: String) -> JSONValue {
        .object([("type", .string("string")), ("enum", .array(values.map(JSONValue.string))),
                 ("description", .string(description))])
    }

    private static func list(of item: JSONValue, _ description: String) -> JSONValue {
        .object([("type", .string("array")), ("items", item), ("description", .string(description))])
    }

    private static func reference(_ definition: String, _ description: String) -> JSONValue {
        .object([("$ref", .string("#/$defs/" + definition)), ("description", .string(description))])
    }

    /// `schema`, or null: null joins its `type` (and its `enum`); a `$ref` becomes one of the
    /// two, with the description outside.
    private static func nullable(_ schema: JSONValue) -> JSONValue {
        guard case var .object(members) = schema else { return schema }
        if let index = members.firstIndex(where: { $0.key == "$ref" }) {
            let description = members.first { $0.key == "description" }?.value ?? .string("")
            return .object([("description", description),
                            ("anyOf", .array([.object([members[index]]), .object([("type", .string("null"))])]))])
        }
        for (index, member) in members.enumerated() {
            switch (member.key, member.value) {
            case let ("type", .string(type)): members[index].value = .array([.string(type), .string("null")])
            case let ("enum", .array(values)): members[index].value = .array(values + [.null])
            default: break
            }
        }
        return .object(members)
    }

    /// `schema` with another description.
    private static func describe(_ schema: JSONValue, _ description: String) -> JSONValue {
        guard case var .object(members) = schema else { return schema }
        if let index = members.firstIndex(where: { $0.key == "description" }) { members[index].value = .string(description) }
        return .object(members)
    }
}

// The enums of other modules the schemas list, without CaseIterable: each list is written
// beside an exhaustive switch, so a new case fails to compile here until it is placed.

/// `FlashReport.Status`'s raw values.
private enum FlashStatusName {
    static let all: [String] = [FlashReport.Status.verified, .completed, .failed].map { name($0) }

    private static func name(_ status: FlashReport.Status) -> String {
        switch status {
        case .verified, .completed, .failed: status.rawValue
        }
    }
}

/// `LinkGrant.PHY`'s and `LinkGrant.Source`'s raw values.
private enum LinkPHYName {
    static let all: [String] = [LinkGrant.PHY.le1M, .le2M, .leCoded].map { name($0) }

    private static func name(_ phy: LinkGrant.PHY) -> String {
        switch phy {
        case .le1M, .le2M, .leCoded: phy.rawValue
        }
    }
}

private enum LinkSourceName {
    static let all: [String] = [LinkGrant.Source.controller, .kernel, .model].map { name($0) }

    private static func name(_ source: LinkGrant.Source) -> String {
        switch source {
        case .controller, .kernel, .model: source.rawValue
        }
    }
}

/// The `kind` of an `error` object: `DFUKitError.Kind` (what the library refuses or fails
/// with), `FlashError.Kind` (the engine's finer classes, which `flash` prints), and `ledger`
/// (`batch run`: the ledger cannot be opened), each with what it means.
enum ErrorKindName {
    static let ledger = "ledger"

    /// Each name once, the library's first, with its meaning.
    private static let meanings: [(name: String, meaning: String)] = {
        var entries = library.map { ($0.rawValue, meaning($0)) }
        for kind in engine where !entries.contains(where: { $0.0 == kind.rawValue }) {
            entries.append((kind.rawValue, meaning(kind)))
        }
        return entries + [(ledger, "the ledger cannot be opened; exit 64 or 74")]
    }()

    static var all: [String] { meanings.map(\.name) }

    static var described: String {
        meanings.map { "\($0.name) (\($0.meaning))" }.joined(separator: ", ")
    }

    private static let library: [DFUKitError.Kind] = [.usage, .profile, .package, .transport, .device, .cancelled]
    private static let engine: [FlashError.Kind] = [.usage, .profile, .transport, .device, .timeout, .disconnected,
                                                    .incompatibleDevice, .cancelled]

    private static func meaning(_ kind: DFUKitError.Kind) -> String {
        switch kind {
        case .usage: "the request is wrong: an option, a parameter, a command the profile lacks; exit 64"
        case .profile: "the profile or line cannot be read or cannot run this; exit 65"
        case .package: "the package cannot be read, is damaged, fails its signature or is of a kind the profile does "
            + "not take; exit 65"
        case .transport: "the transport cannot be opened or used, or no device was found; exit 69"
        case .device: "the device refused, stopped answering or the link was lost for good; exit 1"
        case .cancelled: "stopped by a signal or cancelled; exit 130 or 143"
        }
    }

    private static func meaning(_ kind: FlashError.Kind) -> String {
        switch kind {
        case .usage: meaning(DFUKitError.Kind.usage)
        case .profile: meaning(DFUKitError.Kind.profile)
        case .transport: meaning(DFUKitError.Kind.transport)
        case .cancelled: meaning(DFUKitError.Kind.cancelled)
        case .device: "the device refused a command or failed a check; exit 1"
        case .timeout: "the device stopped answering; exit 1"
        case .disconnected: "the link dropped and could not be resumed; exit 1"
        case .incompatibleDevice: "the device lacks a service or characteristic the profile needs; exit 1"
        }
    }
}
