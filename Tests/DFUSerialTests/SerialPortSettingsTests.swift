@testable import DFUSerial
import DFUWire
import Glibc
import XCTest

final class SerialPortSettingsTests: XCTestCase {
    func testStandardRatesUpTo4000000AreTaken() throws {
        for rate in [9600, 115_200, 230_400, 460_800, 921_600, 1_000_000, 2_000_000, 3_000_000, 4_000_000] {
            XCTAssertEqual(try BaudRate(rate).bitsPerSecond, rate)
        }
        XCTAssertEqual(BaudRate.b1000000.speed, speed_t(B1000000))
        XCTAssertEqual(BaudRate.b4000000.speed, speed_t(B4000000))
        XCTAssertEqual(BaudRate.standardRates.first, 50)
        XCTAssertEqual(BaudRate.standardRates.last, 4_000_000)
        XCTAssertEqual(try BaudRate(parsing: "921600"), .b921600)
    }

    func testANonStandardRateIsRefusedNamingTheNearestOnes() {
        XCTAssertThrowsError(try BaudRate(115_201)) { error in
            let error = error as! WireSettingError
            XCTAssertEqual(error.setting, "baud rate")
            XCTAssertEqual(error.value, "115201")
            XCTAssertTrue(error.detail.contains("not a standard rate"), error.description)
            XCTAssertTrue(error.detail.contains("the nearest are 115200 or 230400"), error.description)
        }
        XCTAssertThrowsError(try BaudRate(5_000_000)) { error in
            XCTAssertTrue((error as! WireSettingError).detail.contains("the nearest are 4000000 ("), "\(error)")
        }
        XCTAssertThrowsError(try BaudRate(0))
        XCTAssertThrowsError(try BaudRate(parsing: "fast")) { error in
            XCTAssertTrue((error as! WireSettingError).detail.contains("not a number"), "\(error)")
        }
    }

    func testAppliedMakesRaw8N1() {
        var cooked = termios()
        cooked.c_iflag = tcflag_t(ICRNL) | tcflag_t(IXON) | tcflag_t(IXOFF) | tcflag_t(ISTRIP)
        cooked.c_oflag = tcflag_t(OPOST) | tcflag_t(ONLCR)
        cooked.c_lflag = tcflag_t(ICANON) | tcflag_t(ECHO) | tcflag_t(ISIG) | tcflag_t(IEXTEN)
        cooked.c_cflag = tcflag_t(CS7) | tcflag_t(PARENB) | tcflag_t(CSTOPB) | tcflag_t(CRTSCTS)
        var raw = SerialPortSettings(baudRate: .b460800).applied(to: cooked)
        XCTAssertEqual(raw.c_iflag & (tcflag_t(ICRNL) | tcflag_t(IXON) | tcflag_t(IXOFF) | tcflag_t(ISTRIP)), 0)
        XCTAssertEqual(raw.c_oflag & tcflag_t(OPOST), 0)
        XCTAssertEqual(raw.c_lflag & (tcflag_t(ICANON) | tcflag_t(ECHO) | tcflag_t(ISIG) | tcflag_t(IEXTEN)), 0)
        XCTAssertEqual(raw.c_cflag & tcflag_t(CSIZE), tcflag_t(CS8))
        XCTAssertEqual(raw.c_cflag & (tcflag_t(PARENB) | tcflag_t(CSTOPB) | tcflag_t(CRTSCTS)), 0)
        XCTAssertEqual(raw.c_cflag & (tcflag_t(CLOCAL) | tcflag_t(CREAD)), tcflag_t(CLOCAL) | tcflag_t(CREAD))
        XCTAssertEqual(cfgetospeed(&raw), speed_t(B460800))
        var flowControlled = SerialPortSettings(flowControl: .hardware).applied(to: cooked)
        XCTAssertNotEqual(flowControlled.c_cflag & tcflag_t(CRTSCTS), 0)
        XCTAssertEqual(cfgetispeed(&flowControlled), speed_t(B115200))
    }
}
