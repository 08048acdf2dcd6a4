@testable import DFUProfile
import XCTest

/// `ProfileLanguage` reads the language off the loader: every mapping it describes is one the
/// loader reads, and what it found matches what the loader does with a real profile.
final class ProfileLanguageTests: XCTestCase {
    private let language = ProfileLanguage.current

    func testEveryMappingIsReachedByItsProbe() {
        for context in language.contexts {
            XCTAssertTrue(context.confirmedByLoader,
                          "the probe for '\(context.id)' did not reach a mapping the loader reads: update its path in LanguageShapes")
            XCTAssertFalse(context.keys.isEmpty, context.id)
        }
    }

    func testEveryStepKindOfTheLoaderIsDescribed() {
        XCTAssertEqual(language.stepKinds, ProfileDecoder.stepKinds.map(\.key))
        for (kind, extra) in ProfileDecoder.stepKinds {
            XCTAssertEqual(language.context("step:\(kind)")?.keys.map(\.name), [kind] + extra, kind)
        }
    }

    func testKeysRequiredKeysAndChoicesComeFromTheLoader() throws {
        let framing = try XCTUnwrap(language.context("framing"))
        XCTAssertEqual(framing.keys.filter(\.required).map(\.name), ["header-size", "length-width"])
        XCTAssertEqual(framing.keys.first { $0.name == "header-size" }?.range, 1...64)
        XCTAssertEqual(framing.keys.first { $0.name == "endian" }?.choices, ["little", "big"])
        let phase = try XCTUnwrap(language.context("step:phase"))
        XCTAssertEqual(phase.keys.first { $0.name == "achieves" }?.choices, FirmwareStage.allCases.map(\.rawValue))
        XCTAssertEqual(language.context("top")?.keys.first { $0.name == "security" }?.choices,
                       ["low", "medium", "high", "fips"])
        XCTAssertEqual(language.context("characteristic")?.keys.first { $0.name == "properties" }?.choices,
                       CharacteristicSpec.Property.allCases.map(\.rawValue))
        XCTAssertTrue(language.context("field")?.keys.first { $0.name == "type" }?.choices.contains("u16be") ?? false)
    }

    func testEveryKeyHasAShape() {
        for context in language.contexts {
            for key in context.keys {
                XCTAssertNotEqual(key.shape, .any, "'\(key.name)' of '\(context.id)': add its shape to LanguageShapes")
            }
        }
    }

    func testProbingLeavesTheLoaderAsItWas() throws {
        let path = ProfileLibrary.sourceTreeProfilesDirectory + "/vendor-ctrlpt.yaml"
        XCTAssertNoThrow(try ProfileLoader.load(path: path))
    }
}
