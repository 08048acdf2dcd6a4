/// Where DFUKit stopped doing what the captured client did: the first request the capture did
/// not see, said by connection, message and field.
public struct ReplayDivergence: Error, Sendable, CustomStringConvertible {
    /// The captured connection (1 = the first) DFUKit was on.
    public var connection: Int
    /// The captured client's step there (1 = its first message, read or subscription).
    public var step: Int
    /// What differs, as one sentence.
    public var summary: String
    /// The fields that differ, where both sides are messages of the profile.
    public var fields: [FieldDifference]

    /// A divergence at `step` of `connection`.
    public init(connection: Int, step: Int, summary: String, fields: [FieldDifference] = []) {
        self.connection = connection
        self.step = step
        self.summary = summary
        self.fields = fields
    }

    /// "the replay stopped at connection 1, step 4: message 'start' field 'size': ...".
    public var description: String {
        "the replay stopped at connection \(connection), step \(step): \(summary)"
    }
}
