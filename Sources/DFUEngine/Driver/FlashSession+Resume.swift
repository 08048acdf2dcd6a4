import DFUGATT
import DFUProfile

/// Reconnecting after a lost link, as the profile's resume policy allows.
extension FlashSession {
    /// Reconnects after a lost link; a failed reconnection costs a resume attempt too. When a
    /// rebooting command was sent, the device is first given its grace time and then waited for
    /// where it comes back; unless it still advertises where it was (the command never reached
    /// it). When the device is not found where it was last, the address the update started at is
    /// tried (a bootloader that reset into its application).
    func reconnectToResume(_ image: FlashImage?, first: LinkLoss, latest: LinkLoss) async throws(FlashError) {
        var latest = latest
        while true {
            if Task.isCancelled {
                throw FlashError(kind: .cancelled, message: "cancelled while reconnecting (\(latest.summary))",
                                 address: address?.description, image: image?.name,
                                 offset: image == nil ? nil : imageBytesHeld)
            }
            if let expired = attemptExpired(while: "reconnecting (\(latest.summary))", image: image?.name) { throw expired }
            if let silent = unanswering(first: first, latest: latest, image: image) { throw silent }
            guard resumes < profile.resume.attempts, let current = address else {
                var message = first.summary
                if profile.resume.attempts == 0 {
                    message += "; the profile does not resume"
                } else {
                    message += "; gave up after \(resumes) resume(s)"
                    if latest.summary != first.summary { message += " (last: \(latest.summary))" }
                }
                throw FlashError(kind: first.kind, message: message, address: address?.description,
                                 image: image?.name, offset: image == nil ? nil : imageBytesHeld, location: first.location,
                                 hint: "move the device closer or check its power, then run the same command again")
            }
            resumes += 1
            onEvent(.resuming(attempt: resumes, of: profile.resume.attempts, reason: latest.summary))
            var target = current
            device.lastReboot = .none
            if let reboot = imageProgress.pendingReboot {
                do {
                    target = try await awaitRebootAfterLoss(reboot, from: current)
                    imageProgress.pendingReboot = nil
                    // The link went down while the reboot was due: taken as the device resetting.
                    device.lastReboot = .observed
                } catch {
                    switch error {
                    case let .linkLost(loss):
                        latest = loss
                        continue
                    case let .failed(error): throw error
                    case .cancelled:
                        throw FlashError(kind: .cancelled, message: "cancelled while waiting for the device to reboot",
                                         address: current.description)
                    }
                }
            }
            var candidates = [target]
            if let originAddress = device.originAddress, originAddress != target { candidates.append(originAddress) }
            for candidate in candidates {
                do {
                    try await device.connect(to: candidate, timeout: profile.resume.reconnectTimeout)
                    return
                } catch {
                    guard [.disconnected, .timeout, .transport].contains(error.kind) else { throw error }
                    latest = LinkLoss(kind: error.kind, detail: error.message)
                }
            }
        }
    }

    /// After a link lost while a reboot was due: lets the grace time pass (the link may have
    /// dropped for another reason while the device still had its reset ahead), then finds where
    /// the device is: still where it was when the reboot should take it elsewhere (the command
    /// never reached it), else where the reboot brings it, once it advertises there.
    private func awaitRebootAfterLoss(_ reboot: PendingReboot, from current: DeviceAddress) async throws(RunInterruption) -> DeviceAddress {
        await transport.sleep(until: boundedByAttempt(deadline: reboot.sentAt + reboot.timing.grace))
        let target = reboot.comesBackAt == .next ? current.adding(1) : current
        if target != current,
           (try? await transport.waitForAdvertisement(from: current, timeout: Self.stillThereTimeout)) != nil {
            onEvent(.rebooting("\(current) still advertises: '\(reboot.command)' did not reboot it"))
            return current
        }
        try await device.awaitAdvertising(target, after: reboot)
        return target
    }

    /// A device that has answered none of the procedure's requests, and whose requests went
    /// unanswered again after one reconnection, is not answering at all (hung, busy, or running
    /// other firmware): waiting out every remaining resume, each costing its own timeouts, would
    /// only delay saying so. A device that answered before (a link that dropped mid-transfer)
    /// keeps the profile's whole resume policy.
    private func unanswering(first: LinkLoss, latest: LinkLoss, image: FlashImage?) -> FlashError? {
        guard !deviceAnswered, resumes >= 1, first.kind == .timeout, latest.kind == .timeout else { return nil }
        return FlashError(kind: .timeout,
                          message: "the device does not answer: \(first.summary); it answered none of the update's "
                            + "requests, and still did not after reconnecting (\(latest.summary))",
                          address: address?.description, image: image?.name, offset: image == nil ? nil : imageBytesHeld,
                          location: first.location,
                          hint: "check that the device is powered and runs firmware that serves this profile (a hung "
                            + "device needs a power cycle), then run the same command again")
    }

    /// How long a device that did not reboot is listened for where it was.
    static let stillThereTimeout: Duration = .seconds(2)
}
