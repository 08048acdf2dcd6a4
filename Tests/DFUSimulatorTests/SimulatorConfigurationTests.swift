import DFUBytes
import DFUGATT
import DFUSimulator
import XCTest

/// `sim:NAME?key=value&...` as the CLI passes it (the part after `sim:`).
final class SimulatorConfigurationTests: XCTestCase {
    func testNameAloneKeepsTheDefaults() throws {
        let configuration = try SimulatorConfiguration(parsing: "vendor-ctrlpt")
        XCTAssertEqual(configuration.deviceName, "vendor-ctrlpt")
        XCTAssertEqual(configuration.link, LinkSettings())
        XCTAssertEqual(configuration.link.connectionInterval, .milliseconds(15))
        XCTAssertEqual(configuration.link.packetsPerEvent, 6)
        XCTAssertEqual(configuration.link.mtu, 247)
        XCTAssertEqual(configuration.link.transmitBuffers, 12)
        XCTAssertEqual(configuration.link.attTimeout, .seconds(30))
        XCTAssertEqual(configuration.flash, FlashTiming())
        XCTAssertTrue(configuration.faults.isEmpty)
        XCTAssertEqual(configuration.address.description, "C0:FF:EE:00:00:01")
        XCTAssertNil(configuration.advertisedName)
    }

    func testAirtimeKeys() throws {
        let configuration = try SimulatorConfiguration(parsing: "vendor-ctrlpt?phy=2M&data-length=27&event-ms=3.75&interval=15")
        XCTAssertEqual(configuration.link.phy, .le2M)
        XCTAssertEqual(configuration.link.dataLength, 27)
        XCTAssertEqual(configuration.link.eventLength, .microseconds(3750))
        XCTAssertEqual(configuration.link.airtime.eventLength, .microseconds(3750))
        let defaults = try SimulatorConfiguration(parsing: "vendor-ctrlpt")
        XCTAssertEqual(defaults.link.phy, .le1M)
        XCTAssertEqual(defaults.link.dataLength, 251)
        XCTAssertEqual(defaults.link.effectiveEventLength, .milliseconds(15))
        // An event length over the interval is the interval.
        let long = try SimulatorConfiguration(parsing: "vendor-ctrlpt?event-ms=100&interval=30")
        XCTAssertEqual(long.link.effectiveEventLength, .milliseconds(30))
    }

    func testEveryKey() throws {
        let configuration = try SimulatorConfiguration(parsing:
            "vendor-ctrlpt?mtu=100&interval=7.5&packets-per-event=4&buffers=3&address=AA:BB:CC:DD:EE:0F"
            + "&name=Bench&erase-ms=10&write-ns-per-byte=20"
            + "&fault=disconnect-after:100&fault=drop-notification:3&fault=corrupt-notification:4"
            + "&fault=busy:5&fault=unresponsive-after:600")
        XCTAssertEqual(configuration.deviceName, "vendor-ctrlpt")
        XCTAssertEqual(configuration.link.mtu, 100)
        XCTAssertEqual(configuration.link.connectionInterval, .microseconds(7_500))
        XCTAssertEqual(configuration.link.packetsPerEvent, 4)
        XCTAssertEqual(configuration.link.transmitBuffers, 3)
        XCTAssertEqual(configuration.address, DeviceAddress(bytes: [0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0x0F]))
        XCTAssertEqual(configuration.advertisedName, "Bench")
        XCTAssertEqual(configuration.flash.pageErase, .milliseconds(10))
        XCTAssertEqual(configuration.flash.writePerByte, .nanoseconds(20))
        XCTAssertEqual(configuration.faults.disconnectAfterBytes, [100])
        XCTAssertEqual(configuration.faults.dropNotifications, [3])
        XCTAssertEqual(configuration.faults.corruptNotifications, [4])
        XCTAssertEqual(configuration.faults.busyCommands, [5])
        XCTAssertEqual(configuration.faults.unresponsiveAfterBytes, 600)
    }

