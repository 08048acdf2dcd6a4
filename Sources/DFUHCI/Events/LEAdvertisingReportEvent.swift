import DFUBytes
import DFUGATT

/// LE Advertising Report (subevent 0x02, Vol 4, Part E, 7.7.65.2): legacy advertising PDUs.
package struct LEAdvertisingReportEvent: LEMetaSubeventParameters {
    package static let subeventCode: UInt8 = 0x02
    package static let name = "LE Advertising Report"

    /// Event_Type of a legacy report.
    package struct EventType: RawRepresentable, Sendable, Hashable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Connectable and scannable undirected (ADV_IND).
        package static let connectableUndirected = EventType(rawValue: 0x00)
        package static let connectableDirected = EventType(rawValue: 0x01)
        package static let scannableUndirected = EventType(rawValue: 0x02)
        package static let nonConnectableUndirected = EventType(rawValue: 0x03)
        package static let scanResponse = EventType(rawValue: 0x04)

        package var isConnectable: Bool { self == .connectableUndirected || self == .connectableDirected }
    }

    package struct Report: Sendable, Hashable {
        package var eventType: EventType
        package var addressType: HCIAddressType
        package var address: DeviceAddress
        /// Advertising data or scan response data (up to 31 bytes).
        package var data: [UInt8]
        /// dBm; 127 means not available.
        package var rssi: Int8

        package init(eventType: EventType, addressType: HCIAddressType, address: DeviceAddress, data: [UInt8], rssi: Int8) {
            self.eventType = eventType
            self.addressType = addressType
            self.address = address
            self.data = data
            self.rssi = rssi
        }
    }

    package var reports: [Report]

    package init(reports: [Report]) { self.reports = reports }

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        reports = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            let count = Int(try reader.readByte())
            var reports: [Report] = []
            for _ in 0..<count {
                let eventType = EventType(rawValue: try reader.readByte())
                let addressType = HCIAddressType(rawValue: try reader.readByte())
                let address = try reader.readAddress()
                let data = try reader.readBytes(count: Int(try reader.readByte()))
                let rssi = Int8(bitPattern: try reader.readByte())
                reports.append(Report(eventType: eventType, addressType: addressType, address: address,
                                      data: data, rssi: rssi))
            }
            return reports
        }
    }

    package var parameters: [UInt8] {
        var writer = ByteWriter()
        writer.append(byte: UInt8(reports.count))
        for report in reports {
            writer.append(byte: report.eventType.rawValue)
            writer.append(byte: report.addressType.rawValue)
            writer.append(address: report.address)
            writer.append(byte: UInt8(report.data.count))
            writer.append(bytes: report.data)
            writer.append(byte: UInt8(bitPattern: report.rssi))
        }
        return writer.bytes
    }
}
