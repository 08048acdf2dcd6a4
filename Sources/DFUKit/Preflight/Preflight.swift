import Foundation

/// Every check that needs no device, made in one place before the radio for every way into
/// DFUKit: `DFUKit.flash`, `exec` and `batch`, and `dfukit flash`, `exec` and `batch run`
/// (which build the same requests), so one input gets one refusal, one message and one exit
/// code whichever way it comes in, before a byte is sent.
///
/// In order: the device string and its scheme's options; the device's identity (a profile that
/// cannot tell its devices apart needs an address); where a session is recorded (its directory
/// exists and may be written to); for a batch its radios and the station's name; the
/// package (images, checksums, kind, signatures with the given key and the profile's
/// `signing-key`, what the profile reads of each image); the parameters (name, type, values,
/// range; for a batch with the line's other checks); the profile's opening checks over each
/// image with those parameters.
public enum Preflight {
    /// Checks a flash. `places` says where each parameter was written, for messages (a command
    /// line's `--set prn=abc`); the refusal is otherwise the same.
    /// - Throws: `.usage` (device string, parameters), `.package`, `.profile`.
    public static func flash(_ request: FlashRequest, places: [String: String] = [:]) throws(DFUKitError) -> FlashPlan {
        let (locator, scheme) = try request.registry.locate(request.device)
        try link(request.profile, scheme: scheme, locator: locator)
        if let path = request.recordFile { try recordFile(path) }
        let notes = try package(request.package, profile: request.profile, publicKeyPEM: request.publicKeyPEM,
                                force: request.force, parameters: request.options.parameters)
        var options = request.options
        options.parameters = try Self.parameters(request.options.parameters, profile: request.profile) { places[$0] }
        try writeTypes(options, profile: request.profile)
        let images = FlashImage.images(of: request.package)
        try openingChecks(images, profile: request.profile, parameters: options.parameters)
        return FlashPlan(request: request, locator: locator, scheme: scheme, images: images, options: options, notes: notes)
    }

    /// Checks one command: it exists, a command that changes the device was meant, its
    /// parameters are ones it reads and fit the profile (`places` as for `flash`).
    /// - Throws: `.usage`.
    public static func exec(_ request: ExecRequest, places: [String: String] = [:]) throws(DFUKitError) -> ExecPlan {
        let profile = request.profile
        let (locator, scheme) = try request.registry.locate(request.device)
        try link(profile, scheme: scheme, locator: locator)
        if let path = request.recordFile { try recordFile(path) }
        guard let spec = profile.commands[request.command] else {
            let known = profile.commands.keys.sorted()
            throw DFUKitError(kind: .usage, message: "profile '\(profile.name)' has no command '\(request.command)'"
                              + (KeySuggestion.didYouMean(request.command, in: known)
                                 ?? "; its commands: \(known.joined(separator: ", "))"))
        }
        let parameters = try commandParameters(request.parameters, command: spec, profile: profile) { places[$0] }
        if spec.changesDevice, !request.allowChangingDevice {
            throw DFUKitError(kind: .usage, message: "command '\(request.command)' of profile '\(profile.name)' changes the "
                              + "device (erases, writes, starts, activates or resets: the profile marks it changes-device); "
                              + "sent alone it can leave the device half updated.", remedy: .confirmChange)
        }
        return ExecPlan(request: request, locator: locator, scheme: scheme, options: FlashOptions(parameters: parameters))
    }

    /// Checks a batch line once, before any device: its radios (`radios(_:registry:)`), each as a
    /// flash's device, plus the station's name and the line's checks and skip rule
    /// (`LinePlanValidator`, which reports every mistake of the line at once, each at its
    /// `FILE:LINE:COL`, or by the flag that gave it).
    /// - Throws: `.usage` (device strings and radios, station, parameters: as for a flash, whichever of the
    ///   line's mistakes are reported with them), `.profile` (the line's other mistakes),
    ///   `.package`.
    public static func batch(_ request: BatchRequest) throws(DFUKitError) -> BatchPlan {
        let profile = request.profile
        let radios = try radios(request.transports, registry: request.registry)
        for radio in radios {
            try link(profile, scheme: radio.scheme, locator: radio.locator, addresses: request.line.addresses)
        }
        if let station = request.line.station { try checkStation(station) }
        try checkLineControls(request.line)
        if let directory = request.recordDirectory { try recordDirectory(directory) }
        let auditKey = try request.line.auditKey.map { (path) throws(DFUKitError) in try Self.auditKey(path) }
        let notes = try package(request.package, profile: profile, publicKeyPEM: request.publicKeyPEM, force: false,
                                parameters: request.line.parameters)
        let images = FlashImage.images(of: request.package)
        var line: LineConfiguration
        do throws(ProfileDiagnostics) {
            line = try LinePlanValidator.validate(request.line, profile: profile, images: images)
            // Nothing names the line: it is the station's own (the line file's name is set by its loader).
            if line.line == nil { line.line = line.station ?? ProcessInfo.processInfo.hostName }
        } catch {
            let badParameter = request.line.parameters.contains { profile.checkedParameter($0.key, $0.value).isFailure }
            throw DFUKitError(kind: badParameter ? .usage : .profile, message: error.description + "\nno device was touched.")
        }
        try openingChecks(images, profile: profile, parameters: line.parameters)
        return BatchPlan(request: request, locator: radios[0].locator, scheme: radios[0].scheme, radios: radios,
                         images: images, line: line, notes: notes, auditKey: auditKey)
    }

