import Testing
import WalletWatchBitcoin

/// BIP380 (checksum, key expressions) and BIP381-386, BIP389 vectors from the mediawiki files.
/// Descriptors in walletwatch's scope must give the listed scripts; the others must be refused
/// for the right family of reason: private keys as private keys, the rest as unsupported.
@Suite struct DescriptorBIPTests {
    // MARK: - BIP380 checksum

    @Test func bip380Checksums() throws {
        let text = try Fixture.text("bip-0380.mediawiki")
        let lines = section(of: text, from: "The following tests cover the checksum and character set:", to: "The following tests cover key expressions:")
            .split(separator: "\n").filter { $0.hasPrefix("* ") }
        #expect(lines.count == 8)
        for line in lines {
            let label = String(line.dropFirst(2).prefix { $0 != ":" })
            let descriptor = try #require(teletype(line).last)
            let outcome = Result { () throws(DescriptorError) in try Descriptor(descriptor, network: .bitcoin) }
            guard case .failure(let error) = outcome else {
                Issue.record("\(label): raw() parsed, but walletwatch does not watch raw scripts")
                continue
            }
            switch label {
            case "Valid checksum", "No checksum":
                // The checksum passes; what stops it is raw(), outside walletwatch's scope.
                #expect(error.kind == .unsupported, "\(label): \(error)")
                #expect(Descriptor.checksum("raw(deadbeef)") == "89f8spxm")
            case "Missing checksum", "Too long checksum (9 chars)", "Too short checksum (7 chars)", "Error in checksum":
                #expect(error.kind == .checksum, "\(label): \(error)")
            case "Error in payload":
                #expect(error.kind == .checksum, "\(label): \(error)")
                // The message shows the checksum of the text as written.
                let expected = try #require(Descriptor.checksum("raw(deedbeef)"))
                #expect(error.message.contains("'\(expected)'"), "\(error)")
                #expect(error.position == 15)
            case "Invalid characters in payload":
                #expect(error.kind == .syntax, "\(label): \(error)")
                #expect(error.position == 5)
                #expect(Descriptor.checksum("raw(Ü)") == nil)
            default:
                Issue.record("no expectation for '\(label)'")
            }
        }
    }

    /// BIP380 "Checksum": the checksum covers the text as written, so `h` and `'` differ; each
    /// verifies only with its own, and a normalised copy would fail.
    @Test func checksumIsOverTheTextAsWritten() throws {
        let xpub = "xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL"
        let withH = "wpkh([deadbeef/84h/0h/0h]\(xpub)/<0;1>/*)"
        let withQuote = "wpkh([deadbeef/84'/0'/0']\(xpub)/<0;1>/*)"
        let checksumH = try #require(Descriptor.checksum(withH))
        let checksumQuote = try #require(Descriptor.checksum(withQuote))
        #expect(checksumH != checksumQuote)
        let parsedH = try Descriptor("\(withH)#\(checksumH)", network: .bitcoin)
        let parsedQuote = try Descriptor("\(withQuote)#\(checksumQuote)", network: .bitcoin)
        #expect(parsedH == parsedQuote)
        let error = try #require(throws: DescriptorError.self) { try Descriptor("\(withQuote)#\(checksumH)", network: .bitcoin) }
        #expect(error.kind == .checksum)
        #expect(error.message.contains(checksumQuote))
        // The canonical form (h markers) carries its own checksum and parses back to the same descriptor.
        #expect(parsedQuote.description == "\(withH)#\(checksumH)")
    }

    // MARK: - BIP380 key expressions

    static func keyExpressions(_ heading: String, _ end: String) throws -> [(label: String, key: String)] {
        let text = try Fixture.text("bip-0380.mediawiki")
        return section(of: text, from: heading, to: end).split(separator: "\n").filter { $0.hasPrefix("* ") }.map { line in
            (String(line.dropFirst(2).prefix { $0 != ":" }), teletype(line).last!)
        }
    }

