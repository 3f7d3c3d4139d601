import Testing
import WalletWatchBitcoin

/// How `descriptors` and `xpub` combine into one wallet (SPEC 15), and the API the Engine derives with.
@Suite struct HDWalletTests {
    /// BIP32 test vector 2, chain m/0/2147483647H/1/2147483646H (an account-like key).
    static let xpub = "xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL"
    /// BIP32 test vector 3, chain m/0H.
    static let other = "xpub68NZiKmJWnxxS6aaHmn81bvJeTESw724CRDs6HbuccFQN9Ku14VQrADWgqbhhTHBaohPX4CjNLf9fq9MYo6oDaPPLPxSb7gwQN3ih19Zm4Y"
    static let origin = "[d34db33f/84h/0h/0h]"

    @Test func multipathGivesReceiveAndChange() throws {
        let text = "wpkh(\(Self.origin)\(Self.xpub)/<0;1>/*)"
        let wallet = try HDWallet(descriptors: [text], network: .bitcoin)
        let descriptor = try Descriptor(text, network: .bitcoin)
        #expect(wallet.hasChangeChain)
        for index in UInt32(0)..<3 {
            #expect(try wallet.scriptPubKey(chain: .receive, index: index) == descriptor.scriptPubKey(index: index, branch: 0))
            #expect(try wallet.scriptPubKey(chain: .change, index: index) == descriptor.scriptPubKey(index: index, branch: 1))
        }
        let key = try ExtendedPublicKey(Self.xpub)
        #expect(try wallet.scriptPubKey(chain: .receive, index: 5) == Script.p2wpkh(publicKey: key.derive([0, 5]).publicKey))
        #expect(try wallet.scriptPubKey(chain: .change, index: 5) == Script.p2wpkh(publicKey: key.derive([1, 5]).publicKey))
    }

    @Test func twinsGiveReceiveAndChange() throws {
        let receive = "wpkh(\(Self.origin)\(Self.xpub)/0/*)"
        let change = "wpkh(\(Self.origin)\(Self.xpub)/1/*)"
        // Order does not matter: the /0/* one is the receive chain.
        let wallet = try HDWallet(descriptors: [change, receive], network: .bitcoin)
        let multipath = try HDWallet(descriptors: ["wpkh(\(Self.origin)\(Self.xpub)/<0;1>/*)"], network: .bitcoin)
        for chain in HDWallet.Chain.allCases {
            #expect(try wallet.address(chain: chain, index: 7) == multipath.address(chain: chain, index: 7))
        }
    }

    @Test func batchDerivationMatchesSingleDerivation() throws {
        let wallet = try HDWallet(descriptors: ["tr(\(Self.xpub)/<0;1>/*)"], network: .bitcoin)
        let batch = try wallet.derive(chain: .change, indexes: 10..<30)
        #expect(batch.map(\.index) == Array(10..<30))
        for derived in batch {
            #expect(derived.chain == .change)
            #expect(derived.scriptPubKey == (try wallet.scriptPubKey(chain: .change, index: derived.index)))
            #expect(derived.address == (try wallet.address(chain: .change, index: derived.index)))
            #expect(derived.address.hasPrefix("bc1p"))
        }
    }

    @Test func rangedWithoutChainStepIsReceiveOnly() throws {
        let wallet = try HDWallet(descriptors: ["pkh(\(Self.xpub)/*)"], network: .bitcoin)
        #expect(!wallet.hasChangeChain)
        #expect(try wallet.address(chain: .receive, index: 0).hasPrefix("1"))
        #expect(throws: DerivationError.noChangeChain) { try wallet.scriptPubKey(chain: .change, index: 0) }
    }

    @Test func hardenedIndexesAreRefused() throws {
        let wallet = try HDWallet(descriptors: ["wpkh(\(Self.xpub)/<0;1>/*)"], network: .bitcoin)
        #expect(throws: DerivationError.hardenedStep(0x8000_0000)) { try wallet.scriptPubKey(chain: .receive, index: 0x8000_0000) }
    }

    /// Non-ranged descriptors are fixed scripts beside the chains, like configured addresses.
    @Test func nonRangedDescriptorsAreListed() throws {
        let fixed = "wpkh(\(Self.other)/0)"
        let wallet = try HDWallet(descriptors: [fixed, "wpkh(\(Self.xpub)/<0;1>/*)"], network: .bitcoin)
        #expect(wallet.listedAddresses.count == 1)
        #expect(wallet.listedAddresses.first?.scriptPubKey == (try Descriptor(fixed, network: .bitcoin).scriptPubKey()))
    }

