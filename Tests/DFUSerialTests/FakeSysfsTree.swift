import DFUSerial
import Foundation

/// A sysfs and /dev tree in a temporary directory, laid out as Linux 6.x and udev lay out the
/// real ones (checked against dumps of real machines: a cdc_acm board and a pl2303 adapter in
/// pyserial's test assets, and this machine's ttyS0):
///
///     sys/class/tty/ttyACM0 -> ../../devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1.2/1-1.2:1.0/tty/ttyACM0
///         .../1-1.2/{idVendor,idProduct,serial,manufacturer,product,busnum,devpath}
///         .../1-1.2:1.0/{bInterfaceNumber,bInterfaceClass,interface,driver -> bus/usb/drivers/cdc_acm,subsystem -> bus/usb}
///         .../tty/ttyACM0/{dev,device -> ../../../1-1.2:1.0,subsystem -> class/tty}
///     sys/class/tty/ttyUSB0 -> ../../devices/.../1-1.3/1-1.3:1.0/ttyUSB0/tty/ttyUSB0
///         .../1-1.3:1.0/ttyUSB0/{driver -> bus/usb-serial/drivers/ftdi_sio,subsystem -> bus/usb-serial,port_number}
///         .../tty/ttyUSB0/device -> ../../../ttyUSB0   (the usb-serial port, under the interface)
///     sys/class/tty/ttyS0 -> ../../devices/pnp0/00:00/00:00:0/00:00:0.0/tty/ttyS0   (type 4: a 16550A)
///     sys/class/tty/ttyS1 -> ../../devices/platform/serial8250/serial8250:0/serial8250:0.1/tty/ttyS1   (type 0: no UART)
///     sys/class/tty/tty0 -> ../../devices/virtual/tty/tty0   (no device)
///     dev/serial/by-id/usb-ZEPHYR_Zephyr_CDC_ACM_sample_E3B0C442-if00 -> ../../ttyACM0
///     dev/serial/by-path/pci-0000:00:14.0-usb-0:1.2:1.0 -> ../../ttyACM0
struct FakeSysfsTree {
    let root: String
    var sysfs: String { "\(root)/sys" }
    var dev: String { "\(root)/dev" }
    var catalog: SerialPortCatalog { SerialPortCatalog(sysfsRoot: sysfs, deviceRoot: dev) }
    private let controllerDirectory = "devices/pci0000:00/0000:00:14.0"

    init(root: String) throws {
        self.root = root
        for directory in ["sys/class/tty", "sys/bus/usb/drivers/cdc_acm", "sys/bus/usb/drivers/ftdi_sio", "sys/bus/usb/drivers/usb",
                          "sys/bus/usb-serial/drivers/ftdi_sio", "sys/bus/serial-base/drivers/port", "dev/serial/by-id",
                          "dev/serial/by-path"] {
            try makeDirectory(directory)
        }
        for name in ["tty0", "console", "ptmx"] {
            try makeDirectory("sys/devices/virtual/tty/\(name)")
            try write("sys/devices/virtual/tty/\(name)/dev", "5:\(name.count)")
            try link("sys/class/tty/\(name)", to: "sys/devices/virtual/tty/\(name)")
        }
    }

    /// A USB CDC-ACM port (cdc_acm) of the device at `usbPath` (`1-1.2`), interface `interface`.
    func addCDCACM(_ name: String, usbPath: String, interface: Int = 0, serial: String? = "E3B0C442",
                   vendor: String = "2fe3", product: String = "0001", manufacturer: String = "ZEPHYR",
                   productName: String = "Zephyr CDC ACM sample", interfaceName: String? = nil, node: String? = nil) throws {
        let device = try addUSBDevice(usbPath, vendor: vendor, product: product, serial: serial,
                                      manufacturer: manufacturer, productName: productName)
        let interfaceDirectory = "\(device)/\(usbPath):1.\(interface)"
        try addInterface(interfaceDirectory, number: interface, interfaceClass: "02", driver: "cdc_acm", name: interfaceName)
        let ttyDirectory = "\(interfaceDirectory)/tty/\(name)"
        try makeDirectory(ttyDirectory)
        try write("\(ttyDirectory)/dev", "166:\(name.filter(\.isNumber))")
        try link("\(ttyDirectory)/device", to: interfaceDirectory)
        try link("\(ttyDirectory)/subsystem", to: "sys/class/tty")
        try link("sys/class/tty/\(name)", to: ttyDirectory)
        let words = [manufacturer, productName, serial].compactMap { $0 }.joined(separator: "_")
            .replacingOccurrences(of: " ", with: "_")
        try link("dev/serial/by-id/usb-\(words)-if0\(interface)", to: "dev/\(name)")
        try link("dev/serial/by-path/pci-0000:00:14.0-usb-0:\(usbPath.split(separator: "-")[1]):1.\(interface)", to: "dev/\(name)")
        try addNode(name, node: node)
    }

