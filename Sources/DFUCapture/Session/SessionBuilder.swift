import DFUGATT

/// Collects the connections of one capture while a decoder reads it: each connection by its
/// key (an HCI handle on a controller index, or a link-layer access address), with its ATT
/// conversation. A key seen again after its connection ended opens a new connection.
struct SessionBuilder: Sendable {
    /// Tells connections apart: the controller index (0 where the format has none) and the
    /// HCI handle or access address.
    struct Key: Sendable, Hashable {
        var index: UInt16
        var handle: UInt32
    }

    private struct Entry: Sendable {
        var key: Key
        var connection: CapturedConnection
        var conversation = ATTConversation()
        var closed = false
    }

    private var entries: [Entry] = []
    private var open: [Key: Int] = [:]
    private(set) var notes: [String] = []

    mutating func note(_ text: String) { notes.append(text) }

    /// Opens a connection under `key` (closing one still open under it).
    mutating func open(_ key: Key, _ connection: CapturedConnection) {
        if let index = open[key] { entries[index].closed = true }
        entries.append(Entry(key: key, connection: connection))
        open[key] = entries.count - 1
    }

    /// Whether a connection is open under `key`.
    func isOpen(_ key: Key) -> Bool { open[key] != nil }

    /// The open connection under `key`; one with no known peer is made (and noted) when the
    /// capture started after the connection did.
    private mutating func entryIndex(_ key: Key, record: Int) -> Int {
        if let index = open[key] { return index }
        notes.append("record \(record): traffic on connection \(Self.name(key)) whose start the capture missed; "
                     + "its peer is unknown")
        open(key, CapturedConnection(handle: key.handle))
        return entries.count - 1
    }

    /// Hands one ATT PDU of the connection under `key` to its conversation.
    mutating func receiveATT(_ pdu: [UInt8], on key: Key, from sender: ATTSender?, at time: Duration, record: Int) {
        let index = entryIndex(key, record: record)
        guard !entries[index].closed else { return }
        entries[index].conversation.receive(pdu, from: sender, at: time)
    }

    /// Ends the connection under `key`, if one is open.
    mutating func end(_ key: Key, _ ending: CapturedEnding) {
        guard let index = open.removeValue(forKey: key) else { return }
        entries[index].connection.ending = ending
        entries[index].closed = true
    }

    /// Stops reading the connection under `key` (an encrypted link): it stays in the session
    /// with what was read; later traffic under the key is dropped, not taken for a new one.
    mutating func stopDecoding(_ key: Key, record: Int, reason: String) {
        guard let index = open[key], !entries[index].closed else { return }
        entries[index].closed = true
        notes.append("record \(record): connection \(Self.name(key)) \(reason); the rest of it is not read")
    }

    /// Whether the open connection under `key` is no longer read.
    func isStopped(_ key: Key) -> Bool { open[key].map { entries[$0].closed } ?? false }

    static func name(_ key: Key) -> String {
        let handle = "0x" + String(key.handle, radix: 16, uppercase: true)
        return key.index == 0 ? handle : "\(handle) on controller \(key.index)"
    }

    /// The session: every connection with its operations, services and MTU.
    func session(source: String, format: CaptureFormat, notes fileNotes: [String]) -> CapturedSession {
        var allNotes = fileNotes + notes
        let connections = entries.map { entry in
            var connection = entry.connection
            connection.operations = entry.conversation.finishedOperations
            connection.services = entry.conversation.discovery.services
            connection.mtu = entry.conversation.mtu ?? connection.mtu
            allNotes += entry.conversation.notes.map { "connection \(Self.name(entry.key)): \($0)" }
            return connection
        }
        return CapturedSession(source: source, format: format, connections: connections, notes: allNotes)
    }
}