    func testTimingKeysAndNewFaults() throws {
        let configuration = try SimulatorConfiguration(parsing:
            "mcumgr-smp?reset-delay-ms=40&boot-ms=2500&swap-ms-per-kib=12&fault=duplicate-notification:3"
            + "&fault=reorder-notification:5&fault=reboot-after:7000&fault=reboot-after:90"
            + "&fault=disconnect-on:upload:4&fault=disconnect-after-command:reset")
        XCTAssertEqual(configuration.timing, DeviceTiming(resetDelay: .milliseconds(40), boot: .milliseconds(2_500),
                                                         swapPerKiB: .milliseconds(12)))
        XCTAssertEqual(configuration.faults.duplicateNotifications, [3])
        XCTAssertEqual(configuration.faults.reorderNotifications, [5])
        XCTAssertEqual(configuration.faults.rebootAfterBytes, [7_000, 90])
        XCTAssertEqual(configuration.faults.commandDisconnects, [
            CommandDisconnect(command: "upload", occurrence: 4, moment: .beforeProcessing),
            CommandDisconnect(command: "reset", occurrence: 1, moment: .afterProcessing),
        ])
        XCTAssertEqual(configuration.faults.commandDisconnects.map(\.description),
                       ["disconnect-on:upload:4", "disconnect-after-command:reset:1"])
        XCTAssertEqual(SimulatorConfiguration(deviceName: "mcumgr-smp").timing, DeviceTiming(), "nil: the device's own defaults")
    }

    func testCommandFaultsMustNameACommandOfTheDevice() throws {
        for (device, names) in SimulatedDeviceCatalog.commandNames {
            for name in names {
                XCTAssertNoThrow(try SimulatedDeviceCatalog.makeWorld(
                    SimulatorConfiguration(parsing: "\(device)?fault=disconnect-on:\(name)")), "\(device) \(name)")
            }
        }
        let configuration = try SimulatorConfiguration(parsing: "vendor-ctrlpt?fault=disconnect-after-command:upload")
        XCTAssertThrowsError(try SimulatedDeviceCatalog.makeWorld(configuration)) { error in
            XCTAssertEqual("\(error)", "sim: fault disconnect-after-command: sim:vendor-ctrlpt has no command 'upload' "
                               + "(known: status, start, data, verify, activate, info)")
        }
        XCTAssertEqual(SimulatedDeviceCatalog.commandNames["mcumgr-smp"],
                       ["echo", "reset", "params", "image_list", "image_test", "image_confirm", "upload", "image_erase"])
    }

