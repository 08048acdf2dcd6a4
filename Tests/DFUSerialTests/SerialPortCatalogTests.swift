@testable import DFUSerial
import DFUWire
import XCTest

final class SerialPortCatalogTests: XCTestCase {
    func testTheCatalogReadsUSBAndOnBoardPortsAndSkipsTheOthers() throws {
        let tree = try FakeSysfsTree(root: temporaryDirectory(self).path)
        try tree.addCDCACM("ttyACM0", usbPath: "1-1.2", interfaceName: "Board CDC")
        try tree.addFTDI("ttyUSB0", usbPath: "1-1.3")
        try tree.addOnBoardUARTs()

        let ports = tree.catalog.ports()
        XCTAssertEqual(ports.map(\.name), ["ttyACM0", "ttyS0", "ttyUSB0"], "no tty0/console/ptmx (virtual), no ttyS1 (type 0)")

        let acm = ports[0]
        XCTAssertEqual(acm.path, "\(tree.dev)/ttyACM0")
        XCTAssertEqual(acm.driver, "cdc_acm")
        XCTAssertEqual(acm.usb, USBSerialPortInfo(vendorID: 0x2FE3, productID: 0x0001, serialNumber: "E3B0C442",
                                                   manufacturer: "ZEPHYR", product: "Zephyr CDC ACM sample",
                                                   interfaceNumber: 0, interfaceName: "Board CDC",
                                                   physicalPath: "1-1.2", interfacePath: "1-1.2:1.0"))
        XCTAssertEqual(acm.byIDPaths, ["\(tree.dev)/serial/by-id/usb-ZEPHYR_Zephyr_CDC_ACM_sample_E3B0C442-if00"])
        XCTAssertEqual(acm.byPathPaths, ["\(tree.dev)/serial/by-path/pci-0000:00:14.0-usb-0:1.2:1.0"])
        XCTAssertEqual(acm.usb?.identifier, "2fe3:0001")
        XCTAssertEqual(acm.usb?.interfaceSuffix, "1.0")
        XCTAssertEqual(acm.description,
                       "\(tree.dev)/ttyACM0 (usb-serial=E3B0C442, usb-path=1-1.2:1.0, 2fe3:0001 ZEPHYR Zephyr CDC ACM sample, cdc_acm)")

        let uart = ports[1]
        XCTAssertEqual(uart.driver, "port")
        XCTAssertNil(uart.usb)

        let ftdi = ports[2]
        XCTAssertEqual(ftdi.driver, "ftdi_sio", "the usb-serial port's driver")
        XCTAssertEqual(ftdi.usb?.vendorID, 0x0403)
        XCTAssertEqual(ftdi.usb?.productID, 0x6001)
        XCTAssertEqual(ftdi.usb?.serialNumber, "A50285BI")
        XCTAssertEqual(ftdi.usb?.physicalPath, "1-1.3", "found through the usb-serial port device, one level further")
        XCTAssertEqual(ftdi.usb?.interfacePath, "1-1.3:1.0")
        XCTAssertEqual(ftdi.byIDPaths, ["\(tree.dev)/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0"])
    }

    func testAnEmptyOrMissingTreeHasNoPorts() throws {
        XCTAssertEqual(SerialPortCatalog(sysfsRoot: "/nonexistent/sys", deviceRoot: "/nonexistent/dev").ports(), [])
        let tree = try FakeSysfsTree(root: temporaryDirectory(self).path)
        XCTAssertEqual(tree.catalog.ports(), [])
    }

