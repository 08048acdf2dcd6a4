import DFUGATT
import DFUBytes

/// A `GATTLink` to a simulated peripheral. Every call runs the connection-event model forward
/// on the world's virtual clock until the call can complete, so a whole update runs in
/// milliseconds of real time and always takes the same simulated time. Device timers run in
/// between, in time order: a device that reboots while the central waits ends the link then.
/// On a `realtime=` world each call returns once the wall clock has caught up (`WallClockPacing`).
package final class SimulatedLink: GATTLink {
    private let world: SimulatedWorld
    private let peripheral: any SimulatedPeripheral
    private var scheduler: ConnectionEventScheduler
    private var inbox: [GATTNotification] = []
    /// A notification held back by a `reorder-notification` fault until the next one arrives.
    private var heldBack: GATTNotification?
    /// Answers to ATT requests (write and read responses, error responses), in arrival order;
    /// one request is outstanding at a time.
    private var requestResults: [Result<[UInt8], GATTError>] = []
    private var disconnectReason: String?
    package private(set) var statistics = LinkStatistics()
    /// The address connected to, kept: a peripheral may advertise elsewhere after a reboot (a
    /// Nordic bootloader on address + 1), and errors on this link still name this one.
    package let address: DeviceAddress

    init(world: SimulatedWorld, peripheral: any SimulatedPeripheral, settings: LinkSettings) {
        self.world = world
        self.peripheral = peripheral
        self.address = peripheral.advertisement.address
        self.scheduler = ConnectionEventScheduler(settings: settings, connectedAt: world.now)
    }

    package var mtu: Int { scheduler.settings.mtu }
    package var now: Duration { world.now }
    package var linkGrant: LinkGrant? { get async { scheduler.settings.grant } }
    package var isConnected: Bool { disconnectReason == nil }

    package func discoverServices() async throws(GATTError) -> [GATTService] {
        try await paced { () throws(GATTError) in try discoverServicesNow() }
    }

    private func discoverServicesNow() throws(GATTError) -> [GATTService] {
        try requireConnected()
        // Primary services, characteristics and descriptors: about four request/response
        // round trips, two connection intervals each.
        world.advanceClock(to: world.now + scheduler.settings.connectionInterval * 8)
        try requireConnected()
        return peripheral.services
    }

    package func read(_ characteristic: GATTCharacteristic) async throws(GATTError) -> [UInt8] {
        try await paced { () throws(GATTError) in try readNow(characteristic) }
    }

    private func readNow(_ characteristic: GATTCharacteristic) throws(GATTError) -> [UInt8] {
        try requireConnected()
        scheduler.enqueueFromCentral(.readRequest(handle: characteristic.valueHandle))
        let deadline = world.now + scheduler.settings.attTimeout
        try run(until: { !self.requestResults.isEmpty }, deadline: deadline)
        guard !requestResults.isEmpty else { throw timeout("read of \(characteristic.uuid)", deadline: deadline) }
        return try requestResults.removeFirst().get()
    }

    package func write(_ value: [UInt8], to characteristic: GATTCharacteristic,
                      type: GATTWriteType) async throws(GATTError) {
        try await paced { () throws(GATTError) in try writeNow(value, to: characteristic, type: type) }
    }

    private func writeNow(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType) throws(GATTError) {
        try requireConnected()
        guard value.count <= mtu - 3 else {
            throw GATTError(.unsupported, address: address.description,
                            detail: "a write of \(value.count) bytes exceeds ATT_MTU-3 (\(mtu - 3))")
        }
        switch type {
        case .withResponse:
            scheduler.enqueueFromCentral(.writeRequest(handle: characteristic.valueHandle, value: value))
            let deadline = world.now + scheduler.settings.attTimeout
            try run(until: { !self.requestResults.isEmpty }, deadline: deadline)
            guard !requestResults.isEmpty else {
                throw timeout("write request to \(characteristic.uuid)", deadline: deadline)
            }
            _ = try requestResults.removeFirst().get()
        case .withoutResponse:
            let buffers = scheduler.settings.transmitBuffers
            try run(until: { self.scheduler.queuedToPeripheral < buffers },
                    deadline: world.now + scheduler.settings.attTimeout)
            scheduler.enqueueFromCentral(.writeCommand(handle: characteristic.valueHandle, value: value))
        }
    }

    /// The writes without response queued to the peripheral, not yet sent in a connection event.
    package var writesInFlight: Int? { get async { scheduler.queuedToPeripheral } }

    /// Runs the link until the writes without response queued to the peripheral went out.
    package func writesCarried() async throws(GATTError) {
        try await paced { () throws(GATTError) in
            try requireConnected()
            try run(until: { self.scheduler.queuedToPeripheral == 0 }, deadline: world.now + scheduler.settings.attTimeout)
        }
    }

    /// Writes the Client Characteristic Configuration descriptor (it follows the value handle):
    /// notifications (0x0001) where the characteristic notifies, else indications (0x0002), as
    /// the ATT client does.
    package func setNotifications(enabled: Bool, for characteristic: GATTCharacteristic,
                                 preferring kind: GATTValueUpdates) async throws(GATTError) {
        let descriptor = GATTCharacteristic(service: characteristic.service, uuid: BluetoothUUIDs.clientConfiguration,
                                            valueHandle: characteristic.valueHandle + 1, properties: [.write])
        let configuration = kind.configuration(for: characteristic.properties) ?? 0x0001
        let value: [UInt8] = enabled ? [UInt8(configuration), 0x00] : [0x00, 0x00]
        try await write(value, to: descriptor, type: .withResponse)
    }

    package func nextNotification(until deadline: Duration) async throws(GATTError) -> GATTNotification? {
        try await paced { () throws(GATTError) in try nextNotificationNow(until: deadline) }
    }

    private func nextNotificationNow(until deadline: Duration) throws(GATTError) -> GATTNotification? {
        if inbox.isEmpty {
            try run(until: { !self.inbox.isEmpty }, deadline: deadline)
        }
        if !inbox.isEmpty { return inbox.removeFirst() }
        try requireConnected()
        world.advanceClock(to: deadline)
        try requireConnected()
        return nil
    }

    /// Lets time pass, as a radio link's timer would: a link that drops meanwhile is noticed
    /// by the next call, not by this one.
    package func sleep(until deadline: Duration) async throws(GATTError) {
        if isConnected { try? run(until: { false }, deadline: deadline) }
        world.advanceClock(to: deadline)
        await world.keepUpWithWallClock()
    }

    package func disconnect() async {
        if isConnected { drop(reason: "the central disconnected") }
    }

    /// Runs `body` (which moves the virtual clock), then waits for the wall clock on a
    /// `realtime=` world, whether `body` returned or threw.
    private func paced<T>(_ body: () throws(GATTError) -> T) async throws(GATTError) -> T {
        let result = Result(catching: body)
        await world.keepUpWithWallClock()
        return try result.get()
    }

    // MARK: - The event loop

    /// Runs connection events and device timers, in time order, until `condition` holds, the
    /// deadline passes, the link drops (throws) or nothing is left in flight or due. A timer due
    /// at the same moment as an event runs first.
    private func run(until condition: () -> Bool, deadline: Duration) throws(GATTError) {
        while !condition() {
            try requireConnected()
            let eventTime = scheduler.nextBusyEvent(notBefore: world.now)
            if let timer = world.nextTimer, timer <= deadline, eventTime.map({ timer <= $0 }) ?? true {
                world.advanceClock(to: timer)
                continue
            }
            guard let eventTime, eventTime <= deadline else { return }
            runEvent(at: eventTime)
        }
    }

    private func runEvent(at time: Duration) {
        world.advanceClock(to: time)
        guard isConnected else { return }
        statistics.connectionEvents += 1
        let (centralPDUs, peripheralOutputs) = scheduler.takeEvent(at: time)
        for pdu in centralPDUs {
            statistics.packetsToPeripheral += 1
            statistics.valueBytesToPeripheral += pdu.valueByteCount
            deliverToPeripheral(pdu, at: time)
            if !isConnected { return }
        }
        for output in peripheralOutputs {
            statistics.packetsToCentral += 1
            statistics.valueBytesToCentral += output.pdu.valueByteCount
            deliverToCentral(output.pdu, at: time)
            if output.disconnectAfterSending {
                drop(reason: output.disconnectReason)
                return
            }
        }
        scheduler.finishEvent()
    }

    private func deliverToPeripheral(_ pdu: SimulatedPDU, at time: Duration) {
        let faults = world.faults
        let silent = faults.unresponsiveAfterBytes.map { world.valueBytesReceived >= $0 } ?? false
        var pdu = pdu
        if case let .writeCommand(handle, value) = pdu {
            world.writeCommandsSent += 1
            let count = world.writeCommandsSent
            if faults.dropWrites.contains(count) { return }
            if faults.corruptWrites.contains(count), !value.isEmpty {
                var corrupted = value
                corrupted[corrupted.count - 1] ^= 0xFF
                pdu = .writeCommand(handle: handle, value: corrupted)
            }
        }
        switch pdu {
        case let .writeRequest(handle, value), let .writeCommand(handle, value):
            world.valueBytesReceived += value.count
            let journalled = world.journal.map { _ in (peripheral as? any JournalledFirmware)?.activatedImageSHA256 }
            world.journal?.append(.write(handle: handle, length: value.count), device: address)
            let outputs = peripheral.receiveWrite(handle: handle, value: value, at: time)
            if let journalled, let now = (peripheral as? any JournalledFirmware)?.activatedImageSHA256, now != journalled {
                world.journal?.append(.activated(sha256: now), device: address)
            }
            if let loss = outputs.first(where: \.losesLinkAtOnce) {
                drop(reason: loss.disconnectReason)
                return
            }
            if silent { break }
            // A device refuses a write request with an error response instead of the write
            // response; a write command gets neither.
            let refusal = outputs.first { if case .errorResponse = $0.pdu { return true } else { return false } }
            if case .writeRequest = pdu {
                scheduler.enqueueFromPeripheral(refusal ?? PeripheralOutput(pdu: .writeResponse, readyAt: time), arrivedAt: time)
            }
            for output in outputs where output != refusal { scheduler.enqueueFromPeripheral(output, arrivedAt: time) }
        case let .readRequest(handle):
            if silent { break }
            let answer: SimulatedPDU = peripheral.readValue(handle: handle).map { .readResponse(value: $0) }
                ?? .errorResponse(code: 0x02, handle: handle)  // Read Not Permitted
            scheduler.enqueueFromPeripheral(PeripheralOutput(pdu: answer, readyAt: time), arrivedAt: time)
        default:
            break
        }
        for threshold in faults.rebootAfterBytes
        where world.valueBytesReceived >= threshold && !world.firedReboots.contains(threshold) {
            world.firedReboots.insert(threshold)
            peripheral.powerCycle(at: time)
            drop(reason: "simulated fault: the device reset (power glitch) after \(threshold) bytes", peripheralKnows: true)
            return
        }
        for threshold in faults.disconnectAfterBytes
        where world.valueBytesReceived >= threshold && !world.firedDisconnects.contains(threshold) {
            world.firedDisconnects.insert(threshold)
            drop(reason: "simulated fault: disconnect after \(threshold) bytes")
            return
        }
    }

    private func deliverToCentral(_ pdu: SimulatedPDU, at time: Duration) {
        switch pdu {
        case .writeResponse:
            requestResults.append(.success([]))
        case let .readResponse(value):
            requestResults.append(.success(value))
        case let .errorResponse(code, handle):
            requestResults.append(.failure(GATTError(.attError(code: code, handle: handle), address: address.description,
                                                     detail: "the device refused the request (ATT error 0x"
                                                         + String(code, radix: 16, uppercase: true) + ")")))
        case let .notification(handle, value):
            world.notificationsSent += 1
            let count = world.notificationsSent
            if world.faults.dropNotifications.contains(count) { return }
            var delivered = value
            if world.faults.corruptNotifications.contains(count), !delivered.isEmpty {
                delivered[delivered.count - 1] ^= 0xFF
            }
            let notification = GATTNotification(valueHandle: handle, value: delivered, receivedAt: time)
            if world.faults.reorderNotifications.contains(count) {
                if let earlier = heldBack { inbox.append(earlier) }
                heldBack = notification
                return
            }
            inbox.append(notification)
            if world.faults.duplicateNotifications.contains(count) { inbox.append(notification) }
            if let earlier = heldBack {
                heldBack = nil
                inbox.append(GATTNotification(valueHandle: earlier.valueHandle, value: earlier.value, receivedAt: time))
            }
        default:
            break
        }
    }

    /// Ends the link. `peripheralKnows`: the device ended it by resetting, so it is not told.
    func drop(reason: String, peripheralKnows: Bool = false) {
        guard disconnectReason == nil else { return }
        disconnectReason = reason
        world.journal?.append(.disconnect(reason: reason), device: address)
        heldBack = nil
        scheduler.dropEverything()
        if !peripheralKnows { peripheral.connectionEnded(at: world.now) }
    }

    private func requireConnected() throws(GATTError) {
        if let reason = disconnectReason {
            throw GATTError(.disconnected, address: address.description, detail: reason)
        }
    }

    /// The error for an unanswered request; the clock moves on to the deadline.
    private func timeout(_ what: String, deadline: Duration) -> GATTError {
        world.advanceClock(to: deadline)
        if let reason = disconnectReason {
            return GATTError(.disconnected, address: address.description, detail: reason)
        }
        return GATTError(.timeout, address: address.description,
                         detail: "\(what) unanswered after \(scheduler.settings.attTimeout)")
    }
}