    func testTIOADKeysBuildTheDeviceAndAreRefusedElsewhere() throws {
        let configuration = try SimulatorConfiguration(parsing: "ti-oad?image-id=ACME-01&sw-version=0042&inactivity-ms=5000&corrupt-block=3&reset-delay-ms=20")
        XCTAssertEqual(configuration.tiOAD.imageID, "ACME-01")
        XCTAssertEqual(configuration.tiOAD.softwareVersion, "0042")
        XCTAssertEqual(configuration.tiOAD.inactivity, .seconds(5))
        XCTAssertEqual(configuration.tiOAD.corruptBlock, 3)
        let device = try XCTUnwrap(SimulatedDeviceCatalog.makeWorld(configuration).peripherals.first as? TIOADDevice)
        XCTAssertEqual(device.timing, TIOADDevice.Timing(resetDelay: .milliseconds(20), boot: .seconds(1), inactivity: .seconds(5)))
        XCTAssertEqual(Array(device.running[0..<8]), Array("ACME-01 ".utf8))
        XCTAssertEqual(Array(device.running[32..<36]), Array("0042".utf8))
        XCTAssertThrowsError(try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(parsing: "vendor-ctrlpt?corrupt-block=1"))) { error in
            XCTAssertEqual("\(error)", "sim: corrupt-block applies to sim:ti-oad only, not sim:vendor-ctrlpt")
        }
        for (text, message) in [("ti-oad?inactivity-ms=4000", "inactivity-ms (OAD_open ignores 4000 or less) must be an integer in 4001...600000, not '4000'"),
                                ("ti-oad?sw-version=1", "sw-version must be 4 printable ASCII characters (0001), not '1'"),
                                ("ti-oad?image-id=TOO-LONG-ID", "image-id must be 1 to 8 printable ASCII characters (CC26x2R1), not 'TOO-LONG-ID'")] {
            XCTAssertThrowsError(try SimulatorConfiguration(parsing: text)) { error in
                XCTAssertEqual((error as? SimulatorConfigurationError)?.message, message)
            }
        }
        XCTAssertEqual(SimulatedDeviceCatalog.commandNames["ti-oad"]?.prefix(3), ["identify", "image_block", "get_block_size"])
    }

    func testTimingKeysAreRefusedForDevicesWithoutThem() throws {
        for (text, key, owners) in [("nordic-secure-dfu?reset-delay-ms=10", "reset-delay-ms", "sim:vendor-ctrlpt and sim:mcumgr-smp and sim:silabs-ota and sim:ti-oad"),
                                    ("vendor-ctrlpt?swap-ms-per-kib=10", "swap-ms-per-kib", "sim:mcumgr-smp")] {
            let configuration = try SimulatorConfiguration(parsing: text)
            XCTAssertThrowsError(try SimulatedDeviceCatalog.makeWorld(configuration)) { error in
                XCTAssertEqual("\(error)", "sim: \(key) applies to \(owners) only, not sim:\(configuration.deviceName)")
            }
        }
        XCTAssertNoThrow(try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(parsing: "nordic-legacy-dfu?boot-ms=10")),
                         "boot-ms applies to every device")
    }

    func testFractionalIntervalAndBounds() throws {
        XCTAssertEqual(try SimulatorConfiguration(parsing: "x?interval=11.25").link.connectionInterval, .microseconds(11_250))
        XCTAssertEqual(try SimulatorConfiguration(parsing: "x?interval=4000").link.connectionInterval, .seconds(4))
        XCTAssertEqual(try SimulatorConfiguration(parsing: "x?mtu=23").link.mtu, 23)
        XCTAssertEqual(try SimulatorConfiguration(parsing: "x?mtu=517").link.mtu, 517)
    }

    func testRepeatedFaultsAccumulate() throws {
        let configuration = try SimulatorConfiguration(parsing:
            "vendor-ctrlpt?fault=disconnect-after:40000&fault=disconnect-after:9000&fault=drop-notification:2&fault=drop-notification:7")
        XCTAssertEqual(configuration.faults.disconnectAfterBytes, [40_000, 9_000], "in the order written")
        XCTAssertEqual(configuration.faults.dropNotifications, [2, 7])
    }

    /// `faulty=2,4` picks exactly those fleet devices (numbered from 1) to fail their first attempt.
    func testFaultyNamesTheFleetDevicesThatFailTheirFirstAttempt() throws {
        let fleet = try SimulatedFleet(try SimulatorConfiguration(parsing: "vendor-ctrlpt?fleet=5&faulty=2,4,9"))
        let faulty = fleet.advertisements.map(\.address).filter { fleet.isFaulty($0) }.map(\.description)
        XCTAssertEqual(faulty, ["C0:FF:EE:00:00:02", "C0:FF:EE:00:00:04"], "9 is past the fleet's end")
    }

    func testLaterValueOfAKeyWins() throws {
        let configuration = try SimulatorConfiguration(parsing: "vendor-ctrlpt?mtu=50&mtu=60&fault=unresponsive-after:5&fault=unresponsive-after:9")
        XCTAssertEqual(configuration.link.mtu, 60)
        XCTAssertEqual(configuration.faults.unresponsiveAfterBytes, 9)
    }

    func testErrors() {
        let cases: [(text: String, message: String)] = [
            ("", "sim: needs a device name, e.g. sim:vendor-ctrlpt"),
            ("?mtu=30", "sim: needs a device name, e.g. sim:vendor-ctrlpt"),
            ("vendor-ctrlpt?colour=blue",
             "unknown key 'colour' (known: mtu, interval, packets-per-event, phy, data-length, event-ms, buffers, address, name, erase-ms, "
                + "write-ns-per-byte, reset-delay-ms, boot-ms, swap-ms-per-kib, fault, buttonless, key, resume, "
                + "buf-size, buf-count, erase, smp-version, image-id, sw-version, inactivity-ms, corrupt-block, "
                + "firmware-revision, firmware-check, min-size, ota-timeout-s, packet-timeout-s, result-feedback, "
                + "bim-crc, enable-answer, corrupt-stored, on-reboot, dis, app-version, end-answer, compression, "
                + "app-start, version-dependency, state, fleet, fault-rate, faulty, seed, adapter-packets, realtime, journal)"),
            ("vendor-ctrlpt?fleet=4&faulty=0", "faulty must list device numbers from 1 (the fleet's first device), e.g. faulty=2,3,5, not '0'"),
            ("vendor-ctrlpt?fleet=4&faulty=2,,3", "faulty must list device numbers from 1 (the fleet's first device), e.g. faulty=2,3,5, not '2,,3'"),
            ("nordic-secure-dfu?buttonless=yes", "buttonless must be 0, 1 (or unbonded) or bonded, not 'yes'"),
            ("nordic-secure-dfu?resume=flash", "resume must be ram, object or init, not 'flash'"),
            ("nordic-secure-dfu?key=/nonexistent/key.pem",
             "key: cannot read '/nonexistent/key.pem' (no such file); give the path of a PEM public key"),
            ("vendor-ctrlpt?mtu", "'mtu' is not key=value"),
            ("vendor-ctrlpt?mtu=22", "mtu must be an integer in 23...517, not '22'"),
            ("vendor-ctrlpt?mtu=518", "mtu must be an integer in 23...517, not '518'"),
            ("vendor-ctrlpt?mtu=big", "mtu must be an integer in 23...517, not 'big'"),
            ("vendor-ctrlpt?packets-per-event=0", "packets-per-event must be an integer in 1...32, not '0'"),
            ("vendor-ctrlpt?phy=3M", "phy must be one of 1M, 2M, coded-s2, coded-s8, not '3M'"),
            ("vendor-ctrlpt?data-length=26", "data-length must be an integer in 27...251, not '26'"),
            ("vendor-ctrlpt?event-ms=1", "event-ms must be milliseconds between 1.25 and 4000, not '1'"),
            ("vendor-ctrlpt?buffers=257", "buffers must be an integer in 1...256, not '257'"),
            ("vendor-ctrlpt?interval=7", "interval must be milliseconds between 7.5 and 4000, not '7'"),
            ("vendor-ctrlpt?interval=4000.5", "interval must be milliseconds between 7.5 and 4000, not '4000.5'"),
            ("vendor-ctrlpt?interval=fast", "interval must be milliseconds between 7.5 and 4000, not 'fast'"),
            ("vendor-ctrlpt?address=C0:FF:EE", "address must look like C0:FF:EE:00:00:01, not 'C0:FF:EE'"),
            ("vendor-ctrlpt?erase-ms=10001", "erase-ms must be an integer in 0...10000, not '10001'"),
            ("vendor-ctrlpt?write-ns-per-byte=-1", "write-ns-per-byte must be an integer in 0...1000000, not '-1'"),
            ("vendor-ctrlpt?fault=explode:1",
             "unknown fault 'explode' (known: disconnect-after, drop-notification, corrupt-notification, "
                + "duplicate-notification, reorder-notification, busy, unresponsive-after, reboot-after, "
                + "drop-write, corrupt-write, disconnect-on, disconnect-after-command)"),
            ("vendor-ctrlpt?fault=disconnect-on:", "fault disconnect-on is disconnect-on:COMMAND[:N], e.g. "
                + "disconnect-on:verify:2, not 'disconnect-on:'"),
            ("vendor-ctrlpt?fault=disconnect-on:verify:2:3", "fault disconnect-on is disconnect-on:COMMAND[:N], e.g. "
                + "disconnect-on:verify:2, not 'disconnect-on:verify:2:3'"),
            ("vendor-ctrlpt?fault=disconnect-after-command:verify:0",
             "fault disconnect-after-command verify must be an integer in 1...2147483647, not '0'"),
            ("vendor-ctrlpt?fault=reboot-after:x", "fault reboot-after must be an integer in 1...2147483647, not 'x'"),
            ("vendor-ctrlpt?reset-delay-ms=60001", "reset-delay-ms must be an integer in 0...60000, not '60001'"),
            ("vendor-ctrlpt?boot-ms=-5", "boot-ms must be an integer in 0...600000, not '-5'"),
            ("mcumgr-smp?swap-ms-per-kib=fast", "swap-ms-per-kib must be an integer in 0...10000, not 'fast'"),
            ("vendor-ctrlpt?fault=busy", "a fault is KIND:NUMBER, e.g. disconnect-after:40000, not 'busy'"),
            ("vendor-ctrlpt?fault=busy:0", "fault busy must be an integer in 1...2147483647, not '0'"),
            ("vendor-ctrlpt?fault=drop-notification:x", "fault drop-notification must be an integer in 1...2147483647, not 'x'"),
        ]
        for (text, message) in cases {
            do {
                let parsed = try SimulatorConfiguration(parsing: text)
                XCTFail("'\(text)' parsed as \(parsed.deviceName)")
            } catch {
                XCTAssertEqual(error.message, message, "'\(text)'")
                XCTAssertEqual(error.description, "sim: " + message, "'\(text)'")
            }
        }
    }

    func testCatalogBuildsTheVendorDeviceWithTheConfiguration() throws {
        let configuration = try SimulatorConfiguration(parsing: "vendor-ctrlpt?name=DFU-X&address=C0:00:00:00:00:09&mtu=64&fault=busy:2")
        let world = try SimulatedDeviceCatalog.makeWorld(configuration)
        XCTAssertEqual(world.name, "sim:vendor-ctrlpt")
        XCTAssertEqual(world.settings.mtu, 64)
        XCTAssertEqual(world.faults.busyCommands, [2])
        XCTAssertEqual(world.peripherals.count, 1)
        let device = try XCTUnwrap(world.peripherals.first as? VendorControlPointDevice)
        XCTAssertEqual(device.advertisement.name, "DFU-X")
        XCTAssertEqual(device.advertisement.address.description, "C0:00:00:00:00:09")
        XCTAssertEqual(device.advertisement.serviceUUIDs, [VendorControlPointDevice.serviceUUID])
    }

    func testCatalogDefaultsTheAdvertisedName() throws {
        let world = try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(deviceName: "vendor-ctrlpt"))
        XCTAssertEqual(world.peripherals.first?.advertisement.name, "DFU-SIM")
    }

    func testCatalogRefusesAnUnknownDevice() throws {
        let configuration = try SimulatorConfiguration(parsing: "nordic-secure?mtu=100")
        XCTAssertEqual(configuration.deviceName, "nordic-secure", "the parser accepts any name; the catalog decides")
        do {
            _ = try SimulatedDeviceCatalog.makeWorld(configuration)
            XCTFail("there is no simulated nordic-secure device")
        } catch {
            XCTAssertEqual(error.description,
                           "sim: no simulated device 'nordic-secure' (known: vendor-ctrlpt, nordic-secure-dfu, nordic-legacy-dfu, mcumgr-smp, dialog-suota, silabs-ota, ti-oad, telink-ota)")
        }
        XCTAssertEqual(SimulatedDeviceCatalog.names, ["vendor-ctrlpt", "nordic-secure-dfu", "nordic-legacy-dfu", "mcumgr-smp", "dialog-suota", "silabs-ota", "ti-oad", "telink-ota"])
    }

    // MARK: - Nordic devices

    func testNordicKeys() throws {
        let plain = try SimulatorConfiguration(parsing: "nordic-secure-dfu")
        XCTAssertNil(plain.buttonless)
        XCTAssertNil(plain.publicKey)
        XCTAssertEqual(plain.resumePolicy, .ram)
        for (value, mode) in [("1", ButtonlessMode.unbonded), ("unbonded", .unbonded), ("bonded", .bonded)] {
            XCTAssertEqual(try SimulatorConfiguration(parsing: "nordic-secure-dfu?buttonless=\(value)").buttonless, mode)
        }
        XCTAssertNil(try SimulatorConfiguration(parsing: "nordic-secure-dfu?buttonless=1&buttonless=0").buttonless)
        XCTAssertEqual(try SimulatorConfiguration(parsing: "nordic-secure-dfu?resume=object").resumePolicy, .object)
        XCTAssertEqual(try SimulatorConfiguration(parsing: "nordic-secure-dfu?resume=init").resumePolicy, .initPacket)
        let keyed = try SimulatorConfiguration(parsing: "nordic-secure-dfu?key=\(NordicSamples.publicKeyPath)")
        XCTAssertEqual(keyed.publicKey?.path, NordicSamples.publicKeyPath)
        XCTAssertEqual(keyed.publicKey?.der.count, 91, "a P-256 SubjectPublicKeyInfo")
    }

    func testKeyMustBeAnECDSAPublicKey() {
        let privateKey = NordicSamples.directory + "test-signing-key-THROWAWAY.pem"
        let notPEM = NordicSamples.directory + "app-signed.zip"
        let cases: [(String, String)] = [
            (privateKey, "key: '\(privateKey)' is a PEM \"EC PRIVATE KEY\", not a \"PUBLIC KEY\" "
                + "(nrfutil keys display --key pk --format pem prints the public key)"),
            (notPEM, "key: '\(notPEM)' is not a PEM file: no \"-----BEGIN ...-----\" line: not PEM text"),
        ]
        for (path, message) in cases {
            XCTAssertThrowsError(try SimulatorConfiguration(parsing: "nordic-secure-dfu?key=\(path)")) { error in
                XCTAssertEqual((error as? SimulatorConfigurationError)?.message, message)
            }
        }
    }

    func testCatalogBuildsTheNordicDevices() throws {
        let secure = try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(
            parsing: "nordic-secure-dfu?buttonless=1&address=C0:00:00:00:00:09&fault=busy:3"))
        let device = try XCTUnwrap(secure.peripherals.first as? NordicSecureDFUDevice)
        XCTAssertEqual(device.mode, .application)
        XCTAssertEqual(device.advertisement.name, "Nordic_Buttonless")
        XCTAssertEqual(device.bootloaderAddress.description, "C0:00:00:00:00:0A")
        let bootloader = try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(parsing: "nordic-secure-dfu"))
        XCTAssertEqual(bootloader.peripherals.first?.advertisement.name, "DfuTarg")
        XCTAssertEqual(bootloader.peripherals.first?.advertisement.serviceUUIDs, [BluetoothUUID(uuid16: 0xFE59)])
        let legacy = try SimulatedDeviceCatalog.makeWorld(SimulatorConfiguration(parsing: "nordic-legacy-dfu?name=Old"))
        XCTAssertTrue(legacy.peripherals.first is NordicLegacyDFUDevice)
        XCTAssertEqual(legacy.peripherals.first?.advertisement.name, "Old")
        XCTAssertEqual(legacy.name, "sim:nordic-legacy-dfu")
    }

    func testNordicKeysAreRefusedForOtherDevices() throws {
        for text in ["vendor-ctrlpt?buttonless=1", "nordic-legacy-dfu?resume=init"] {
            let configuration = try SimulatorConfiguration(parsing: text)
            XCTAssertThrowsError(try SimulatedDeviceCatalog.makeWorld(configuration)) { error in
                let name = configuration.deviceName
                let key = text.contains("buttonless") ? "buttonless" : "resume"
                XCTAssertEqual("\(error)", "sim: \(key) applies to sim:nordic-secure-dfu only, not sim:\(name)")
            }
        }
    }
}
