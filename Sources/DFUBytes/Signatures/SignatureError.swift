/// Why a signature could not be checked at all. A signature that is merely wrong is not an
/// error: the verifier returns false.
package enum SignatureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The public key could not be parsed, is on another curve, or is not a valid point.
    case malformedPublicKey(algorithm: String, byteCount: Int)
    /// Crypto++ failed for another reason (the shim's return code).
    case cryptoFailure(algorithm: String, code: Int32)

    package var description: String {
        switch self {
        case let .malformedPublicKey(algorithm, byteCount):
            return "the \(byteCount)-byte \(algorithm) public key is malformed or not an \(algorithm) key"
        case let .cryptoFailure(algorithm, code):
            return "\(algorithm) verification failed inside Crypto++ (code \(code))"
        }
    }
}
