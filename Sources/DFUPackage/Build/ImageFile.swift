import Foundation

/// Loads firmware bytes from a build output, chosen by file extension:
/// `.hex` / `.ihex` are Intel HEX (laid out from their lowest address, gaps `0xFF`);
/// `.bin` is taken as is.
package enum ImageFile {
    package static func load(path: String) throws(PackageError) -> [UInt8] {
        switch (path as NSString).pathExtension.lowercased() {
        case "hex", "ihex":
            return try IntelHexReader.read(path: path).bytes
        case "bin":
            do {
                return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                throw .io(path: path, operation: "read firmware image", reason: error.localizedDescription)
            }
        default:
            throw .invalidBuildInput(reason: "\(path): unknown image file type; use a .bin or .hex file")
        }
    }
}
