import Foundation

/// The station dashboard's feed in SQLite: station rows and live rows (schema 5).
extension SQLiteLedger {
    package func announceStation(_ status: StationStatus) async throws(LedgerError) {
        let operation = LedgerOperation.announce(status)
        try LedgerOperation.requireText([("station name", status.station), ("session", status.session)],
                                        ledger: location, operation: operation)
        let (connection, clock) = (connection, options.clock)
        try await executor.run { () throws(LedgerError) -> Void in
            try connection.query("""
                INSERT INTO dfukit_stations (session, station, host, pid, line, radios, state, started_at, seen_at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                ON CONFLICT (session) DO UPDATE SET station = excluded.station, host = excluded.host, pid = excluded.pid,
                    line = excluded.line, radios = excluded.radios, state = excluded.state, seen_at = excluded.seen_at
                """, [.text(status.session), .text(status.station), .text(status.host), .integer(Int64(status.pid)),
                      SQLiteValue(status.line), SQLiteValue(status.radiosText), .text(status.state.rawValue),
                      .real(status.startedAt.timeIntervalSince1970), .real(clock.now().timeIntervalSince1970)],
                operation: operation)
        }
    }

    package func stations() async throws(LedgerError) -> [StationStatus] {
        guard schemaVersion >= 5 else { return [] }
        let connection = connection
        return try await executor.run { () throws(LedgerError) -> [StationStatus] in
            try connection.query("""
                SELECT station, session, host, pid, line, radios, state, started_at, seen_at
                FROM dfukit_stations ORDER BY started_at, session
                """, operation: LedgerOperation.readStations).compactMap { row in
                guard let state = row[6].text.flatMap(StationStatus.State.init(rawValue:)) else { return nil }
                return StationStatus(station: row[0].text ?? "", session: row[1].text ?? "", host: row[2].text ?? "",
                                     pid: Int(row[3].integer ?? 0), line: row[4].text,
                                     radios: StationStatus.radios(fromText: row[5].text), state: state,
                                     startedAt: Date(timeIntervalSince1970: row[7].real ?? 0),
                                     seenAt: Date(timeIntervalSince1970: row[8].real ?? 0))
            }
        }
    }

    package func publishLive(_ device: LiveDevice) async throws(LedgerError) {
        let operation = LedgerOperation.publishLive(device)
        try LedgerOperation.validate(device: device.device, packageSHA256: device.packageSHA256, station: device.station,
                                     ledger: location, operation: operation)
        let (connection, clock) = (connection, options.clock)
        try await executor.run { () throws(LedgerError) -> Void in
            try connection.query("""
                INSERT INTO dfukit_live (device, package_sha256, station, session, radio, line, attempt, phase, done, total,
                    bytes_per_second, rssi, phy, mtu, started_at, updated_at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
                ON CONFLICT (device, package_sha256, session) DO UPDATE SET station = excluded.station,
                    radio = excluded.radio, line = excluded.line, attempt = excluded.attempt, phase = excluded.phase,
                    done = excluded.done, total = excluded.total, bytes_per_second = excluded.bytes_per_second,
                    rssi = excluded.rssi, phy = excluded.phy, mtu = excluded.mtu, started_at = excluded.started_at,
                    updated_at = excluded.updated_at
                """, [.text(device.device), .text(device.packageSHA256), .text(device.station), .text(device.session),
                      SQLiteValue(device.radio), SQLiteValue(device.line), .integer(Int64(device.attempt)),
                      .text(device.phase), .integer(Int64(device.done)), .integer(Int64(device.total)),
                      .real(device.bytesPerSecond), device.rssi.map { .integer(Int64($0)) } ?? .null,
                      SQLiteValue(device.phy), device.mtu.map { .integer(Int64($0)) } ?? .null,
                      .real(device.startedAt.timeIntervalSince1970), .real(clock.now().timeIntervalSince1970)],
                operation: operation)
        }
    }

    package func clearLive(device: String, packageSHA256: String, session: String) async throws(LedgerError) {
        let connection = connection
        try await executor.run { () throws(LedgerError) -> Void in
            try Self.clearLive(connection, device: device, packageSHA256: packageSHA256, session: session,
                               operation: LedgerOperation.clearLive(device))
        }
    }

    /// Deletes a device's live row of `session` (inside the caller's transaction, when it has one).
    static func clearLive(_ connection: SQLiteConnection, device: String, packageSHA256: String, session: String,
                          operation: String) throws(LedgerError) {
        try connection.query("DELETE FROM dfukit_live WHERE device = ?1 AND package_sha256 = ?2 AND session = ?3",
                             [.text(device), .text(packageSHA256), .text(session)], operation: operation)
    }

    package func liveDevices() async throws(LedgerError) -> [LiveDevice] {
        guard schemaVersion >= 5 else { return [] }
        let connection = connection
        return try await executor.run { () throws(LedgerError) -> [LiveDevice] in
            try connection.query("""
                SELECT device, package_sha256, station, session, radio, line, attempt, phase, done, total, bytes_per_second,
                    rssi, phy, mtu, started_at, updated_at
                FROM dfukit_live ORDER BY started_at, device
                """, operation: LedgerOperation.readLive).map { row in
                LiveDevice(device: row[0].text ?? "", packageSHA256: row[1].text ?? "", station: row[2].text ?? "",
                           session: row[3].text ?? "", radio: row[4].text, line: row[5].text,
                           attempt: Int(row[6].integer ?? 0), phase: row[7].text ?? "", done: Int(row[8].integer ?? 0),
                           total: Int(row[9].integer ?? 0), bytesPerSecond: row[10].real ?? 0,
                           rssi: row[11].integer.map { Int($0) }, phy: row[12].text, mtu: row[13].integer.map { Int($0) },
                           startedAt: Date(timeIntervalSince1970: row[14].real ?? 0),
                           updatedAt: Date(timeIntervalSince1970: row[15].real ?? 0))
            }
        }
    }
}
