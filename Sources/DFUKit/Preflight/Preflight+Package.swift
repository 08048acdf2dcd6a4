import Foundation

extension Preflight {
    /// Everything about the package alone that needs no device, in this order: it holds an
    /// image, every checksum it carries is right (but for those the device does not make with
    /// these `parameters`: a Telink trailer with `firmware_check` 0), nothing its bootloader is known to
    /// refuse (unless `force`), the profile takes its kind (unless `force`),
    /// its signatures verify with `publicKeyPEM` and with the profile's `signing-key`, each image
    /// has what the profile's expressions read of it.
    /// - Returns: notes to show (a kind sent by force, checks only the device can make).
    /// - Throws: `.package` (`.profile` for a signing-key that cannot be read); every message
    ///   ends "nothing was sent to the device."
    static func package(_ package: FirmwarePackage, profile: Profile, publicKeyPEM: String?, force: Bool,
                        parameters: [String: ParameterValue]) throws(DFUKitError) -> [PreflightNote] {
        var notes: [PreflightNote] = []
        guard !package.images.isEmpty else { throw refused("\(package.path): the package holds no image to flash") }
        for image in package.images where image.data.isEmpty {
            throw refused("\(package.path): image '\(image.name)' is empty: there is nothing to flash, and no device "
                          + "could show that it took it")
        }
        do {
            try package.requireIntact(waiving: integerParameters(parameters, profile: profile))
        } catch {
            throw refused("\(error)")
        }
        for image in package.images {
            guard let refusals = image.standalone?.refusals, !refusals.isEmpty else { continue }
            let problem = "\(package.path), image '\(image.name)': " + refusals.joined(separator: "; ")
                + " (the file is whole, but no device of its kind takes it)"
            guard force else { throw refused(problem, remedy: .force) }
            notes.append(PreflightNote(.warning, problem + "\n  sending it anyway (forced)"))
        }
        if let problem = kindProblem(package, profile: profile) {
            guard force else { throw refused(problem, remedy: .force) }
            notes.append(PreflightNote(.warning, problem + "\n  sending it anyway (forced)"))
        }
        if let publicKeyPEM { try verifySignatures(package, key: publicKeyPEM, named: "the key given") }
        if let path = profile.signingKey {
            let key: String
            do {
                key = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw DFUKitError(kind: .profile, message: "profile '\(profile.name)': cannot read its signing-key '\(path)': "
                                  + "\(error.localizedDescription)\nnothing was sent to the device.")
            }
            try verifySignatures(package, key: key, named: "the profile's signing-key \(path)")
        }
        if let problem = ImageRequirements.problems(FlashImage.images(of: package), profile: profile).first {
            throw refused(problem)
        }
        for image in package.images {
            for check in image.integrityChecks where !check.checked {
                notes.append(PreflightNote(.note, "image '\(image.name)': \(check.name) not checked before sending: \(check.detail)"))
            }
            if !image.profile.isEmpty, image.profile != profile.name {
                notes.append(PreflightNote(.warning, "image '\(image.name)' was packaged for profile '\(image.profile)', "
                                           + "flashing with '\(profile.name)'"))
            }
        }
        return notes
    }

    /// The profile's integer parameters as this run sets them (the defaults, and each given
    /// value the profile takes), for the package checks a parameter turns off.
    static func integerParameters(_ given: [String: ParameterValue], profile: Profile) -> [String: UInt64] {
        var values: [String: UInt64] = [:]
        for (name, value) in profile.parameters {
            if case let .integer(number) = value { values[name] = number }
        }
        for (name, value) in given {
            if case let .success(.integer(number)) = profile.checkedParameter(name, value) { values[name] = number }
        }
        return values
    }

    /// The profile's opening checks (`ProcedureOpeningCheck`: what it requires of each image
    /// with these parameters, such as a version to compare with afterwards).
    /// - Throws: `.package`.
    static func openingChecks(_ images: [FlashImage], profile: Profile, parameters: [String: ParameterValue]) throws(DFUKitError) {
        if let refusal = ProcedureOpeningCheck.refusal(profile, images: images, options: FlashOptions(parameters: parameters)) {
            throw refused(refusal.description)
        }
    }

    private static func verifySignatures(_ package: FirmwarePackage, key: String, named name: String) throws(DFUKitError) {
        do {
            try PackageVerifier.verify(package, publicKeyPEM: key).requireVerified()
        } catch {
            throw refused("\(error) (checked with \(name))")
        }
    }

    private static func refused(_ message: String, remedy: DFUKitError.Remedy? = nil) -> DFUKitError {
        DFUKitError(kind: .package, message: message + "\nnothing was sent to the device.", remedy: remedy)
    }

    /// Nil when the profile takes the package's kind (or does not say which kinds it takes);
    /// otherwise what is wrong, and which profiles on the search path take the kind: a Nordic
    /// package sent by the vendor profile, or an MCUboot image sent over another protocol, would
    /// end `verified` on a device that ignored half of it.
    public static func kindProblem(_ package: FirmwarePackage, profile: Profile) -> String? {
        let kind = package.kind
        guard !profile.packageKinds.isEmpty, !profile.packageKinds.contains(kind.name) else { return nil }
        let fitting = profiles(taking: kind.name).filter { $0.name != profile.name }
        let others = fitting.isEmpty ? "no profile on the search path takes \(kind.name) ('dfukit profiles' lists them)"
            : "profiles that take \(kind.name): " + fitting.map { "\($0.name) (\($0.path))" }.joined(separator: ", ")
        return "\(package.path): \(kind.summary), package kind \(kind.name); profile '\(profile.name)' takes only "
            + profile.packageKinds.joined(separator: ", ") + "\n  \(others)"
    }

    /// The first profile of each name on the search path whose `packages:` lists `kind`.
    public static func profiles(taking kind: String) -> [(name: String, path: String)] {
        ProfileLibrary.profiles(on: ProfileLibrary.standardSearchPath()).compactMap { found in
            guard found.isFirstOfItsName, let profile = try? ProfileLoader.load(path: found.path),
                  profile.packageKinds.contains(kind) else { return nil }
            return (found.name, found.path)
        }
    }
}
