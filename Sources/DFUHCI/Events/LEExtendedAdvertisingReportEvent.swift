import DFUBytes
import DFUGATT

/// LE Extended Advertising Report (subevent 0x0D, Vol 4, Part E, 7.7.65.13). Bumble's virtual
/// controller sends these even after legacy scan commands.
package struct LEExtendedAdvertisingReportEvent: LEMetaSubeventParameters {
    package static let subeventCode: UInt8 = 0x0D
    package static let name = "LE Extended Advertising Report"

    /// Event_Type bits; bits 5-6 are the data status.
    package struct EventType: OptionSet, Sendable, Hashable {
        package let rawValue: UInt16
        package init(rawValue: UInt16) { self.rawValue = rawValue }
        package static let connectable = EventType(rawValue: 1 << 0)
        package static let scannable = EventType(rawValue: 1 << 1)
        package static let directed = EventType(rawValue: 1 << 2)
        package static let scanResponse = EventType(rawValue: 1 << 3)
        package static let legacyPDU = EventType(rawValue: 1 << 4)

        /// 0 complete, 1 incomplete with more to come, 2 incomplete and truncated.
        package var dataStatus: UInt8 { UInt8((rawValue >> 5) & 0x03) }
    }

    package struct Report: Sendable, Hashable {
        package var eventType: EventType
        package var addressType: HCIAddressType
        package var address: DeviceAddress
        package var primaryPHY: UInt8
        package var secondaryPHY: UInt8
        package var advertisingSID: UInt8
        /// dBm; 127 means not available.
        package var txPower: Int8
        /// dBm; 127 means not available.
        package var rssi: Int8
        package var periodicAdvertisingInterval: UInt16
        package var directAddressType: HCIAddressType
        package var directAddress: DeviceAddress
        package var data: [UInt8]

        package init(eventType: EventType, addressType: HCIAddressType, address: DeviceAddress,
                    primaryPHY: UInt8 = 1, secondaryPHY: UInt8 = 0, advertisingSID: UInt8 = 0, txPower: Int8 = 127,
                    rssi: Int8, periodicAdvertisingInterval: UInt16 = 0,
                    directAddressType: HCIAddressType = .publicDevice,
                    directAddress: DeviceAddress = DeviceAddress(value: 0), data: [UInt8]) {
            self.eventType = eventType
            self.addressType = addressType
            self.address = address
            self.primaryPHY = primaryPHY
            self.secondaryPHY = secondaryPHY
            self.advertisingSID = advertisingSID
            self.txPower = txPower
            self.rssi = rssi
            self.periodicAdvertisingInterval = periodicAdvertisingInterval
            self.directAddressType = directAddressType
            self.directAddress = directAddress
            self.data = data
        }
    }

    package var reports: [Report]

    package init(reports: [Report]) { self.reports = reports }

    package init(parameters: [UInt8]) throws(HCIDecodeError) {
        reports = try decodeParameters(Self.name, parameters) { reader throws(ByteReaderError) in
            let count = Int(try reader.readByte())
            var reports: [Report] = []
            for _ in 0..<count {
                let eventType = EventType(rawValue: try reader.readUInt16())
                let addressType = HCIAddressType(rawValue: try reader.readByte())
                let address = try reader.readAddress()
                let primaryPHY = try reader.readByte()
                let secondaryPHY = try reader.readByte()
                let sid = try reader.readByte()
                let txPower = Int8(bitPattern: try reader.readByte())
                let rssi = Int8(bitPattern: try reader.readByte())
                let interval = try reader.readUInt16()
                let directAddressType = HCIAddressType(rawValue: try reader.readByte())
                let directAddress = try reader.readAddress()
                let data = try reader.readBytes(count: Int(try reader.readByte()))
                reports.append(Report(eventType: eventType, addressType: addressType, address: address,
                                      primaryPHY: primaryPHY, secondaryPHY: secondaryPHY, advertisingSID: sid,
                                      txPower: txPower, rssi: rssi, periodicAdvertisingInterval: interval,
                                      directAddressType: directAddressType, directAddress: directAddress,
                                      data: data))
            }
            return reports
        }
    }

    package var parameters: [UInt8] {
        var writer = ByteWriter()
        writer.append(byte: UInt8(reports.count))
        for report in reports {
            writer.appendUInt16(report.eventType.rawValue)
            writer.append(byte: report.addressType.rawValue)
            writer.append(address: report.address)
            writer.append(byte: report.primaryPHY)
            writer.append(byte: report.secondaryPHY)
            writer.append(byte: report.advertisingSID)
            writer.append(byte: UInt8(bitPattern: report.txPower))
            writer.append(byte: UInt8(bitPattern: report.rssi))
            writer.appendUInt16(report.periodicAdvertisingInterval)
            writer.append(byte: report.directAddressType.rawValue)
            writer.append(address: report.directAddress)
            writer.append(byte: UInt8(report.data.count))
            writer.append(bytes: report.data)
        }
        return writer.bytes
    }
}
