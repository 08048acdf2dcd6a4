import Foundation

/// Answers the dashboard's requests: the page, the snapshot and history JSON from the
/// `DashboardSource`, the event stream, and the token-guarded line controls. Pure of sockets: the
/// server hands it decoded requests, and tests call it directly.
public struct DashboardRouter: Sendable {
    /// Where the data comes from and where the controls go.
    public let source: any DashboardSource
    /// The controls' token; nil turns the controls off (403, and the snapshot says so).
    public let token: AccessToken?
    /// The line shown when a request names none (`dfukit station serve --line`); nil for every line.
    public let defaultLine: String?
    /// The event streams' pace.
    public let streamTiming: DashboardEventStream.Timing

    /// A router over `source`.
    public init(source: any DashboardSource, token: AccessToken?, defaultLine: String? = nil,
                streamTiming: DashboardEventStream.Timing = .standard) {
        self.source = source
        self.token = token
        self.defaultLine = defaultLine
        self.streamTiming = streamTiming
    }

    /// Whether the controls are on (the server has a token).
    public var controlsEnabled: Bool { token != nil }

    /// The answer to `request`.
    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        guard let route = DashboardRoute(path: request.path, query: request.query) else {
            return .error(.notFound, "no such page: \(request.path); the dashboard serves /, /api/snapshot, "
                          + "/api/devices/ADDRESS and /events")
        }
        guard route.methods.contains(request.method) else {
            var answer = HTTPResponse.error(.methodNotAllowed, "\(request.path) does not take \(request.method); use "
                                            + route.methods.map(\.rawValue).joined(separator: " or "))
            answer.headers.append(("Allow", route.methods.map(\.rawValue).joined(separator: ", ")))
            return answer
        }
        switch route {
        case .page: return DashboardPage.response(for: .page)
        case .style: return DashboardPage.response(for: .style)
        case .script: return DashboardPage.response(for: .script)
        case .snapshot(let line):
            do {
                return .json(try await source.snapshot(line: line ?? defaultLine, controlsEnabled: controlsEnabled))
            } catch {
                return Self.failure(error, reading: "the snapshot")
            }
        case .deviceHistory(let address):
            do {
                guard let history = try await source.deviceHistory(address) else {
                    return .error(.notFound, "the ledger has no attempt of device \(address)")
                }
                return .json(history)
            } catch {
                return Self.failure(error, reading: "the history of \(address)")
            }
        case .events(let line):
            let stream = DashboardEventStream(source: source, line: line ?? defaultLine, controlsEnabled: controlsEnabled,
                                              timing: streamTiming)
            return HTTPResponse(status: .ok, headers: [("Content-Type", "text/event-stream; charset=utf-8"),
                                                       ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no")],
                                body: .eventStream(stream))
        case .resume(let line):
            return await control(request, nothingToDo: "line \(line) is not halted: nothing recorded") { name, reason in
                try await source.resume(line: line, operator: name, reason: reason)
            }
        case .release(let device):
            guard Self.isDeviceAddress(device) else {
                return .error(.badRequest, "'\(device)' is not a device address like C0:FF:EE:00:00:01")
            }
            return await control(request, nothingToDo: "\(device) is not quarantined: nothing recorded") { name, reason in
                try await source.release(device: device, operator: name, reason: reason)
            }
        }
    }

    /// The answer for an error the source threw while `reading` something.
    static func failure(_ error: any Error, reading what: String) -> HTTPResponse {
        if let error = error as? DashboardSourceError { return .error(error.status, error.message) }
        if error is CancellationError { return .error(.serviceUnavailable, "the dashboard is stopping") }
        return .error(.internalServerError, "cannot read \(what): \(error)")
    }

    /// Six pairs of hexadecimal digits separated by colons.
    static func isDeviceAddress(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 6 && parts.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }
}
