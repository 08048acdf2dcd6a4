import DFUEngine
import DFUGATT

/// The station's radios: the first scans (all radios at once), each radio's own loop (its slots,
/// its later scans), and a radio that fails.
extension BatchRunner {
    /// Where an attempt runs: its radio, its concurrency slot (0-based over the whole batch: radio
    /// `r`'s are `r * budget ..< (r + 1) * budget`) and the radio's budget.
    struct Seat: Sendable {
        let radio: Int
        let slot: Int
        let budget: Int
    }

    /// At least one radio, all on the same clock.
    func checkRadios() throws(FlashError) {
        guard !radios.isEmpty else {
            throw FlashError(kind: .usage, message: "a batch needs at least one radio (a device string such as bluez:hci0)")
        }
        let simulated = radios.filter(\.source.usesVirtualTime).map(\.label)
        guard simulated.isEmpty || simulated.count == radios.count else {
            throw FlashError(kind: .usage, message: "the radios mix simulated clocks (\(simulated.joined(separator: ", "))) "
                             + "with the wall clock: a batch's times are on one clock; give them the same kind of transport")
        }
    }

    // MARK: - The first devices

    /// Gives the line's devices to the radios: the listed addresses, or the matching devices the
    /// radios hear. Every radio scans at once, unless one radio serves a list (it has nothing to
    /// choose). A radio whose scan fails is failed; when all fail, the batch throws.
    func assignFirstDevices() async throws(FlashError) {
        var listed: [DeviceAddress] = []
        for text in plan.line.addresses {
            guard let address = DeviceAddress(string: text) else {
                throw FlashError(kind: .usage, message: "'\(text)' is not a device address")
            }
            listed.append(address)
        }
        if listed.isEmpty, let refusal = DeviceSelection.refusal(profile: plan.profile, address: nil) {
            // A profile that cannot tell its devices from others would take every advertiser nearby.
            throw FlashError(kind: .usage, message: refusal)
        }
        if !listed.isEmpty, radios.count == 1 {
            assignment.withLock { _ = $0.assign(listed.map { RadioAssignment.Sighting(address: $0) }) }
            return
        }
        let heard = try await scanEveryRadio()
        var sightings: [RadioAssignment.Sighting] = []
        var index: [DeviceAddress: Int] = [:]
        func note(_ address: DeviceAddress, radio: Int?, rssi: Int) {
            if index[address] == nil {
                index[address] = sightings.count
                sightings.append(RadioAssignment.Sighting(address: address))
            }
            guard let radio else { return }
            let strongest = max(sightings[index[address]!].strength[radio] ?? rssi, rssi)
            sightings[index[address]!].strength[radio] = strongest
        }
        if listed.isEmpty {
            // Each radio's matching devices (its own RSSI against the line's minimum), radio by radio.
            for (radio, advertisements) in heard.enumerated() {
                for advertisement in plan.line.selection.candidates(in: advertisements ?? [], profile: plan.profile) {
                    note(advertisement.address, radio: radio, rssi: advertisement.rssi)
                }
            }
        } else {
            for address in listed { note(address, radio: nil, rssi: 0) }
            for (radio, advertisements) in heard.enumerated() {
                for advertisement in advertisements ?? [] where index[advertisement.address] != nil {
                    note(advertisement.address, radio: radio, rssi: advertisement.rssi)
                }
            }
        }
        assignment.withLock { _ = $0.assign(sightings) }
    }