    /// An FTDI adapter's port (ftdi_sio, a usb-serial driver) at `usbPath`.
    func addFTDI(_ name: String, usbPath: String, serial: String = "A50285BI", node: String? = nil) throws {
        let device = try addUSBDevice(usbPath, vendor: "0403", product: "6001", serial: serial, manufacturer: "FTDI",
                                      productName: "FT232R USB UART")
        let interfaceDirectory = "\(device)/\(usbPath):1.0"
        try addInterface(interfaceDirectory, number: 0, interfaceClass: "ff", driver: "ftdi_sio", name: nil)
        let portDirectory = "\(interfaceDirectory)/\(name)"
        try makeDirectory(portDirectory)
        try link("\(portDirectory)/driver", to: "sys/bus/usb-serial/drivers/ftdi_sio")
        try link("\(portDirectory)/subsystem", to: "sys/bus/usb-serial")
        try write("\(portDirectory)/port_number", "0")
        let ttyDirectory = "\(portDirectory)/tty/\(name)"
        try makeDirectory(ttyDirectory)
        try write("\(ttyDirectory)/dev", "188:\(name.filter(\.isNumber))")
        try link("\(ttyDirectory)/device", to: portDirectory)
        try link("\(ttyDirectory)/subsystem", to: "sys/class/tty")
        try link("sys/class/tty/\(name)", to: ttyDirectory)
        try link("dev/serial/by-id/usb-FTDI_FT232R_USB_UART_\(serial)-if00-port0", to: "dev/\(name)")
        try link("dev/serial/by-path/pci-0000:00:14.0-usb-0:\(usbPath.split(separator: "-")[1]):1.0-port0", to: "dev/\(name)")
        try addNode(name, node: node)
    }

    /// An on-board UART (8250 type 4, a 16550A) as `ttyS0`, and a placeholder the 8250 driver
    /// registers without hardware (type 0) as `ttyS1`.
    func addOnBoardUARTs() throws {
        let real = "sys/devices/pnp0/00:00/00:00:0/00:00:0.0"
        try makeDirectory("\(real)/tty/ttyS0")
        try link("\(real)/subsystem", to: "sys/bus/serial-base")
        try link("\(real)/driver", to: "sys/bus/serial-base/drivers/port")
        try write("\(real)/tty/ttyS0/type", "4")
        try link("\(real)/tty/ttyS0/device", to: real)
        try link("sys/class/tty/ttyS0", to: "\(real)/tty/ttyS0")
        let placeholder = "sys/devices/platform/serial8250/serial8250:0/serial8250:0.1"
        try makeDirectory("\(placeholder)/tty/ttyS1")
        try link("\(placeholder)/subsystem", to: "sys/bus/serial-base")
        try write("\(placeholder)/tty/ttyS1/type", "0")
        try link("\(placeholder)/tty/ttyS1/device", to: placeholder)
        try link("sys/class/tty/ttyS1", to: "\(placeholder)/tty/ttyS1")
        try addNode("ttyS0", node: nil)
        try addNode("ttyS1", node: nil)
    }

