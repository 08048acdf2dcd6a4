/// How one device (address and package) stands after its attempts, the rule reports and
/// summaries share.
enum DeviceOutcome {
    /// The attempt that decides the device's result, from its attempts in the order recorded:
    /// the last one that left it done (a success, or a skip as already running the target),
    /// unless a later claim tried it again (a line with `skip-done: false`): then that claim's
    /// last attempt. Without any done, the last attempt. Attempts recorded late under a claim
    /// that was already at work before the done one (a station that lost its lease) do not count.
    static func deciding(_ attempts: [Attempt]) -> Attempt {
        guard let doneIndex = attempts.lastIndex(where: { $0.result.marksDone }) else { return attempts[attempts.count - 1] }
        let earlierClaims = Set(attempts[...doneIndex].map(\.claimID))
        return attempts[(doneIndex + 1)...].last { !earlierClaims.contains($0.claimID) } ?? attempts[doneIndex]
    }
}
