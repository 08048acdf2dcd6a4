import Foundation
import XCTest
import DFUBytes

/// Ed25519 signing through Crypto++: RFC 8032's test vectors, PEM keys, and cross-checks with the
/// openssl command line (a signature openssl makes verifies with ours, and ours with openssl).
final class Ed25519SigningTests: XCTestCase {
    /// RFC 8032 section 7.1, TEST 1, 2 and 3: secret key (seed), public key, message, signature.
    private let vectors: [(seed: String, publicKey: String, message: String, signature: String)] = [
        ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
         "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
         "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
        ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
         "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
         "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
        ("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
         "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
         "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
    ]

    private func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    func testRFC8032Vectors() throws {
        for (index, vector) in vectors.enumerated() {
            let key = try Ed25519PrivateKey(seed: bytes(vector.seed))
            XCTAssertEqual(key.publicKey.rawBytes.hexString, vector.publicKey, "TEST \(index + 1)")
            let signature = key.signature(of: bytes(vector.message))
            XCTAssertEqual(signature.hexString, vector.signature, "TEST \(index + 1)")
            XCTAssertTrue(key.publicKey.isValidSignature(signature, of: bytes(vector.message)), "TEST \(index + 1)")
        }
    }

    func testAnyChangedByteOrOtherKeyFails() throws {
        let key = try Ed25519PrivateKey.generate()
        let message = Array("{\"format\":\"dfukit-audit\"}".utf8)
        let signature = key.signature(of: message)
        XCTAssertTrue(key.publicKey.isValidSignature(signature, of: message))
        for index in message.indices {
            var changed = message
            changed[index] ^= 0x01
            XCTAssertFalse(key.publicKey.isValidSignature(signature, of: changed), "byte \(index)")
        }
        var flipped = signature
        flipped[10] ^= 0x80
        XCTAssertFalse(key.publicKey.isValidSignature(flipped, of: message))
        XCTAssertFalse(key.publicKey.isValidSignature(Array(signature.dropLast()), of: message))
        XCTAssertFalse(try Ed25519PrivateKey.generate().publicKey.isValidSignature(signature, of: message))
    }

    func testPEMRoundTripAndKeyID() throws {
        let key = try Ed25519PrivateKey(seed: bytes(vectors[0].seed))
        XCTAssertTrue(key.pem.hasPrefix("-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n"))
        let read = try Ed25519PrivateKey(pem: key.pem)
        XCTAssertEqual(read.publicKey, key.publicKey)
        let publicKey = try Ed25519PublicKey(pem: key.publicKey.pem)
        XCTAssertEqual(publicKey.rawBytes.hexString, vectors[0].publicKey)
        XCTAssertEqual(publicKey.keyID, SHA256.digest(bytes(vectors[0].publicKey)).hexString)
        // The public key where the private one belongs, and the other way round, say so.
        XCTAssertThrowsError(try Ed25519PrivateKey(pem: key.publicKey.pem)) {
            XCTAssertTrue("\($0)".contains("that is the public key"), "\($0)")
        }
        XCTAssertThrowsError(try Ed25519PublicKey(pem: key.pem)) { XCTAssertTrue("\($0)".contains("PRIVATE KEY"), "\($0)") }
        XCTAssertThrowsError(try Ed25519PrivateKey(pem: "not a key"))
        XCTAssertThrowsError(try Ed25519PublicKey(pem: try fixtureText("ecdsa-p256-public.pem"))) {
            XCTAssertTrue("\($0)".contains("not an Ed25519 key"), "\($0)")
        }
    }

    // MARK: openssl

    /// Runs openssl with `arguments` in `directory`; its standard output.
    @discardableResult
    private func openssl(_ arguments: [String], in directory: URL) throws -> Data {
        guard let path = ["/usr/bin/openssl", "/bin/openssl"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("openssl is not installed (scripts/install-deps.sh installs it)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "openssl \(arguments.joined(separator: " ")): \(errorText)")
        return data
    }

    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ed25519-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    func testOpenSSLSignatureVerifiesWithOurs() throws {
        let directory = try temporaryDirectory()
        try openssl(["genpkey", "-algorithm", "ed25519", "-out", "openssl.key"], in: directory)
        try openssl(["pkey", "-in", "openssl.key", "-pubout", "-out", "openssl.pub"], in: directory)
        let message = Array("{\"address\":\"C0:FF:EE:00:00:01\",\"format\":\"dfukit-audit\",\"version\":1}".utf8)
        try Data(message).write(to: directory.appendingPathComponent("message.json"))
        let signature = try openssl(["pkeyutl", "-sign", "-rawin", "-inkey", "openssl.key", "-in", "message.json"],
                                    in: directory)
        let publicKey = try Ed25519PublicKey(pem: String(contentsOf: directory.appendingPathComponent("openssl.pub"),
                                                         encoding: .utf8))
        XCTAssertTrue(publicKey.isValidSignature(Array(signature), of: message))
        // openssl's private key file reads as ours and signs the same (Ed25519 is deterministic).
        let privateKey = try Ed25519PrivateKey(pem: String(contentsOf: directory.appendingPathComponent("openssl.key"),
                                                           encoding: .utf8))
        XCTAssertEqual(privateKey.publicKey, publicKey)
        XCTAssertEqual(privateKey.signature(of: message), Array(signature))
    }

    func testOurSignatureVerifiesWithOpenSSL() throws {
        let directory = try temporaryDirectory()
        let key = try Ed25519PrivateKey.generate()
        try key.pem.write(to: directory.appendingPathComponent("ours.key"), atomically: true, encoding: .utf8)
        try key.publicKey.pem.write(to: directory.appendingPathComponent("ours.pub"), atomically: true, encoding: .utf8)
        let message = Array("{\"format\":\"dfukit-audit\",\"station\":\"line-1\",\"version\":1}".utf8)
        try Data(message).write(to: directory.appendingPathComponent("message.json"))
        try Data(key.signature(of: message)).write(to: directory.appendingPathComponent("message.sig"))
        let verified = try openssl(["pkeyutl", "-verify", "-rawin", "-pubin", "-inkey", "ours.pub", "-in", "message.json",
                                    "-sigfile", "message.sig"], in: directory)
        XCTAssertEqual(String(decoding: verified, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
                       "Signature Verified Successfully")
        // openssl reads our private key as an Ed25519 key with our public key.
        let derived = try openssl(["pkey", "-in", "ours.key", "-pubout"], in: directory)
        XCTAssertEqual(String(decoding: derived, as: UTF8.self), key.publicKey.pem)
    }
}
