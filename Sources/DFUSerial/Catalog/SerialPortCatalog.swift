#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The serial ports of this machine, read from sysfs (`/sys/class/tty/*/device`, followed up to
/// the USB interface and device) and udev's `/dev/serial/by-id` and `/dev/serial/by-path`
/// links. Both roots are settings, so tests read a fake tree made in a temporary directory.
///
/// Listed: every tty with a `device` (virtual consoles and pseudo-terminals have none), but the
/// placeholder UARTs the 8250 driver registers without hardware (their `type` is 0).
public struct SerialPortCatalog: Sendable {
    /// Where sysfs is: `/sys`.
    public var sysfsRoot: String
    /// Where device nodes are: `/dev`.
    public var deviceRoot: String

    /// The catalog of the machine (or of a fake tree at `sysfsRoot` and `deviceRoot`).
    public init(sysfsRoot: String = "/sys", deviceRoot: String = "/dev") {
        self.sysfsRoot = sysfsRoot
        self.deviceRoot = deviceRoot
    }

    /// The serial ports there now, by name (`ttyACM0` before `ttyACM1` before `ttyUSB0`).
    public func ports() -> [SerialPortInfo] {
        let classDirectory = "\(sysfsRoot)/class/tty"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: classDirectory)) ?? []
        let byID = links(in: "\(deviceRoot)/serial/by-id")
        let byPath = links(in: "\(deviceRoot)/serial/by-path")
        return names.sorted(by: Self.naturalOrder).compactMap { name in
            port(name, entry: "\(classDirectory)/\(name)", byID: byID[name] ?? [], byPath: byPath[name] ?? [])
        }
    }

    private func port(_ name: String, entry: String, byID: [String], byPath: [String]) -> SerialPortInfo? {
        guard let device = resolved("\(entry)/device") else { return nil }
        if readLine("\(entry)/type") == "0" { return nil }
        let subsystem = resolved("\(device)/subsystem").map(lastComponent)
        let usbInterface: String?
        switch subsystem {
        case "usb-serial": usbInterface = parent(device)   // ttyUSB: the port device sits under the interface
        case "usb": usbInterface = device                  // ttyACM: the interface itself
        default: usbInterface = nil
        }
        return SerialPortInfo(name: name, path: "\(deviceRoot)/\(name)",
                              driver: resolved("\(device)/driver").map(lastComponent),
                              usb: usbInterface.flatMap(usbFacts), byIDPaths: byID, byPathPaths: byPath)
    }

    private func usbFacts(interface: String) -> USBSerialPortInfo? {
        let device = parent(interface)
        guard let vendor = readLine("\(device)/idVendor").flatMap({ UInt16($0, radix: 16) }),
              let product = readLine("\(device)/idProduct").flatMap({ UInt16($0, radix: 16) }) else { return nil }
        return USBSerialPortInfo(vendorID: vendor, productID: product,
                                 serialNumber: readLine("\(device)/serial"),
                                 manufacturer: readLine("\(device)/manufacturer"),
                                 product: readLine("\(device)/product"),
                                 interfaceNumber: readLine("\(interface)/bInterfaceNumber").flatMap { Int($0, radix: 16) },
                                 interfaceName: readLine("\(interface)/interface"),
                                 physicalPath: lastComponent(device), interfacePath: lastComponent(interface))
    }

    /// The links in `directory`, by the name of the node each points to.
    private func links(in directory: String) -> [String: [String]] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var links: [String: [String]] = [:]
        for name in names.sorted() {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(name)") else { continue }
            links[lastComponent(target), default: []].append("\(directory)/\(name)")
        }
        return links
    }

    /// The path `path` resolves to (symbolic links followed), nil when it does not exist.
    private func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// The first line of a sysfs attribute, without surrounding blanks; nil when absent or empty.
    private func readLine(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    private func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    private func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// `ttyACM2` before `ttyACM10`.
    private static func naturalOrder(_ left: String, _ right: String) -> Bool {
        left.compare(right, options: .numeric) == .orderedAscending
    }
}
