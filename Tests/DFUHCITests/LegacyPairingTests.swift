import DFUBytes
import DFUGATT
@testable import DFUHCI
import XCTest

/// LE legacy pairing: the security functions against the Core specification's own examples, the
/// PDUs' bytes, and the central's state machine against a responder made of the same functions.
final class LegacyPairingTests: XCTestCase {
    private func hex(_ text: String) -> [UInt8] { [UInt8](hex: text)! }

    /// Core Vol 3, Part H, 2.2.3: the c1 example.
    func testC1MatchesTheSpecificationExample() {
        let result = LegacyPairingCrypto.c1(
            k: [UInt8](repeating: 0, count: 16), r: hex("5783D52156AD6F0E6388274EC6702EE0"),
            preq: hex("07071000000101").reversed(), pres: hex("05000800000302").reversed(),
            iat: 1, rat: 0, ia: hex("A1A2A3A4A5A6"), ra: hex("B1B2B3B4B5B6"))
        XCTAssertEqual(result.hexString, "1e1e3fef878988ead2a74dc5bef13b86")
    }

    /// Core Vol 3, Part H, 2.2.4: the s1 example.
    func testS1MatchesTheSpecificationExample() {
        let result = LegacyPairingCrypto.s1(k: [UInt8](repeating: 0, count: 16), r1: hex("000F0E0D0C0B0A091122334455667788"),
                                        r2: hex("010203040506070899AABBCCDDEEFF00"))
        XCTAssertEqual(result.hexString, "9a1fe1f0e8b0f49b5b4216ae796da062")
    }

    /// FIPS-197 appendix C.1: AES-128 itself.
    func testAES128MatchesFIPS197() {
        XCTAssertEqual(AES128.encrypt(key: hex("000102030405060708090a0b0c0d0e0f"),
                                      block: hex("00112233445566778899aabbccddeeff")).hexString,
                       "69c4e0d86a7b0430d8cdb78070b4c55a")
    }

    func testPDUGoldenBytes() {
        XCTAssertEqual(SecurityManagerPDU.pairingRequest(LegacyPairing.requestParameters).bytes, [0x01, 0x03, 0x00, 0x00, 0x10, 0x00, 0x00])
        XCTAssertEqual(SecurityManagerPDU(bytes: [0x02, 0x03, 0x00, 0x04, 0x10, 0x00, 0x00]),
                       .pairingResponse(PairingParameters(ioCapability: 3, oobDataFlag: 0, authReq: 4, maximumKeySize: 16,
                                                             initiatorKeyDistribution: 0, responderKeyDistribution: 0)))
        XCTAssertEqual(SecurityManagerPDU(bytes: [0x05, 0x04]), .pairingFailed(.confirmValueFailed))
        XCTAssertEqual(PairingFailureReason.confirmValueFailed.description, "Confirm Value Failed (0x04)")
        XCTAssertEqual(PairingFailureReason(rawValue: 0x42).description, "reason (0x42)")
        XCTAssertEqual(SecurityManagerPDU(bytes: [0x0B, 0x01]), .securityRequest(authReq: 1))
        XCTAssertNil(SecurityManagerPDU(bytes: [0x03, 0x01]))
        XCTAssertNil(SecurityManagerPDU(bytes: []))
    }

    static let central = DeviceAddress(string: "C1:22:33:44:55:66")!
    static let peripheral = DeviceAddress(string: "F0:DF:00:00:01:06")!

