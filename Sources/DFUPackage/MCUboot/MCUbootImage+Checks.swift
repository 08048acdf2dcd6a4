import DFUBytes

/// The `VerificationCheck`s of an MCUboot image, for `FirmwareImage.integrityChecks` and
/// `PackageVerifier`.
extension MCUbootImage {
    /// `image_hash`: the SHA256 TLV against the SHA-256 of the hashed range.
    func imageHashCheck(fileName: String) -> VerificationCheck {
        let computed = computedSHA256.hexString
        guard !header.flags.isEncrypted else {
            return VerificationCheck(
                check: .imageHash, passed: false,
                detail: "cannot be checked: \(fileName) is encrypted (\(header.flags.names.joined(separator: ", "))) "
                    + "and its SHA256 TLV covers the plaintext")
        }
        guard let stored = sha256TLV else {
            let others = tlvArea.tlvs.filter { $0.type == .sha384 || $0.type == .sha512 }.map(\.type.description)
            return VerificationCheck(
                check: .imageHash, passed: false,
                detail: others.isEmpty ? "\(fileName) has no SHA256 TLV"
                    : "\(fileName) has no SHA256 TLV (only \(others.joined(separator: ", ")), which DFUKit does not check)")
        }
        let passed = stored == computedSHA256
        let range = "header, payload\(protectedTLVArea == nil ? "" : " and protected TLVs") (\(hashedByteCount) bytes)"
        return VerificationCheck(
            check: .imageHash, passed: passed,
            detail: passed ? "SHA256 TLV \(computed) is the SHA-256 of \(range)"
                : "SHA256 TLV says \(stored.hexString), the SHA-256 of \(range) of \(fileName) is \(computed)",
            declared: stored.hexString, actual: computed)
    }

    /// `signature` and, for a signed image, `key_hash`, with the given key.
    func keyChecks(publicKeyDER: [UInt8]) -> [VerificationCheck] {
        func fail(_ check: ImageCheck, _ detail: String) -> VerificationCheck {
            VerificationCheck(check: check, passed: false, detail: detail)
        }
        guard let signature = signatureTLV else {
            return [fail(.signature, "signature missing: the image has no signature TLV (ECDSASIG or ED25519)")]
        }
        let algorithm: String
        switch signature.type {
        case .ecdsaSignature: algorithm = "ECDSA P-256"
        case .ed25519: algorithm = "Ed25519"
        default:
            return [fail(.signature, "signature invalid: \(signature.type) signatures are not supported by DFUKit")]
        }
        let signatureCheck: VerificationCheck
        do {
            if try checkSignature(publicKeyDER: publicKeyDER) {
                let over = signature.type == .ecdsaSignature || signedMessage(for: .ed25519).count != 32
                    ? "the hashed range" : "the image's SHA-256 digest"
                signatureCheck = VerificationCheck(
                    check: .signature, passed: true,
                    detail: "\(algorithm) signature (\(signature.type)) over \(over) verifies with the given key")
            } else {
                signatureCheck = fail(.signature, "signature invalid: the \(algorithm) signature does not verify with the given key")
            }
        } catch {
            signatureCheck = fail(.signature, "signature invalid: the given key cannot check an \(algorithm) signature (\(error))")
        }
        return [signatureCheck, keyHashCheck(publicKeyDER: publicKeyDER)]
    }

    private func keyHashCheck(publicKeyDER: [UInt8]) -> VerificationCheck {
        let keyHash = Self.keyHash(publicKeyDER: publicKeyDER).hexString
        switch namesKey(publicKeyDER: publicKeyDER) {
        case true?:
            let what = tlvArea.tlvs.contains { $0.type == .keyHash } ? "KEYHASH TLV \(keyHash) is the SHA-256 of the given key"
                : "PUBKEY TLV is the given key"
            return VerificationCheck(check: .keyHash, passed: true, detail: what, declared: keyHash, actual: keyHash)
        case false?:
            if let stored = tlvArea.tlvs.first(where: { $0.type == .keyHash })?.value {
                return VerificationCheck(
                    check: .keyHash, passed: false,
                    detail: "KEYHASH TLV says \(stored.hexString), the given key's SHA-256 is \(keyHash): signed for another key",
                    declared: stored.hexString, actual: keyHash)
            }
            return VerificationCheck(check: .keyHash, passed: false,
                                     detail: "PUBKEY TLV holds another key than the given one")
        case nil:
            return VerificationCheck(check: .keyHash, passed: false,
                                     detail: "the image has neither a KEYHASH nor a PUBKEY TLV, so MCUboot cannot pick its key")
        }
    }
}
