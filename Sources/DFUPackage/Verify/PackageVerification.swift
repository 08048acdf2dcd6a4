import DFUBytes
/// What `dfukit package verify` reports: every check on every image, passed or not.
public struct PackageVerification: Sendable, Equatable {
    /// The checks of one image, in the order they ran.
    public struct Image: Sendable, Equatable {
        /// The image's role.
        public let name: String
        /// Its checks in the order they ran.
        public let checks: [VerificationCheck]

        /// The checks of image `name`.
        public init(name: String, checks: [VerificationCheck]) {
            self.name = name
            self.checks = checks
        }

        /// Whether every check passed.
        package var passed: Bool { checks.allSatisfy(\.passed) }

        /// The check called `check`, if it ran.
        public func check(_ check: ImageCheck) -> VerificationCheck? {
            checks.first { $0.check == check }
        }
    }

    /// The package verified.
    public let packagePath: String
    /// Which kind of package it is.
    public let format: PackageFormat
    /// Whether a public key was given, i.e. whether signatures were checked.
    package let keyGiven: Bool
    /// The images in send order.
    public let images: [Image]

    /// The verification of the package at `packagePath`.
    public init(packagePath: String, format: PackageFormat, keyGiven: Bool, images: [Image]) {
        self.packagePath = packagePath
        self.format = format
        self.keyGiven = keyGiven
        self.images = images
    }

    /// Whether every check on every image passed.
    package var passed: Bool { images.allSatisfy(\.passed) }

    /// Every check that could not be made, with its image, in order.
    public var unchecked: [(image: String, check: VerificationCheck)] {
        images.flatMap { image in image.checks.filter { !$0.checked }.map { (image.name, $0) } }
    }

    /// Every failed check with its image, in order.
    public var failures: [(image: String, check: VerificationCheck)] {
        images.flatMap { image in image.checks.filter { !$0.passed }.map { (image.name, $0) } }
    }

    /// The image called `name`, if any.
    public func image(named name: String) -> Image? {
        images.first { $0.name == name }
    }

    /// Throws unless every check passed.
    /// - Throws: `PackageError.verificationFailed` naming the first failed check and its image.
    public func requireVerified() throws(PackageError) {
        if let (image, check) = failures.first {
            throw .verificationFailed(path: packagePath, image: image, check: check.name, detail: check.detail)
        }
    }

    /// A human-readable report, ending with a newline.
    public func renderText() -> String {
        var lines = ["package: \(packagePath)", "format:  \(format.rawValue)"]
        if !keyGiven { lines.append("key:     none given; signatures not checked (use --key PUB.pem)") }
        for image in images {
            lines.append("image \(image.name):")
            for check in image.checks {
                lines.append("  \(check.mark) \(check.name): \(check.detail)")
            }
        }
        if passed {
            let skipped = unchecked.map { "\($0.image) \($0.check.name)" }
            lines.append("result:  verified" + (skipped.isEmpty ? "" : " (not checked: \(skipped.joined(separator: ", ")))"))
        } else {
            let failed = failures.map { "\($0.image) \($0.check.name)" }.joined(separator: ", ")
            lines.append("result:  FAILED (\(failed)); do not flash this package")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as JSON: `package`, `format`, `key_given`, `passed`, `images` (each with `name`,
    /// `passed`, `checks`: `name`, `passed`, `checked`, `detail`), ending with a newline.
    public func renderJSON() -> String {
        JSONValue.object([
            ("package", .string(packagePath)),
            ("format", .string(format.rawValue)),
            ("key_given", .bool(keyGiven)),
            ("passed", .bool(passed)),
            ("images", .array(images.map { image in
                .object([
                    ("name", .string(image.name)),
                    ("passed", .bool(image.passed)),
                    ("checks", .array(image.checks.map { check in
                        .object([
                            ("name", .string(check.name)),
                            ("passed", .bool(check.passed)),
                            ("checked", .bool(check.checked)),
                            ("detail", .string(check.detail)),
                        ])
                    })),
                ])
            })),
        ]).prettyText
    }
}
