import Testing
import WalletWatchBitcoin

/// BIP49, BIP84, BIP86 and SLIP-132 account vectors: from the account's extended public key to
/// the first receive, second receive and first change addresses, through the wallet the Engine uses.
@Suite struct AccountVectorTests {
    /// `name = value` pairs of a BIP's <pre> test vector block, in order, with `// comments` dropped.
    static func pairs(_ file: String) throws -> [(name: String, value: String)] {
        let block = section(of: try Fixture.text(file), from: "==Test vectors==", to: "</pre>")
        return block.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { return nil }
            return (parts[0].trimmingCharacters(in: .whitespaces), parts[1].trimmingCharacters(in: .whitespaces))
        }
    }

    static func values(_ pairs: [(name: String, value: String)], _ name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    /// BIP84 "Test vectors": account zpub m/84'/0'/0', then three (privkey, pubkey, address) blocks.
    @Test func bip84() throws {
        let pairs = try Self.pairs("bip-0084.mediawiki")
        let zpub = try #require(Self.values(pairs, "xpub").first)
        let publicKeys = Self.values(pairs, "pubkey")
        let addresses = Self.values(pairs, "address")
        #expect(publicKeys.count == 3 && addresses.count == 3)
        let wallet = try HDWallet(descriptors: [], xpub: zpub, network: .bitcoin)
        #expect(wallet.receiveDescriptor.scriptType == .wpkh)
        #expect(try wallet.address(chain: .receive, index: 0) == addresses[0])
        #expect(try wallet.address(chain: .receive, index: 1) == addresses[1])
        #expect(try wallet.address(chain: .change, index: 0) == addresses[2])
        let account = try ExtendedPublicKey(zpub)
        #expect(hex(try account.derive([0, 0]).publicKey) == publicKeys[0])
        #expect(hex(try account.derive([0, 1]).publicKey) == publicKeys[1])
        #expect(hex(try account.derive([1, 0]).publicKey) == publicKeys[2])
    }

    /// BIP49 "Test vectors" (testnet): account upub m/49'/1'/0' and its first receive address, with
    /// the public key, key hash and redeem script on the way.
    @Test func bip49() throws {
        let pairs = try Self.pairs("bip-0049.mediawiki")
        let upub = try #require(Self.values(pairs, "account0Xpub").first?.split(separator: " ").first.map(String.init))
        let publicKey = try #require(Self.values(pairs, "account0recvPublicKeyHex").first).dropFirst(2)
        let keyHash = try #require(Self.values(pairs, "keyhash").first?.split(separator: "=").last?.trimmingCharacters(in: .whitespaces)).dropFirst(2)
        let redeemScript = try #require(Self.values(pairs, "scriptSig").first?.split(separator: "=").last?.trimmingCharacters(in: .whitespaces)).dropFirst(2)
        let address = try #require(Self.values(pairs, "address").first?.split(separator: "=").last?.split(separator: " ").first.map(String.init))
        #expect(address == "2Mww8dCYPUpKHofjgcXcBCEGmniw9CoaiD2")
        let wallet = try HDWallet(descriptors: [], xpub: upub, network: .testnet)
        #expect(wallet.receiveDescriptor.scriptType == .shWpkh)
        #expect(try wallet.address(chain: .receive, index: 0) == address)
        #expect(try wallet.scriptPubKey(chain: .receive, index: 0) == Script.p2sh(redeemScript: bytes(redeemScript)))
        let key = try ExtendedPublicKey(upub).derive([0, 0])
        #expect(hex(key.publicKey) == publicKey)
        #expect(hex(Script.p2wpkh(publicKey: key.publicKey)) == "0014" + keyHash)
        // The same key on bitcoin is another network's.
        let error = try #require(throws: WalletError.self) { try HDWallet(descriptors: [], xpub: upub, network: .bitcoin) }
        #expect(error.description.contains("not bitcoin"))
    }

    /// BIP86 "Test vectors": account xpub m/86'/0'/0'; for each of the three addresses the child
    /// xpub, internal key (x-only), output key (BIP341 tweak, no scripts), scriptPubKey and address.
    @Test func bip86() throws {
        let pairs = try Self.pairs("bip-0086.mediawiki")
        let xpubs = Self.values(pairs, "xpub")
        // The account's, then those of the three addresses.
        #expect(xpubs.count == 4)
        let account = try ExtendedPublicKey(xpubs[0])
        let wallet = try HDWallet(descriptors: ["tr(\(xpubs[0])/<0;1>/*)"], network: .bitcoin)
        let internalKeys = Self.values(pairs, "internal_key")
        let outputKeys = Self.values(pairs, "output_key")
        let scripts = Self.values(pairs, "scriptPubKey")
        let addresses = Self.values(pairs, "address")
        for (position, (chain, index)) in [(HDWallet.Chain.receive, UInt32(0)), (.receive, 1), (.change, 0)].enumerated() {
            let child = try account.derive([chain == .receive ? 0 : 1, index])
            #expect(child.description == xpubs[position + 1])
            let internalKey = Array(child.publicKey.dropFirst())
            #expect(hex(internalKey) == internalKeys[position])
            #expect(Taproot.outputKey(internalKey: internalKey).map(hex) == outputKeys[position])
            #expect(hex(try wallet.scriptPubKey(chain: chain, index: index)) == scripts[position])
            #expect(try wallet.address(chain: chain, index: index) == addresses[position])
        }
    }

    /// SLIP-132 "Bitcoin Test Vectors": xpub (m/44'), ypub (m/49') and zpub (m/84') account keys
    /// and each one's first receive address; the prefix alone picks the script.
    @Test func slip132() throws {
        let lines = section(of: try Fixture.text("slip-0132.md"), from: "## Bitcoin Test Vectors", to: "```\n\n").split(separator: "\n")
        var checked = 0
        for (index, line) in lines.enumerated() where ["xpub", "ypub", "zpub"].contains(line.prefix(4)) {
            // The key is followed by "m/.../0/0 address:" and the address.
            let address = String(lines[index + 2])
            let wallet = try HDWallet(descriptors: [], xpub: String(line), network: .bitcoin)
            #expect(try wallet.address(chain: .receive, index: 0) == address, "\(line.prefix(4))")
            checked += 1
        }
        #expect(checked == 3)
    }

    /// BIP341 wallet-test-vectors.json, "scriptPubKey": each case's tweak and tweaked key from its
    /// internal key and merkle root, and its P2TR script and address; case 0 (no scripts) is also
    /// the key-path-only `tr(KEY)` descriptor.
    @Test func bip341ScriptPubKeys() throws {
        let root = try #require(try Fixture.json("bip-0341-wallet-test-vectors.json") as? [String: Any])
        let cases = try #require(root["scriptPubKey"] as? [[String: Any]])
        #expect(cases.count == 7)
        for (number, vector) in cases.enumerated() {
            let given = try #require(vector["given"] as? [String: Any])
            let intermediary = try #require(vector["intermediary"] as? [String: Any])
            let expected = try #require(vector["expected"] as? [String: Any])
            let internalKey = bytes(try #require(given["internalPubkey"] as? String))
            let merkleRoot = (intermediary["merkleRoot"] as? String).map { bytes($0) }
            #expect(hex(Taproot.tweak(internalKey: internalKey, merkleRoot: merkleRoot)) == intermediary["tweak"] as? String, "case \(number)")
            let outputKey = try #require(Taproot.outputKey(internalKey: internalKey, merkleRoot: merkleRoot))
            #expect(hex(outputKey) == intermediary["tweakedPubkey"] as? String)
            let script = Script.p2tr(outputKey: outputKey)
            #expect(hex(script) == expected["scriptPubKey"] as? String)
            #expect(Address(scriptPubKey: script, network: .bitcoin)?.description == expected["bip350Address"] as? String)
            if merkleRoot == nil {
                let descriptor = try Descriptor("tr(\(hex(internalKey)))", network: .bitcoin)
                #expect(hex(try descriptor.scriptPubKey()) == expected["scriptPubKey"] as? String)
            }
        }
    }

    /// BIP67 "Test vectors": 2-of-n multisig with the keys sorted; the script and P2SH address, from
    /// the script builder and from `sh(sortedmulti(...))`.
    @Test func bip67() throws {
        let text = section(of: try Fixture.text("bip-0067.mediawiki"), from: "==Test vectors==", to: "==Acknowledgements==")
        var vectors = [(list: [String], sorted: [String], script: String, address: String)]()
        var heading = ""
        for line in text.split(separator: "\n") {
            if line.hasPrefix("* ") {
                heading = String(line.dropFirst(2).prefix { $0.isLetter })
            } else if line.hasPrefix("** ") {
                let value = String(line.dropFirst(3))
                switch heading {
                case "List":
                    if vectors.last.map({ !$0.address.isEmpty }) ?? true { vectors.append(([], [], "", "")) }
                    vectors[vectors.count - 1].list.append(value)
                case "Sorted": vectors[vectors.count - 1].sorted.append(value)
                case "Script": vectors[vectors.count - 1].script = value
                case "Address": vectors[vectors.count - 1].address = value
                default: Issue.record("unexpected heading \(heading)")
                }
            }
        }
        #expect(vectors.count == 4)
        for vector in vectors {
            let keys = vector.list.map { bytes($0) }
            let script = Script.sortedMulti(threshold: 2, publicKeys: keys)
            #expect(hex(script) == vector.script)
            #expect(script == Script.multi(threshold: 2, publicKeys: vector.sorted.map { bytes($0) }))
            #expect(Address(scriptPubKey: Script.p2sh(redeemScript: script), network: .bitcoin)?.description == vector.address)
            let descriptor = try Descriptor("sh(sortedmulti(2,\(vector.list.joined(separator: ","))))", network: .bitcoin)
            #expect(try descriptor.address() == vector.address)
        }
    }
}
