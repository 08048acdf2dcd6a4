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
        let descriptor = try openManagementSocket()
        defer { syscalls.close(descriptor) }
        try send(command, on: descriptor)
        let deadline = ContinuousClock.now + timeout
        while true {
            guard let packet = try nextManagementPacket(on: descriptor, before: deadline) else {
                throw BlueZError("mgmt \(name)", errno: .timedOut, adapter: self.name,
                                 note: "the kernel did not answer within \(timeout.secondsText)")
            }
            guard let status = MgmtEvent(bytes: packet)?.status(of: command.code, index: index) else { continue }
            guard status == .success else { throw BlueZError("mgmt \(name)", status: status, adapter: self.name) }
            return
        }
    }
}
