import DFUStation
import XCTest

/// The routes of the StationDashboard article, read from a path and query alone.
final class DashboardRouteTests: XCTestCase {
    func testEveryPathOfTheContract() {
        let cases: [(String, [String: String], DashboardRoute?)] = [
            ("/", [:], .page),
            ("/dashboard.css", [:], .style),
            ("/dashboard.js", [:], .script),
            ("/api/snapshot", [:], .snapshot(line: nil)),
            ("/api/snapshot", ["line": "east"], .snapshot(line: "east")),
            ("/api/snapshot", ["line": ""], .snapshot(line: nil)),
            ("/events", ["line": "west"], .events(line: "west")),
            ("/api/devices/C0:FF:EE:00:00:01", [:], .deviceHistory(address: "C0:FF:EE:00:00:01")),
            ("/api/devices/C0:FF:EE:00:00:01/release", [:], .release(device: "C0:FF:EE:00:00:01")),
            ("/api/lines/east/resume", [:], .resume(line: "east")),
            // A line's name may hold a slash or spaces (the name is what lies between).
            ("/api/lines/hall 2/east/resume", [:], .resume(line: "hall 2/east")),
            ("/api/lines//resume", [:], nil),
            ("/api/devices/", [:], nil),
            ("/api/devices/a/b", [:], nil),
            ("/api/lines/east", [:], nil),
            ("/favicon.ico", [:], nil),
            ("/api/snapshot/", [:], nil),
        ]
        for (path, query, expected) in cases {
            XCTAssertEqual(DashboardRoute(path: path, query: query), expected, "\(path) \(query)")
        }
    }

    func testMethodsOfEachRoute() {
        XCTAssertEqual(DashboardRoute.page.methods, [.get, .head])
        XCTAssertEqual(DashboardRoute.snapshot(line: nil).methods, [.get, .head])
        XCTAssertEqual(DashboardRoute.events(line: nil).methods, [.get])
        XCTAssertEqual(DashboardRoute.resume(line: "east").methods, [.post])
        XCTAssertEqual(DashboardRoute.release(device: "C0:FF:EE:00:00:01").methods, [.post])
    }
}
