import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization

/// One request while libmicrohttpd delivers it: its line and header fields from the first call of
/// the access handler, its body from the following ones. Owned by the connection (`*con_cls`)
/// from the first call until the completed callback.
final class PendingRequest: @unchecked Sendable {
    // Only the connection's own thread touches these (libmicrohttpd calls the access handler and
    // the completed callback for one connection from its thread), hence @unchecked.
    let method: HTTPMethod
    let path: String
    let query: [String: String]
    let headers: [String: String]
    private(set) var body = Data()
    /// The body grew past the limit: the rest is dropped and the answer is 413.
    private(set) var tooLarge = false

    init(method: HTTPMethod, path: String, query: [String: String], headers: [String: String]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }

    /// Appends `count` bytes of the body, unless that makes it longer than `limit`.
    func append(_ bytes: UnsafePointer<CChar>, count: Int, limit: Int) {
        guard !tooLarge else { return }
        guard body.count + count <= limit else {
            tooLarge = true
            body = Data()
            return
        }
        bytes.withMemoryRebound(to: UInt8.self, capacity: count) { body.append($0, count: count) }
    }

    /// The request as the router takes it.
    var request: HTTPRequest { HTTPRequest(method: method, path: path, query: query, headers: headers, body: body) }
}

/// An answer made by a task, waited for by a libmicrohttpd thread (which may block: each
/// connection has its own thread).
final class AnswerSlot: Sendable {
    private let answer = Mutex<HTTPResponse?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    /// Runs `handler` for `request` on a task and waits for its answer.
    static func answer(_ request: HTTPRequest, with handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) -> HTTPResponse {
        let slot = AnswerSlot()
        Task {
            let response = await handler(request)
            slot.answer.withLock { $0 = response }
            slot.ready.signal()
        }
        slot.ready.wait()
        return slot.answer.withLock { $0 } ?? .error(.internalServerError, "the request produced no answer")
    }
}
