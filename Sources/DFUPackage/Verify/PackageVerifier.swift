import DFUBytes

/// Runs every check on a package's images: the integrity checks `requireIntact()` runs, and with
/// a public key the init packets' or MCUboot images' signatures (and for MCUboot the KEYHASH).
///
/// With a key, every image must carry a signature that verifies: an unsigned image fails with
/// "signature missing", a signature made with another key fails with "signature invalid".
public enum PackageVerifier {
    /// Verifies `package`. `publicKeyPEM` is a PEM "PUBLIC KEY" (as `nrfutil keys display --key pk
    /// --format pem` or `imgtool getpub -e pem` prints it); a key that cannot be read fails every
    /// image's signature check.
    public static func verify(_ package: FirmwarePackage, publicKeyPEM: String?) -> PackageVerification {
        let key = publicKeyPEM.map(readKey)
        let images = package.images.map { image in
            var checks = image.integrityChecks
            if let key { checks += keyChecks(image, key: key) }
            return PackageVerification.Image(name: image.name, checks: checks)
        }
        return PackageVerification(packagePath: package.path, format: package.format,
                                   keyGiven: publicKeyPEM != nil, images: images)
    }

    private static func readKey(_ text: String) -> Result<[UInt8], PEMError> {
        Result { () throws(PEMError) in try PEM.decode(text).der }
    }

    /// MCUboot images: `signature`, then `key_hash` when the image is signed. Others: `signature`.
    private static func keyChecks(_ image: FirmwareImage, key: Result<[UInt8], PEMError>) -> [VerificationCheck] {
        guard image.isMCUboot else { return [signatureCheck(image, key: key)] }
        switch key {
        case let .failure(error):
            return [VerificationCheck(check: .signature, passed: false, detail: "public key unreadable: \(error)")]
        case let .success(keyDER):
            guard let mcuboot = image.mcubootImage else {
                return [VerificationCheck(check: .signature, passed: false,
                                          detail: "signature missing: \(image.fileName) is not a valid MCUboot image")]
            }
            return mcuboot.keyChecks(publicKeyDER: keyDER)
        }
    }

    private static func signatureCheck(_ image: FirmwareImage, key: Result<[UInt8], PEMError>) -> VerificationCheck {
        func fail(_ detail: String) -> VerificationCheck {
            VerificationCheck(check: .signature, passed: false, detail: detail)
        }
        let keyDER: [UInt8]
        switch key {
        case let .success(der): keyDER = der
        case let .failure(error): return fail("public key unreadable: \(error)")
        }
        if let standalone = image.standalone {
            return standaloneSignatureCheck(standalone, image: image, keyDER: keyDER)
        }
        switch image.decodedInitPacket {
        case nil:
            return fail("signature missing: DFUKit packages carry no signature")
        case .legacy?:
            return fail("signature missing: legacy init packets carry no signature")
        case .undecodable?:
            return fail("signature missing: the init packet does not decode")
        case let .secure(packet)?:
            guard packet.isSigned else { return fail("signature missing: the init packet is not signed") }
            let type = packet.signatureType ?? .ecdsaP256SHA256
            guard type == .ecdsaP256SHA256 || type == .ed25519 else {
                return fail("signature invalid: unsupported signature type \(type.name)")
            }
            do {
                if try packet.checkSignature(publicKeyDER: keyDER) {
                    return VerificationCheck(check: .signature, passed: true,
                                             detail: "\(type.name) signature over the InitCommand verifies with the given key")
                }
                return fail("signature invalid: the \(type.name) signature does not verify with the given key")
            } catch {
                return fail("signature invalid: the given key cannot check a \(type.name) signature (\(error))")
            }
        }
    }

    /// A standalone file's own signature (a signed GBL's ECDSA P-256 tag).
    private static func standaloneSignatureCheck(_ standalone: StandaloneImage, image: FirmwareImage,
                                                 keyDER: [UInt8]) -> VerificationCheck {
        guard let signature = standalone.signature else {
            return VerificationCheck(check: .signature, passed: false,
                                     detail: "signature missing: \(image.fileName) is not signed")
        }
        let algorithm = signature.algorithm.rawValue
        do {
            if try SignatureVerifier.verifyECDSAP256(publicKeyDER: keyDER, message: signature.message,
                                                     signature: signature.signature, format: .raw) {
                return VerificationCheck(check: .signature, passed: true,
                                         detail: "\(algorithm) signature of \(image.fileName) verifies with the given key")
            }
            return VerificationCheck(check: .signature, passed: false,
                                     detail: "signature invalid: the \(algorithm) signature does not verify with the given key")
        } catch {
            return VerificationCheck(check: .signature, passed: false,
                                     detail: "signature invalid: the given key cannot check a \(algorithm) signature (\(error))")
        }
    }
}
