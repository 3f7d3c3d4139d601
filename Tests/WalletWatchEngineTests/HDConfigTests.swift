import Testing
import WalletWatchBitcoin
@testable import WalletWatchEngine

/// An Esplora source's HD wallet keys (SPEC.md section 15): what a config may say, and each
/// refusal, which names the file, the source, the descriptor's position and the reason.
@Suite("Config: HD wallets")
struct HDConfigTests {
    /// BIP84's test vector account (m/84'/0'/0' of "abandon ... about").
    static let zpub = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs"
    /// BIP86's test vector account (m/86'/0'/0').
    static let xpub = "xpub6BgBgsespWvERF3LHQu6CnqdvfEvtMcQjYrcRzx53QJjSxarj2afYWcLteoGVky7D3UKDP9QyrLprQ3VCECoY49yfdDEHGCtMMj92pReUsQ"
    /// BIP32 test vector 1's master private key.
    static let xprv = "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LZ7EqzhpDrCZmZV7PmxqtkhBXgNvzBn1C3"
    /// Bitcoin Core's descriptor_tests.cpp ("// Checksums"): this descriptor's checksum is tjg09x5t.
    /// BIP49's testnet account key m/49'/1'/0' (private): a private key of a test network.
    static let uprv = "uprv91G7gZkzehuMVxDJTYE6tLivdF8e4rvzSu1LFfKw3b2Qx1Aj8vpoFnHdfUZ3hmi9jsvPifmZ24RTN2KhwB8BfMLTVqaBReibyaFFcTP1s9n"
    /// BIP49's testnet account key (upub) as a plain tpub, and BIP86's key under SLIP-132's
    /// multisig version (the same keys otherwise).
    static let tpub = try! ExtendedPublicKey("upub5EFU65HtV5TeiSHmZZm7FUffBGy8UKeqp7vw43jYbvZPpoVsgU93oac7Wk3u6moKegAEWtGNF8DehrnHtv21XXEMYRUocHqguyjknFHYfgY").withVersion(.tpub).description
    static let multisigZpub = try! ExtendedPublicKey(xpub).withVersion(.Zpub).description
    static let coreMultisig = "sh(multi(2,[00000000/111'/222]xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL,xpub68NZiKmJWnxxS6aaHmn81bvJeTESw724CRDs6HbuccFQN9Ku14VQrADWgqbhhTHBaohPX4CjNLf9fq9MYo6oDaPPLPxSb7gwQN3ih19Zm4Y/0))"

    static let file = "/etc/ww/walletwatch.toml"

    static func source(_ body: String) -> String {
        "[[sources]]\nname = \"other\"\nkind = \"esplora\"\nurl = \"http://y\"\naddresses = [\"bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4\"]\n"
            + "[[sources]]\nname = \"cold\"\nkind = \"esplora\"\nurl = \"http://x\"\n" + body
    }

    static func refusal(_ text: String) -> String {
        do {
            _ = try ConfigLoader.parse(text, file: file)
            return "accepted"
        } catch {
            return error.description
        }
    }

    @Test func descriptorsXpubAndAddressesMakeOneWallet() throws {
        let config = try ConfigLoader.parse(Self.source("""
            descriptors = ["wpkh([d34db33f/84h/0h/0h]\(Self.xpub)/<0;1>/*)", "wpkh(03a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd)"]
            addresses = ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"]
            gap_limit = 30
            change_gap_limit = 7
            [http]
            concurrency = 8
            """), file: Self.file)
        let cold = try #require(config.source(named: "cold"))
        let wallet = try #require(cold.wallet)
        #expect(wallet.receiveDescriptor.scriptType == .wpkh && wallet.hasChangeChain)
        #expect(wallet.listedAddresses.count == 1)
        #expect(cold.addresses == ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"])
        #expect(cold.gapLimit == 30 && cold.changeGapLimit == 7)
        #expect(config.http.concurrency == 8)
        #expect(config.source(named: "other")?.wallet == nil)
    }

    @Test func anXpubAloneIsAWalletWithDefaults() throws {
        let config = try ConfigLoader.parse(Self.source("xpub = \"\(Self.zpub)\""), file: Self.file)
        let cold = try #require(config.source(named: "cold"))
        // SLIP-132: a zpub is wpkh; BIP84's first receive address.
        #expect(try cold.wallet?.address(chain: .receive, index: 0) == "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu")
        #expect(cold.gapLimit == 20 && cold.changeGapLimit == 20 && cold.addresses.isEmpty)
        #expect(config.http.concurrency == 4)
    }

