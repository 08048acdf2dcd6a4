extension SimulatedWorld {
    /// Lets the devices finish what their timers hold (a reset answered but not yet done, MCUboot's
    /// swap, a boot), as the time between two commands would: for `state=`, before the memory is
    /// saved. Stops after `limit` timers, should a device keep arming new ones.
    public func settle(limit: Int = 64) {
        var fired = 0
        while let due = nextTimer, fired < limit {
            advanceClock(to: due)
            fired += 1
        }
    }
}
