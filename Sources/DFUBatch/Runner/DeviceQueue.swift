import DFUGATT

/// Hands devices to the runner's workers until the target is met or the batch is stopped.
actor DeviceQueue {
    private var pending: [DeviceAddress]
    private let target: Int
    private var done = 0
    private var running = 0
    private(set) var stopped = false

    init(devices: [DeviceAddress], target: Int) {
        pending = devices
        self.target = target
    }

    /// The next device to work on; nil when none is left, enough are done, or the batch stops.
    func next() -> DeviceAddress? {
        guard !stopped, done + running < target, !pending.isEmpty else { return nil }
        running += 1
        return pending.removeFirst()
    }

    /// `counted`: the device is done (flashed now, or already done before).
    func finished(counted: Bool) {
        running -= 1
        if counted { done += 1 }
    }

    func stop() { stopped = true }
}
