import Foundation
import Testing
import WalletWatchBitcoin

/// Real transactions as Esplora served them (Fixtures/esplora-tx, recorded by others): each txid
/// recomputed from its parts, and each output's script and address read both ways.
@Suite struct EsploraTransactionTests {
    static let files: [URL] = {
        let folder = Fixture.folder.appendingPathComponent("esplora-tx")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
    }()

    static func transaction(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    @Test func everyTxidIsTheHashOfItsParts() throws {
        #expect(Self.files.count == 14)
        for url in Self.files {
            let json = try Self.transaction(url)
            let vin = try #require(json["vin"] as? [[String: Any]])
            let vout = try #require(json["vout"] as? [[String: Any]])
            let raw = RawTransaction(
                version: Int32(try #require(json["version"] as? Int)),
                inputs: try vin.map { input in
                    RawTransaction.Input(
                        previousTxid: try #require(input["txid"] as? String),
                        previousIndex: UInt32(try #require(input["vout"] as? Int)),
                        scriptSig: bytes(try #require(input["scriptsig"] as? String)),
                        sequence: UInt32(try #require(input["sequence"] as? Int)))
                },
                outputs: try vout.map { output in
                    RawTransaction.Output(value: Int64(try #require(output["value"] as? Int)),
                                          scriptPubKey: bytes(try #require(output["scriptpubkey"] as? String)))
                },
                lockTime: UInt32(try #require(json["locktime"] as? Int)))
            #expect(raw.txid == json["txid"] as? String, "\(url.lastPathComponent)")
            #expect(url.lastPathComponent == "\(raw.txid ?? "").json")
        }
    }

    @Test func outputScriptsAndAddressesAgree() throws {
        var checked = 0
        for url in Self.files {
            let json = try Self.transaction(url)
            let outputs = (json["vout"] as? [[String: Any]] ?? []) + (json["vin"] as? [[String: Any]] ?? []).compactMap { $0["prevout"] as? [String: Any] }
            for output in outputs {
                let script = bytes(try #require(output["scriptpubkey"] as? String))
                // mempool.space writes "" for an OP_RETURN output's address (no address).
                let address = (output["scriptpubkey_address"] as? String).flatMap { $0.isEmpty ? nil : $0 }
                let network: Network = address.map { $0.hasPrefix("tb1") || $0.hasPrefix("m") || $0.hasPrefix("n") || $0.hasPrefix("2") } == true ? .testnet : .bitcoin
                #expect(Address(scriptPubKey: script, network: network)?.description == address, "\(url.lastPathComponent) \(hex(script))")
                if let address {
                    #expect(try Address(address, network: network).scriptPubKey == script)
                    checked += 1
                }
            }
        }
        #expect(checked > 40)
    }

    @Test func txidNeedsWellFormedPreviousTxids() {
        let raw = RawTransaction(inputs: [.init(previousTxid: "abc", previousIndex: 0)], outputs: [.init(value: 1, scriptPubKey: [0x51])])
        #expect(raw.txid == nil)
    }
}