    @Test func combinationsThatAreNoWallet() throws {
        let cases: [([String], String?, WalletError.Origin?, String)] = [
            ([], nil, nil, "needs `descriptors` or `xpub`"),
            (["wpkh(\(Self.xpub)/0)"], nil, nil, "no descriptor is ranged"),
            (["wpkh(\(Self.xpub)/1/*)"], nil, .descriptor(1), "no descriptor gives the receive chain"),
            (["wpkh(\(Self.xpub)/0/*)", "wpkh(\(Self.other)/0/*)"], nil, .descriptor(2), "already gives the receive chain"),
            (["wpkh(\(Self.xpub)/<0;1>/*)", "wpkh(\(Self.xpub)/1/*)"], nil, .descriptor(2), "already gives the change chain"),
            (["wpkh(\(Self.xpub)/0/*)", "wpkh(\(Self.other)/1/*)"], nil, .descriptor(2), "is not the change twin of descriptor 1"),
            (["wpkh(\(Self.xpub)/0/*)", "pkh(\(Self.xpub)/1/*)"], nil, .descriptor(2), "is not the change twin of descriptor 1"),
            (["wpkh(\(Self.xpub)/<0;1;2>/*)"], nil, .descriptor(1), "has 3 elements"),
            (["wpkh(\(Self.xpub)/<0;1>/*)"], Self.other, .xpub, "descriptor 1 already gives the receive chain"),
        ]
        for (descriptors, xpub, origin, message) in cases {
            let error = try #require(throws: WalletError.self, "\(descriptors)") {
                try HDWallet(descriptors: descriptors, xpub: xpub, network: .bitcoin)
            }
            #expect(error.origin == origin, "\(error)")
            #expect(error.description.contains(message), "\(error)")
        }
    }

    /// SLIP-132 multisig keys name one cosigner; the refusal points at `descriptors`.
    @Test func multisigCosignerKeysAreRefused() throws {
        let key = try ExtendedPublicKey(Self.xpub)
        for version in [ExtendedKeyVersion.Ypub, .Zpub] {
            let error = try #require(throws: WalletError.self) {
                try HDWallet(descriptors: [], xpub: key.withVersion(version).description, network: .bitcoin)
            }
            #expect(error.reason == .multisigCosignerKey(version))
            #expect(error.description.contains("`descriptors`"))
        }
        // BIP49's test-network account key (upub), as the test networks' cosigner versions.
        let upub = try ExtendedPublicKey("upub5EFU65HtV5TeiSHmZZm7FUffBGy8UKeqp7vw43jYbvZPpoVsgU93oac7Wk3u6moKegAEWtGNF8DehrnHtv21XXEMYRUocHqguyjknFHYfgY")
        for version in [ExtendedKeyVersion.Upub, .Vpub] {
            let error = try #require(throws: WalletError.self) {
                try HDWallet(descriptors: [], xpub: upub.withVersion(version).description, network: .signet)
            }
            #expect(error.reason == .multisigCosignerKey(version))
        }
        #expect(try HDWallet(descriptors: [], xpub: upub.description, network: .signet).receiveDescriptor.scriptType == .shWpkh)
    }

    @Test func privateKeysAreRefusedAndNotRepeated() throws {
        let xprv = "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi"
        let asXpub = try #require(throws: WalletError.self) { try HDWallet(descriptors: [], xpub: xprv, network: .bitcoin) }
        #expect(asXpub.origin == .xpub)
        #expect(asXpub.description == "xpub: a private key (xprv...) was given; walletwatch only needs the xpub")
        let text = "wpkh([d34db33f/84h/0h/0h]\(xprv)/<0;1>/*)"
        let inDescriptor = try #require(throws: WalletError.self) { try HDWallet(descriptors: [text], network: .bitcoin) }
        #expect(inDescriptor.description == "descriptor 1: position 26: a private key (xprv...) was given; walletwatch only needs the xpub")
        // With a wrong checksum too, the private key is what is reported, and no checksum is shown.
        let withChecksum = try #require(throws: WalletError.self) { try HDWallet(descriptors: [text + "#qqqqqqqq"], network: .bitcoin) }
        #expect(!withChecksum.description.contains("checksum"))
        let wif = "wpkh(L4rK1yDtCWekvXuE6oXD9jCYfFNV2cWRpVuPLBcCU2z8TrisoyY1)"
        let wifError = try #require(throws: WalletError.self) { try HDWallet(descriptors: [wif], network: .bitcoin) }
        #expect(!wifError.description.contains("L4rK1y"))
        #expect(wifError.description.contains("WIF"))
    }

    @Test func keysOfAnotherNetworkAreRefused() throws {
        let error = try #require(throws: WalletError.self) {
            try HDWallet(descriptors: ["wpkh(\(Self.xpub)/<0;1>/*)"], network: .testnet)
        }
        guard case .descriptor(let inner) = error.reason else { Issue.record("\(error)"); return }
        #expect(inner.kind == .wrongNetwork)
        #expect(inner.position == 6)
        #expect(error.description == "descriptor 1: position 6: xpub is a key for bitcoin, not testnet")
    }

    @Test func descriptorErrorsCarryPositions() throws {
        let cases: [(String, DescriptorError.Kind, Int, String)] = [
            ("wpkh(\(Self.xpub)/0h/*)", .hardenedDerivation, 118, "hardened derivation after an xpub needs the private key"),
            ("tr(\(Self.xpub)/<0;1>/*,pk(\(Self.other)))", .unsupported, 124, "tr() with a script tree is not supported; walletwatch watches the key path only"),
            ("combo(\(Self.xpub))", .unsupported, 1, "combo() is not supported"),
            ("wsh(and_v(v:pk(\(Self.xpub)),older(1)))", .unsupported, 5, "miniscript"),
            ("wpkh([d34db33/84h]\(Self.xpub)/*)", .syntax, 7, "fingerprint is 8 hex characters"),
            ("wpkh([d34db33f/84H]\(Self.xpub)/*)", .syntax, 16, "'84H' is not a derivation step"),
            ("wpkh(\(Self.xpub)/<0;1>/<2;3>/*)", .syntax, 124, "only one multipath step"),
            ("pkh(\(Self.xpub)/*", .syntax, 118, "is not closed"),
            ("sh(wpkh(\(Self.xpub)/*)))", .syntax, 124, "after the descriptor"),
        ]
        for (text, kind, position, message) in cases {
            let error = try #require(throws: DescriptorError.self, "\(text)") { try Descriptor(text, network: .bitcoin) }
            #expect(error.kind == kind, "\(text): \(error)")
            #expect(error.position == position, "\(text): \(error)")
            #expect(error.message.contains(message), "\(text): \(error)")
        }
    }
}
