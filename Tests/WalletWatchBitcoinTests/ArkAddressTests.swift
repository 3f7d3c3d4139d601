import Testing
import WalletWatchBitcoin

/// Arkade addresses against the vectors quoted in the project's shared facts
/// (shared/specs/arkade-facts.md, "Arkade address": arkd v0.9.15 pkg/ark-lib/encoding_test.go,
/// the same as ts-sdk test/fixtures/encoding.json). The facts give the keys by their first and
/// last bytes; the script is the taproot key behind `5120`.
@Suite struct ArkAddressTests {
    static let valid =
        "tark1qqellv77udfmr20tun8dvju5vgudpf9vxe8jwhthrkn26fz96pawqfdy8nk05rsmrf8h94j26905e7n6sng8y059z8ykn2j5xcuw4xt846qj6x"

    @Test func theValidVectorDecodesToItsKeysAndScript() throws {
        let address = try ArkAddress(Self.valid)
        #expect(address.hrp == "tark")
        #expect(address.version == 0)
        let signer = Hex.encode(address.signerKey), vtxo = Hex.encode(address.vtxoTaprootKey)
        #expect(signer.hasPrefix("33ffb3de") && signer.hasSuffix("d07ae0"), "\(signer)")
        #expect(vtxo.hasPrefix("25a43cec") && vtxo.hasSuffix("ea9967"), "\(vtxo)")
        #expect(address.vtxoScriptHex == "5120" + vtxo)
        #expect(address.vtxoScriptHex.hasPrefix("512025a43cec"))
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
