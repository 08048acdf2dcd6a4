/// A link-level state machine: `CommandExchange` (one command and its answer),
/// `StreamTransfer` (raw writes paced by receipts) and `WindowedTransfer` (pipelined chunk
/// requests). Pure: it performs no I/O and reads no clock; `LinkDriver`, the one loop that runs
/// them all, performs each action on a link and feeds back what happened.
package protocol LinkMachine {
    associatedtype Output
    mutating func handle(_ event: LinkEvent) -> LinkAction<Output>
    /// Bytes of the machine's data the device holds, when it moves image data (for progress).
    var transferred: Int? { get }
    /// Where the device said it already was when the machine began moving image data (its first
    /// answer asked for a later offset); nil when it did not.
    var resumedAt: Int? { get }
    /// How many times the machine sent again after a timeout (each is reported to the user).
    var resends: Int { get }
    /// What the last resend was, for the log ("no answer to 'data' within 5 s; sending it again").
    var resendDescription: String { get }
}

extension LinkMachine {
    package var transferred: Int? { nil }
    package var resumedAt: Int? { nil }
}
