/// A serial port of this machine, as sysfs and udev describe it.
public struct SerialPortInfo: Sendable, Hashable, CustomStringConvertible {
    /// The kernel's name: `ttyACM0`.
    public var name: String
    /// The device node: `/dev/ttyACM0`.
    public var path: String
    /// The driver serving it: `cdc_acm`, `ftdi_sio`, `cp210x`, `port` (an on-board UART).
    public var driver: String?
    /// The USB device and interface behind it, when it is a USB port.
    public var usb: USBSerialPortInfo?
    /// udev's links by device identity: `/dev/serial/by-id/usb-ZEPHYR_..._E3B0C442-if00`.
    public var byIDPaths: [String]
    /// udev's links by physical position: `/dev/serial/by-path/pci-0000:00:14.0-usb-0:1.2:1.0`.
    public var byPathPaths: [String]

    /// A port from its parts.
    public init(name: String, path: String, driver: String? = nil, usb: USBSerialPortInfo? = nil,
                byIDPaths: [String] = [], byPathPaths: [String] = []) {
        self.name = name
        self.path = path
        self.driver = driver
        self.usb = usb
        self.byIDPaths = byIDPaths
        self.byPathPaths = byPathPaths
    }

    /// `/dev/ttyACM0 (usb-serial=E3B0C442, usb-path=1-1.2:1.0, 2fe3:0001 ZEPHYR Zephyr CDC ACM sample, cdc_acm)`.
    public var description: String {
        var facts: [String] = []
        if let usb {
            if let serialNumber = usb.serialNumber { facts.append("usb-serial=\(serialNumber)") }
            facts.append("usb-path=\(usb.interfacePath)")
            let names = [usb.manufacturer, usb.product].compactMap { $0 }.joined(separator: " ")
            facts.append(names.isEmpty ? usb.identifier : "\(usb.identifier) \(names)")
        }
        if let driver { facts.append(driver) }
        return facts.isEmpty ? path : "\(path) (\(facts.joined(separator: ", ")))"
    }
}

/// The USB device and interface behind a serial port.
public struct USBSerialPortInfo: Sendable, Hashable {
    /// idVendor: 0x2FE3.
    public var vendorID: UInt16
    /// idProduct: 0x0001.
    public var productID: UInt16
    /// The device's serial number string (`serial`), when it has one: it identifies the device
    /// wherever it is plugged and whatever tty number it gets.
    public var serialNumber: String?
    /// The manufacturer string: `ZEPHYR`.
    public var manufacturer: String?
    /// The product string: `Zephyr CDC ACM sample`.
    public var product: String?
    /// bInterfaceNumber: 0 for the first interface.
    public var interfaceNumber: Int?
    /// The interface's own string descriptor, when it has one: `Board CDC`.
    public var interfaceName: String?
    /// The device's physical position: bus, then the hub ports down to it: `1-1.2` (bus 1,
    /// root port 1, hub port 2). It changes when the device is plugged elsewhere, not when it
    /// re-enumerates.
    public var physicalPath: String
    /// The interface's position: the device's, then configuration and interface: `1-1.2:1.0`.
    public var interfacePath: String

    /// USB facts from their parts.
    public init(vendorID: UInt16, productID: UInt16, serialNumber: String? = nil, manufacturer: String? = nil,
                product: String? = nil, interfaceNumber: Int? = nil, interfaceName: String? = nil,
                physicalPath: String, interfacePath: String) {
        self.vendorID = vendorID
        self.productID = productID
        self.serialNumber = serialNumber
        self.manufacturer = manufacturer
        self.product = product
        self.interfaceNumber = interfaceNumber
        self.interfaceName = interfaceName
        self.physicalPath = physicalPath
        self.interfacePath = interfacePath
    }

    /// `2fe3:0001`, as lsusb writes it.
    public var identifier: String { "\(Self.hex(vendorID)):\(Self.hex(productID))" }

    /// The configuration and interface part of `interfacePath`: `1.0`.
    public var interfaceSuffix: String? {
        interfacePath.split(separator: ":", maxSplits: 1).dropFirst().first.map(String.init)
    }

    private static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
