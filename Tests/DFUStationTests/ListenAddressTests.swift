import DFUStation
import XCTest

/// `--listen HOST:PORT` and the listening rule.
final class ListenAddressTests: XCTestCase {
    func testParsesNumericAddresses() throws {
        let cases: [(String, String, UInt16, Bool, Bool)] = [
            ("127.0.0.1:8080", "127.0.0.1", 8080, false, true),
            ("localhost:9000", "127.0.0.1", 9000, false, true),
            ("127.1.2.3:0", "127.1.2.3", 0, false, true),
            ("0.0.0.0:8080", "0.0.0.0", 8080, false, false),
            ("192.168.1.20:80", "192.168.1.20", 80, false, false),
            ("[::1]:8080", "::1", 8080, true, true),
            ("[::]:8080", "::", 8080, true, false),
            ("[0:0:0:0:0:0:0:1]:1", "::1", 1, true, true),
            ("[::ffff:127.0.0.1]:8080", "::ffff:127.0.0.1", 8080, true, true),
        ]
        for (text, host, port, isIPv6, isLoopback) in cases {
            let address = try ListenAddress(parsing: text)
            XCTAssertEqual(address.host, host, text)
            XCTAssertEqual(address.port, port, text)
            XCTAssertEqual(address.isIPv6, isIPv6, text)
            XCTAssertEqual(address.isLoopback, isLoopback, text)
        }
        XCTAssertEqual(try ListenAddress(parsing: "[::1]:8080").url, "http://[::1]:8080/")
        XCTAssertEqual(ListenAddress.standard.description, "127.0.0.1:8080")
    }

    func testRefusesWhatIsNotHostColonPort() {
        let cases: [(String, String)] = [
            ("8080", "no ':PORT'"),
            (":8080", "no host before the port"),
            ("127.0.0.1:", "the port '' is not a number"),
            ("127.0.0.1:65536", "the port '65536' is not a number"),
            ("line-pc.local:8080", "'line-pc.local' is not a numeric IPv4 or IPv6 address"),
            ("::1:8080", "write an IPv6 address in brackets"),
            ("[::1:8080", "the IPv6 address has no closing ']'"),
        ]
        for (text, problem) in cases {
            XCTAssertThrowsError(try ListenAddress(parsing: text), text) { error in
                XCTAssertEqual((error as? DashboardServerError)?.kind, .invalidListenAddress)
                XCTAssertTrue("\(error)".hasPrefix("'\(text)' is not an address to listen on: \(problem)"), "\(error)")
                XCTAssertTrue("\(error)".contains("e.g. 127.0.0.1:8080"), "\(error)")
            }
        }
    }

    func testAnAddressOffTheLoopbackNeedsAToken() throws {
        let open = DashboardServerConfiguration(listen: try ListenAddress(parsing: "0.0.0.0:8080"))
        XCTAssertThrowsError(try open.validate()) { error in
            XCTAssertEqual((error as? DashboardServerError)?.kind, .tokenRequired)
            XCTAssertTrue("\(error)".hasPrefix("refusing to serve the dashboard on 0.0.0.0:8080 without a token"), "\(error)")
        }
        XCTAssertNoThrow(try DashboardServerConfiguration(listen: try ListenAddress(parsing: "0.0.0.0:8080"),
                                                          token: try AccessToken("t")).validate())
        XCTAssertNoThrow(try DashboardServerConfiguration(listen: try ListenAddress(parsing: "[::1]:8080")).validate())
    }
}