    @Test("each refusal names the file, the source, the descriptor and the reason", arguments: [
        // Bitcoin Core's checksum vector: the error shows the checksum the text as written has.
        ("descriptors = [\"wpkh(\(xpub)/<0;1>/*)\", \"\(coreMultisig)#tjq09x4t\"]", "descriptor 2", "'tjg09x5t'"),
        ("descriptors = [\"\(coreMultisig.replacingOccurrences(of: "multi(2", with: "multi(3"))#tjg09x5t\"]", "descriptor 1", "'d4x0uxyv'"),
        ("descriptors = [\"wpkh(\(xpub)/0h/*)\"]", "descriptor 1", "hardened"),
        ("descriptors = [\"combo(\(xpub)/0/*)\"]", "descriptor 1", "combo"),
        ("descriptors = [\"tr(\(xpub)/0/*,pk(\(xpub)/1/*))\"]", "descriptor 1", "position"),
        ("descriptors = [\"wpkh(\(xpub)/<0;1>/*\"]", "descriptor 1", "position"),
        ("descriptors = [\"wpkh(\(xpub)/<0;1;2>/*)\"]", "descriptor 1", "<receive;change>"),
        ("descriptors = [\"wpkh(\(xpub)/0/*)\", \"tr(\(xpub)/0/*)\"]", "descriptor 2", "one receive chain"),
        ("descriptors = [\"wpkh(\(xpub)/1/*)\"]", "descriptor 1", "no descriptor gives the receive chain"),
        ("descriptors = [\"wpkh(\(xpub)/0/*)\", \"wpkh(\(xpub)/2/1/*)\"]", "descriptor 2", "not the change twin of descriptor 1"),
        ("descriptors = [\"\(coreMultisig)\"]", "descriptors", "no descriptor is ranged"),
        ("descriptors = [\"wpkh(\(tpub)/0/*)\"]", "descriptor 1", "not bitcoin"),
        ("xpub = \"\(multisigZpub)\"", "xpub", "`descriptors`"),
        ("xpub = \"\(zpub)\"\nnetwork = \"testnet\"", "xpub", "not testnet"),
        ("xpub = \"xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet9\"", "xpub", "checksum"),
        ("descriptors = []", "addresses", "`descriptors` or `xpub`"),
        ("xpub = \"\(zpub)\"\ngap_limit = 0", "gap_limit", "accepted: 1 to"),
        ("xpub = \"\(zpub)\"\nchange_gap_limit = \"20\"", "change_gap_limit", "whole number"),
        ("addresses = [\"bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq\"]\ngap_limit = 30", "gap_limit", "HD wallets only"),
        ("xpub = \"\(zpub)\"\n[http]\nconcurrency = 0", "http.concurrency", "accepted: 1 to 32"),
    ])
    func refusals(body: String, part: String, reason: String) {
        let message = Self.refusal(Self.source(body))
        #expect(message.hasPrefix("config \(Self.file): "), "\(message)")
        #expect(message.contains(part) && message.contains(reason), "\(message)")
        #expect(message.contains(part.hasPrefix("http") ? "http." : "sources[2]."), "\(message)")
        if ["descriptors", "xpub", "addresses"].contains(where: message.contains) {
            #expect(message.contains("source 'cold'"), "\(message)")
        }
    }

    @Test("a private key anywhere in a descriptor, or as the xpub, is refused without being repeated", arguments: [
        "descriptors = [\"wpkh(\(xprv)/<0;1>/*)\"]",
        "descriptors = [\"wpkh(\(xpub)/<0;1>/*)\", \"wsh(sortedmulti(2,\(xpub)/<0;1>/*,[d34db33f/48h/0h/0h/2h]\(xprv)/<0;1>/*))\"]",
        // A mistyped private key is still a secret: the last character changed breaks its checksum.
        "descriptors = [\"tr(\(xprv.dropLast())X/<0;1>/*)\"]",
        // BIP381's WIF example key, inside pkh().
        "descriptors = [\"pkh(L4rK1yDtCWekvXuE6oXD9jCYfFNV2cWRpVuPLBcCU2z8TrisoyY1)\"]",
        "descriptors = [\"sh(wpkh(\(uprv)/<0;1>/*))\"]\nnetwork = \"testnet\"",
        "xpub = \"\(xprv)\"",
    ])
    func privateKeys(body: String) {
        let message = Self.refusal(Self.source(body))
        #expect(message.contains("private key") && message.contains("'cold'"), "\(message)")
        for secret in [Self.xprv, "L4rK1yDtCWekvXuE6oXD9jCYfFNV2cWRpVuPLBcCU2z8TrisoyY1", Self.uprv] {
            #expect(!message.contains(secret.dropFirst(4).prefix(10)), "\(message)")
        }
    }
}
