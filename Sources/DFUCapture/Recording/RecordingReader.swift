import Foundation

/// A recording read back: its header, every event in file order, and the session in capture
/// terms (connections and ATT operations).
public struct Recording: Sendable {
    /// The first line.
    public var header: RecordingHeader
    /// Every event after the header and blobs, in file order (events of a type this reader does
    /// not know are left out, with a note in `session.notes`).
    public var events: [RecordingEvent]
    /// The images stored in the file, by SHA-256 (lowercase hex).
    public var blobs: [String: [UInt8]]
    /// The connections and their operations, as every capture is read (format
    /// `.recording(version:)`).
    public var session: CapturedSession
}

/// Reads a DFUKit session recording (`--record FILE`; see the RecordingFormat article).
public enum RecordingReader {
    /// Reads the recording at `path`.
    /// - Throws: `RecordingError`: the file cannot be read, is not a recording, is of a newer
    ///   version, or a line is damaged (with its line and column).
    public static func read(path: String) throws(RecordingError) -> Recording {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RecordingError(path: path, message: "cannot read the recording: \(error.localizedDescription)",
                                 remedy: "check the path; a recording is the file given to --record")
        }
        let bytes = [UInt8](data)
        guard bytes.starts(with: Gzip.magic) else { return try read(text: String(decoding: bytes, as: UTF8.self), source: path) }
        guard let inflated = Gzip.inflate(bytes) else {
            throw RecordingError(path: path, message: "the gzip file is damaged or cut short",
                                 remedy: "check it with `gzip -t \(path)`; what was flushed before a crash reads with `zcat`")
        }
        return try read(text: String(decoding: inflated, as: UTF8.self), source: path)
    }

    /// Reads a recording's text; `source` names it in errors and in the session.
    /// - Throws: `RecordingError`, as `read(path:)`.
    public static func read(text: String, source: String) throws(RecordingError) -> Recording {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let endsWithLineBreak = lines.last == ""
        if endsWithLineBreak { lines.removeLast() }
        guard let first = lines.first, !first.isEmpty else {
            throw RecordingError(path: source, line: 1, column: 1, message: "the file is empty: no header line",
                                 remedy: "a recording starts with its header; record the session again")
        }
        let header = try RecordingLineDecoder(source: source, number: 1, text: first).header()
        var blobs: [String: [UInt8]] = [:]
        var events: [RecordingEvent] = []
        var builder = RecordingSessionBuilder()
        var notes: [String] = []
        var unknown: Set<String> = []
        for (index, text) in lines.enumerated().dropFirst() where !text.isEmpty {
            let number = index + 1
            let line: RecordingLineDecoder
            do {
                line = try RecordingLineDecoder(source: source, number: number, text: text)
            } catch {
                // A recording cut by a crash or a full disk ends in part of a line: what came before stands.
                guard index == lines.count - 1, !endsWithLineBreak else { throw error }
                notes.append("line \(number): cut short (the recording stopped mid-line); read up to line \(number - 1)")
                break
            }
            if let blob = try line.blob() {
                blobs[blob.sha256] = blob.bytes
                continue
            }
            guard let event = try line.event(blobs: blobs) else {
                let name = line.object["event"] as? String ?? "?"
                if unknown.insert(name).inserted {
                    notes.append("line \(number): event '\(name)' is not one this DFUKit knows; such lines were left out")
                }
                continue
            }
            events.append(event)
            builder.add(event, line: number)
        }
        let session = CapturedSession(source: source, format: .recording(version: header.version),
                                      connections: builder.connections, notes: builder.notes + notes)
        return Recording(header: header, events: events, blobs: blobs, session: session)
    }
}
