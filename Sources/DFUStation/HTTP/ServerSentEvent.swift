import Foundation

/// One message of a `text/event-stream` (the HTML Living Standard's server-sent events): an event
/// with a name and one line of data, a comment (the keep-alive), or the client's reconnection delay.
public enum ServerSentEvent: Sendable, Equatable {
    /// `event: NAME` and `data: DATA`. Line breaks in `data` are replaced by spaces, so the data is
    /// one line (in JSON, a raw line break is whitespace between tokens: the value is unchanged).
    case event(name: String, data: Data)
    /// `: TEXT`, which clients ignore: it keeps proxies and the browser from closing an idle stream.
    case comment(String)
    /// `retry: MILLISECONDS`: how long the browser waits before it reconnects a broken stream.
    case retry(milliseconds: Int)

    /// The keep-alive comment, `: keep-alive`.
    public static let keepAlive = ServerSentEvent.comment("keep-alive")

    /// The message as sent, ending with the blank line that dispatches it.
    public var encoded: Data {
        switch self {
        case let .event(name, data):
            var bytes = Data("event: ".utf8) + Self.oneLine(Data(name.utf8)) + Data("\ndata: ".utf8)
            bytes.append(Self.oneLine(data))
            bytes.append(contentsOf: Array("\n\n".utf8))
            return bytes
        case .comment(let text):
            return Data(": ".utf8) + Self.oneLine(Data(text.utf8)) + Data("\n\n".utf8)
        case .retry(let milliseconds):
            return Data("retry: \(milliseconds)\n\n".utf8)
        }
    }

    /// `data` with every CR and LF byte replaced by a space.
    static func oneLine(_ data: Data) -> Data {
        Data(data.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 })
    }
}
