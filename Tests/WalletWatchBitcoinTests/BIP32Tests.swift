import Testing
import WalletWatchBitcoin

/// BIP32 "Test Vectors" (Fixtures/bip-0032.mediawiki): every xpub of vectors 1-4 parses and
/// serializes back, every non-hardened chain derives from its parent's xpub by CKDpub, and every
/// invalid key of vector 5 is refused for its reason.
@Suite struct BIP32Tests {
    struct Chain {
        var vector: Int
        /// The path as written, `m/0H/1`; each step with its hardened flag.
        var name: String
        var steps: [(index: UInt32, hardened: Bool)]
        var xpub: String
    }

    static let text = try! Fixture.text("bip-0032.mediawiki")

    /// Reads "* Chain m/0<sub>H</sub>/1" and the "** ext pub: ..." line after it, per vector.
    static let chains: [Chain] = {
        var chains = [Chain]()
        var vector = 0
        var name: String?
        for line in section(of: text, from: "==Test Vectors==", to: "===Test vector 5===").split(separator: "\n") {
            if line.hasPrefix("===Test vector ") {
                vector = Int(line.dropFirst("===Test vector ".count).prefix { $0.isNumber })!
            } else if line.hasPrefix("* Chain ") {
                name = line.dropFirst("* Chain ".count).replacingOccurrences(of: "<sub>H</sub>", with: "H")
            } else if line.hasPrefix("** ext pub: "), let path = name {
                let steps = path.split(separator: "/").dropFirst().map { step in
                    (index: UInt32(step.filter(\.isNumber))!, hardened: step.hasSuffix("H"))
                }
                chains.append(Chain(vector: vector, name: path, steps: steps, xpub: String(line.dropFirst("** ext pub: ".count))))
            }
        }
        return chains
    }()

    @Test func vectorsAreRead() {
        // Vector 1 has 6 chains, vector 2 has 6, vectors 3 and 4 have 2 and 3.
        #expect(Self.chains.count == 17)
        #expect(Self.chains.filter { $0.vector == 1 }.count == 6)
        #expect(Self.chains.filter { $0.vector == 4 }.count == 3)
    }

    @Test func everyXpubParsesAndSerializesBack() throws {
        for chain in Self.chains {
            let key = try ExtendedPublicKey(chain.xpub)
            #expect(key.description == chain.xpub, "\(chain.vector) \(chain.name)")
            #expect(key.version == .xpub)
            #expect(Int(key.depth) == chain.steps.count)
            if let last = chain.steps.last {
                #expect(key.childNumber == last.index | (last.hardened ? ExtendedPublicKey.hardenedOffset : 0))
            } else {
                #expect(key.childNumber == 0 && key.parentFingerprint == 0)
            }
        }
    }

