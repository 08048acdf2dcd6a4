import DFULedger
import XCTest

/// `--ledger` parsing: both kinds, redaction of passwords, and errors that say what is expected.
final class LedgerURLTests: XCTestCase {
    func testSQLitePaths() throws {
        XCTAssertEqual(try LedgerURL(parsing: "sqlite:line.db"), .sqlite(path: "line.db"))
        XCTAssertEqual(try LedgerURL(parsing: "sqlite:/var/lib/dfukit/line.db"), .sqlite(path: "/var/lib/dfukit/line.db"))
        XCTAssertEqual(try LedgerURL(parsing: "sqlite:///var/line.db"), .sqlite(path: "/var/line.db"))
        XCTAssertEqual(try LedgerURL(parsing: "sqlite::memory:"), .sqlite(path: ":memory:"))
        XCTAssertEqual(try LedgerURL(parsing: "sqlite:line.db").description, "sqlite:line.db")
    }

    func testPostgresURLsKeepTheTextForLibpqAndHideThePassword() throws {
        let text = "postgresql://line:s3cret@db.factory:5433/provisioning?sslmode=require"
        guard case .postgresql(let location) = try LedgerURL(parsing: text) else { return XCTFail("not postgresql") }
        XCTAssertEqual(location.connectionString, text)
        XCTAssertEqual(location.user, "line")
        XCTAssertEqual(location.host, "db.factory")
        XCTAssertEqual(location.port, 5433)
        XCTAssertEqual(location.database, "provisioning")
        XCTAssertEqual(try LedgerURL(parsing: text).description, "postgresql://line:***@db.factory:5433/provisioning?sslmode=require")

        guard case .postgresql(let short) = try LedgerURL(parsing: "postgres://[::1]/db") else { return XCTFail() }
        XCTAssertEqual(short.host, "::1")
        XCTAssertNil(short.port)
        XCTAssertNil(short.user)
        XCTAssertEqual(try LedgerURL(parsing: "postgres://u@h/d?password=x&connect_timeout=5").description,
                       "postgres://u@h/d?password=***&connect_timeout=5")
    }

    func testBadURLsSayWhatIsExpected() {
        let cases: [(String, String)] = [
            ("", "names no ledger kind"),
            ("line.db", "names no ledger kind"),
            ("sqlite:", "needs a file path"),
            ("mysql://h/d", "unknown ledger scheme 'mysql'"),
            ("postgresql://u:p@h:99999/d", "the port '99999' is not a number from 1 to 65535"),
            ("postgresql://u:p@h:abc/d", "the port 'abc'"),
            ("postgresql:///d", "names no host"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try LedgerURL(parsing: text), text) { error in
                guard let error = error as? LedgerError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.kind, .invalidURL, text)
                XCTAssertTrue(error.message.contains(expected), "\(text): \(error.message)")
                XCTAssertTrue(error.message.contains("expected sqlite:PATH or postgresql://"), error.message)
                XCTAssertFalse(error.description.contains(":p@"), "the password leaked: \(error.description)")
            }
        }
    }
}
