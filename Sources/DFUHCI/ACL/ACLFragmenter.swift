/// Cuts an L2CAP frame into ACL packets no longer than the controller's LE ACL buffer
/// (LE_ACL_Data_Packet_Length): the first marked "first non-flushable", the rest
/// "continuation".
package enum ACLFragmenter {
    package static func fragments(of frame: [UInt8], handle: UInt16, maximumLength: Int) -> [ACLPacket] {
        precondition(maximumLength > 0, "the controller's ACL buffer length must be positive")
        guard !frame.isEmpty else { return [ACLPacket(handle: handle, boundary: .firstNonFlushable, data: [])] }
        return stride(from: 0, to: frame.count, by: maximumLength).map { start in
            ACLPacket(handle: handle, boundary: start == 0 ? .firstNonFlushable : .continuation,
                      data: Array(frame[start..<min(start + maximumLength, frame.count)]))
        }
    }
}
