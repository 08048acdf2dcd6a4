extension RecordingReader {
    /// Whether `bytes` start as a recording does: its header, a JSON object naming the format.
    static func isRecording(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(64), as: UTF8.self)
        return head.hasPrefix("{") && head.contains("\"\(RecordingHeader.formatName)\"")
    }

    /// A recording's bytes as a captured session, for `CaptureReader` (which reads every
    /// capture format by its first bytes).
    /// - Throws: `CaptureError`: `.unsupportedFormat` for a newer version, `.malformedHeader`
    ///   for a damaged file (the line and column in its detail).
    static func session(bytes: [UInt8], source: String) throws(CaptureError) -> CapturedSession {
        do {
            return try read(text: String(decoding: bytes, as: UTF8.self), source: source).session
        } catch {
            let place = error.line.map { "line \($0)" + (error.column.map { ", column \($0)" } ?? "") + ": " } ?? ""
            let newer = error.message.contains("this DFUKit reads versions up to")
            throw CaptureError(newer ? .unsupportedFormat : .malformedHeader, file: source,
                               detail: place + error.message, remedy: error.remedy)
        }
    }
}
