import Foundation

/// The station dashboard's feed in PostgreSQL: station rows and live rows (schema 5), each write
/// announced with `NOTIFY dfukit_ledger`.
extension PostgresLedger {
    package func announceStation(_ status: StationStatus) async throws(LedgerError) {
        let operation = LedgerOperation.announce(status)
        try LedgerOperation.requireText([("station name", status.station), ("session", status.session)],
                                        ledger: location, operation: operation)
        let parameters = [status.session, status.station, status.host, String(status.pid), status.line, status.radiosText,
                          status.state.rawValue, String(status.startedAt.timeIntervalSince1970), injectedNow]
        try await run { (connection) throws(LedgerError) -> Void in
            try connection.transaction(operation: operation) { () throws(LedgerError) in
                try connection.query("""
                    INSERT INTO dfukit_stations (session, station, host, pid, line, radios, state, started_at, seen_at)
                    VALUES ($1, $2, $3, $4::integer, $5, $6, $7, to_timestamp($8::double precision), \(Self.now(9)))
                    ON CONFLICT (session) DO UPDATE SET station = excluded.station, host = excluded.host, pid = excluded.pid,
                        line = excluded.line, radios = excluded.radios, state = excluded.state, seen_at = excluded.seen_at
                    """, parameters, operation: operation)
                try connection.notify("stations", operation: operation)
            }
        }
    }

    package func stations() async throws(LedgerError) -> [StationStatus] {
        guard schemaVersion >= 5 else { return [] }
        return try await run { (connection) throws(LedgerError) -> [StationStatus] in
            try connection.query("""
                SELECT station, session, host, pid, line, radios, state, extract(epoch FROM started_at)::double precision,
                    extract(epoch FROM seen_at)::double precision
                FROM dfukit_stations ORDER BY started_at, session
                """, operation: LedgerOperation.readStations).compactMap { row in
                guard let state = row[6].flatMap(StationStatus.State.init(rawValue:)) else { return nil }
                return StationStatus(station: row[0] ?? "", session: row[1] ?? "", host: row[2] ?? "",
                                     pid: row[3].flatMap { Int($0) } ?? 0, line: row[4],
                                     radios: StationStatus.radios(fromText: row[5]), state: state,
                                     startedAt: Date(timeIntervalSince1970: row[7].flatMap(Double.init) ?? 0),
                                     seenAt: Date(timeIntervalSince1970: row[8].flatMap(Double.init) ?? 0))
            }
        }
    }

    package func publishLive(_ device: LiveDevice) async throws(LedgerError) {
        let operation = LedgerOperation.publishLive(device)
        try LedgerOperation.validate(device: device.device, packageSHA256: device.packageSHA256, station: device.station,
                                     ledger: location, operation: operation)
        let parameters: [String?] = [
            device.device, device.packageSHA256, device.station, device.session, device.radio, device.line,
            String(device.attempt), device.phase, String(device.done), String(device.total), String(device.bytesPerSecond),
            device.rssi.map(String.init), device.phy, device.mtu.map(String.init),
            String(device.startedAt.timeIntervalSince1970), injectedNow,
        ]
        try await run { (connection) throws(LedgerError) -> Void in
            try connection.transaction(operation: operation) { () throws(LedgerError) in
                try connection.query("""
                    INSERT INTO dfukit_live (device, package_sha256, station, session, radio, line, attempt, phase, done, total,
                        bytes_per_second, rssi, phy, mtu, started_at, updated_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $7::integer, $8, $9::bigint, $10::bigint, $11::double precision,
                        $12::integer, $13, $14::integer, to_timestamp($15::double precision), \(Self.now(16)))
                    ON CONFLICT (device, package_sha256, session) DO UPDATE SET station = excluded.station,
                        radio = excluded.radio, line = excluded.line, attempt = excluded.attempt, phase = excluded.phase,
                        done = excluded.done, total = excluded.total, bytes_per_second = excluded.bytes_per_second,
                        rssi = excluded.rssi, phy = excluded.phy, mtu = excluded.mtu, started_at = excluded.started_at,
                        updated_at = excluded.updated_at
                    """, parameters, operation: operation)
                try connection.notify("live", operation: operation)
            }
        }
    }

    package func clearLive(device: String, packageSHA256: String, session: String) async throws(LedgerError) {
        let operation = LedgerOperation.clearLive(device)
        try await run { (connection) throws(LedgerError) -> Void in
            try connection.transaction(operation: operation) { () throws(LedgerError) in
                try Self.clearLive(connection, device: device, packageSHA256: packageSHA256, session: session,
                                   operation: operation)
                try connection.notify("live", operation: operation)
            }
        }
    }

    /// Deletes a device's live row of `session` (inside the caller's transaction).
    static func clearLive(_ connection: PostgresConnection, device: String, packageSHA256: String, session: String,
                          operation: String) throws(LedgerError) {
        try connection.query("DELETE FROM dfukit_live WHERE device = $1 AND package_sha256 = $2 AND session = $3",
                             [device, packageSHA256, session], operation: operation)
    }

    package func liveDevices() async throws(LedgerError) -> [LiveDevice] {
        guard schemaVersion >= 5 else { return [] }
        return try await run { (connection) throws(LedgerError) -> [LiveDevice] in
            try connection.query("""
                SELECT device, package_sha256, station, session, radio, line, attempt, phase, done, total, bytes_per_second,
                    rssi, phy, mtu, extract(epoch FROM started_at)::double precision,
                    extract(epoch FROM updated_at)::double precision
                FROM dfukit_live ORDER BY started_at, device
                """, operation: LedgerOperation.readLive).map { row in
                func integer(_ column: Int) -> Int? { row[column].flatMap { Int($0) } }
                func number(_ column: Int) -> Double { row[column].flatMap(Double.init) ?? 0 }
                return LiveDevice(device: row[0] ?? "", packageSHA256: row[1] ?? "", station: row[2] ?? "",
                                  session: row[3] ?? "", radio: row[4], line: row[5], attempt: integer(6) ?? 0,
                                  phase: row[7] ?? "", done: integer(8) ?? 0, total: integer(9) ?? 0,
                                  bytesPerSecond: number(10), rssi: integer(11), phy: row[12], mtu: integer(13),
                                  startedAt: Date(timeIntervalSince1970: number(14)),
                                  updatedAt: Date(timeIntervalSince1970: number(15)))
            }
        }
    }
}
