import XCTest
import DFUBytes

final class PEMTests: XCTestCase {
    func testDecodesOpenSSLPublicKey() throws {
        let decoded = try PEM.decode(try fixtureText("ecdsa-p256-public.pem"))
        XCTAssertEqual(decoded.label, "PUBLIC KEY")
        XCTAssertEqual(decoded.der, try fixture("ecdsa-p256-public.der"))
    }

    func testIgnoresTextAroundTheBlockAndCRLF() throws {
        let text = "Public-Key: (256 bit)\r\n-----BEGIN TEST-----\r\nAQID\r\nBA==\r\n-----END TEST-----\r\ntrailer\n"
        let decoded = try PEM.decode(text)
        XCTAssertEqual(decoded.label, "TEST")
        XCTAssertEqual(decoded.der, [1, 2, 3, 4])
    }

    func testErrorsSayWhatAndWhere() {
        XCTAssertEqual(expectError { () throws(PEMError) in _ = try PEM.decode("MFkwEwYH") }, .missingBeginLine)
        XCTAssertEqual(expectError { () throws(PEMError) in _ = try PEM.decode("x\n-----BEGIN A-----\nAQID\n") },
                       .missingEndLine(label: "A", beginLine: 2))
        XCTAssertEqual(expectError { () throws(PEMError) in
            _ = try PEM.decode("-----BEGIN A-----\nAQID\n-----END B-----")
        }, .mismatchedEndLabel(expected: "A", found: "B", line: 3))
        XCTAssertEqual(expectError { () throws(PEMError) in
            _ = try PEM.decode("-----BEGIN A-----\nAQID\nProc-Type: 4,ENCRYPTED\n-----END A-----")
        }, .invalidBase64(line: 3))
        XCTAssertEqual(expectError { () throws(PEMError) in
            _ = try PEM.decode("-----BEGIN A-----\nAQI\n-----END A-----")
        }, .invalidBase64(line: 2))
        XCTAssertEqual(expectError { () throws(PEMError) in _ = try PEM.decode("-----BEGIN A-----\n-----END A-----") },
                       .emptyBody(label: "A", beginLine: 1))
    }
}
