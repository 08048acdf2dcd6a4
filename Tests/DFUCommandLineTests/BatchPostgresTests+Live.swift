import Foundation
import XCTest

/// `batch run` on PostgreSQL leaves its station row `ended` and no live row (`make test-postgres`).
extension BatchPostgresTests {
    func testAStationEndsItsRowAndClearsItsLiveRows() throws {
        let ledger = try url()
        let directory = try TemporaryDirectory()
        let package = try PackageCommandTests.makePackage(in: directory, size: 8_000,
                                                          name: "firmware-\(UUID().uuidString.prefix(8)).zip")
        let station = "live-\(UUID().uuidString.prefix(8))"
        let run = try DFUKitBinary.run(["batch", "run", "--profile", DFUKitBinary.shippedProfile, "--package", package,
                                        "--device", "sim:vendor-ctrlpt?fleet=3", "--ledger", ledger, "--station", station,
                                        "--concurrency", "2", "--json"], in: directory.path)
        XCTAssertEqual(run.status, 0, run.transcript)
        let sha = try XCTUnwrap(try jsonObject(run.stdout)["package_sha256"] as? String)
        let stations = try Subprocess.tool(Self.psql, [ledger, "-At", "-c",
                                                       "SELECT state || '|' || line FROM dfukit_stations WHERE station = '\(station)'"])
        XCTAssertEqual(stations.trimmingCharacters(in: .whitespacesAndNewlines), "ended|\(station)")
        let live = try Subprocess.tool(Self.psql, [ledger, "-At", "-c",
                                                   "SELECT count(*) FROM dfukit_live WHERE package_sha256 = '\(sha)'"])
        XCTAssertEqual(live.trimmingCharacters(in: .whitespacesAndNewlines), "0")
        XCTAssertFalse(run.stderr.contains("warning"), run.stderr)
    }
}
