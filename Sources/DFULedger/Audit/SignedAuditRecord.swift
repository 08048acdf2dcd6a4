import DFUBytes
import Foundation

/// An audit record as signed and stored: its canonical JSON (the signed bytes, kept exactly as
/// signed), the Ed25519 signature in base64 and the signing key's id (hex SHA-256 of the public
/// key's 32 bytes). Signature and key id sit beside the record, not inside the signed bytes.
///
/// `dfukit station audit export` prints one per line (`jsonLine`):
/// `{"record":{...canonical JSON...},"signature":"BASE64","key_id":"HEX"}`.
public struct SignedAuditRecord: Sendable, Hashable {
    /// The signed bytes, as UTF-8 text: `AuditRecord.canonicalJSON` when it was signed.
    public var canonicalJSON: String
    /// The Ed25519 signature of `canonicalJSON`'s UTF-8 bytes, base64.
    public var signature: String
    /// The id of the key that signed it (`Ed25519PublicKey.keyID`).
    public var keyID: String

    /// A stored record, as read back.
    public init(canonicalJSON: String, signature: String, keyID: String) {
        self.canonicalJSON = canonicalJSON
        self.signature = signature
        self.keyID = keyID
    }

    /// `record` signed with `key`.
    public init(signing record: AuditRecord, with key: Ed25519PrivateKey) {
        let canonical = record.canonicalJSON
        canonicalJSON = canonical
        signature = Data(key.signature(of: Array(canonical.utf8))).base64EncodedString()
        keyID = key.publicKey.keyID
    }

    /// Why the record does not verify with `key`, or nil when it does: the signature must be
    /// `key`'s over the exact bytes of `canonicalJSON`, and the record must be a dfukit audit record.
    public func problem(verifyingWith key: Ed25519PublicKey) -> AuditFailure.Reason? {
        guard let signatureBytes = Data(base64Encoded: signature), signatureBytes.count == 64 else {
            return .malformed("the signature is not 64 bytes of base64")
        }
        let valid = key.isValidSignature(Array(signatureBytes), of: Array(canonicalJSON.utf8))
        guard valid else {
            if keyID != key.keyID {
                return .otherKey("signed by key \(keyID.prefix(16))…, not by the given key \(key.keyID.prefix(16))…")
            }
            return .badSignature("the signature does not match the record's bytes: the record was changed after it was signed")
        }
        guard keyID == key.keyID else {
            return .malformed("its key_id \(keyID.prefix(16))… is not the signing key's \(key.keyID.prefix(16))…")
        }
        guard let subject, subject.format == AuditRecord.format else {
            return .malformed("the signed bytes are not a dfukit-audit record")
        }
        return nil
    }

    /// What the record says it is about, read from its JSON; nil when it is not a JSON object.
    public var subject: AuditSubject? {
        guard let json = try? JSONValue.parse(Array(canonicalJSON.utf8)), case .object = json else { return nil }
        func text(_ key: String) -> String? {
            if case let .string(value)? = json[key] { return value }
            return nil
        }
        var attempt: Int?
        if case let .integer(value)? = json["attempt"] { attempt = Int(value) }
        return AuditSubject(format: text("format"), address: text("address"), attempt: attempt,
                            station: text("station"), startedAt: text("started_at"))
    }

    /// The export form: one line of JSON, the record's canonical bytes verbatim under `record`.
    public var jsonLine: String {
        "{\"record\":\(canonicalJSON),\"signature\":\(JSONValue.string(signature).compactText),"
            + "\"key_id\":\(JSONValue.string(keyID).compactText)}"
    }

    /// Reads a line `jsonLine` wrote. The record's bytes are taken verbatim (not re-encoded), so
    /// a changed byte stays changed and fails verification.
    /// - Throws: when the line is not of that form.
    public init(jsonLine line: String) throws(AuditFormatError) {
        let prefix = "{\"record\":"
        let signatureKey = ",\"signature\":"
        let keyIDKey = ",\"key_id\":"
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix(prefix), trimmed.hasSuffix("}"),
              let signatureRange = trimmed.range(of: signatureKey, options: .backwards),
              let keyIDRange = trimmed.range(of: keyIDKey, options: .backwards),
              signatureRange.upperBound <= keyIDRange.lowerBound else {
            throw AuditFormatError("not an exported audit line {\"record\":{...},\"signature\":\"...\",\"key_id\":\"...\"}")
        }
        let record = String(trimmed[trimmed.index(trimmed.startIndex, offsetBy: prefix.count)..<signatureRange.lowerBound])
        let signatureText = String(trimmed[signatureRange.upperBound..<keyIDRange.lowerBound])
        let keyIDText = String(trimmed[keyIDRange.upperBound..<trimmed.index(before: trimmed.endIndex)])
        guard case let .string(signature)? = try? JSONValue.parse(Array(signatureText.utf8)),
              case let .string(keyID)? = try? JSONValue.parse(Array(keyIDText.utf8)) else {
            throw AuditFormatError("the signature and key_id must be JSON strings")
        }
        guard case .object? = try? JSONValue.parse(Array(record.utf8)) else {
            throw AuditFormatError("the record is not a JSON object")
        }
        self.init(canonicalJSON: record, signature: signature, keyID: keyID)
    }
}

/// Which attempt a record says it attests, read from its JSON (each nil when absent).
public struct AuditSubject: Sendable, Hashable {
    /// `dfukit-audit` for a record of ours.
    public var format: String?
    /// The device's address.
    public var address: String?
    /// The attempt's number at the device.
    public var attempt: Int?
    /// The station that made it.
    public var station: String?
    /// When it started (ISO 8601).
    public var startedAt: String?
}

/// An exported audit line that cannot be read.
public struct AuditFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the line.
    public var message: String

    /// An error that says `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
