import DFUKit
import Foundation

/// `dfukit station keygen --out station.key`: the station's Ed25519 key pair for audit records.
struct StationKeygenCommand: Command {
    static let name = "station keygen"
    static let summary = "Make the station's Ed25519 key pair that signs its audit records."
    static let usage = "dfukit station keygen --out FILE"
    static let options: [OptionSpec] = [
        OptionSpec("--out", value: "FILE", help: "the private key (PEM PKCS#8, mode 0600); the public key goes "
                   + "beside it as FILE with .pub for .key"),
    ]
    static let discussion = """
        Both files are PEM, as openssl writes them ('openssl pkey -in FILE -noout -text' reads the
        private key). Give the private key to 'dfukit batch run --audit-key' (or 'audit-key:' in the
        line file) and the public key to 'dfukit station audit verify --key'. Neither file is
        overwritten. Prints the key id: the hex SHA-256 of the public key's 32 bytes, stored with
        every record the key signs.
        Exit: 0 written, 64 usage (a file exists already), 74 a file cannot be written.
        """

    let privatePath: String
    var publicPath: String { Self.publicPath(for: privatePath) }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let command = "dfukit \(Self.name)"
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'", command: command)
        }
        privatePath = try arguments.requiredValue("--out")
        for path in [privatePath, Self.publicPath(for: privatePath)] where FileManager.default.fileExists(atPath: path) {
            throw UsageError("\(path) exists already: a station key is never overwritten; remove it or give another --out",
                             command: command)
        }
    }

    /// `station.pub` for `station.key`, else the path with `.pub` added.
    static func publicPath(for privatePath: String) -> String {
        privatePath.hasSuffix(".key") ? String(privatePath.dropLast(4)) + ".pub" : privatePath + ".pub"
    }

    func run(_ console: any Console) async -> Int32 {
        let key: Ed25519PrivateKey
        do {
            key = try Ed25519PrivateKey.generate()
        } catch {
            console.error("error: \(error)")
            return ExitCode.failure
        }
        if let problem = Self.write(key.pem, to: privatePath, mode: 0o600) ?? Self.write(key.publicKey.pem, to: publicPath, mode: 0o644) {
            console.error("error: \(problem)")
            return ExitCode.ioError
        }
        console.error("wrote the private key \(privatePath) (mode 0600, keep it on the station) and the public key \(publicPath)")
        console.out("key id \(key.publicKey.keyID)")
        return ExitCode.success
    }

    /// Creates `path` with `mode` (never replacing a file) and writes `text`; the problem, or nil.
    static func write(_ text: String, to path: String, mode: mode_t) -> String? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { return "cannot create \(path): \(String(cString: strerror(errno)))" }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(descriptor) == 0 else {
            return "cannot write \(path): \(String(cString: strerror(errno)))"
        }
        return nil
    }
}
