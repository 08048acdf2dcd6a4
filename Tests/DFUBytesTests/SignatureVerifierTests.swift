import XCTest
import DFUBytes

/// Keys and signatures made by the openssl command line: see Fixtures/generate.sh.
final class SignatureVerifierTests: XCTestCase {
    private func publicKey(_ name: String) throws -> [UInt8] {
        try PEM.decode(try fixtureText(name)).der
    }

    // MARK: ECDSA P-256

    func testECDSAValidSignatureInBothFormats() throws {
        let key = try publicKey("ecdsa-p256-public.pem")
        let message = try fixture("message.bin")
        XCTAssertTrue(try SignatureVerifier.verifyECDSAP256(publicKeyDER: key, message: message,
                                                            signature: try fixture("ecdsa-p256-signature.der"),
                                                            format: .der))
        XCTAssertTrue(try SignatureVerifier.verifyECDSAP256(publicKeyDER: key, message: message,
                                                            signature: try fixture("ecdsa-p256-signature.raw"),
                                                            format: .raw))
    }

    func testECDSATamperedMessageWrongKeyOrBrokenSignatureIsFalse() throws {
        let key = try publicKey("ecdsa-p256-public.pem")
        let message = try fixture("message.bin")
        let der = try fixture("ecdsa-p256-signature.der")
        var raw = try fixture("ecdsa-p256-signature.raw")
        let tampered = try fixture("message-tampered.bin")
        XCTAssertFalse(try SignatureVerifier.verifyECDSAP256(publicKeyDER: key, message: tampered,
                                                             signature: der, format: .der))
        XCTAssertFalse(try SignatureVerifier.verifyECDSAP256(publicKeyDER: key, message: tampered,
                                                             signature: raw, format: .raw))
        XCTAssertFalse(try SignatureVerifier.verifyECDSAP256(publicKeyDER: try publicKey("ecdsa-p256-other-public.pem"),
                                                             message: message, signature: der, format: .der))
        // The right signature in the wrong encoding, truncated, or with one bit flipped.
        XCTAssertFalse(try SignatureVerifier.verifyECDSAP256(publicKeyDER: key, message: message,
                                                             signature: der, format: .raw))
        XCTAssertFalse(try SignatureVerifier.verifyECDSAP256(publicKeyDER: key, message: message,
                                                             signature: raw, format: .der))
        XCTAssertFalse(try SignatureVerifier.verifyECDSAP256(publicKeyDER: key, message: message,
                                                             signature: Array(raw.dropLast()), format: .raw))
        XCTAssertFalse(try SignatureVerifier.verifyECDSAP256(publicKeyDER: key, message: message,
                                                             signature: [], format: .der))
        raw[40] ^= 0x01
        XCTAssertFalse(try SignatureVerifier.verifyECDSAP256(publicKeyDER: key, message: message,
                                                             signature: raw, format: .raw))
    }

    func testECDSAMalformedOrForeignKeyThrows() throws {
        let message = try fixture("message.bin")
        let der = try fixture("ecdsa-p256-signature.der")
        let truncated = try publicKey("malformed-public.pem")
        XCTAssertEqual(truncated.count, 40)
        XCTAssertEqual(expectError { () throws(SignatureError) in
            _ = try SignatureVerifier.verifyECDSAP256(publicKeyDER: truncated, message: message, signature: der, format: .der)
        }, .malformedPublicKey(algorithm: "ECDSA P-256", byteCount: 40))
        for keyBytes in [[], [0x30, 0x00], try publicKey("ed25519-public.pem"), try publicKey("ecdsa-p384-public.pem")] {
            XCTAssertThrowsError(try SignatureVerifier.verifyECDSAP256(publicKeyDER: keyBytes, message: message,
                                                                       signature: der, format: .der),
                                 "\(keyBytes.count)-byte key")
        }
        // A secp256k1 key has P-256's field size but is another curve: refused even with a
        // signature that is valid on its own curve.
        let secp256k1Key = try publicKey("ecdsa-secp256k1-public.pem")
        let secp256k1Signature = try fixture("ecdsa-secp256k1-signature.der")
        XCTAssertEqual(expectError { () throws(SignatureError) in
            _ = try SignatureVerifier.verifyECDSAP256(publicKeyDER: secp256k1Key, message: message,
                                                      signature: secp256k1Signature, format: .der)
        }, .malformedPublicKey(algorithm: "ECDSA P-256", byteCount: secp256k1Key.count))
        // A point that is not on the curve (last byte of y changed).
        var offCurve = try fixture("ecdsa-p256-public.der")
        offCurve[offCurve.count - 1] ^= 0x01
        XCTAssertThrowsError(try SignatureVerifier.verifyECDSAP256(publicKeyDER: offCurve, message: message,
                                                                   signature: der, format: .der))
    }

    // MARK: Ed25519

    func testEd25519ValidSignatureWithDERAndRawKeys() throws {
        let key = try publicKey("ed25519-public.pem")
        XCTAssertEqual(key.count, 44)
        let message = try fixture("message.bin")
        let signature = try fixture("ed25519-signature.bin")
        XCTAssertTrue(try SignatureVerifier.verifyEd25519(publicKey: key, message: message, signature: signature))
        // The SubjectPublicKeyInfo's last 32 bytes are the raw key.
        XCTAssertTrue(try SignatureVerifier.verifyEd25519(publicKey: Array(key.suffix(32)), message: message,
                                                          signature: signature))
    }

    func testEd25519TamperedMessageWrongKeyOrBrokenSignatureIsFalse() throws {
        let key = try publicKey("ed25519-public.pem")
        let message = try fixture("message.bin")
        var signature = try fixture("ed25519-signature.bin")
        XCTAssertFalse(try SignatureVerifier.verifyEd25519(publicKey: key, message: try fixture("message-tampered.bin"),
                                                           signature: signature))
        XCTAssertFalse(try SignatureVerifier.verifyEd25519(publicKey: try publicKey("ed25519-other-public.pem"),
                                                           message: message, signature: signature))
        XCTAssertFalse(try SignatureVerifier.verifyEd25519(publicKey: key, message: message,
                                                           signature: Array(signature.dropLast())))
        signature[3] ^= 0x80
        XCTAssertFalse(try SignatureVerifier.verifyEd25519(publicKey: key, message: message, signature: signature))
    }

    func testEd25519MalformedKeyThrows() throws {
        let message = try fixture("message.bin")
        let signature = try fixture("ed25519-signature.bin")
        let key = try publicKey("ed25519-public.pem")
        for keyBytes in [Array(key.suffix(31)), [], Array(key.dropLast()), try publicKey("ecdsa-p256-public.pem"),
                         try publicKey("malformed-public.pem")] {
            let error = expectError { () throws(SignatureError) in
                _ = try SignatureVerifier.verifyEd25519(publicKey: keyBytes, message: message, signature: signature)
            }
            XCTAssertEqual(error, .malformedPublicKey(algorithm: "Ed25519", byteCount: keyBytes.count))
        }
    }
}
