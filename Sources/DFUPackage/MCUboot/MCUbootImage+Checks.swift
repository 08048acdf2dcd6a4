import DFUBytes

/// The `VerificationCheck`s of an MCUboot image, for `FirmwareImage.integrityChecks` and
/// `PackageVerifier`.
extension MCUbootImage {
    /// `image_hash`: the image hash TLV (SHA256, SHA384 or SHA512) against that hash of the
    /// hashed range.
    func imageHashCheck(fileName: String) -> VerificationCheck {
        let computed = computedHash.hexString
        guard !header.flags.isEncrypted else {
            return .notCheckable(.imageHash, because: "\(fileName) is encrypted (\(header.flags.names.joined(separator: ", "))): "
                + "its \(imageHashTLV?.type.name ?? "hash") TLV covers the plaintext, which only the device sees "
                + "(MCUboot decrypts the image while it validates it)")
        }
        guard let tlv = imageHashTLV else {
            return VerificationCheck(check: .imageHash, passed: false,
                                     detail: "\(fileName) has no image hash TLV (SHA256, SHA384 or SHA512)")
        }
        let stored = tlv.value
        let passed = stored == computedHash
        let name = tlv.type.name ?? "hash"
        let range = "header, payload\(protectedTLVArea == nil ? "" : " and protected TLVs") (\(hashedByteCount) bytes)"
        return VerificationCheck(
            check: .imageHash, passed: passed,
            detail: passed ? "\(name) TLV \(computed) is the \(hashAlgorithm) of \(range)"
                : "\(name) TLV says \(stored.hexString), the \(hashAlgorithm) of \(range) of \(fileName) is \(computed)",
            declared: stored.hexString, actual: computed)
    }

    /// `signature` and, for a signed image, `key_hash`, with the given key.
    func keyChecks(publicKeyDER: [UInt8]) -> [VerificationCheck] {
        func fail(_ check: ImageCheck, _ detail: String) -> VerificationCheck {
            VerificationCheck(check: check, passed: false, detail: detail)
        }
        guard let signature = signatureTLV else {
            return [fail(.signature, "signature missing: the image has no signature TLV (ECDSASIG, ED25519, RSA2048 or RSA3072)")]
        }
        guard let algorithm = signatureAlgorithm(signature.type) else {
            return [fail(.signature, "signature invalid: a \(signature.type) signature with a \(hashAlgorithm) image hash "
                         + "is not a pairing MCUboot builds")]
        }
        // Ed25519 signs the digest (unless SIG_PURE); the rest sign the hashed range itself.
        let overDigest = signature.type == .ed25519 && tlv(.signaturePure) == nil
        if header.flags.isEncrypted, !overDigest {
            return [.notCheckable(.signature, because: "the \(algorithm) signature of an encrypted image covers its "
                                      + "plaintext, which only the device sees"),
                    keyHashCheck(publicKeyDER: publicKeyDER)]
        }
        let signatureCheck: VerificationCheck
        do {
            if try checkSignature(publicKeyDER: publicKeyDER) {
                let over = overDigest ? "the image's \(hashAlgorithm) digest" : "the hashed range"
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
        let keyHash = Self.keyHash(publicKeyDER: publicKeyDER, algorithm: hashAlgorithm).hexString
        switch namesKey(publicKeyDER: publicKeyDER) {
        case true?:
            let what = tlvArea.tlvs.contains { $0.type == .keyHash } ? "KEYHASH TLV \(keyHash) is the \(hashAlgorithm) of the given key"
                : "PUBKEY TLV is the given key"
            return VerificationCheck(check: .keyHash, passed: true, detail: what, declared: keyHash, actual: keyHash)
        case false?:
            if let stored = tlvArea.tlvs.first(where: { $0.type == .keyHash })?.value {
                return VerificationCheck(
                    check: .keyHash, passed: false,
                    detail: "KEYHASH TLV says \(stored.hexString), the given key's \(hashAlgorithm) is \(keyHash): "
                        + "signed for another key",
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
