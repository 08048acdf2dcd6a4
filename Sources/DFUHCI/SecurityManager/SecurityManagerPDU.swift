/// A Security Manager protocol PDU on L2CAP CID 0x0006 (Core Vol 3, Part H, 3.3): a code and
/// its parameters. Only what LE legacy Just Works pairing as central needs is decoded.
package enum SecurityManagerPDU: Sendable, Hashable {
    case pairingRequest(PairingParameters)
    case pairingResponse(PairingParameters)
    /// Mconfirm / Sconfirm, 16 bytes least significant first.
    case pairingConfirm([UInt8])
    /// Mrand / Srand, 16 bytes least significant first.
    case pairingRandom([UInt8])
    case pairingFailed(PairingFailureReason)
    /// A peripheral asking the central to pair (AuthReq).
    case securityRequest(authReq: UInt8)
    case other(code: UInt8, parameters: [UInt8])

    /// Decodes one PDU; nil when it is shorter than its code needs.
    package init?(bytes: [UInt8]) {
        guard let code = bytes.first else { return nil }
        let parameters = Array(bytes.dropFirst())
        switch code {
        case 0x01, 0x02:
            guard let values = PairingParameters(bytes: parameters) else { return nil }
            self = code == 0x01 ? .pairingRequest(values) : .pairingResponse(values)
        case 0x03, 0x04:
            guard parameters.count == 16 else { return nil }
            self = code == 0x03 ? .pairingConfirm(parameters) : .pairingRandom(parameters)
        case 0x05:
            guard parameters.count == 1 else { return nil }
            self = .pairingFailed(PairingFailureReason(rawValue: parameters[0]))
        case 0x0B:
            guard parameters.count == 1 else { return nil }
            self = .securityRequest(authReq: parameters[0])
        default:
            self = .other(code: code, parameters: parameters)
        }
    }

    package var bytes: [UInt8] {
        switch self {
        case let .pairingRequest(values): return [0x01] + values.bytes
        case let .pairingResponse(values): return [0x02] + values.bytes
        case let .pairingConfirm(value): return [0x03] + value
        case let .pairingRandom(value): return [0x04] + value
        case let .pairingFailed(reason): return [0x05, reason.rawValue]
        case let .securityRequest(authReq): return [0x0B, authReq]
        case let .other(code, parameters): return [code] + parameters
        }
    }
}

/// The six parameter bytes of Pairing Request and Pairing Response.
package struct PairingParameters: Sendable, Hashable {
    /// 0x03: NoInputNoOutput (what a station without a screen or keyboard is).
    package var ioCapability: UInt8
    package var oobDataFlag: UInt8
    /// Bonding_Flags (bits 0-1), MITM (bit 2), SC (bit 3), Keypress (bit 4), CT2 (bit 5).
    package var authReq: UInt8
    package var maximumKeySize: UInt8
    package var initiatorKeyDistribution: UInt8
    package var responderKeyDistribution: UInt8

    package static let mitmFlag: UInt8 = 1 << 2
    package static let secureConnectionsFlag: UInt8 = 1 << 3

    package init(ioCapability: UInt8, oobDataFlag: UInt8, authReq: UInt8, maximumKeySize: UInt8,
                initiatorKeyDistribution: UInt8, responderKeyDistribution: UInt8) {
        self.ioCapability = ioCapability
        self.oobDataFlag = oobDataFlag
        self.authReq = authReq
        self.maximumKeySize = maximumKeySize
        self.initiatorKeyDistribution = initiatorKeyDistribution
        self.responderKeyDistribution = responderKeyDistribution
    }

    init?(bytes: [UInt8]) {
        guard bytes.count == 6 else { return nil }
        self.init(ioCapability: bytes[0], oobDataFlag: bytes[1], authReq: bytes[2], maximumKeySize: bytes[3],
                  initiatorKeyDistribution: bytes[4], responderKeyDistribution: bytes[5])
    }

    package var bytes: [UInt8] {
        [ioCapability, oobDataFlag, authReq, maximumKeySize, initiatorKeyDistribution, responderKeyDistribution]
    }
}

/// Pairing Failed's reason (Core Vol 3, Part H, 3.5.5): an open struct, printed by name.
package struct PairingFailureReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let authenticationRequirements = PairingFailureReason(rawValue: 0x03)
    package static let confirmValueFailed = PairingFailureReason(rawValue: 0x04)
    package static let pairingNotSupported = PairingFailureReason(rawValue: 0x05)
    package static let encryptionKeySize = PairingFailureReason(rawValue: 0x06)
    package static let unspecifiedReason = PairingFailureReason(rawValue: 0x08)
    package static let invalidParameters = PairingFailureReason(rawValue: 0x0A)

    private static let names: [UInt8: String] = [
        0x01: "Passkey Entry Failed", 0x02: "OOB Not Available", 0x03: "Authentication Requirements",
        0x04: "Confirm Value Failed", 0x05: "Pairing Not Supported", 0x06: "Encryption Key Size",
        0x07: "Command Not Supported", 0x08: "Unspecified Reason", 0x09: "Repeated Attempts",
        0x0A: "Invalid Parameters", 0x0B: "DHKey Check Failed", 0x0C: "Numeric Comparison Failed",
        0x0D: "BR/EDR pairing in progress", 0x0E: "Cross-transport Key Derivation/Generation not allowed",
        0x0F: "Key Rejected", 0x10: "Busy",
    ]

    package var description: String {
        "\(Self.names[rawValue] ?? "reason") (0x\(hexByte(rawValue)))"
    }
}