    /// The station's audit key (`line.auditKey`): an Ed25519 private key in a PEM PKCS#8 file.
    /// - Throws: `.usage`, naming the file, when it cannot be read or holds no such key.
    public static func auditKey(_ path: String) throws(DFUKitError) -> Ed25519PrivateKey {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw DFUKitError(kind: .usage, message: "cannot read the audit key \(path): \(error.localizedDescription); "
                              + "make a station key with 'dfukit station keygen --out \(path)'\nno device was touched.")
        }
        do {
            return try Ed25519PrivateKey(pem: text)
        } catch {
            throw DFUKitError(kind: .usage, message: "the audit key \(path) is not usable: \(error.message); "
                              + "give the station's private key (dfukit station keygen writes it)\nno device was touched.")
        }
    }

    /// The line controls: a line name that is not empty, a quarantine limit in 1...1000, a poll
    /// interval of 1...60 s. (A halt rule is a `HaltRule`, which cannot be malformed: its text is
    /// read by `haltRule(_:option:)`.)
    /// - Throws: `.usage`, naming the line file's key and the flag.
    public static func checkLineControls(_ line: LineConfiguration) throws(DFUKitError) {
        if let name = line.line, let problem = LineConfiguration.lineNameProblem(name) {
            throw DFUKitError(kind: .usage, message: "the line name ('line:', --line) \(problem): the ledger keeps the line's "
                              + "halts under it; name the line, or leave the name out to use the line file's")
        }
        if let limit = line.quarantineAfter, let problem = LineConfiguration.quarantineProblem(limit) {
            throw DFUKitError(kind: .usage, message: "'quarantine-after' (--quarantine-after) \(problem)")
        }
        guard line.haltPollInterval >= .seconds(1), line.haltPollInterval <= .seconds(60) else {
            throw DFUKitError(kind: .usage, message: "the halt poll interval must be in 1...60 s, not \(line.haltPollInterval)")
        }
    }

    /// Reads a halt rule, `failed >= K of last N`, given by `option` (`--halt-when`, or
    /// `halt-when` for a library caller): the same message as a line file's `halt-when:` error.
    /// - Throws: `.usage`, e.g. "--halt-when: expected 'of', found 'off' at column 14 (the rule is ...)".
    public static func haltRule(_ text: String, option: String) throws(DFUKitError) -> HaltRule {
        do {
            return try HaltRule(parsing: text)
        } catch {
            throw DFUKitError(kind: .usage, message: "\(option): \(error)")
        }
    }

    /// A station's name is what the ledger records every attempt under: never empty.
    /// - Throws: `.usage`.
    public static func checkStation(_ name: String) throws(DFUKitError) {
        guard name.contains(where: { !$0.isWhitespace }) else {
            throw DFUKitError(kind: .usage, message: "the station name is empty: the ledger records every attempt under it; "
                              + "name the station, or leave the name out to use the host name")
        }
    }

    /// The link: the scheme's own check of the profile (a serial link needs the profile's
    /// `links.serial`); then, on a radio, the device's identity unless addresses are given.
    /// - Throws: `.usage`.
    static func link(_ profile: Profile, scheme: any TransportScheme, locator: DeviceLocator,
                     addresses: [String] = []) throws(DFUKitError) {
        try scheme.check(target: locator.target, profile: profile)
        if scheme.medium(target: locator.target) == .ble, addresses.isEmpty {
            try identity(profile, address: locator.address)
        }
    }

    /// A device found by scanning needs a profile that can tell its devices from any other
    /// advertiser (`DeviceSelection.refusal`): without a `match:` rule, an address.
    /// - Throws: `.usage`.
    static func identity(_ profile: Profile, address: DeviceAddress?) throws(DFUKitError) {
        if let refusal = DeviceSelection.refusal(profile: profile, address: address) {
            throw DFUKitError(kind: .usage, message: refusal, remedy: .giveAddress)
        }
    }

    /// Each write type names a characteristic of the profile.
    static func writeTypes(_ options: FlashOptions, profile: Profile) throws(DFUKitError) {
        do {
            try options.validate(for: profile)
        } catch {
            throw DFUKitError(kind: .usage, message: error.message)
        }
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
