import DFUKit
import Foundation

/// `dfukit package verify PKG [--key PUB.pem] [--json]`.
struct PackageVerifyCommand: Command {
    static let name = "package verify"
    static let summary = "Run every integrity check on a package's images and, with --key, check their signatures."
    static let usage = "dfukit package verify PKG [--key PUB.pem] [--json]"
    static let options: [OptionSpec] = [
        OptionSpec("--key", value: "PUB.pem", help: "public key (PEM) the images must be signed with"),
        OptionSpec("--json", help: "print one JSON object instead of text"),
    ]
    static let discussion = """
        Checks: DFUKit packages: size, sha256, crc32 against the manifest. Nordic packages: the init \
        packet decodes, its type fits the manifest, hash type SHA-256, the byte-reversed SHA-256 \
        matches the .bin, app/sd/bl sizes match; legacy packages: CRC16 and init_packet_data. MCUboot \
        images (bare, or in an nRF Connect SDK dfu_application.zip): the image parses, the SHA256 TLV \
        matches, size and version_MCUBOOT match the manifest. With --key every image must be signed \
        with that key ("signature missing", "signature invalid"; MCUboot: ECDSA P-256 or Ed25519, \
        and the KEYHASH TLV must name the key).
        Exit 0 when every check passes, 65 when one fails (naming the image and the check) or the \
        package is unreadable, 74 when the key file cannot be read.
        """

    let path: String
    let keyPath: String?
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count == 1 else {
            throw UsageError("name exactly one package", command: "dfukit \(Self.name)")
        }
        path = arguments.positionals[0]
        keyPath = arguments.value("--key")
        json = arguments.flag("--json")
    }

    func run(_ console: any Console) async -> Int32 {
        var keyText: String?
        if let keyPath {
            do {
                keyText = try String(contentsOfFile: keyPath, encoding: .utf8)
            } catch {
                console.error("error: \(keyPath): cannot read the public key: \(error.localizedDescription). Check the path.")
                return ExitCode.ioError
            }
        }
        do {
            let package = try FirmwarePackage.open(path: path)
            let verification = PackageVerifier.verify(package, publicKeyPEM: keyText)
            let rendered = json ? verification.renderJSON() : verification.renderText()
            // The renderings end with a newline; `out` adds its own.
            console.out(rendered.hasSuffix("\n") ? String(rendered.dropLast()) : rendered)
            do {
                try verification.requireVerified()
            } catch {
                console.error("error: \(error)")
                return ExitCode.dataError
            }
            return ExitCode.success
        } catch {
            console.error("error: \(error)")
            return ExitCode.dataError
        }
    }
}
