/// Host-to-controller ACL flow control (Core spec Vol 4, Part E, 4.1.1): the host may have at
/// most as many ACL packets in the controller as it has LE buffers; each packet sent takes a
/// credit and Number Of Completed Packets gives credits back. When a connection closes, the
/// controller drops its queued packets, so their credits come back too. Pure accounting.
package struct ACLFlowControl: Sendable, Hashable {
    /// Total_Num_LE_ACL_Data_Packets.
    package let capacity: Int
    /// Credits the host holds now.
    package private(set) var available: Int
    private var outstanding: [UInt16: Int] = [:]

    package init(capacity: Int) {
        precondition(capacity > 0, "the controller must have at least one ACL buffer")
        self.capacity = capacity
        self.available = capacity
    }

    /// Packets in the controller for `handle`.
    package func outstanding(on handle: UInt16) -> Int { outstanding[handle, default: 0] }

    /// Takes a credit for a packet on `handle`; false when none is left.
    package mutating func consume(on handle: UInt16) -> Bool {
        guard available > 0 else { return false }
        available -= 1
        outstanding[handle, default: 0] += 1
        return true
    }

    /// Returns credits for packets the controller completed. A count larger than what is
    /// outstanding on the handle (a confused controller) is clamped; returns the credits given.
    @discardableResult
    package mutating func complete(_ count: Int, on handle: UInt16) -> Int {
        let returned = min(count, outstanding[handle, default: 0])
        guard returned > 0 else { return 0 }
        outstanding[handle, default: 0] -= returned
        if outstanding[handle] == 0 { outstanding[handle] = nil }
        available += returned
        return returned
    }

    /// The connection closed: every packet it had in the controller is freed.
    @discardableResult
    package mutating func connectionClosed(_ handle: UInt16) -> Int {
        complete(outstanding[handle, default: 0], on: handle)
    }
}
