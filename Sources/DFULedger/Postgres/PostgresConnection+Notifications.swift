import CPostgres
import Foundation

/// `NOTIFY` and `LISTEN` on a libpq connection: the ledger announces its writes, a
/// `LedgerChangeWatcher` waits for them on a connection of its own.
extension PostgresConnection {
    /// Announces a change of `table` on `LedgerSchema.notifyChannel`; inside a transaction it is
    /// delivered when the transaction commits, and not at all when it rolls back.
    func notify(_ table: String, operation: String) throws(LedgerError) {
        try query("SELECT \(LedgerSchema.notifyCall(table))", operation: operation)
    }

    /// Waits up to `timeout` for a notification on a channel this connection `LISTEN`s to, and
    /// takes every one that has arrived; true when there was at least one. Throws `cannotOpen`
    /// when the connection is broken (the server restarted or ended the backend).
    func waitForNotifications(timeout: Duration, operation: String) throws(LedgerError) -> Bool {
        guard let handle else {
            throw LedgerError(.cannotOpen, ledger: location, operation: operation, message: "the ledger is closed")
        }
        if try takeNotifications(handle, operation: operation) { return true }
        let socket = PQsocket(handle)
        guard socket >= 0, PQstatus(handle) == CONNECTION_OK else { throw broken(handle, operation: operation) }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000
                                    + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = poll(&descriptor, 1, max(0, milliseconds))
        guard ready > 0 else { return false }
        return try takeNotifications(handle, operation: operation)
    }

    /// Reads what the server sent and frees every notification queued; true when there was one.
    private func takeNotifications(_ handle: OpaquePointer, operation: String) throws(LedgerError) -> Bool {
        guard PQconsumeInput(handle) == 1, PQstatus(handle) == CONNECTION_OK else {
            throw broken(handle, operation: operation)
        }
        var any = false
        while let notification = PQnotifies(handle) {
            any = true
            PQfreemem(notification)
        }
        return any
    }

    private func broken(_ handle: OpaquePointer, operation: String) -> LedgerError {
        let text = PQerrorMessage(handle).map { String(cString: $0) } ?? ""
        let message = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return LedgerError(.cannotOpen, ledger: location, operation: operation,
                           message: "lost the connection: " + (message.isEmpty ? "the server closed it" : message))
    }

    /// Reconnects a broken connection (`PQreset`); true when it is up again.
    func reconnect() -> Bool {
        guard let handle else { return false }
        PQreset(handle)
        return PQstatus(handle) == CONNECTION_OK
    }
}
