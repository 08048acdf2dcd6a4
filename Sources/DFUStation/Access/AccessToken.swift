import DFUBytes
import Foundation

/// The secret the line controls need, as `Authorization: Bearer TOKEN`. Only its SHA-256 is kept,
/// and a presented token is compared by digest in constant time, so neither the token's length nor
/// the position of a first wrong character shows in the time an answer takes.
public struct AccessToken: Sendable, CustomStringConvertible {
    private let digest: [UInt8]

    /// The token `text` without surrounding white space; throws `.invalidToken` when nothing is left.
    public init(_ text: String) throws(DashboardServerError) {
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else {
            throw DashboardServerError(.invalidToken, "the dashboard token is empty: a token must have at least one character")
        }
        digest = SHA256.digest(Array(token.utf8))
    }

    /// The token on the first line of the file at `path` (white space around it removed);
    /// throws `.unreadableTokenFile` when the file cannot be read, `.invalidToken` when its first
    /// line is empty.
    public init(contentsOfFile path: String) throws(DashboardServerError) {
        guard let text = Self.readText(path) else {
            let reason = String(cString: strerror(errno))
            throw DashboardServerError(.unreadableTokenFile, "cannot read the token file \(path): \(reason); "
                                       + "check the path and that this user may read it")
        }
        let firstLine = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        do {
            try self.init(firstLine)
        } catch {
            throw DashboardServerError(.invalidToken, "the token file \(path) has no token on its first line: "
                                       + "write the token there (e.g. 'openssl rand -hex 24 > \(path)')")
        }
    }

    /// The first 64 KiB of the file at `path` as UTF-8, or nil with `errno` set.
    private static func readText(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 65_536)
        let count = read(descriptor, &bytes, bytes.count)
        guard count >= 0 else { return nil }
        return String(decoding: bytes[0..<count], as: UTF8.self)
    }

    /// Whether `presented` is this token (compared by SHA-256 digest, in constant time).
    public func accepts(_ presented: String) -> Bool {
        let other = SHA256.digest(Array(presented.utf8))
        var difference: UInt8 = 0
        for index in digest.indices { difference |= digest[index] ^ other[index] }
        return difference == 0
    }

    /// Whether an `Authorization` header field carries this token as `Bearer TOKEN` (the scheme in
    /// any case); false for a missing header or another scheme.
    public func accepts(authorization: String?) -> Bool {
        guard let presented = Self.bearerToken(authorization) else {
            // Compare anyway, so a missing header takes as long as a wrong one.
            _ = accepts("")
            return false
        }
        return accepts(presented)
    }

    /// The token of `Bearer TOKEN`, or nil.
    static func bearerToken(_ authorization: String?) -> String? {
        guard let authorization else { return nil }
        let trimmed = authorization.trimmingCharacters(in: .whitespaces)
        guard let space = trimmed.firstIndex(of: " "), trimmed[..<space].lowercased() == "bearer" else { return nil }
        let token = trimmed[space...].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// Never the token: `AccessToken(set)`.
    public var description: String { "AccessToken(set)" }
}