    @Test func everyNonHardenedChildDerivesFromItsParentXpub() throws {
        var derived = 0
        for (parent, child) in zip(Self.chains, Self.chains.dropFirst()) where parent.vector == child.vector {
            let parentKey = try ExtendedPublicKey(parent.xpub)
            let step = try #require(child.steps.last)
            if step.hardened {
                #expect(throws: DerivationError.hardenedStep(step.index | ExtendedPublicKey.hardenedOffset)) {
                    try parentKey.child(step.index | ExtendedPublicKey.hardenedOffset)
                }
                continue
            }
            let childKey = try parentKey.child(step.index)
            #expect(childKey.description == child.xpub, "vector \(child.vector) \(child.name)")
            #expect(childKey.parentFingerprint == parentKey.fingerprint)
            derived += 1
        }
        // Vector 1: m/0H/1, .../2H/2, .../1000000000; vector 2: m/0, .../1, .../2.
        #expect(derived == 6)
    }

    @Test func derivePathMatchesStepByStep() throws {
        // Vector 2 from its master key: m/0 then, after the hardened step, its own xpub on.
        let vector2 = Self.chains.filter { $0.vector == 2 }
        let master = try ExtendedPublicKey(vector2[0].xpub)
        #expect(try master.derive([0]).description == vector2[1].xpub)
        let hardened = try ExtendedPublicKey(vector2[2].xpub)
        #expect(try hardened.derive([1]).description == vector2[3].xpub)
        #expect(throws: DerivationError.hardenedStep(0x8000_0000)) { try master.derive([0, 0x8000_0000]) }
    }

    /// BIP32 vector 5: "These vectors test that invalid extended keys are recognized as invalid."
    /// Each line gives the key and, in parentheses, the reason; each reason maps to one refusal.
    static let invalid: [(key: String, reason: String)] = section(of: text, from: "===Test vector 5===", to: "==Acknowledgements==")
        .split(separator: "\n")
        .filter { $0.hasPrefix("* ") }
        .map { line in
            let body = line.dropFirst(2)
            let space = body.firstIndex(of: " ")!
            return (String(body[..<space]), String(body[space...].dropFirst(2).dropLast()))
        }

    static func expected(_ reason: String) -> (ExtendedKeyError.Reason) -> Bool {
        switch reason {
        case "pubkey version / prvkey mismatch":
            return { $0 == .privateKeyData(.xpub) }
        case "invalid pubkey prefix 04":
            return { $0 == .invalidPublicKeyPrefix(0x04) }
        case "invalid pubkey prefix 01":
            return { $0 == .invalidPublicKeyPrefix(0x01) }
        case "zero depth with non-zero parent fingerprint":
            return { $0 == .zeroDepthWithParentFingerprint }
        case "zero depth with non-zero index":
            return { $0 == .zeroDepthWithChildNumber }
        case "unknown extended key version":
            return { if case .unknownVersion = $0 { true } else { false } }
        case "invalid pubkey 020000000000000000000000000000000000000000000000000000000000000007":
            return { $0 == .invalidPublicKey }
        default:
            Issue.record("no refusal known for '\(reason)'")
            return { _ in false }
        }
    }

    @Test func vector5KeysAreRefusedForTheirReason() throws {
        #expect(Self.invalid.count == 16)
        for (key, reason) in Self.invalid {
            let error = try #require(throws: ExtendedKeyError.self, "\(reason)") { try ExtendedPublicKey(key) }
            #expect(!error.description.contains(key.prefix(12)), "\(error)")
            if key.hasPrefix("xprv") {
                // Every xprv is refused as a private key, whatever else is wrong with it (even a bad
                // checksum): walletwatch neither takes nor repeats private keys.
                #expect(error.isPrivateKey, "\(reason): \(error)")
                #expect(error.reason == .privateKey("xprv"), "\(reason): \(error)")
            } else {
                #expect(Self.expected(reason)(error.reason), "\(reason): \(error)")
            }
        }
    }

    @Test func privateKeyMessageNamesOnlyTheKind() throws {
        let xprv = "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi"
        let error = try #require(throws: ExtendedKeyError.self) { try ExtendedPublicKey(xprv) }
        #expect(error.description == "a private key (xprv...) was given; walletwatch only needs the xpub")
    }

    @Test func aMistypedXpubFailsItsChecksum() throws {
        let xpub = Self.chains[0].xpub
        let mistyped = String(xpub.dropLast()) + (xpub.hasSuffix("9") ? "8" : "9")
        let error = try #require(throws: ExtendedKeyError.self) { try ExtendedPublicKey(mistyped) }
        #expect(error.reason == .base58(.checksumMismatch))
    }

    /// SLIP-132 "Bitcoin Test Vectors": the account keys at m/44'/0'/0', m/49'/0'/0', m/84'/0'/0'
    /// parse under their registered versions and are the same key as an xpub.
    @Test func slip132VersionsParse() throws {
        let vectors = section(of: try Fixture.text("slip-0132.md"), from: "## Bitcoin Test Vectors", to: "## References")
        let publicKeys = vectors.split(separator: "\n").filter { ["xpub", "ypub", "zpub"].contains($0.prefix(4)) }.map(String.init)
        #expect(publicKeys.count == 3)
        let expected: [ExtendedKeyVersion] = [.xpub, .ypub, .zpub]
        for (text, version) in zip(publicKeys, expected) {
            let key = try ExtendedPublicKey(text)
            #expect(key.version == version)
            #expect(key.description == text)
            #expect(key.withVersion(.xpub).withVersion(version).description == text)
            #expect(key.depth == 3 && key.childNumber == 0x8000_0000)
        }
        let privateKeys = vectors.split(separator: "\n").filter { ["xprv", "yprv", "zprv"].contains($0.prefix(4)) }
        #expect(privateKeys.count == 3)
        for text in privateKeys {
            let error = try #require(throws: ExtendedKeyError.self) { try ExtendedPublicKey(String(text)) }
            #expect(error.reason == .privateKey(String(text.prefix(4))))
        }
    }

    /// SLIP-132's registered version bytes, from its table (the Bitcoin and Bitcoin Testnet rows).
    @Test func slip132VersionTable() throws {
        let table = try Fixture.text("slip-0132.md").split(separator: "\n").filter { $0.hasPrefix("Bitcoin ") }
        #expect(table.count == 10)
        var seen = 0
        for row in table {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            for cell in cells[1...2] {
                // "`0x0488b21e` - `xpub`"
                let parts = cell.split(separator: "`").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty && $0 != " - " }
                let value = try #require(UInt32(parts[0].dropFirst(2), radix: 16))
                let version = try #require(ExtendedKeyVersion(rawValue: value), "\(cell)")
                #expect(version.description == parts[1])
                #expect(version.isTest == row.hasPrefix("Bitcoin Testnet"))
                seen += 1
            }
        }
        #expect(seen == 20)
        #expect(Network.bitcoin.extendedPublicKeyVersions.map(\.description) == ["xpub", "ypub", "zpub", "Ypub", "Zpub"])
        for network in [Network.testnet, .signet, .regtest] {
            #expect(network.extendedPublicKeyVersions.map(\.description) == ["tpub", "upub", "vpub", "Upub", "Vpub"])
        }
    }
}
