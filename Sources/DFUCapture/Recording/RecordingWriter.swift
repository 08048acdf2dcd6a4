#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CZlib
import DFUBytes
import Foundation
import Synchronization

/// Writes a recording line by line: the header, each image once as a blob line, then events as
/// they come. Every line is flushed as it is written, so a crash keeps what came before it. Safe
/// to call from several tasks (the link's and the engine's); lines keep the order of the calls.
public final class RecordingWriter: Sendable {
    /// The file written to.
    public let path: String
    private let state: Mutex<State>

    private struct State: ~Copyable {
        var file: RecordingSink?
        var blobs = BlobIndex()
        /// The first failure to write, reported once by `close()`.
        var failure: RecordingError?
    }

    /// Creates (or truncates) `path` and writes `header`, then each of `images` once as a blob
    /// line (identical images share one).
    /// - Throws: `RecordingError` naming the path when the file cannot be created.
    public init(path: String, header: RecordingHeader, images: [[UInt8]] = []) throws(RecordingError) {
        self.path = path
        guard let file = RecordingSink(path: path) else {
            throw .cannotWrite(path, String(cString: strerror(errno)))
        }
        var blobs = BlobIndex()
        for image in images { blobs.add(image) }
        state = Mutex(State(file: file, blobs: blobs))
        write(header.json)
        for blob in blobs.blobs {
            var line = JSONLine()
            line.string("blob", blob.sha256)
            line.int("size", blob.bytes.count)
            line.string("base64", Data(blob.bytes).base64EncodedString())
            write(line.json)
        }
    }

    deinit {
        close()
    }

    /// Appends `event` as one line and flushes it.
    public func append(_ event: RecordingEvent) {
        state.withLock { state in
            let text = event.json(&state.blobs)
            Self.write(text, into: &state, path: path)
        }
    }

    /// Flushes and closes the file (later events are dropped).
    /// - Returns: the first error writing met, if any (a full disk).
    @discardableResult
    public func close() -> RecordingError? {
        state.withLock { state in
            if let file = state.file {
                if !file.close(), state.failure == nil { state.failure = .cannotWrite(path, String(cString: strerror(errno))) }
                state.file = nil
            }
            return state.failure
        }
    }

    private func write(_ line: String) {
        state.withLock { state in Self.write(line, into: &state, path: path) }
    }

    private static func write(_ line: String, into state: inout State, path: String) {
        guard let file = state.file, state.failure == nil else { return }
        if !file.write(line + "\n") {
            state.failure = .cannotWrite(path, String(cString: strerror(errno)))
        }
    }
}

/// Where a recording's lines go: a plain file, or gzip (a path ending in `.gz`), each line
/// flushed so that a crash keeps what was written (gzip: a sync flush, readable by `zcat`).
private enum RecordingSink {
    case plain(UnsafeMutablePointer<FILE>)
    case gzip(gzFile)

    init?(path: String) {
        if path.hasSuffix(".gz") {
            guard let file = gzopen(path, "wb6") else { return nil }
            self = .gzip(file)
        } else {
            guard let file = fopen(path, "w") else { return nil }
            self = .plain(file)
        }
    }

    func write(_ text: String) -> Bool {
        switch self {
        case let .plain(file): return fputs(text, file) >= 0 && fflush(file) == 0
        case let .gzip(file): return gzputs(file, text) >= 0 && gzflush(file, Z_SYNC_FLUSH) == Z_OK
        }
    }

    func close() -> Bool {
        switch self {
        case let .plain(file): return fclose(file) == 0
        case let .gzip(file): return gzclose(file) == Z_OK
        }
    }
}
