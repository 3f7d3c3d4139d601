import Foundation
import Testing
import WalletWatchBitcoin

/// Arkade addresses against arkd's own vectors: arkade-os/arkd, tag v0.9.15 (commit
/// f444de6c336c024f5b03e646feb781eec9a24c00), pkg/ark-lib/encoding_test.go, `TestAddressEncoding`
/// (quoted in shared/specs/arkade-facts.md, "Arkade address"; the full keys below are transcribed
/// by hand from that file, where they are compressed keys `02...`). `ArkAddressPyPITests` checks
/// the same vector and many more with embit, an independent implementation from PyPI. The script
/// is the taproot key behind `5120`.
@Suite struct ArkAddressTests {
    static let valid =
        "tark1qqellv77udfmr20tun8dvju5vgudpf9vxe8jwhthrkn26fz96pawqfdy8nk05rsmrf8h94j26905e7n6sng8y059z8ykn2j5xcuw4xt846qj6x"

    @Test func theValidVectorDecodesToItsKeysAndScript() throws {
        let address = try ArkAddress(Self.valid)
        #expect(address.hrp == "tark")
        #expect(address.version == 0)
        let signer = Hex.encode(address.signerKey), vtxo = Hex.encode(address.vtxoTaprootKey)
        // expectedSignerKey and expectedUserKey, without their 02 (x-only keys).
        #expect(signer == "33ffb3dee353b1a9ebe4ced64b946238d0a4ac364f275d771da6ad2445d07ae0")
        #expect(vtxo == "25a43cecfa0e1b1a4f72d64ad15f4cfa7a84d0723e8511c969aa543638ea9967")
        #expect(address.vtxoScriptHex == "512025a43cecfa0e1b1a4f72d64ad15f4cfa7a84d0723e8511c969aa543638ea9967")
        // Longer than BIP173 allows: the limit does not apply to Ark addresses.
        #expect(Self.valid.count > Bech32.maximumLength)
        #expect(throws: Bech32Error.self) { try Bech32.decode(Self.valid) }
    }

    @Test func itBelongsToTheTestNetworksOnly() throws {
        let address = try ArkAddress(Self.valid)
        #expect(address.belongs(to: .testnet) && address.belongs(to: .signet) && address.belongs(to: .regtest))
        #expect(!address.belongs(to: .bitcoin))
    }

    @Test func encodingTheDecodedKeysGivesTheVectorBack() throws {
        let address = try ArkAddress(Self.valid)
        #expect(ArkAddress.encode(network: .testnet, signerKey: address.signerKey, vtxoTaprootKey: address.vtxoTaprootKey) == Self.valid)
        let mainnet = ArkAddress.encode(network: .bitcoin, signerKey: address.signerKey, vtxoTaprootKey: address.vtxoTaprootKey)
        #expect(mainnet.hasPrefix("ark1"))
        #expect(try ArkAddress(mainnet).vtxoScript == address.vtxoScript)
    }

    @Test func anUnknownPrefixIsRefused() {
        #expect(throws: ArkAddressError(.unknownPrefix("wrongprefix"))) {
            try ArkAddress("wrongprefix1qt9tfh7c09hlsstzq5y9tzuwyaesrwr8gpy8cn29cxv0flp64958s0n0yd0")
        }
    }

    @Test func aPayloadOf64BytesIsRefused() {
        #expect(throws: ArkAddressError(.length(64))) {
            try ArkAddress("tark1x0lm8hhr2wc6n6lyemtyh9rz8rg2ftpkfun46aca56kjg3ws0tsztfpuanaquxc6faedvjk3tax0575y6perapg3e95654pk8r4fjecs5fyd2")
        }
    }

    @Test func aBrokenChecksumIsRefused() throws {
        var characters = Array(Self.valid)
        characters[20] = characters[20] == "q" ? "p" : "q"
        let error = try #require(throws: ArkAddressError.self) { try ArkAddress(String(characters)) }
        #expect(error.description.contains("checksum"))
    }

    @Test func aVersionOtherThanZeroIsRefused() throws {
        let address = try ArkAddress(Self.valid)
        // The same payload with version 1: encoded here, since no vector has one.
        guard case .success(let data) = Bech32Bits.regroup([1] + address.signerKey + address.vtxoTaprootKey) else {
            Issue.record("regrouping failed")
            return
        }
        let text = Bech32.encode(hrp: "tark", data: data, encoding: .bech32m)
        #expect(throws: ArkAddressError(.version(1))) { try ArkAddress(text) }
    }

    @Test func aKeyOffTheCurveIsRefused() throws {
        let address = try ArkAddress(Self.valid)
        // x = 5 has no point on secp256k1 (5^3 + 7 = 132 is not a square modulo p).
        let offCurve = [UInt8](repeating: 0, count: 31) + [5]
        let text = ArkAddress.encode(network: .testnet, signerKey: address.signerKey, vtxoTaprootKey: offCurve)
        #expect(throws: ArkAddressError(.invalidKey("VTXO taproot"))) { try ArkAddress(text) }
    }
}

