/// Wraps any `H4Pipe` and records every packet, both ways, to a btsnoop file.
package final class BTSnoopTracingPipe: H4Pipe {
    package let inner: any H4Pipe
    package let writer: BTSnoopWriter
    package let incoming: AsyncStream<HCIPacket>

    package init(wrapping inner: any H4Pipe, writer: BTSnoopWriter) {
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

    package var name: String { inner.name }
    package var failure: HCIError? { inner.failure }

    package func send(_ packet: HCIPacket) async throws(HCIError) {
        writer.record(packet, direction: .sent)
        try await inner.send(packet)
    }

    package func close() {
        inner.close()
        writer.close()
    }
}
