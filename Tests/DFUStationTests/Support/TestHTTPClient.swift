import Foundation
import XCTest

/// An HTTP/1.1 answer as the test client read it.
struct TestHTTPResponse {
    var status: Int
    /// By lower-case name.
    var headers: [String: String]
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    func json(file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: body) as? [String: Any], "not a JSON object: \(text)",
                      file: file, line: line)
    }
}

struct TestHTTPError: Error, CustomStringConvertible {
    var description: String
}

/// A blocking TCP connection to 127.0.0.1 that speaks just enough HTTP/1.1 for the tests: one
/// request, then the answer's head, and the body read whole (by Content-Length, chunks, or to
/// the end) or piece by piece (an event stream). Every read gives up after `timeout`.
final class TestHTTPConnection {
    private let socket: Int32
    private var buffer: [UInt8] = []
    private var chunked = false
    private var chunkRemaining = 0
    private var streamEnded = false

    init(port: UInt16, timeout: TimeInterval = 5) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestHTTPError(description: "socket: \(String(cString: strerror(errno)))") }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - floor(timeout)) * 1_000_000))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(socket)
            throw TestHTTPError(description: "connect to 127.0.0.1:\(port): \(reason)")
        }
    }

    deinit { close() }

    private var isOpen = true

    func close() {
        guard isOpen else { return }
        isOpen = false
        Glibc.close(socket)
    }

    /// Sends a request with `Connection: close`; with `pause`, the body's second half goes that
    /// much later than the rest (so the server receives the body in pieces).
    func send(_ method: String, _ target: String, headers: [String: String] = [:], body: Data? = nil,
              pause: TimeInterval? = nil) throws {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        var bytes = Data(head.utf8)
        if let body, let pause {
            try write(bytes + body.prefix(body.count / 2))
            Thread.sleep(forTimeInterval: pause)
            try write(body.suffix(from: body.count / 2))
            return
        }
        if let body { bytes.append(body) }
        try write(bytes)
    }

    private func write(_ bytes: Data) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(socket, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { throw TestHTTPError(description: "send: \(String(cString: strerror(errno)))") }
                offset += sent
            }
        }
    }

    /// Reads more bytes into the buffer; false at the end of the connection.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = recv(socket, &chunk, chunk.count, 0)
        if count < 0 { throw TestHTTPError(description: "recv: \(String(cString: strerror(errno))) (no answer in time)") }
        if count == 0 { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    private func readLine() throws -> String? {
        while true {
            if let end = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<end], as: UTF8.self).trimmingCharacters(in: ["\r"])
                buffer.removeFirst(end + 1)
                return line
            }
            guard try fill() else { return nil }
        }
    }

    /// The answer's status and header fields.
    func readHead() throws -> (status: Int, headers: [String: String]) {
        guard let statusLine = try readLine() else { throw TestHTTPError(description: "the server closed without an answer") }
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw TestHTTPError(description: "bad status line '\(statusLine)'") }
        var headers: [String: String] = [:]
        while let line = try readLine(), !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        chunked = headers["transfer-encoding"]?.lowercased() == "chunked"
        return (status, headers)
    }

    /// The next bytes of the body (decoded from chunks when chunked); nil at its end.
    func readBodyPiece() throws -> Data? {
        if streamEnded { return nil }
        if !chunked {
            if buffer.isEmpty, try !fill() { streamEnded = true; return nil }
            defer { buffer.removeAll() }
            return Data(buffer)
        }
        if chunkRemaining == 0 {
            guard var sizeLine = try readLine() else { streamEnded = true; return nil }
            if sizeLine.isEmpty { guard let next = try readLine() else { streamEnded = true; return nil }; sizeLine = next }
            guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else {
                throw TestHTTPError(description: "bad chunk size '\(sizeLine)'")
            }
            if size == 0 { streamEnded = true; return nil }
            chunkRemaining = size
        }
        while buffer.isEmpty { guard try fill() else { streamEnded = true; return nil } }
        let count = min(chunkRemaining, buffer.count)
        let piece = Data(buffer[0..<count])
        buffer.removeFirst(count)
        chunkRemaining -= count
        return piece
    }

    /// The whole body (to Content-Length, the last chunk, or the end of the connection).
    func readBody(contentLength: Int?) throws -> Data {
        if let contentLength, !chunked {
            while buffer.count < contentLength { guard try fill() else { break } }
            return Data(buffer.prefix(contentLength))
        }
        var body = Data()
        while let piece = try readBodyPiece() { body.append(piece) }
        return body
    }

    // MARK: Server-sent events

    private var eventText = ""

    /// The next message of an event stream, as sent (its lines, without the blank line); nil when
    /// the stream ended.
    func nextEvent() throws -> String? {
        while true {
            if let range = eventText.range(of: "\n\n") {
                let message = String(eventText[..<range.lowerBound])
                eventText.removeSubrange(..<range.upperBound)
                return message
            }
            guard let piece = try readBodyPiece() else { return nil }
            eventText += String(decoding: piece, as: UTF8.self)
        }
    }
}

/// One request on its own connection.
func httpRequest(_ method: String, _ target: String, port: UInt16, headers: [String: String] = [:],
                 body: Data? = nil) throws -> TestHTTPResponse {
    let connection = try TestHTTPConnection(port: port)
    defer { connection.close() }
    try connection.send(method, target, headers: headers, body: body)
    let (status, responseHeaders) = try connection.readHead()
    let length = responseHeaders["content-length"].flatMap(Int.init)
    let body = method == "HEAD" ? Data() : try connection.readBody(contentLength: length)
    return TestHTTPResponse(status: status, headers: responseHeaders, body: body)
}
