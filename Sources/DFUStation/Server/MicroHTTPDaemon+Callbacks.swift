import CMicroHTTPD
import Foundation

/// The C callbacks libmicrohttpd calls, and what they do with a request and its answer.
extension MicroHTTPDaemon {
    /// MHD_AccessHandlerCallback: called on the connection's thread when the header has arrived
    /// (`*state` is NULL: the request is set up), for each piece of the body (`*uploadSize` > 0),
    /// and once more when the request is complete (the answer is made and queued).
    static let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, uploadData, uploadSize, state in
        guard let context, let connection, let url, let method, let uploadSize, let state else { return MHD_Result.NO }
        let server = Unmanaged<Context>.fromOpaque(context).takeUnretainedValue()
        guard let stored = state.pointee else {
            let pending = PendingRequest(method: HTTPMethod(rawValue: String(cString: method)), path: String(cString: url),
                                         query: values(of: connection, kind: .GET_ARGUMENT_KIND, lowercased: false),
                                         headers: values(of: connection, kind: .HEADER_KIND, lowercased: true))
            state.pointee = Unmanaged.passRetained(pending).toOpaque()
            return MHD_Result.YES
        }
        let pending = Unmanaged<PendingRequest>.fromOpaque(stored).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            if let uploadData { pending.append(uploadData, count: uploadSize.pointee, limit: server.maximumBodySize) }
            uploadSize.pointee = 0
            return MHD_Result.YES
        }
        let response = pending.tooLarge
            ? HTTPResponse.error(.payloadTooLarge, "the request body is larger than \(server.maximumBodySize) bytes")
            : AnswerSlot.answer(pending.request, with: server.handler)
        return queue(response, on: connection, server: server)
    }

    /// MHD_RequestCompletedCallback: the request is over; releases its `PendingRequest`.
    static let completedHandler: MHD_RequestCompletedCallback = { _, _, state, _ in
        guard let state, let stored = state.pointee else { return }
        Unmanaged<PendingRequest>.fromOpaque(stored).release()
        state.pointee = nil
    }

    /// MHD_NotifyConnectionCallback: counts the open connections (a closed one's thread is ending).
    static let connectionHandler: MHD_NotifyConnectionCallback = { context, _, _, code in
        guard let context else { return }
        let server = Unmanaged<Context>.fromOpaque(context).takeUnretainedValue()
        server.connections.withLock { $0 += code == .CONNECTION_NOTIFY_STARTED ? 1 : -1 }
    }

    /// The header fields (`MHD_HEADER_KIND`) or query parameters (`MHD_GET_ARGUMENT_KIND`) of a
    /// request, decoded by libmicrohttpd; the first of repeated names wins.
    private static func values(of connection: OpaquePointer, kind: MHD_ValueKind, lowercased: Bool) -> [String: String] {
        final class Collected { var values: [String: String] = [:]; var lowercased = false }
        let collected = Collected()
        collected.lowercased = lowercased
        let iterator: MHD_KeyValueIterator = { context, _, key, value in
            guard let context, let key else { return MHD_Result.YES }
            let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
            let name = String(cString: key)
            let text = value.map { String(cString: $0) } ?? ""
            let stored = collected.lowercased ? name.lowercased() : name
            if collected.values[stored] == nil { collected.values[stored] = text }
            return MHD_Result.YES
        }
        withExtendedLifetime(collected) {
            _ = MHD_get_connection_values(connection, kind, iterator, Unmanaged.passUnretained(collected).toOpaque())
        }
        return collected.values
    }

    /// Queues `response` on `connection`: its bytes, or an event stream run by a task.
    private static func queue(_ response: HTTPResponse, on connection: OpaquePointer, server: Context) -> MHD_Result {
        let made: OpaquePointer?
        switch response.body {
        case .bytes(let data):
            made = data.isEmpty
                ? MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
                : data.withUnsafeBytes { bytes in
                    MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                                    .RESPMEM_MUST_COPY)
                }
        case .eventStream(let stream):
            guard let channel = EventStreamChannel(clientSocket: dfukit_mhd_connection_socket(connection)) else {
                return queue(.error(.serviceUnavailable, "the server cannot open another event stream (no file descriptors left)"),
                             on: connection, server: server)
            }
            made = startStream(stream, on: channel, server: server)
        }
        guard let made else { return MHD_Result.NO }
        for (name, value) in response.headers { _ = MHD_add_response_header(made, name, value) }
        let queued = MHD_queue_response(connection, UInt32(response.status.rawValue), made)
        MHD_destroy_response(made)
        return queued
    }

    /// A response whose body is `channel`'s bytes, and the task that writes `stream` into it.
    private static func startStream(_ stream: DashboardEventStream, on channel: EventStreamChannel, server: Context) -> OpaquePointer? {
        let registered = server.streams.add(channel)
        if registered {
            let streams = server.streams
            channel.attach(Task {
                await stream.run { event in channel.write(event.encoded) }
                channel.finish()
                streams.remove(channel)
            })
        } else {
            channel.finish()  // the server is stopping
        }
        let retained = Unmanaged.passRetained(channel).toOpaque()
        let reader: MHD_ContentReaderCallback = { context, _, buffer, capacity in
            guard let context, let buffer else { return dfukit_mhd_end_with_error() }
            return Unmanaged<EventStreamChannel>.fromOpaque(context).takeUnretainedValue().read(into: buffer, capacity: capacity)
        }
        let free: MHD_ContentReaderFreeCallback = { context in
            guard let context else { return }
            Unmanaged<EventStreamChannel>.fromOpaque(context).takeRetainedValue().close()
        }
        guard let response = MHD_create_response_from_callback(dfukit_mhd_size_unknown(), 4096, reader, retained, free) else {
            Unmanaged<EventStreamChannel>.fromOpaque(retained).takeRetainedValue().close()
            server.streams.remove(channel)
            return nil
        }
        return response
    }
}
