import DFUGATT
import DFUProfile

/// Before each operation: the link made ready as `LinkReuse` decides (kept, connected again, or
/// connected again once a reboot the last procedure left due has happened).
extension DeviceSession {
    /// Makes the link ready for the next operation: the first connection, the current link when
    /// it is up and no reboot is due, else a new one (after the reboot, where it brings the device).
    func prepareLink() async throws(FlashError) {
        let linkIsUp = address != nil && pendingReboot == nil ? await currentLinkIsUp() : false
        switch LinkReuse.decide(address: address, origin: originAddress, pendingReboot: pendingReboot,
                                linkIsUp: linkIsUp) {
        case .connectFirst:
            let target = try await resolveAddress()
            address = target
            originAddress = target
            try await connect(to: target, timeout: profile.resume.reconnectTimeout)
        case .reuse:
            return
        case let .reconnect(target):
            try await connect(to: target, timeout: profile.resume.reconnectTimeout)
        case let .awaitReboot(reboot, target, fallback):
            try await connectAfterReboot(reboot, target: target, fallback: fallback)
        }
    }

    /// Whether the current link still works. Notifications left from the last operation answered
    /// it and are dropped; a link that dropped meanwhile says so.
    private func currentLinkIsUp() async -> Bool {
        guard let link else { return false }
        do {
            while try await link.nextNotification(until: link.now) != nil {}
            return true
        } catch {
            return false
        }
    }

    /// As a `reconnect` step after a rebooting command: the device gets its grace time to drop
    /// the link (then it is dropped here) and is waited for where the reboot brings it, before
    /// anything is sent; when it does not come back there, `fallback` is tried.
    private func connectAfterReboot(_ reboot: PendingReboot, target: DeviceAddress,
                                    fallback: DeviceAddress?) async throws(FlashError) {
        var candidates = [target]
        do {
            try await awaitReboot(reboot, of: target)
        } catch {
            switch error {
            case .cancelled:
                throw FlashError(kind: .cancelled, message: "cancelled while waiting for the device to reboot",
                                 address: target.description)
            case let .failed(error):
                throw error
            case let .linkLost(loss):
                // Not back where the reboot brings it: where the update started, if elsewhere.
                guard fallback != nil else {
                    throw FlashError(kind: loss.kind, message: loss.summary, address: target.description,
                                     hint: "check the device's power; it was told to reboot by '\(reboot.command)'")
                }
                candidates = []
            }
        }
        pendingReboot = nil
        if let fallback { candidates.append(fallback) }
        var lastError: FlashError?
        for candidate in candidates {
            do {
                try await connect(to: candidate, timeout: profile.resume.reconnectTimeout)
                return
            } catch where [.disconnected, .timeout, .transport].contains(error.kind) {
                lastError = error
            }
        }
        if let lastError { throw lastError }
    }
}
