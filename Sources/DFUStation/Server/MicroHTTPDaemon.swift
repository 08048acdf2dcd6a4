import CMicroHTTPD
import Foundation
import Synchronization

/// libmicrohttpd running a request handler: one thread per connection (a few browsers on a line
/// PC; a blocked event stream then costs one thread, not the server), plus the listening thread.
/// The handler is async: each request's thread waits for its answer.
final class MicroHTTPDaemon: @unchecked Sendable {
    // `daemon` is written once in `init` and read by `stop` alone, whose `stopped` flag (in a
    // Mutex) lets only one caller through; hence @unchecked.
    private let daemon: OpaquePointer
    let context: Context
    private let stopped = Mutex(false)

    /// What the C callbacks reach through their context pointer.
    final class Context: Sendable {
        let handler: @Sendable (HTTPRequest) async -> HTTPResponse
        let streams = EventStreamRegistry()
        let maximumBodySize: Int
        /// The open connections (each has its thread until it closes).
        let connections = Mutex(0)

        init(handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse, maximumBodySize: Int) {
            self.handler = handler
            self.maximumBodySize = maximumBodySize
        }
    }

    /// Starts serving on `listeningSocket` (bound and listening; libmicrohttpd owns it from now on
    /// and closes it when it stops; after a failed start it is left alone, as libmicrohttpd may
    /// have closed it already). Throws `.cannotListen`.
    init(listeningSocket: Int32, address: ListenAddress, context: Context, connectionLimit: Int,
         idleTimeout: Duration) throws(DashboardServerError) {
        self.context = context
        var flags = UInt32(MHD_USE_THREAD_PER_CONNECTION.rawValue) | UInt32(MHD_USE_INTERNAL_POLLING_THREAD.rawValue)
            | UInt32(MHD_USE_ITC.rawValue) | UInt32(MHD_USE_POLL.rawValue)
        if address.isIPv6 { flags |= UInt32(MHD_USE_IPv6.rawValue) }
        let pointer = Unmanaged.passUnretained(context).toOpaque()
        guard let daemon = dfukit_mhd_start(flags, listeningSocket, pointer, Self.accessHandler, Self.completedHandler,
                                            Self.connectionHandler, UInt32(max(1, connectionLimit)),
                                            UInt32(max(1, idleTimeout.components.seconds))) else {
            throw DashboardServerError(.cannotListen, "the HTTP server (libmicrohttpd) did not start on \(address); "
                                       + "the machine may be out of threads or file descriptors")
        }
        self.daemon = daemon
    }

    /// Ends the event streams, then stops the daemon: closes the listening socket and every
    /// connection and waits for their threads. Only the first call does anything.
    func stop() {
        let first = stopped.withLock { stopped -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        context.streams.finishAll()
        MHD_stop_daemon(daemon)
    }

    deinit { stop() }
}
