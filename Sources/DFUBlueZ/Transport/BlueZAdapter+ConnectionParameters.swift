import DFUGATT

extension BlueZAdapter {
    /// Load Connection Parameters for one device on the management channel, so the kernel's next
    /// connection to it asks for these (its defaults are a 30-50 ms interval). Waits up to
    /// `timeout` for the answer. Needs CAP_NET_ADMIN (else Permission Denied). Blocking.
    package func loadConnectionParameters(_ entry: MgmtConnectionParameters,
                                         timeout: Duration = .seconds(2)) throws(BlueZError) {
        try runManagementCommand(.loadConnectionParameters(index: index, [entry]), name: "Load Connection Parameters",
                                 timeout: timeout)
    }

    /// Sends `command` on a fresh management socket and waits for its Command Complete or
    /// Status; a status other than success throws.
    func runManagementCommand(_ command: MgmtCommand, name: String, timeout: Duration) throws(BlueZError) {
        let descriptor = try hciSocket()
        defer { syscalls.close(descriptor) }
        let control = HCISocketAddress(index: MgmtCommand.noController, channel: BlueZConstants.hciChannelControl)
        if case let .failure(error) = syscalls.bind(descriptor, address: control.bytes) {
            throw fail("bind (management channel)", error)
        }
        try send(command, on: descriptor)
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else {
                throw BlueZError("mgmt \(name)", errno: .timedOut, adapter: self.name,
                                 note: "the kernel did not answer within \(timeout.secondsText)")
            }
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000
                                     + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            switch syscalls.poll([descriptor], timeoutMilliseconds: milliseconds) {
            case let .success(events):
                guard events.first ?? 0 != 0 else { continue }
            case .failure(.interrupted): continue
            case let .failure(error): throw fail("poll", error)
            }
            let packet: [UInt8]
            switch syscalls.read(descriptor, maximumLength: 1024) {
            case let .success(read): packet = read
            case .failure(.interrupted), .failure(.wouldBlock): continue
            case let .failure(error): throw fail("read (management channel)", error)
            }
            guard let status = MgmtEvent(bytes: packet)?.status(of: command.code, index: index) else { continue }
            guard status == .success else { throw BlueZError("mgmt \(name)", status: status, adapter: self.name) }
            return
        }
    }
}