    /// A responder as the specification describes it (Just Works, TK 0), made of the same
    /// functions: the exchange ends with both sides holding the same STK.
    func testCentralPairsWithAJustWorksResponder() throws {
        for (maximumKeySize, zeroed) in [(UInt8(16), 0), (7, 9)] {
            var central = LegacyPairing(initiator: Self.central, initiatorAddressType: 1, responder: Self.peripheral,
                                           responderAddressType: 1, random: hex("00112233445566778899AABBCCDDEEFF"))
            let request = central.start()
            XCTAssertEqual(request, [0x01, 0x03, 0x00, 0x00, 0x10, 0x00, 0x00])
            let response = SecurityManagerPDU.pairingResponse(PairingParameters(
                ioCapability: 3, oobDataFlag: 0, authReq: 0x04, maximumKeySize: maximumKeySize,
                initiatorKeyDistribution: 0, responderKeyDistribution: 0)).bytes
            let srand = hex("F0E0D0C0B0A090807060504030201000")
            func confirm(_ random: [UInt8]) -> [UInt8] {
                LegacyPairingCrypto.c1(k: [UInt8](repeating: 0, count: 16), r: random, preq: request, pres: response, iat: 1,
                                   rat: 1, ia: Self.central.bytes, ra: Self.peripheral.bytes)
            }
            guard case let .send(mconfirmPDU) = central.handle(response) else { return XCTFail("no Pairing Confirm") }
            XCTAssertEqual(mconfirmPDU.first, 0x03)
            guard case let .send(mrandPDU) = central.handle([0x03] + confirm(srand).reversed()) else {
                return XCTFail("no Pairing Random")
            }
            let mrand = Array(mrandPDU.dropFirst().reversed())
            XCTAssertEqual(Array(mconfirmPDU.dropFirst().reversed()), confirm(mrand), "Mconfirm = c1(TK, Mrand, ...)")
            guard case let .encrypt(stk) = central.handle([0x04] + srand.reversed()) else { return XCTFail("no STK") }
            var expected = LegacyPairingCrypto.s1(k: [UInt8](repeating: 0, count: 16), r1: srand, r2: mrand)
            for index in 0..<zeroed { expected[index] = 0 }
            XCTAssertEqual(stk, expected.reversed(), "STK = s1(TK, Srand, Mrand), \(maximumKeySize)-byte key")
            XCTAssertTrue(central.isDone)
        }
    }

    func testFailures() {
        func started() -> LegacyPairing {
            var central = LegacyPairing(initiator: Self.central, initiatorAddressType: 1, responder: Self.peripheral,
                                           responderAddressType: 0, random: [UInt8](repeating: 7, count: 16))
            _ = central.start()
            return central
        }
        let response: [UInt8] = [0x02, 0x03, 0x00, 0x00, 0x10, 0x00, 0x00]
        // A random that does not match the peer's confirm: Confirm Value Failed back.
        var wrong = started()
        _ = wrong.handle(response)
        _ = wrong.handle([0x03] + [UInt8](repeating: 1, count: 16))
        XCTAssertEqual(wrong.handle([0x04] + [UInt8](repeating: 2, count: 16)),
                       .fail(reason: "the device's confirm value does not match its random value", reply: [0x05, 0x04]))
        // The device refuses.
        var refused = started()
        XCTAssertEqual(refused.handle([0x05, 0x05]),
                       .fail(reason: "the device refused pairing: Pairing Not Supported (0x05)", reply: nil))
        // Keys too short, PDUs out of order, garbage.
        var short = started()
        XCTAssertEqual(short.handle([0x02, 0x03, 0x00, 0x00, 0x06, 0x00, 0x00]),
                       .fail(reason: "the device offers 6-byte keys", reply: [0x05, 0x06]))
        var early = started()
        XCTAssertEqual(early.handle([0x04] + [UInt8](repeating: 2, count: 16)),
                       .fail(reason: "an unexpected SMP PDU (code 0x04) while pairing", reply: [0x05, 0x08]))
        var garbage = started()
        XCTAssertEqual(garbage.handle([0x03, 0x00]), .fail(reason: "a malformed SMP PDU (2 bytes)", reply: [0x05, 0x0A]))
        var requested = started()
        XCTAssertEqual(requested.handle([0x0B, 0x00]), .none, "a Security Request while pairing changes nothing")
    }
}

/// Garbage never crashes the SMP decoders or the pairing machine: every random PDU is decoded
/// or refused, and the machine answers each with an action.
final class SecurityManagerGarbageTests: XCTestCase {
    func testRandomPDUsNeverCrash() {
        var generator = SeededGenerator(seed: 0x5EC)
        for round in 0..<20_000 {
            let length = Int.random(in: 0...24, using: &generator)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if !bytes.isEmpty, round % 2 == 0 { bytes[0] = UInt8.random(in: 0...0x0E, using: &generator) }
            if let pdu = SecurityManagerPDU(bytes: bytes) { XCTAssertEqual(SecurityManagerPDU(bytes: pdu.bytes), pdu) }
            var machine = LegacyPairing(initiator: DeviceAddress(value: 1), initiatorAddressType: 1,
                                           responder: DeviceAddress(value: 2), responderAddressType: 0,
                                           random: [UInt8](repeating: 3, count: 16))
            _ = machine.start()
            _ = machine.handle(bytes)
            _ = machine.handle(bytes)
            XCTAssertFalse(machine.isDone, "garbage never completes pairing")
        }
    }
}

/// A small deterministic generator (SplitMix64) so failures repeat.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