/// BIP173's 8-to-5 regrouping, written out for the test: the library's own is internal.
enum Bech32Bits {
    static func regroup(_ bytes: [UInt8]) -> Result<[UInt8], Never> {
        var accumulator = 0, bits = 0
        var output: [UInt8] = []
        for byte in bytes {
            accumulator = (accumulator << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                output.append(UInt8((accumulator >> bits) & 31))
            }
            accumulator &= (1 << bits) - 1
        }
        if bits > 0 { output.append(UInt8((accumulator << (5 - bits)) & 31)) }
        return .success(output)
    }
}

/// Ark addresses made and read by embit (PyPI; Fixtures/ark_address_vectors.py), which shares no
/// code with walletwatch's bech32m and secp256k1: arkd's vector decodes to the same keys there
/// and here, every address it encodes from real keys decodes to those keys and script here (and
/// ours encodes the same string), and every one arkd refuses is refused here.
@Suite struct ArkAddressPyPITests {
    struct Vectors: Decodable {
        struct Upstream: Decodable { let address, hrp, checksum, signer, vtxo: String; let length, version: Int }
        struct Valid: Decodable { let address, hrp, checksum, signer, vtxo, script: String }
        struct Invalid: Decodable { let address, reason: String }
        let upstream: Upstream
        let valid: [Valid]
        let invalid: [Invalid]
    }

    static func vectors() throws -> Vectors {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let python = tests.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/python-tools/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "no \(python.path): run scripts/setup (it installs embit into .build/python-tools)"])
        }
        let process = Process()
        process.executableURL = python
        process.arguments = [tests.appendingPathComponent("Fixtures/ark_address_vectors.py").path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "ark_address_vectors.py failed"]) }
        return try JSONDecoder().decode(Vectors.self, from: data)
    }

    @Test func embitAndWalletwatchReadAndWriteTheSameAddresses() throws {
        let vectors = try Self.vectors()
        let upstream = try ArkAddress(vectors.upstream.address)
        #expect(vectors.upstream.checksum == "bech32m" && vectors.upstream.length == 65 && vectors.upstream.version == 0)
        #expect(upstream.hrp == vectors.upstream.hrp)
        #expect(Hex.encode(upstream.signerKey) == vectors.upstream.signer && Hex.encode(upstream.vtxoTaprootKey) == vectors.upstream.vtxo)

        #expect(vectors.valid.count == 9)
        for vector in vectors.valid {
            let address = try ArkAddress(vector.address)
            #expect(address.hrp == vector.hrp, "\(vector.address)")
            #expect(Hex.encode(address.signerKey) == vector.signer && Hex.encode(address.vtxoTaprootKey) == vector.vtxo, "\(vector.address)")
            #expect(address.vtxoScriptHex == vector.script, "\(vector.address)")
            #expect(address.belongs(to: .bitcoin) == (vector.hrp == "ark"))
            if vector.checksum == "bech32m" {
                let network: Network = vector.hrp == "ark" ? .bitcoin : .regtest
                #expect(ArkAddress.encode(network: network, signerKey: address.signerKey, vtxoTaprootKey: address.vtxoTaprootKey) == vector.address)
            }
        }
    }

    @Test func whatArkdRefusesIsRefused() throws {
        let vectors = try Self.vectors()
        let expected: [String: ArkAddressError.Reason] = [
            "version 1": .version(1), "64 bytes": .length(64), "66 bytes": .length(66), "prefix bark": .unknownPrefix("bark"),
            "signer key off the curve": .invalidKey("signer"), "VTXO key off the curve": .invalidKey("VTXO taproot"),
        ]
        #expect(vectors.invalid.count == 7)
        for vector in vectors.invalid {
            let error = try #require(throws: ArkAddressError.self, "\(vector.reason)") { try ArkAddress(vector.address) }
            if let reason = expected[vector.reason] {
                #expect(error.reason == reason, "\(vector.reason): \(error)")
            } else {
                #expect(vector.reason == "checksum" && error.description.contains("checksum"), "\(vector.reason): \(error)")
            }
        }
    }
}