    func testThisMachinesCatalogReads() {
        // Whatever this machine has (often no USB port at all): no virtual console or
        // pseudo-terminal is listed, and every port has a node under /dev.
        let ports = SerialPortCatalog().ports()
        print("serial ports of this machine: \(SerialPortSelector.listing(ports))")
        for port in ports {
            XCTAssertEqual(port.path, "/dev/\(port.name)", port.description)
            XCTAssertFalse(["tty", "console", "ptmx"].contains(port.name), port.description)
            XCTAssertFalse(port.name.range(of: #"^tty[0-9]+$"#, options: .regularExpression) != nil, port.description)
        }
    }

    func testSelectorsParse() throws {
        XCTAssertEqual(try SerialPortSelector(parsing: "/dev/ttyACM0"), .path("/dev/ttyACM0"))
        XCTAssertEqual(try SerialPortSelector(parsing: "/dev/serial/by-path/pci-0000:00:14.0-usb-0:1.2:1.0"),
                       .path("/dev/serial/by-path/pci-0000:00:14.0-usb-0:1.2:1.0"))
        XCTAssertEqual(try SerialPortSelector(parsing: "usb-serial=E3B0C442"), .usbSerialNumber("E3B0C442", interface: nil))
        XCTAssertEqual(try SerialPortSelector(parsing: "usb-serial=E3B0C442:1.2"), .usbSerialNumber("E3B0C442", interface: "1.2"))
        XCTAssertEqual(try SerialPortSelector(parsing: "usb-serial=ab:cd"), .usbSerialNumber("ab:cd", interface: nil))
        XCTAssertEqual(try SerialPortSelector(parsing: "usb-path=1-1.2"), .usbPath("1-1.2", interface: nil))
        XCTAssertEqual(try SerialPortSelector(parsing: "usb-path=1-1.2:1.0"), .usbPath("1-1.2", interface: "1.0"))
        XCTAssertEqual(try SerialPortSelector(parsing: "usb-path=3-4"), .usbPath("3-4", interface: nil))
        for text in ["usb-path=1-1.2:1.0", "usb-serial=E3B0C442", "usb-serial=E3B0C442:1.2", "/dev/ttyUSB0"] {
            XCTAssertEqual(try SerialPortSelector(parsing: text).description, text)
        }
        let refused: [(String, String)] = [
            ("usb-seral=E3B0C442", "unknown form 'usb-seral='"),
            ("usb-serial=", "no serial number"),
            ("usb-path=1.2", "not a USB position"),
            ("usb-path=1-", "not a USB position"),
            ("usb-path=1-1..2", "not a USB position"),
            ("", "empty"),
        ]
        for (text, expected) in refused {
            XCTAssertThrowsError(try SerialPortSelector(parsing: text), text) { error in
                let error = error as! WireSettingError
                XCTAssertEqual(error.setting, "serial port")
                XCTAssertTrue(error.detail.contains(expected), "\(text): \(error)")
                XCTAssertTrue(error.detail.contains("usb-serial=SERIAL"), "\(text): \(error)")
            }
        }
    }

    func testSelectorsResolveInTheCatalog() throws {
        let tree = try FakeSysfsTree(root: temporaryDirectory(self).path)
        try tree.addCDCACM("ttyACM0", usbPath: "1-1.2")
        try tree.addFTDI("ttyUSB0", usbPath: "1-1.3")
        let catalog = tree.catalog
        XCTAssertEqual(try SerialPortSelector.usbSerialNumber("E3B0C442", interface: nil).resolve(in: catalog), "\(tree.dev)/ttyACM0")
        XCTAssertEqual(try SerialPortSelector.usbSerialNumber("A50285BI", interface: nil).resolve(in: catalog), "\(tree.dev)/ttyUSB0")
        XCTAssertEqual(try SerialPortSelector.usbPath("1-1.2", interface: nil).resolve(in: catalog), "\(tree.dev)/ttyACM0")
        XCTAssertEqual(try SerialPortSelector.usbPath("1-1.3", interface: "1.0").resolve(in: catalog), "\(tree.dev)/ttyUSB0")
        XCTAssertEqual(try SerialPortSelector.path("/dev/whatever").resolve(in: catalog), "/dev/whatever")
        XCTAssertTrue(SerialPortSelector.path("\(tree.dev)/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0")
                        .matches(catalog.ports()[1]))
    }

    func testAnAbsentPortSaysWhatWasLookedForAndWhatIsThere() throws {
        let tree = try FakeSysfsTree(root: temporaryDirectory(self).path)
        try tree.addCDCACM("ttyACM0", usbPath: "1-1.2")
        XCTAssertThrowsError(try SerialPortSelector.usbSerialNumber("0BADC0DE", interface: nil).resolve(in: tree.catalog)) { error in
            let error = error as! WireError
            XCTAssertEqual(error.kind, .unavailable)
            XCTAssertEqual(error.wire, "usb-serial=0BADC0DE")
            XCTAssertTrue(error.detail.hasPrefix("no USB serial port with serial number 0BADC0DE is plugged in now"), error.detail)
            XCTAssertTrue(error.detail.contains("serial ports here: \(tree.dev)/ttyACM0 (usb-serial=E3B0C442"), error.detail)
        }
        XCTAssertThrowsError(try SerialPortSelector.usbPath("1-1.2", interface: "1.2").resolve(in: tree.catalog)) { error in
            XCTAssertTrue((error as! WireError).detail.hasPrefix("no USB serial port at 1-1.2 interface 1.2"), "\(error)")
        }
        let empty = try FakeSysfsTree(root: temporaryDirectory(self, "empty").path)
        XCTAssertThrowsError(try SerialPortSelector.usbPath("1-1", interface: nil).resolve(in: empty.catalog)) { error in
            XCTAssertTrue((error as! WireError).detail.hasSuffix("there are no serial ports here"), "\(error)")
        }
    }

    func testADeviceWithTwoPortsMustBeNarrowedToOne() throws {
        let tree = try FakeSysfsTree(root: temporaryDirectory(self).path)
        try tree.addCDCACM("ttyACM0", usbPath: "1-1.2", interface: 0)
        try tree.addCDCACM("ttyACM1", usbPath: "1-1.2", interface: 2)
        XCTAssertThrowsError(try SerialPortSelector.usbSerialNumber("E3B0C442", interface: nil).resolve(in: tree.catalog)) { error in
            let detail = (error as! WireError).detail
            XCTAssertTrue(detail.hasPrefix("2 ports match (the device has several interfaces); name one"), detail)
            XCTAssertTrue(detail.contains("ttyACM0: usb-serial=E3B0C442:1.0"), detail)
            XCTAssertTrue(detail.contains("ttyACM1: usb-serial=E3B0C442:1.2"), detail)
        }
        XCTAssertThrowsError(try SerialPortSelector.usbPath("1-1.2", interface: nil).resolve(in: tree.catalog)) { error in
            XCTAssertTrue((error as! WireError).detail.contains("ttyACM1: usb-path=1-1.2:1.2"), "\(error)")
        }
        XCTAssertEqual(try SerialPortSelector.usbSerialNumber("E3B0C442", interface: "1.2").resolve(in: tree.catalog),
                       "\(tree.dev)/ttyACM1")
        XCTAssertEqual(try SerialPortSelector.usbPath("1-1.2", interface: "1.0").resolve(in: tree.catalog),
                       "\(tree.dev)/ttyACM0")
    }
}