    /// Each valid key expression inside `pkh()` (which takes every kind BIP380 lists): public keys
    /// parse, private keys are refused as such, hardened steps after an xpub need the private key.
    @Test func bip380ValidKeyExpressions() throws {
        let keys = try Self.keyExpressions("Valid expressions:", "Invalid expression:")
        #expect(keys.count == 21)
        var parsed = 0
        for (label, key) in keys {
            let outcome = Result { () throws(DescriptorError) in try Descriptor("pkh(\(key))", network: .bitcoin) }
            let afterKey = key.split(separator: "]").last!.split(separator: "/").dropFirst()
            if DescriptorVectors.containsPrivateKey(key) {
                guard case .failure(let error) = outcome else { Issue.record("\(label) parsed"); continue }
                #expect(error.kind == .privateKey, "\(label): \(error)")
                #expect(!error.description.contains(key.prefix(12)))
            } else if afterKey.contains(where: { $0.hasSuffix("h") || $0.hasSuffix("'") }) {
                guard case .failure(let error) = outcome else { Issue.record("\(label) parsed"); continue }
                #expect(error.kind == .hardenedDerivation, "\(label): \(error)")
            } else {
                let descriptor = try outcome.get()
                #expect(descriptor.isRanged == key.hasSuffix("/*"), "\(label)")
                parsed += 1
            }
        }
        // The two hex keys, three origins on a hex key, and four xpub forms without hardened steps.
        #expect(parsed == 9)
    }

    /// The origin is metadata: the three origin spellings give the plain key's script.
    @Test func originsDoNotChangeTheScript() throws {
        let keys = try Self.keyExpressions("Valid expressions:", "Invalid expression:").map(\.key)
        let plain = try Descriptor("pkh(\(keys[0]))", network: .bitcoin).scriptPubKey()
        #expect(plain == Script.p2pkh(publicKey: bytes(keys[0])))
        for key in keys[2...4] {
            #expect(try Descriptor("pkh(\(key))", network: .bitcoin).scriptPubKey() == plain, "\(key)")
        }
    }

    @Test func bip380InvalidKeyExpressions() throws {
        let keys = try Self.keyExpressions("Invalid expression:", "==Backwards Compatibility==")
        #expect(keys.count == 16)
        for (label, key) in keys {
            let error = try #require(throws: DescriptorError.self, "\(label)") { try Descriptor("pkh(\(key))", network: .bitcoin) }
            if DescriptorVectors.containsPrivateKey(key) {
                #expect(error.kind == .privateKey, "\(label): \(error)")
            } else {
                #expect(error.kind == .syntax, "\(label): \(error)")
            }
        }
    }

    // MARK: - BIP381-386

    /// What a BIP vector must come to: the listed scripts when in scope, else a refusal of the
    /// family its content calls for. Returns the number of scripts checked.
    @discardableResult
    static func check(_ vector: DescriptorVectors.Valid) throws -> Int {
        let outcome = Result { () throws(DescriptorError) in try Descriptor(vector.descriptor, network: .bitcoin) }
        if DescriptorVectors.containsPrivateKey(vector.descriptor) {
            guard case .failure(let error) = outcome else { Issue.record("\(vector.descriptor) parsed"); return 0 }
            #expect(error.kind == .privateKey, "\(vector.descriptor): \(error)")
            return 0
        }
        if !DescriptorVectors.isInScope(vector.descriptor) {
            guard case .failure(let error) = outcome else { Issue.record("\(vector.descriptor) parsed"); return 0 }
            #expect(error.kind == .unsupported, "\(vector.descriptor): \(error)")
            return 0
        }
        let descriptor = try outcome.get()
        #expect(try descriptor.scripts(vector.scripts.count) == vector.scripts, "\(vector.descriptor)")
        return vector.scripts.count
    }

    @Test(arguments: [("bip-0381.mediawiki", 17, 4), ("bip-0382.mediawiki", 12, 4), ("bip-0383.mediawiki", 9, 1),
                      ("bip-0384.mediawiki", 4, 0), ("bip-0385.mediawiki", 4, 0), ("bip-0386.mediawiki", 6, 1)])
    func bipValidVectors(file: String, count: Int, scriptsInScope: Int) throws {
        let vectors = try DescriptorVectors.valid(file)
        #expect(vectors.count == count)
        var checked = 0
        for vector in vectors {
            checked += try Self.check(vector)
        }
        #expect(checked == scriptsInScope)
    }

    @Test(arguments: [("bip-0381.mediawiki", 4), ("bip-0382.mediawiki", 11), ("bip-0383.mediawiki", 4),
                      ("bip-0384.mediawiki", 3), ("bip-0385.mediawiki", 6), ("bip-0386.mediawiki", 4), ("bip-0389.mediawiki", 8)])
    func bipInvalidVectors(file: String, count: Int) throws {
        let vectors = try DescriptorVectors.invalid(file)
        #expect(vectors.count == count)
        for text in vectors {
            let error = try #require(throws: DescriptorError.self, "\(text)") { try Descriptor(text, network: .bitcoin) }
            if DescriptorVectors.containsPrivateKey(text) {
                #expect(error.kind == .privateKey, "\(text): \(error)")
            }
            #expect(!error.description.contains("xprv9"), "\(error)")
        }
    }

