#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import DFUBytes

/// The public key a simulated Secure DFU bootloader checks init packet signatures with, read
/// from a PEM file (`sim:nordic-secure-dfu?key=PATH`, e.g. what `nrfutil keys display --key pk
/// --format pem` prints).
package struct SimulatorPublicKey: Sendable, Equatable {
    package var path: String
    /// DER SubjectPublicKeyInfo of an ECDSA P-256 key.
    package var der: [UInt8]

    package init(path: String, der: [UInt8]) {
        self.path = path
        self.der = der
    }

    /// Reads and checks the key: a PEM "PUBLIC KEY" block holding an ECDSA P-256 key.
    package init(contentsOf path: String) throws(SimulatorConfigurationError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SimulatorConfigurationError("key: cannot read '\(path)' (\(Self.reason(error))); give the path of a PEM public key")
        }
        let decoded: (label: String, der: [UInt8])
        do {
            decoded = try PEM.decode(String(decoding: data, as: UTF8.self))
        } catch {
            throw SimulatorConfigurationError("key: '\(path)' is not a PEM file: \(error)")
        }
        guard decoded.label == "PUBLIC KEY" else {
            throw SimulatorConfigurationError(
                "key: '\(path)' is a PEM \"\(decoded.label)\", not a \"PUBLIC KEY\" "
                    + "(nrfutil keys display --key pk --format pem prints the public key)")
        }
        do {
            _ = try SignatureVerifier.verifyECDSAP256(publicKeyDER: decoded.der, message: [0],
                                                      signature: [UInt8](repeating: 1, count: 64), format: .raw)
        } catch {
            throw SimulatorConfigurationError("key: '\(path)' is not an ECDSA P-256 public key: \(error)")
        }
        self.init(path: path, der: decoded.der)
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? CocoaError, error.code == .fileReadNoSuchFile { return "no such file" }
        return "\(error)"
    }
}
