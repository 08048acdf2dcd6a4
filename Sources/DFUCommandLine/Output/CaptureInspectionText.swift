import DFUKit
import DFUTrace
import Foundation

/// `capture inspect` for people: the capture, then each connection's header and its events as
/// `profile trace` prints them, then where the profile first could not explain it.
struct CaptureInspectionText {
    let console: any Console

    func print(_ inspection: CaptureInspection) {
        console.out("capture \(inspection.source): \(inspection.format), \(inspection.connections.count) connection(s)"
                    + (inspection.profile.map { ", read by profile '\($0)'" } ?? ""))
        for note in inspection.notes { console.out("note: \(note)") }
        let events = TraceTextPrinter(console: console)
        for connection in inspection.connections {
            console.out("")
            console.out("connection \(connection.number): device \(connection.peer?.description ?? "unknown (the capture missed the connection's start)")"
                        + ", ATT_MTU \(connection.mtu.map(String.init) ?? "23 (no exchange seen)")")
            console.out("  characteristics " + Self.naming(connection, profile: inspection.profile))
            for event in connection.events { events.print(event) }
        }
        console.out("")
        guard inspection.profile != nil else {
            console.out("\(inspection.connections.reduce(0) { $0 + $1.events.count }) events; give --profile to read the messages")
            return
        }
        if inspection.messages == 0 {
            console.out("no message of the profile found: no characteristic of the capture could be named by it")
        } else if let first = inspection.firstUnexplained {
            console.out("\(inspection.decoded) of \(inspection.messages) messages read by the profile; first not explained: "
                        + String(format: "connection %d at %.4f s: ", first.connection, TraceOutcome.seconds(first.time))
                        + first.reason)
        } else {
            console.out("the profile explains all \(inspection.messages) messages")
        }
    }

    static func naming(_ connection: CaptureInspection.Connection, profile: String?) -> String {
        let names = connection.names.sorted { $0.key < $1.key }.map { String(format: "0x%04x", $0.key) + " \($0.value)" }
        switch connection.naming {
        case .discovery: return "by the capture's discovery: " + names.joined(separator: ", ")
        case .content: return "by what their values read as (no discovery in the capture): " + names.joined(separator: ", ")
        case .none:
            let why = profile == nil ? "no discovery in the capture, no profile"
                : "the profile's UUIDs are not in the capture's discovery, and no handle's values read as its messages"
            return names.isEmpty ? "unnamed (\(why))" : "by UUID (\(why)): " + names.joined(separator: ", ")
        }
    }
}

/// `capture inspect --json`: JSON Lines, {"event": "capture"} first, {"event": "connection"}
/// before each connection's events, {"event": "end"} last.
struct CaptureInspectionJSON {
    let console: any Console

    func print(_ inspection: CaptureInspection) {
        let printer = TraceJSONPrinter(console: console)
        var header: [String: Any] = ["event": "capture", "source": inspection.source, "format": inspection.format.description,
                                     "connections": inspection.connections.count, "notes": inspection.notes]
        if let profile = inspection.profile { header["profile"] = profile }
        printer.emit(header)
        for connection in inspection.connections {
            var object: [String: Any] = ["event": "connection", "number": connection.number, "naming": connection.naming.rawValue,
                                         "names": Dictionary(connection.names.map { (String(format: "0x%04x", $0.key), $0.value) }) { a, _ in a }]
            object["address"] = connection.peer?.description ?? NSNull()
            object["mtu"] = connection.mtu ?? NSNull()
            printer.emit(object)
            for event in connection.events { printer.print(event) }
        }
        var end: [String: Any] = ["event": "end", "messages": inspection.messages, "decoded": inspection.decoded]
        if inspection.messages == 0 {
            console.out("no message of the profile found: no characteristic of the capture could be named by it")
        } else if let first = inspection.firstUnexplained {
            end["first_unexplained"] = ["connection": first.connection, "time": TraceOutcome.seconds(first.time),
                                        "reason": first.reason]
        }
        printer.emit(end)
    }
}
