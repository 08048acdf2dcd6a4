extension BlueZAdapter {
    /// A fresh socket bound to the kernel's management channel (HCI_CHANNEL_CONTROL, no
    /// controller). The caller closes it. Needs CAP_NET_ADMIN.
    func openManagementSocket() throws(BlueZError) -> Int32 {
        let descriptor = try hciSocket()
        let control = HCISocketAddress(index: MgmtCommand.noController, channel: BlueZConstants.hciChannelControl)
        if case let .failure(error) = syscalls.bind(descriptor, address: control.bytes) {
            syscalls.close(descriptor)
            throw fail("bind (management channel)", error)
        }
        return descriptor
    }

    /// The next packet on the management socket `descriptor`, or nil once `deadline` passed.
    /// Interrupted polls and reads, and a socket with nothing to read yet, are waited out.
    func nextManagementPacket(on descriptor: Int32,
                              before deadline: ContinuousClock.Instant) throws(BlueZError) -> [UInt8]? {
        let clock = ContinuousClock()
        while true {
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { return nil }
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000
                                     + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            switch syscalls.poll([descriptor], timeoutMilliseconds: milliseconds) {
            case let .success(events):
                guard events.first ?? 0 != 0 else { continue }
            case .failure(.interrupted): continue
            case let .failure(error): throw fail("poll", error)
            }
            switch syscalls.read(descriptor, maximumLength: 1024) {
            case let .success(read): return read
            case .failure(.interrupted), .failure(.wouldBlock): continue
            case let .failure(error): throw fail("read (management channel)", error)
            }
        }
    }
}
