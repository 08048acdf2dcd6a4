import DFUEngine
import DFUProfile

/// Checks a provisioning line against its profile and package before any device is touched,
/// so that a typo in a line file stops the line at once instead of failing every device three
/// times:
///
/// - every check's command exists in the profile and answers, and every expression parses and
///   type-checks against that answer's fields, `image.*` and `param.*` (`ExpressionTypeChecker`);
/// - `skip-installed` names a command or a readable characteristic, its `installed` is a condition;
/// - a line without device addresses uses a profile with match rules (`DeviceSelection.refusal`);
/// - every parameter set (`set:` or `--set`) is one the profile takes (`Profile.checkedParameter`:
///   its name, type, values or range; a text parameter given a number gets it as text);
/// - the package holds images, each with what the profile's expressions use (an init packet for
///   `image.init_packet`, an MCUboot hash for `image.hash`, a format's values for `image.info`).
///
/// Errors carry the line file's places (`FILE:LINE:COL: error: MESSAGE`); settings given by flags
/// are named by their flag.
public enum LinePlanValidator {
    /// Returns the line with its parameters normalized, or every problem found.
    public static func validate(_ line: LineConfiguration, profile: Profile,
                                images: [FlashImage]) throws(ProfileDiagnostics) -> LineConfiguration {
        var line = line
        var errors: [ProfileError] = []
        let place = Place(line: line)
        if line.addresses.isEmpty, let refusal = DeviceSelection.refusal(profile: profile, address: nil) {
            errors.append(place.error(refusal + " ('devices:' in the line file)", key: "profile", flag: "--profile"))
        }
        line.parameters = checkParameters(line, profile: profile, place: place, errors: &errors)
        for check in line.checks {
            errors += problems(in: check, profile: profile, place: place)
        }
        if let rule = line.skipInstalled {
            errors += problems(in: rule, profile: profile, place: place)
        }
        errors += packageProblems(images, profile: profile, place: place)
        guard errors.isEmpty else { throw ProfileDiagnostics(errors) }
        return line
    }

    /// Where a setting was written: its place in the line file, or the flag that gave it.
    struct Place {
        let line: LineConfiguration

        func error(_ message: String, key: String, flag: String) -> ProfileError {
            if let location = line.locations[key] { return ProfileError(message, at: location) }
            return ProfileError(message, subject: flag)
        }
    }

    // MARK: Parameters

    private static func checkParameters(_ line: LineConfiguration, profile: Profile, place: Place,
                                        errors: inout [ProfileError]) -> [String: ParameterValue] {
        var normalized = line.parameters
        for name in line.parameters.keys.sorted() {
            let value = line.parameters[name]!
            switch profile.checkedParameter(name, value) {
            case let .success(checked): normalized[name] = checked
            case let .failure(refusal):
                errors.append(place.error(refusal.message, key: "set." + name, flag: "--set \(name)=\(value)"))
            }
        }
        return normalized
    }

    // MARK: Checks

    private static func problems(in check: PostFlashCheck, profile: Profile, place: Place) -> [ProfileError] {
        let at = { (message: String) in
            check.location.map { ProfileError(message, at: $0) } ?? ProfileError(message, subject: "checks")
        }
        guard let command = profile.commands[check.command] else {
            return [at(unknownCommand(check.command, in: profile) + "; a check is { exec: COMMAND, expect: [...] }")]
        }
        guard command.response != nil || check.expect.isEmpty else {
            return [at("command '\(check.command)' of profile '\(profile.name)' gets no answer: there is nothing to check")]
        }
        let checker = ExpressionTypeChecker(roots: roots(answer: check.command,
                                                         ExpressionTypeChecker.responseRecord(of: check.command, in: profile),
                                                         profile: profile))
        var errors: [ProfileError] = []
        for (index, condition) in check.expect.enumerated() {
            let references = index < check.references.count ? check.references[index] : []
            errors += checker.problems(in: condition, references: references, condition: true)
        }
        return errors
    }

    private static func problems(in rule: SkipInstalledRule, profile: Profile, place: Place) -> [ProfileError] {
        let at = { (message: String) in
            rule.location.map { ProfileError(message, at: $0) } ?? ProfileError(message, subject: "skip-installed")
        }
        let answer: ExpressionType
        switch rule.source {
        case .command(let name):
            guard let command = profile.commands[name] else {
                return [at(unknownCommand(name, in: profile) + " to read the installed firmware with")]
            }
            guard command.response != nil else {
                return [at("command '\(name)' of profile '\(profile.name)' gets no answer: it cannot say what the device runs")]
            }
            guard command.reboots == nil else {
                return [at("command '\(name)' of profile '\(profile.name)' reboots the device: skip-installed only asks "
                           + "(use a command that reports what runs, such as info or image_list)")]
            }
            answer = ExpressionTypeChecker.responseRecord(of: name, in: profile) ?? .unknown
        case .characteristic(let name):
            guard let characteristic = profile.characteristic(named: name) else {
                let known = profile.characteristics.map(\.name)
                let hint = KeySuggestion.didYouMean(name, in: known) ?? " (it has: \(known.joined(separator: ", ")))"
                return [at("profile '\(profile.name)' has no characteristic '\(name)'" + hint)]
            }
            guard characteristic.requiredProperties.contains(.read) else {
                return [at("characteristic '\(name)' of profile '\(profile.name)' cannot be read (its properties: "
                           + characteristic.requiredProperties.map(\.rawValue).sorted().joined(separator: ", ") + ")")]
            }
            answer = ExpressionTypeChecker.readRecord
        }
        let checker = ExpressionTypeChecker(roots: roots(answer: rule.source.name, answer, profile: profile))
        var errors = checker.problems(in: rule.installed, references: rule.references, condition: true)
        if let version = rule.version {
            errors += checker.problems(in: version, references: rule.references, condition: false)
        }
        return errors
    }

    /// What a check's expressions may use: the answer under its name, `image` and `param`.
    private static func roots(answer name: String, _ answer: ExpressionType?, profile: Profile) -> [String: ExpressionType] {
        var roots: [String: ExpressionType] = ["image": ExpressionTypeChecker.imageRecord,
                                               "param": ExpressionTypeChecker.parameterRecord(of: profile)]
        roots[name] = answer ?? .unknown
        return roots
    }

    private static func unknownCommand(_ name: String, in profile: Profile) -> String {
        let known = profile.commands.keys.sorted()
        let hint = KeySuggestion.didYouMean(name, in: known) ?? ""
        return "profile '\(profile.name)' has no command '\(name)'\(hint) (it has: \(known.joined(separator: ", ")))"
    }

    // MARK: Package

    private static func packageProblems(_ images: [FlashImage], profile: Profile, place: Place) -> [ProfileError] {
        ImageRequirements.problems(images, profile: profile).map { place.error($0, key: "package", flag: "--package") }
    }
}
