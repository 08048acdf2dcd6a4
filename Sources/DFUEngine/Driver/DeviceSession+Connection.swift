import DFUGATT
import DFUProfile

/// Finding the device, connecting to it, and reconnecting (after a `reconnect` step, or to
/// resume), with the wait for a device that was told to reboot.
extension DeviceSession {
    /// The requested address, else the advertiser `options.selection` picks from a scan (up to
    /// 5 s, or what is left of the attempt). A profile without match rules never picks one.
    func resolveAddress() async throws(FlashError) -> DeviceAddress {
        if let requestedAddress { return requestedAddress }
        if let refusal = DeviceSelection.refusal(profile: profile, address: nil) {
            throw FlashError(kind: .usage, message: refusal)
        }
        onEvent(.scanning(transport: transport.name))
        let seen: [Advertisement]
        do {
            seen = try await transport.scan(timeout: boundedByAttempt(.seconds(5)))
        } catch where Task.isCancelled {
            throw Self.cancelled("while scanning", address: nil)
        } catch {
            // "transport unavailable: ..." says it all; other failures happened while scanning.
            throw FlashError(kind: .transport, message: error.kind == .transportUnavailable
                             ? error.description : "scanning failed: \(error)")
        }
        // A scan that cancellation cut short returns what it heard so far: not a reason to pick one.
        if Task.isCancelled { throw Self.cancelled("while scanning", address: nil) }
        switch options.selection.pick(from: seen, profile: profile) {
        case let .success(pick):
            onEvent(.selected(pick.advertisement.address, reason: pick.reason))
            return pick.advertisement.address
        case let .failure(failure):
            throw FlashError(kind: failure.reason == .profileCannotMatch ? .usage : .transport, message: failure.message,
                             hint: "is the device powered and advertising? Otherwise name the device's address")
        }
    }

    /// Connects, discovers, binds the characteristics and subscribes to notifications.
    func connect(to target: DeviceAddress, timeout: Duration) async throws(FlashError) {
        onEvent(.connecting(target))
        if Task.isCancelled { throw Self.cancelled("before connecting", address: target) }
        do {
            let newLink = try await transport.connect(to: target, timeout: boundedByAttempt(timeout))
            let services = try await newLink.discoverServices()
            let newBindings = try ConnectionBindings(profile: profile, services: services, address: target.description,
                                                     mtu: newLink.mtu, writeTypes: options.writeTypes)
            for spec in profile.characteristics {
                guard let characteristic = newBindings.characteristic(spec.name) else { continue }
                // A watched notification's characteristic, where the device can send it (older
                // servers declare no notify and never send it).
                let watched = profile.notifications.values.contains { $0.watched && $0.characteristic == spec.name }
                    && !characteristic.properties.isDisjoint(with: [.notify, .indicate])
                guard spec.subscribe || watched else { continue }
                try await newLink.setNotifications(enabled: true, for: characteristic,
                                                   preferring: spec.prefersIndications ? .indications : .notifications)
            }
            adopt(link: newLink, bindings: newBindings, address: target)
            onEvent(.connected(target, mtu: newLink.mtu))
            if let grant = await newLink.linkGrant {
                linkGrant = grant
                onEvent(.linkGranted(grant))
            }
        } catch let error as FlashError {
            throw error
        } catch where Task.isCancelled {
            throw Self.cancelled("while connecting", address: target)
        } catch let error as GATTError {
            if let expired = attemptExpired(while: "connecting to \(target)") { throw expired }
            let kind: FlashError.Kind
            switch error.kind {
            case .connectionFailed, .transportUnavailable: kind = .transport
            case .timeout: kind = .timeout
            case .disconnected: kind = .disconnected
            case .attError, .unsupported: kind = .device
            }
            throw FlashError(kind: kind, message: error.kind == .transportUnavailable ? error.description
                             : "connecting failed: \(error.detail)", address: target.description)
        } catch {
            throw FlashError(kind: .transport, message: "connecting failed: \(error)", address: target.description)
        }
    }

