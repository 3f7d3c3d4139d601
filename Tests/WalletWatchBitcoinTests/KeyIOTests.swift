import Testing
import WalletWatchBitcoin

/// Bitcoin Core's `key_io_valid.json` and `key_io_invalid.json` (Fixtures/bitcoin-core).
@Suite struct KeyIOTests {
    /// Core's chain names; testnet4 shares every prefix with testnet3, which `testnet` stands for.
    static let networks: [String: Network] = ["main": .bitcoin, "testnet4": .testnet, "signet": .signet, "regtest": .regtest]

    struct Entry {
        var text: String
        var payload: String
        var chain: String
        var isPrivate: Bool
        var tryCaseFlip: Bool
    }

    static let valid: [Entry] = {
        let rows = try! Fixture.json("bitcoin-core/key_io_valid.json") as! [[Any]]
        return rows.map { row in
            let metadata = row[2] as! [String: Any]
            return Entry(text: row[0] as! String, payload: row[1] as! String, chain: metadata["chain"] as! String,
                         isPrivate: metadata["isPrivkey"] as! Bool, tryCaseFlip: metadata["tryCaseFlip"] as? Bool ?? false)
        }
    }()

    @Test func fileIsRead() {
        #expect(Self.valid.count == 70)
        #expect(Self.valid.filter { !$0.isPrivate }.count == 54)
    }

    @Test func everyAddressDecodesOnItsChainAndEncodesBack() throws {
        for entry in Self.valid where !entry.isPrivate {
            let network = try #require(Self.networks[entry.chain])
            let address = try Address(entry.text, network: network)
            #expect(hex(address.scriptPubKey) == entry.payload, "\(entry.text)")
            let encoded = try #require(Address(scriptPubKey: address.scriptPubKey, network: network), "\(entry.text)")
            #expect(encoded.description == entry.text)
            if entry.tryCaseFlip {
                let flipped = String(entry.text.map { $0.isUppercase ? Character($0.lowercased()) : Character($0.uppercased()) })
                #expect(try Address(flipped, network: network).scriptPubKey == address.scriptPubKey, "\(flipped)")
            }
        }
    }

    /// An address decodes on exactly the networks that share its prefix: bech32 by its HRP, Base58
    /// by its version byte (shared by all test networks); on the others it is refused as another network's.
    @Test func everyAddressIsRefusedOnOtherNetworks() throws {
        for entry in Self.valid where !entry.isPrivate {
            let home = try #require(Self.networks[entry.chain])
            let isSegwit = entry.text.lowercased().hasPrefix(home.bech32HRP + "1")
            for network in Network.allCases {
                let shares = isSegwit ? network.bech32HRP == home.bech32HRP : network.isTest == home.isTest
                do {
                    let address = try Address(entry.text, network: network)
                    #expect(shares, "\(entry.text) decoded on \(network)")
                    #expect(hex(address.scriptPubKey) == entry.payload)
                } catch {
                    #expect(!shares, "\(entry.text) on \(network): \(error)")
                    guard case .wrongNetwork(_, let expected) = error.reason else {
                        Issue.record("\(entry.text) on \(network): \(error)")
                        continue
                    }
                    #expect(expected == network)
                    #expect(error.description.contains("is an address for"))
                }
            }
        }
    }

    /// The WIF private keys are refused as private keys, and the message never repeats them.
    @Test func privateKeysAreRefusedWithoutBeingEchoed() throws {
        let keys = Self.valid.filter(\.isPrivate)
        #expect(keys.count == 16)
        for entry in keys {
            let network = try #require(Self.networks[entry.chain])
            let error = try #require(throws: AddressError.self) { try Address(entry.text, network: network) }
            #expect(error.reason == .privateKey(kind: "WIF"), "\(error)")
            #expect(!error.description.contains(entry.text))
            #expect(!error.description.contains(entry.text.prefix(12)))
        }
    }

    @Test func invalidStringsDecodeOnNoNetwork() throws {
        let rows = try #require(try Fixture.json("bitcoin-core/key_io_invalid.json") as? [[String]])
        #expect(rows.count == 70)
        for row in rows {
            for network in Network.allCases {
                #expect(throws: AddressError.self, "\(row[0]) on \(network)") { try Address(row[0], network: network) }
            }
        }
    }
}
