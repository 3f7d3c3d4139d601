import Testing
import WalletWatchBitcoin

/// Address rules beyond the published lists: messages a user acts on, scripts without an
/// address, and Esplora's scripthash.
@Suite struct AddressTests {
    /// Pay-to-anchor (Bitcoin Core 28): witness version 1 with the 2-byte program 4e73.
    @Test func payToAnchor() throws {
        let address = try Address("bc1pfeessrawgf", network: .bitcoin)
        #expect(hex(address.scriptPubKey) == "51024e73")
        #expect(Address(scriptPubKey: bytes("51024e73"), network: .bitcoin)?.description == "bc1pfeessrawgf")
    }

    @Test func wrongNetworkNamesBoth() throws {
        let error = try #require(throws: AddressError.self) {
            try Address("tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", network: .bitcoin)
        }
        #expect(error.description == "'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx' is an address for testnet or signet, not bitcoin")
        let legacy = try #require(throws: AddressError.self) { try Address("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", network: .regtest) }
        #expect(legacy.description.hasSuffix("is an address for bitcoin, not regtest"))
    }

    @Test func versionZeroProgramLength() throws {
        let error = try #require(throws: AddressError.self) { try Address("BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P", network: .bitcoin) }
        #expect(error.description.hasSuffix("has a witness program of 16 bytes; version 0 needs 20 or 32"))
    }

    @Test func notAnAddress() throws {
        for text in ["", "hello", "bc1", "0x1234", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLx"] {
            let error = try #require(throws: AddressError.self, "\(text)") { try Address(text, network: .bitcoin) }
            #expect(error.description.contains("'\(text)'"), "\(error)")
        }
        // The Base58 one above has its last character changed: its checksum fails.
        let broken = try #require(throws: AddressError.self) { try Address("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLx", network: .bitcoin) }
        #expect(broken.reason == .base58(.checksumMismatch))
        let valid = try Address("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", network: .bitcoin)
        #expect(hex(valid.scriptPubKey).hasPrefix("a914"))
    }

    @Test func extendedKeysAreNotAddresses() throws {
        let xpub = "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8"
        let error = try #require(throws: AddressError.self) { try Address(xpub, network: .bitcoin) }
        #expect(error.reason == .extendedPublicKey(.xpub))
        let xprv = "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi"
        let secret = try #require(throws: AddressError.self) { try Address(xprv, network: .bitcoin) }
        #expect(secret.reason == .privateKey(kind: "xprv..."))
        #expect(!secret.description.contains(xprv.prefix(12)))
        // With its last character changed the checksum fails; it is still refused as a private key.
        let mistyped = String(xprv.dropLast()) + "j"
        let mistypedError = try #require(throws: AddressError.self) { try Address(mistyped, network: .bitcoin) }
        #expect(mistypedError.reason == .privateKey(kind: "xprv"))
        #expect(!mistypedError.description.contains(mistyped.prefix(12)))
    }

    /// A WIF key with a mistyped character fails its checksum, but its shape still tells it is a
    /// private key, so it is refused as one and not repeated (key from BIP380's key expressions).
    @Test func mistypedWIFIsStillAPrivateKey() throws {
        let wif = "L4rK1yDtCWekvXuE6oXD9jCYfFNV2cWRpVuPLBcCU2z8TrisoyY1"
        let mistyped = String(wif.dropLast()) + "2"
        for text in [wif, mistyped] {
            let error = try #require(throws: AddressError.self) { try Address(text, network: .bitcoin) }
            #expect(error.reason == .privateKey(kind: "WIF"))
            #expect(!error.description.contains(text.prefix(10)))
        }
    }

    /// Scripts that no address stands for.
    @Test func scriptsWithoutAddress() {
        let key = bytes("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")
        let bareMultisig = Script.multi(threshold: 1, publicKeys: [key])
        let payToPublicKey = [UInt8(33)] + key + [0xac]
        let opReturn = bytes("6a0568656c6c6f")
        let shortVersionZero = bytes("0010751e76e8199196d454941c45d1b3a323")
        for script in [bareMultisig, payToPublicKey, opReturn, shortVersionZero, []] {
            #expect(Address(scriptPubKey: script, network: .bitcoin) == nil, "\(hex(script))")
        }
    }

    /// The Electrum protocol documentation's example: the genesis block's P2PKH address
    /// 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa. Esplora's REST routes take the same SHA-256 unreversed
    /// (electrs `rest.rs` parses the hex as the hash's bytes; BDK's Esplora client sends it so).
    @Test func scripthashes() throws {
        let address = try Address("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", network: .bitcoin)
        #expect(hex(address.scriptPubKey) == "76a91462e907b15cbf27d5425399ebf6f0fb50ebb88f1888ac")
        let electrum = "8b01df4e368ea28f8dc0423bcf7a4923e3a12d307c875e47a0cfbf90b5c39161"
        #expect(Script.electrumScripthash(address.scriptPubKey) == electrum)
        #expect(Script.esploraScripthash(address.scriptPubKey) == hex(bytes(electrum).reversed()))
    }

    @Test func base58RoundTrip() {
        // Leading zero bytes are leading '1's: the genesis address's version byte is 0x00.
        let payload: [UInt8] = [0, 0, 1, 2, 255]
        let text = Base58.encode(payload)
        #expect(text.hasPrefix("11"))
        #expect((try? Base58.decode(text).get()) == payload)
        #expect(Base58.decode("10OIl") == .failure(.invalidCharacter(position: 2)))
    }
}