    /// BIP383's bare multisig vectors are out of scope as written (bare multisig has no address),
    /// but their scripts are the redeem and witness scripts of sh() and wsh(): wrapped, the
    /// descriptor must give P2SH and P2WSH of exactly the listed script.
    @Test func bip383MultisigScriptsInsideShAndWsh() throws {
        let vectors = try DescriptorVectors.valid("bip-0383.mediawiki").filter {
            ($0.descriptor.hasPrefix("multi(") || $0.descriptor.hasPrefix("sortedmulti(")) && !DescriptorVectors.containsPrivateKey($0.descriptor)
        }
        #expect(vectors.count == 3)
        for vector in vectors {
            let bare = try #require(throws: DescriptorError.self) { try Descriptor(vector.descriptor, network: .bitcoin) }
            #expect(bare.kind == .unsupported)
            let p2sh = try Descriptor("sh(\(vector.descriptor))", network: .bitcoin)
            #expect(try p2sh.scripts(vector.scripts.count) == vector.scripts.map { hex(Script.p2sh(redeemScript: bytes($0))) })
            if !vector.descriptor.contains(",04") {
                let p2wsh = try Descriptor("wsh(\(vector.descriptor))", network: .bitcoin)
                #expect(try p2wsh.scripts(vector.scripts.count) == vector.scripts.map { hex(Script.p2wsh(witnessScript: bytes($0))) })
            } else {
                let error = try #require(throws: DescriptorError.self) { try Descriptor("wsh(\(vector.descriptor))", network: .bitcoin) }
                #expect(error.kind == .invalidKey, "uncompressed keys are not allowed in wsh(): \(error)")
            }
        }
    }

    // MARK: - BIP389

    @Test func bip389Multipath() throws {
        let vectors = try DescriptorVectors.valid("bip-0389.mediawiki")
        #expect(vectors.count == 6)
        var expanded = 0
        for vector in vectors {
            // Here the sub-items are the descriptors each one expands into, not scripts.
            let outcome = Result { () throws(DescriptorError) in try Descriptor(vector.descriptor, network: .bitcoin) }
            if DescriptorVectors.containsPrivateKey(vector.descriptor) {
                #expect(throws: DescriptorError.self) { try outcome.get() }
                continue
            }
            if !DescriptorVectors.isInScope(vector.descriptor) {
                guard case .failure(let error) = outcome else { Issue.record("\(vector.descriptor) parsed"); continue }
                #expect(error.kind == .unsupported)
                continue
            }
            let descriptor = try outcome.get()
            #expect(descriptor.branchCount == vector.scripts.count)
            for (branch, (single, text)) in zip(descriptor.branches, vector.scripts).enumerated() {
                let expected = try Descriptor(text, network: .bitcoin)
                #expect(single == expected, "\(text)")
                #expect(single.description == expected.description)
                #expect(try descriptor.scripts(3, branch: branch) == expected.scripts(3))
                expanded += 1
            }
        }
        // wpkh(<1;3>), pkh(<0;1;2>) and sh(multi(<1;2;3>...)).
        #expect(expanded == 8)
    }

    /// BIP389 "Multipath specifiers of mismatched lengths", its sh(multi()) vector with each xprv
    /// replaced by the xpub the valid sh(multi()) vector gives for it.
    @Test func multipathGroupsOfDifferentLengths() throws {
        let text = "sh(multi(2,xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL/<1;2;3>/0/*,xpub68NZiKmJWnxxS6aaHmn81bvJeTESw724CRDs6HbuccFQN9Ku14VQrADWgqbhhTHBaohPX4CjNLf9fq9MYo6oDaPPLPxSb7gwQN3ih19Zm4Y/0/*,xpub661MyMwAqRbcGDZQUKLqmWodYLcoBQnQH33yYkkF3jjxeLvY8qr2wWGEWkiKFaaQfJCoi3HeEq3Dc5DptfbCyjD38fNhSqtKc1UHaP4ba3t/0/0/<3;4>/*))"
        let error = try #require(throws: DescriptorError.self) { try Descriptor(text, network: .bitcoin) }
        #expect(error.kind == .syntax)
        #expect(error.message.contains("different lengths"))
    }
}