    /// The USB device at `usbPath` goes away (unplugged, or resetting): its directories, its
    /// ports' class entries, nodes and udev links.
    func unplug(_ usbPath: String) throws {
        let manager = FileManager.default
        for name in try manager.contentsOfDirectory(atPath: "\(sysfs)/class/tty") {
            let target = try manager.destinationOfSymbolicLink(atPath: "\(sysfs)/class/tty/\(name)")
            guard target.contains("/\(usbPath):") else { continue }
            try manager.removeItem(atPath: "\(sysfs)/class/tty/\(name)")
            try? manager.removeItem(atPath: "\(dev)/\(name)")
            for directory in ["\(dev)/serial/by-id", "\(dev)/serial/by-path"] {
                for link in try manager.contentsOfDirectory(atPath: directory)
                where (try? manager.destinationOfSymbolicLink(atPath: "\(directory)/\(link)")) == "../../\(name)" {
                    try manager.removeItem(atPath: "\(directory)/\(link)")
                }
            }
        }
        try manager.removeItem(atPath: "\(root)/sys/\(controllerDirectory)/\(usbDirectory(usbPath))")
    }

    // MARK: - Building

    private func addUSBDevice(_ usbPath: String, vendor: String, product: String, serial: String?, manufacturer: String,
                              productName: String) throws -> String {
        let device = "sys/\(controllerDirectory)/\(usbDirectory(usbPath))"
        try makeDirectory(device)
        try write("\(device)/idVendor", vendor)
        try write("\(device)/idProduct", product)
        if let serial { try write("\(device)/serial", serial) }
        try write("\(device)/manufacturer", manufacturer)
        try write("\(device)/product", productName)
        try write("\(device)/busnum", String(usbPath.split(separator: "-")[0]))
        try write("\(device)/devpath", String(usbPath.split(separator: "-")[1]))
        try link("\(device)/driver", to: "sys/bus/usb/drivers/usb")
        try link("\(device)/subsystem", to: "sys/bus/usb")
        return device
    }

    private func addInterface(_ directory: String, number: Int, interfaceClass: String, driver: String, name: String?) throws {
        guard !FileManager.default.fileExists(atPath: "\(root)/\(directory)/bInterfaceNumber") else { return }
        try makeDirectory(directory)
        try write("\(directory)/bInterfaceNumber", String(format: "%02x", number))
        try write("\(directory)/bInterfaceClass", interfaceClass)
        if let name { try write("\(directory)/interface", name) }
        try link("\(directory)/driver", to: "sys/bus/usb/drivers/\(driver)")
        try link("\(directory)/subsystem", to: "sys/bus/usb")
    }

    /// `1-1.2` -> `usb1/1-1/1-1.2`: the root hub, then each hub down to the device.
    private func usbDirectory(_ usbPath: String) -> String {
        let halves = usbPath.split(separator: "-")
        let ports = halves[1].split(separator: ".")
        var path = "usb\(halves[0])"
        for depth in 1...ports.count {
            path += "/\(halves[0])-" + ports.prefix(depth).joined(separator: ".")
        }
        return path
    }

    /// The device node: a link to `node` (a pseudo-terminal, so it can be opened), or an empty file.
    private func addNode(_ name: String, node: String?) throws {
        let path = "\(dev)/\(name)"
        try? FileManager.default.removeItem(atPath: path)
        if let node {
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: node)
        } else {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
    }

    private func makeDirectory(_ relative: String) throws {
        try FileManager.default.createDirectory(atPath: "\(root)/\(relative)", withIntermediateDirectories: true)
    }

    /// A sysfs attribute: its value and a newline.
    private func write(_ relative: String, _ value: String) throws {
        try Data((value + "\n").utf8).write(to: URL(fileURLWithPath: "\(root)/\(relative)"))
    }

    /// A relative symbolic link at `relative` to `target` (both relative to the root), as sysfs
    /// and udev make them.
    private func link(_ relative: String, to target: String) throws {
        let from = relative.split(separator: "/").dropLast()
        let to = target.split(separator: "/")
        var common = 0
        while common < from.count, common < to.count, from[from.startIndex + common] == to[common] { common += 1 }
        let up = Array(repeating: "..", count: from.count - common)
        let destination = (up + to.dropFirst(common).map(String.init)).joined(separator: "/")
        try? FileManager.default.removeItem(atPath: "\(root)/\(relative)")
        try FileManager.default.createSymbolicLink(atPath: "\(root)/\(relative)", withDestinationPath: destination)
    }
}
