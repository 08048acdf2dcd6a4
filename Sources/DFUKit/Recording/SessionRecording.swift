import DFUCapture
import DFUTrace
import Foundation

/// Starts the recording of a session (`FlashRequest.recordFile`, `ExecRequest.recordFile`,
/// `BatchRequest.recordDirectory`): writes the header and the images, and wraps the transport
/// so that everything over its links is recorded.
enum SessionRecording {
    /// What the session is, for the header.
    struct Subject: Sendable {
        var profile: Profile
        var device: String
        var medium: LinkMedium
        var package: FirmwarePackage?
        var images: [FlashImage]
    }

    /// `transport` wrapped to record to `path`.
    /// - Throws: `.usage` when the file cannot be created.
    static func start(_ transport: any GATTTransport, path: String, subject: Subject) throws(DFUKitError) -> RecordingTransport {
        let writer: RecordingWriter
        do {
            writer = try RecordingWriter(path: path, header: header(subject, transport: transport.name),
                                         images: subject.images.map(\.data))
        } catch {
            throw DFUKitError(kind: .usage, message: error.description)
        }
        return RecordingTransport(transport, catalog: MessageCatalog(profile: subject.profile), writer: writer)
    }

    /// The file a transport that records packets writes: the trace file asked for, else on
    /// `hci:` the recording's path with `.btsnoop` added.
    static func traceFile(_ traceFile: String?, recording: String?, scheme: any TransportScheme) -> String? {
        traceFile ?? (scheme.name == "hci" ? recording.map { $0 + ".btsnoop" } : nil)
    }

    /// The name of one attempt's recording in a batch's record directory: the device's address
    /// without colons and the attempt, `C0FFEE000001-1.dfurec`.
    static func batchFileName(_ address: DeviceAddress, attempt: Int) -> String {
        address.description.replacingOccurrences(of: ":", with: "") + "-\(attempt).dfurec"
    }

    private static func header(_ subject: Subject, transport: String) -> RecordingHeader {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var package: RecordingHeader.File?
        if let path = subject.package?.path, let data = try? Data(contentsOf: URL(fileURLWithPath: path)) {
            package = RecordingHeader.File(name: path, size: data.count, sha256: SHA256.digest([UInt8](data)).hexString)
        }
        return RecordingHeader(dfukitVersion: DFUKit.version, startedAt: formatter.string(from: Date()),
                               profile: subject.profile.name, device: subject.device, transport: transport,
                               medium: subject.medium, package: package,
                               images: subject.images.map { RecordingHeader.File(name: $0.name, size: $0.data.count,
                                                                                 sha256: $0.sha256.hexString) })
    }
}
