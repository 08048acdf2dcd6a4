/// Wraps any `H4Pipe` and records every packet, both ways, to a btsnoop file.
public final class BTSnoopTracingPipe: H4Pipe {
    public let inner: any H4Pipe
    public let writer: BTSnoopWriter
    public let incoming: AsyncStream<HCIPacket>

    public init(wrapping inner: any H4Pipe, writer: BTSnoopWriter) {
        self.inner = inner
        self.writer = writer
        let (stream, continuation) = AsyncStream<HCIPacket>.makeStream()
        self.incoming = stream
        let source = inner.incoming
        Task {
            for await packet in source {
                writer.record(packet, direction: .received)
                continuation.yield(packet)
            }
            continuation.finish()
        }
    }

    public var name: String { inner.name }
    public var failure: HCIError? { inner.failure }

    public func send(_ packet: HCIPacket) async throws(HCIError) {
        writer.record(packet, direction: .sent)
        try await inner.send(packet)
    }

    public func close() {
        inner.close()
        writer.close()
    }
}