    /// Every radio's scan, at once; nil for a radio whose scan failed (it is failed). Throws when
    /// every radio failed: the error itself for one radio, each radio's for several.
    private func scanEveryRadio() async throws(FlashError) -> [[Advertisement]?] {
        let results = await withTaskGroup(of: (Int, Result<[Advertisement], FlashError>).self) { group in
            for (index, radio) in radios.enumerated() {
                group.addTask {
                    do throws(FlashError) {
                        return (index, .success(try await radio.source.scan()))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var results = [Result<[Advertisement], FlashError>?](repeating: nil, count: radios.count)
            for await (index, result) in group { results[index] = result }
            return results.compactMap { $0 }
        }
        let errors = results.enumerated().compactMap { index, result -> (Int, FlashError)? in
            guard case let .failure(error) = result else { return nil }
            return (index, error)
        }
        if errors.count == radios.count {
            guard radios.count > 1 else { throw errors[0].1 }
            throw FlashError(kind: .transport, message: "no radio can scan: "
                             + errors.map { "\(radios[$0.0].label): \($0.1.message)" }.joined(separator: "; "))
        }
        for (index, error) in errors { radioFailed(index, reason: "it cannot scan: \(error.message)") }
        let heard = results.map { try? $0.get() }
        for advertisements in heard { noteSignal(advertisements ?? []) }
        return heard
    }

    /// Keeps the strongest signal a scan heard from each device, for its live row (`deviceLink`).
    private func noteSignal(_ advertisements: [Advertisement]) {
        scannedRSSI.withLock { rssi in
            for advertisement in advertisements {
                rssi[advertisement.address] = max(rssi[advertisement.address] ?? Int.min, advertisement.rssi)
            }
        }
    }

    // MARK: - Each radio

    /// One radio's loop: starts its devices on free slots while the line is open; when nothing
    /// runs on it, scans for more (a count to meet), waits for the others, or ends
    /// (`RadioAssignment.idleAction`). Its scans never hold up another radio.
    func runRadio(_ radio: Int, budget: Int) async {
        let mayScan = plan.line.addresses.isEmpty && plan.line.count != nil
        var wakeup = wakeups[radio].makeAsyncIterator()
        await withTaskGroup(of: Int.self) { group in
            var busy: Set<Int> = []
            var open = true
            while true {
                while open, busy.count < budget, assignment.withLock({ $0.canStart(on: radio) }) {
                    // No new device on a halted line: wait for a resume, or end (`WhenHalted`).
                    guard await lineIsOpen() else { open = false; break }
                    guard let device = assignment.withLock({ $0.next(for: radio) }) else { break }
                    let seat = takeSeat(radio: radio, budget: budget, busy: busy)
                    busy.insert(seat.slot)
                    group.addTask {
                        let counted = await self.process(device, seat: seat)
                        self.counters.withLock { _ = $0.busySlots.remove(seat.slot) }
                        self.assignment.withLock { $0.finished(device, counted: counted) }
                        self.wakeAllRadios()
                        return seat.slot
                    }
                }
                if !busy.isEmpty {
                    if let freed = await group.next() { busy.remove(freed) }
                    continue
                }
                guard open, !Task.isCancelled else { break }
                switch assignment.withLock({ $0.idleAction(for: radio, mayScan: mayScan) }) {
                case .end:
                    return
                case .wait:
                    guard await wakeup.next() != nil else { return }
                case .scan:
                    guard await scanForMore(radio) else { return }
                }
            }
        }
    }

    /// A free slot of the radio: on a simulated clock the one whose clock is earliest (whatever
    /// task runs it), on a real one the first.
    private func takeSeat(radio: Int, budget: Int, busy: Set<Int>) -> Seat {
        let slots = (radio * budget)..<((radio + 1) * budget)
        let slot = counters.withLock { counters -> Int in
            let free = slots.filter { !busy.contains($0) && !counters.busySlots.contains($0) }
            let slot = usesVirtualTime ? free.min { counters.slotSeconds[$0] < counters.slotSeconds[$1] } : free.first
            counters.busySlots.insert(slot ?? slots.lowerBound)
            return slot ?? slots.lowerBound
        }
        return Seat(radio: radio, slot: slot, budget: budget)
    }

    /// An idle radio looks for devices no radio has taken (the count is not met yet) while the
    /// others flash. True when it took some; false when it heard none new, or it failed.
    private func scanForMore(_ radio: Int) async -> Bool {
        let heard: [Advertisement]
        do throws(FlashError) {
            heard = try await radios[radio].source.scan()
        } catch {
            radioFailed(radio, reason: "it cannot scan: \(error.message)")
            return false
        }
        let found = plan.line.selection.candidates(in: heard, profile: plan.profile)
        noteSignal(found)
        let taken = assignment.withLock {
            $0.assign(found.map { RadioAssignment.Sighting(address: $0.address, strength: [radio: $0.rssi]) },
                      sparingNeighbours: true)
        }
        return !taken.isEmpty
    }

    // MARK: - A failed radio

    /// The radio can no longer be used: it starts nothing more, and the devices that waited on it
    /// are counted as failed, never tried. Said once per radio.
    func radioFailed(_ radio: Int, reason: String) {
        guard let untried = assignment.withLock({ $0.fail(radio, reason: reason) }) else { return }
        tally(radio: radio, {
            $0.devices += untried.count
            $0.failed += untried.count
        }, {
            $0.devices += untried.count
            $0.failed += untried.count
        })
        onEvent(.radioFailed(radio: radios[radio].label, reason: reason, untried: untried))
        wakeAllRadios()
    }
}
