extension DFUKit {
    /// Flashes `package` to `device` with `profile`; see `flash(_:)`.
    public static func flash(_ package: FirmwarePackage, profile: Profile, device: String) -> DFUKitEvents<FlashUpdate> {
        flash(FlashRequest(package: package, profile: profile, device: device))
    }

    /// Flashes as `dfukit flash` does. Before the transport is opened: the device string and
    /// the options are checked, every image's checksums (and with a key, its signatures), and
    /// whether the profile takes the package's kind. Then the engine runs the profile's
    /// procedure for each image, resuming after a lost link as the profile allows.
    ///
    /// The sequence's last event is `.finished(report)`; a failure throws a `DFUKitError`
    /// (`.package` and `.usage` before anything was sent; `.device`, `.transport`, `.cancelled`
    /// with the report of what the device holds).
    public static func flash(_ request: FlashRequest) -> DFUKitEvents<FlashUpdate> {
        DFUKitEvents { (channel) throws(DFUKitError) in
            let (locator, scheme) = try request.registry.locate(request.device)
            try check(request)
            let transport = try scheme.open(TransportRequest(target: locator.target, security: request.profile.security,
                                                             traceFile: request.traceFile))
            let session = FlashSession(profile: request.profile, images: FlashImage.images(of: request.package),
                                       transport: transport, address: locator.address, options: request.options) {
                channel.send(FlashUpdate($0))
            }
            let report = await session.run()
            guard report.status != .failed else { throw DFUKitError(report: report) }
            channel.send(.finished(report))
        }
    }

    /// What `flash` checks before it opens the transport.
    static func check(_ request: FlashRequest) throws(DFUKitError) {
        do {
            try request.options.validate(for: request.profile)
        } catch {
            throw DFUKitError(kind: .usage, message: "\(error)")
        }
        let package = request.package
        do {
            try package.requireIntact()
            if let key = request.publicKeyPEM {
                try PackageVerifier.verify(package, publicKeyPEM: key).requireVerified()
            }
        } catch {
            throw DFUKitError(kind: .package, message: "\(error)\nnothing was sent to the device.")
        }
        let profile = request.profile
        if !request.force, !profile.packageKinds.isEmpty, !profile.packageKinds.contains(package.kind.name) {
            throw DFUKitError(kind: .package, message: "\(package.path): \(package.kind.summary), package kind "
                              + "\(package.kind.name); profile '\(profile.name)' takes only "
                              + profile.packageKinds.joined(separator: ", ") + "\nnothing was sent to the device.")
        }
    }
}
