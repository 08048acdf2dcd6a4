import DFUBytes
import DFUEngine
import DFUGATT
import DFUProfile
import XCTest

/// Which advertiser a flash takes without an address: the strongest that meets the profile's
/// rules and the filters, with the reason; never one for a profile without match rules.
final class DeviceSelectionTests: XCTestCase {
    private static let service = BluetoothUUID(uuid16: 0xFEED)

    private func profile(match: String) throws -> Profile {
        try ProfileLoader.load(text: """
            profile: picky
            \(match)
            characteristics:
              control: { service: FEED, uuid: F001, properties: [write] }
            commands:
              end: { characteristic: control, request: [{ type: u8, value: 0x03 }] }
            procedure:
              - send: end
            """, path: "picky.yaml")
    }

    private func heard(_ last: UInt8, _ name: String?, rssi: Int, services: [BluetoothUUID] = [service],
                       manufacturer: [ManufacturerData] = []) -> Advertisement {
        Advertisement(address: DeviceAddress(string: String(format: "C0:FF:EE:00:00:%02X", last))!, name: name,
                      serviceUUIDs: services, rssi: rssi, manufacturerData: manufacturer)
    }

    private func pick(_ seen: [Advertisement], profile: Profile) -> Result<DevicePick, DeviceSelectionFailure> {
        DeviceSelection().pick(from: seen, profile: profile)
    }

    private func pick(_ selection: DeviceSelection, _ seen: [Advertisement],
                      profile: Profile) -> Result<DevicePick, DeviceSelectionFailure> {
        selection.pick(from: seen, profile: profile)
    }

    func testTheStrongestMatchingDeviceWinsAndTheReasonSaysSo() throws {
        let profile = try profile(match: "match: { services: [FEED] }")
        let seen = [heard(1, "Foo", rssi: -70), heard(2, "Foo", rssi: -48), heard(3, "Other", rssi: -30, services: []),
                    heard(4, "Foo", rssi: -60)]
        let chosen = try pick(seen, profile: profile).get()
        XCTAssertEqual(chosen.advertisement.address.description, "C0:FF:EE:00:00:02")
        XCTAssertEqual(chosen.reason, "C0:FF:EE:00:00:02 'Foo' at -48 dBm, the strongest of 3 matching devices")
        XCTAssertEqual(chosen.candidates, 3)
    }

    func testATieGoesToTheFirstHeard() throws {
        let profile = try profile(match: "match: { services: [FEED] }")
        let chosen = try pick([heard(1, "A", rssi: -60), heard(2, "B", rssi: -50), heard(3, "C", rssi: -50)],
                              profile: profile).get()
        XCTAssertEqual(chosen.advertisement.address.description, "C0:FF:EE:00:00:02")
    }

    func testFiltersLeaveDevicesOutAndSayHowMany() throws {
        let profile = try profile(match: "match: { services: [FEED] }")
        let seen = [heard(1, "DFU-1", rssi: -75), heard(2, "DFU-2", rssi: -50), heard(3, "XYZ", rssi: -40),
                    heard(4, "DFU-4", rssi: -80)]
        let chosen = try pick(DeviceSelection(namePattern: "DFU-*", minimumRSSI: -70), seen, profile: profile).get()
        XCTAssertEqual(chosen.advertisement.address.description, "C0:FF:EE:00:00:02",
                       "the strongest device does not fit the name; the others are too weak")
        XCTAssertEqual(chosen.reason, "C0:FF:EE:00:00:02 'DFU-2' at -50 dBm, the only matching device; "
                       + "1 more not named 'DFU-*'; 2 more below -70 dBm")
    }

    func testNothingLeftSaysWhatWasHeard() throws {
        let profile = try profile(match: "match: { services: [FEED] }")
        let failure = try XCTUnwrap(pick(DeviceSelection(minimumRSSI: -40), [heard(1, "A", rssi: -60)], profile: profile)
            .failureValue)
        XCTAssertEqual(failure.reason, .noneAdmitted)
        XCTAssertEqual(failure.message, "no advertising device matches profile 'picky' and the filters "
                       + "(1 more below -40 dBm) (seen: C0:FF:EE:00:00:01 'A' at -60 dBm)")
        let none = try XCTUnwrap(pick([heard(1, nil, rssi: -60, services: [])], profile: profile).failureValue)
        XCTAssertEqual(none.reason, .noneMatch)
        XCTAssertTrue(none.message.contains("(seen: C0:FF:EE:00:00:01 (no name) at -60 dBm)"), none.message)
    }

    func testAProfileWithoutMatchRulesNeverPicks() throws {
        let profile = try profile(match: "")
        XCTAssertTrue(profile.match.isEmpty)
        let failure = try XCTUnwrap(pick([heard(1, "A", rssi: -30)], profile: profile).failureValue)
        XCTAssertEqual(failure.reason, .profileCannotMatch)
        XCTAssertEqual(failure.message, DeviceSelection.refusal(profile: profile, address: nil))
        XCTAssertTrue(failure.message.contains("profile 'picky' has no match rule"), failure.message)
        XCTAssertTrue(failure.message.hasSuffix("name the device's address"), failure.message)
        XCTAssertFalse(failure.message.contains("--"), "the engine names no command-line flags")
        XCTAssertNil(DeviceSelection.refusal(profile: profile, address: DeviceAddress(string: "C0:FF:EE:00:00:01")))
        XCTAssertFalse(ProfileMatcher.matches(heard(1, "A", rssi: -30), profile.match))
        XCTAssertNil(DeviceSelection.refusal(profile: try self.profile(match: "match: { name: 'A*' }"), address: nil))
    }

    func testManufacturerDataMatchesByCompanyAndPrefix() throws {
        let profile = try profile(match: "match: { manufacturer: 0x02FF, manufacturer-data: '01 a2' }")
        XCTAssertEqual(profile.match.manufacturer, ManufacturerMatch(companyID: 0x02FF, dataPrefix: [0x01, 0xA2]))
        let fits = heard(1, nil, rssi: -50, services: [], manufacturer: [ManufacturerData(companyID: 0x02FF, data: [0x01, 0xA2, 0x07])])
        let otherData = heard(2, nil, rssi: -40, services: [], manufacturer: [ManufacturerData(companyID: 0x02FF, data: [0x01])])
        let otherCompany = heard(3, nil, rssi: -30, services: [], manufacturer: [ManufacturerData(companyID: 0x0059, data: [0x01, 0xA2])])
        XCTAssertTrue(ProfileMatcher.matches(fits, profile.match))
        XCTAssertFalse(ProfileMatcher.matches(otherData, profile.match))
        XCTAssertFalse(ProfileMatcher.matches(otherCompany, profile.match))
        XCTAssertEqual(try pick([otherCompany, otherData, fits], profile: profile).get().advertisement, fits)
    }
}

private extension Result {
    var failureValue: Failure? {
        if case let .failure(failure) = self { return failure }
        return nil
    }
}
