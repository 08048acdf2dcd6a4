import Foundation

/// The station dashboard's HTTP server: `DashboardRouter` behind libmicrohttpd, serving from
/// `init` until `stop()`. Releasing a server that still runs stops it on the releasing thread
/// (blocking it while the connections close), so stop it first.
///
/// ```swift
/// let server = try DashboardServer(configuration: DashboardServerConfiguration(listen: try ListenAddress(parsing: "127.0.0.1:0")),
///                                  source: mySource)
/// print(server.address.url)   // http://127.0.0.1:41234/
/// await server.stop()
/// ```
public final class DashboardServer: Sendable {
    /// Where it listens, with the port the kernel chose when the configuration said 0.
    public let address: ListenAddress
    /// The router that answers the requests.
    public let router: DashboardRouter
    private let daemon: MicroHTTPDaemon

    /// Checks the listening rule, binds the address and starts serving; throws
    /// `DashboardServerError` (`.tokenRequired`, `.cannotListen`).
    public init(configuration: DashboardServerConfiguration, source: any DashboardSource) throws(DashboardServerError) {
        try configuration.validate()
        let router = DashboardRouter(source: source, token: configuration.token, defaultLine: configuration.line,
                                     streamTiming: configuration.streamTiming)
        let (socket, port) = try ListeningSocket.open(configuration.listen)
        let context = MicroHTTPDaemon.Context(handler: { request in await router.respond(to: request) },
                                              maximumBodySize: configuration.maximumBodySize)
        daemon = try MicroHTTPDaemon(listeningSocket: socket, address: configuration.listen, context: context,
                                     connectionLimit: configuration.connectionLimit, idleTimeout: configuration.idleTimeout)
        self.router = router
        address = configuration.listen.with(port: port)
    }

    /// How many event streams are open now.
    public var openEventStreams: Int { daemon.context.streams.count }

    /// How many connections are open now (each holds a thread of the server until it closes).
    public var openConnections: Int { daemon.context.connections.withLock { $0 } }

    /// Ends every event stream, closes every connection and waits for their threads (a request
    /// still waiting for its source is waited for). Blocks the calling thread; later calls do
    /// nothing. From a task, call the `async` form.
    public func stop() {
        daemon.stop()
    }

    /// `stop()` on a thread of its own, so that no thread of the task pool is blocked while
    /// libmicrohttpd joins its threads.
    public func stop() async {
        let daemon = daemon
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                daemon.stop()
                finished.resume()
            }
        }
    }
}
