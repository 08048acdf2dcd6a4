/// What a request asks the dashboard for, read from its path and query alone (the StationDashboard
/// article's table): pure, so every route is tested without a socket.
public enum DashboardRoute: Sendable, Equatable {
    /// `/`: the page.
    case page
    /// `/dashboard.css`: the page's style.
    case style
    /// `/dashboard.js`: the page's script.
    case script
    /// `/api/snapshot[?line=NAME]`.
    case snapshot(line: String?)
    /// `/api/devices/ADDRESS`: one device's history.
    case deviceHistory(address: String)
    /// `/events[?line=NAME]`: the snapshot as server-sent events.
    case events(line: String?)
    /// `/api/lines/NAME/resume`.
    case resume(line: String)
    /// `/api/devices/ADDRESS/release`.
    case release(device: String)

    private static let linesPrefix = "/api/lines/"
    private static let devicesPrefix = "/api/devices/"

    /// The route of a decoded `path` with its `query`; nil when the dashboard has no such path.
    /// An empty `line=` is no line. A line name may hold any character, `/` included (the name is
    /// what lies between `/api/lines/` and `/resume`).
    public init?(path: String, query: [String: String] = [:]) {
        let line = query["line"].flatMap { $0.isEmpty ? nil : $0 }
        switch path {
        case "/", "/index.html": self = .page
        case "/dashboard.css": self = .style
        case "/dashboard.js": self = .script
        case "/api/snapshot": self = .snapshot(line: line)
        case "/events": self = .events(line: line)
        default:
            if let name = Self.between(path, Self.linesPrefix, "/resume") {
                self = .resume(line: name)
            } else if let device = Self.between(path, Self.devicesPrefix, "/release") {
                self = .release(device: device)
            } else if path.hasPrefix(Self.devicesPrefix), path.count > Self.devicesPrefix.count,
                      !path.dropFirst(Self.devicesPrefix.count).contains("/") {
                self = .deviceHistory(address: String(path.dropFirst(Self.devicesPrefix.count)))
            } else {
                return nil
            }
        }
    }

    /// The non-empty text of `path` between `prefix` and `suffix`, or nil.
    private static func between(_ path: String, _ prefix: String, _ suffix: String) -> String? {
        guard path.hasPrefix(prefix), path.hasSuffix(suffix), path.count > prefix.count + suffix.count else { return nil }
        return String(path.dropFirst(prefix.count).dropLast(suffix.count))
    }

    /// The methods the route takes: `POST` for the controls; `GET` and `HEAD` for the rest
    /// (`GET` alone for the event stream).
    public var methods: [HTTPMethod] {
        switch self {
        case .resume, .release: [.post]
        case .events: [.get]
        case .page, .style, .script, .snapshot, .deviceHistory: [.get, .head]
        }
    }
}
