import DFUGATT

/// LE legacy pairing, Just Works, as the central (initiator), as a pure state machine: the
/// PDUs to send for the PDUs received, then the STK to encrypt the link with (Core Vol 3,
/// Part H, 2.3 and C.2). The host does the I/O (L2CAP CID 6, LE Enable Encryption).
///
/// DFUKit pairs as a device without input or output (NoInputNoOutput), asks for no bonding and
/// no keys, and offers neither Secure Connections nor MITM protection: the peer then pairs with
/// Just Works, TK = 0, which gives an encrypted link (BT_SECURITY medium) and nothing more.
package struct LegacyPairing: Sendable {
    package enum Action: Sendable, Equatable {
        case send([UInt8])
        /// Pairing is done: start encryption with this STK (16 bytes least significant first,
        /// already shortened to the agreed key size).
        case encrypt(shortTermKey: [UInt8])
        /// Pairing failed: send `reply` (a Pairing Failed PDU) if any, and report `reason`.
        case fail(reason: String, reply: [UInt8]?)
        /// Nothing to do for this PDU.
        case none
    }

    private enum State {
        case idle, awaitingResponse, awaitingConfirm, awaitingRandom, done, failed
    }

    private let initiator: (address: [UInt8], type: UInt8)
    private let responder: (address: [UInt8], type: UInt8)
    /// Mrand, most significant byte first.
    private let mrand: [UInt8]
    private var state = State.idle
    private var request: [UInt8] = []
    private var response: [UInt8] = []
    private var sconfirm: [UInt8] = []
    private var keySize = 16

    /// What DFUKit asks for: NoInputNoOutput, no OOB, no bonding, no MITM, no SC, 16-byte keys,
    /// no keys distributed.
    package static let requestParameters = PairingParameters(
        ioCapability: 0x03, oobDataFlag: 0x00, authReq: 0x00, maximumKeySize: 16,
        initiatorKeyDistribution: 0, responderKeyDistribution: 0)

    private static let temporaryKey = [UInt8](repeating: 0, count: 16)

    /// - Parameters:
    ///   - initiatorAddressType, responderAddressType: 0 public, 1 random (as HCI reports them).
    ///   - random: Mrand, 16 random bytes (most significant first).
    package init(initiator: DeviceAddress, initiatorAddressType: UInt8, responder: DeviceAddress,
                responderAddressType: UInt8, random: [UInt8]) {
        self.initiator = (initiator.bytes, initiatorAddressType & 1)
        self.responder = (responder.bytes, responderAddressType & 1)
        self.mrand = random
    }

    package var isDone: Bool { state == .done }

    /// The Pairing Request that starts pairing.
    package mutating func start() -> [UInt8] {
        request = SecurityManagerPDU.pairingRequest(Self.requestParameters).bytes
        state = .awaitingResponse
        return request
    }

    package mutating func handle(_ bytes: [UInt8]) -> Action {
        guard let pdu = SecurityManagerPDU(bytes: bytes) else {
            return fail("a malformed SMP PDU (\(bytes.count) bytes)", reply: .invalidParameters)
        }
        switch (state, pdu) {
        case let (_, .pairingFailed(reason)):
            state = .failed
            return .fail(reason: "the device refused pairing: \(reason)", reply: nil)
        case (_, .securityRequest):
            return .none  // already pairing (or paired)
        case let (.awaitingResponse, .pairingResponse(values)):
            guard values.maximumKeySize >= 7, values.maximumKeySize <= 16 else {
                return fail("the device offers \(values.maximumKeySize)-byte keys", reply: .encryptionKeySize)
            }
            // Legacy pairing uses OOB data only when both sides have it; DFUKit never does.
            response = pdu.bytes
            keySize = Int(min(values.maximumKeySize, Self.requestParameters.maximumKeySize))
            state = .awaitingConfirm
            return .send(SecurityManagerPDU.pairingConfirm(confirm(for: mrand).reversed()).bytes)
        case let (.awaitingConfirm, .pairingConfirm(value)):
            sconfirm = value.reversed()
            state = .awaitingRandom
            return .send(SecurityManagerPDU.pairingRandom(mrand.reversed()).bytes)
        case let (.awaitingRandom, .pairingRandom(value)):
            let srand = Array(value.reversed())
            guard confirm(for: srand) == sconfirm else {
                return fail("the device's confirm value does not match its random value", reply: .confirmValueFailed)
            }
            var stk = LegacyPairingCrypto.s1(k: Self.temporaryKey, r1: srand, r2: mrand)
            // A shorter agreed key keeps the least significant bytes (MSB-first: zero the first ones).
            for index in 0..<(16 - keySize) { stk[index] = 0 }
            state = .done
            return .encrypt(shortTermKey: stk.reversed())
        default:
            return fail("an unexpected SMP PDU (code 0x\(hexByte(bytes[0]))) while pairing", reply: .unspecifiedReason)
        }
    }

    private func confirm(for random: [UInt8]) -> [UInt8] {
        LegacyPairingCrypto.c1(k: Self.temporaryKey, r: random, preq: request, pres: response, iat: initiator.type,
                           rat: responder.type, ia: initiator.address, ra: responder.address)
    }

    private mutating func fail(_ reason: String, reply: PairingFailureReason) -> Action {
        state = .failed
        return .fail(reason: reason, reply: SecurityManagerPDU.pairingFailed(reply).bytes)
    }
}