    /// A `reconnect` step: after a command that reboots the device, wait for it to drop the
    /// link (up to the grace time; then drop it ourselves) and to advertise again (up to the
    /// boot timeout) before connecting, so the device is never reached before it rebooted;
    /// otherwise drop the link and connect again. To the same address or address + 1.
    ///
    /// A refusal among the `watch` notifications the device sent before it dropped the link is
    /// returned at once, without waiting for the device to come back.
    @discardableResult
    func reconnect(_ step: ReconnectStep, after reboot: PendingReboot?,
                   watching watch: NotificationWatch? = nil) async throws(RunInterruption) -> DeviceStatus? {
        guard let current = address else { throw .linkLost(LinkLoss(detail: "not connected")) }
        let target = step.address == .next ? current.adding(1) : current
        if let reboot {
            if let refusal = try await awaitReboot(reboot, of: target, watching: watch) { return refusal }
        } else {
            lastReboot = .none
            if let link { await link.disconnect() }
        }
        do {
            try await connect(to: target, timeout: step.timeout ?? profile.resume.reconnectTimeout)
        } catch where error.kind == .cancelled {
            throw .cancelled
        } catch where [.disconnected, .timeout, .transport].contains(error.kind) {
            throw .linkLost(LinkLoss(kind: error.kind, detail: error.message, step: "reconnect"))
        } catch {
            throw .failed(error)
        }
        return nil
    }

    /// Waits for a device that was told to reboot, while the link is still up: for it to drop
    /// the link (up to the grace time, counted from when the command went out; then the link is
    /// dropped here), then for it to advertise again. The notifications read meanwhile go to
    /// `watch`: the first refusal among them is returned once the link is down, unwaited.
    @discardableResult
    func awaitReboot(_ reboot: PendingReboot, of target: DeviceAddress,
                     watching watch: NotificationWatch? = nil) async throws(RunInterruption) -> DeviceStatus? {
        if let link {
            let deadline = boundedByAttempt(deadline: link.now + max(.zero, reboot.sentAt + reboot.timing.grace - transport.now))
            var dropped = false
            var watch = watch
            var refusal: DeviceStatus?
            do {
                while let notification = try await link.nextNotification(until: deadline) {
                    if refusal == nil, case let .refusal(status)? = watch?.hear(notification.value, from: notification.valueHandle) {
                        refusal = status
                    }
                }
            } catch {
                dropped = true
            }
            if Task.isCancelled { throw .cancelled }
            // A serial line or UDP stays up while the device resets behind it: that it stayed up
            // says nothing about a reset.
            lastReboot = dropped ? .observed : (link.medium == .ble ? .keptLink : .unobservable)
            if let refusal {
                if !dropped { await link.disconnect() }
                return refusal
            }
            if !dropped {
                onEvent(.rebooting(lastReboot == .unobservable
                    ? "the \(link.medium.rawValue) link stays up through a reset; closing it \(reboot.timing.grace.secondsText) "
                        + "after '\(reboot.command)'"
                    : "the device kept the link \(reboot.timing.grace.secondsText) after '\(reboot.command)'; disconnecting"))
                await link.disconnect()
            }
        }
        try await awaitAdvertising(target, after: reboot)
        return nil
    }

    /// Waits, up to the boot timeout, for `target` to advertise (listening from now on).
    func awaitAdvertising(_ target: DeviceAddress, after reboot: PendingReboot) async throws(RunInterruption) {
        if Task.isCancelled { throw .cancelled }
        onEvent(.rebooting("waiting up to \(reboot.timing.bootTimeout.secondsText) for \(target) to advertise again "
                           + "after '\(reboot.command)'"))
        do {
            guard try await transport.waitForAdvertisement(from: target, timeout: boundedByAttempt(reboot.timing.bootTimeout))
                    != nil else {
                if let expired = attemptExpired(while: "waiting for \(target) to advertise again") {
                    throw RunInterruption.failed(expired)
                }
                throw RunInterruption.linkLost(LinkLoss(
                    kind: .timeout,
                    detail: "the device did not advertise again within \(reboot.timing.bootTimeout.secondsText) after "
                        + "'\(reboot.command)' rebooted it", step: "reconnect"))
            }
        } catch let interruption as RunInterruption {
            throw interruption
        } catch where Task.isCancelled {
            throw .cancelled
        } catch let error as GATTError where error.kind == .unsupported {
            // The transport cannot listen; connecting waits for the advertisement instead.
        } catch let error as GATTError {
            throw RunInterruption(error, step: "reconnect", location: nil)
        } catch {
            throw .failed(FlashError(kind: .transport, message: "\(error)", address: target.description))
        }
    }

    /// The user stopped the update at a step before any image was sent (scanning, connecting).
    static func cancelled(_ when: String, address: DeviceAddress?) -> FlashError {
        FlashError(kind: .cancelled, message: "cancelled \(when)", address: address?.description)
    }
}
