import DFUBytes

/// What a command handler answers, before it is put in the request's protocol version.
enum SMPReply: Equatable {
    /// Success: the body's entries, in Zephyr's order.
    case success([CBORMapEntry])
    /// A protocol-wide error: `{rc: N}` in both versions.
    case failure(MCUmgrReturnCode)
    /// An image group error: `{err: {group: 1, rc: N}}` for v2, `{rc: legacyCode}` for v1.
    case imageFailure(ImageManagementReturnCode)

    static let imageGroup: UInt16 = 1

    /// The CBOR body for a request of SMP `version` (0 = v1, 1 = v2).
    func body(version: UInt8) -> CBORValue {
        switch self {
        case let .success(entries):
            return .map(entries)
        case let .failure(code):
            return .textMap(["rc": CBORValue(integer: code.rawValue)])
        case let .imageFailure(code):
            if version == SMPHeader.version1 {
                return .textMap(["rc": CBORValue(integer: code.legacyCode.rawValue)])
            }
            return .textMap(["err": .textMap(["group": CBORValue(integer: Self.imageGroup),
                                              "rc": CBORValue(integer: code.rawValue)])])
        }
    }
}

/// A handler's reply with the device time it took and whether it armed the reset timer.
struct SMPHandled {
    var reply: SMPReply
    var cost: Duration = .zero
    var armsReset = false
}
