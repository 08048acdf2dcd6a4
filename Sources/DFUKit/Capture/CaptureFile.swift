import DFUCapture

/// Reads any capture DFUKit understands, by what the file holds: a DFUKit recording (JSON
/// Lines, its first byte `{`), else btsnoop or pcap (`CaptureReader`).
enum CaptureFile {
    /// - Throws: `.usage`, naming the file, what is wrong and what to do.
    static func read(_ path: String) throws(DFUKitError) -> CapturedSession {
        do {
            return try CaptureReader.read(path: path)
        } catch {
            throw DFUKitError(kind: .usage, message: "capture \(error)")
        }
    }
}
