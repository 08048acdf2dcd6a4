import DFUKit

/// `dfukit package inspect PKG [--json]`.
struct PackageInspectCommand: Command {
    static let name = "package inspect"
    static let summary = "List every image of a package with size, sha256, crc32 and whether its bytes pass their checks."
    static let usage = "dfukit package inspect PKG [--json]"
    static let options: [OptionSpec] = [
        OptionSpec("--json", help: "print one JSON object instead of text"),
    ]
    static let discussion = """
        PKG is a zip (DFUKit, nrfutil, nRF Connect SDK dfu_application.zip) or a bare MCUboot image \
        signed by imgtool; for MCUboot images the report shows every header field, each TLV (type, \
        length, value in hex) and whether the SHA256 TLV matches.
        Exit 0 when every image passes its checks, 65 when one does not or the package is unreadable.
        """

    let path: String
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count == 1 else {
            throw UsageError("name exactly one package", command: "dfukit \(Self.name)")
        }
        path = arguments.positionals[0]
        json = arguments.flag("--json")
    }

    func run(_ console: any Console) async -> Int32 {
        do {
            let inspection = try PackageInspection.inspect(path: path)
            let rendered = json ? inspection.renderJSON() : inspection.renderText()
            // The renderings end with a newline; `out` adds its own.
            console.out(rendered.hasSuffix("\n") ? String(rendered.dropLast()) : rendered)
            return inspection.isFlashable ? ExitCode.success : ExitCode.dataError
        } catch {
            console.error("error: \(error)")
            return ExitCode.dataError
        }
    }
}
