import Foundation
import Testing
import WalletWatchBitcoin
@testable import WalletWatchSim

/// HD wallets in the simulator: their addresses, a history of real transactions (txids that hash
/// their parts, spends of the wallet's own outputs), the scripthash routes and the block list.
@Suite struct HDScenarioTests {
    /// BIP84's test vector account (mnemonic "abandon ... about", m/84'/0'/0').
    static let bip84 = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs"

    static func scenario() -> Scenario {
        Scenario(esplora: EsploraScenario(hdWallets: [
            HDWalletScenario(name: "w", xpub: bip84, receive: [0, 1, 2, 30], change: [0, 5], mempoolReceive: [3], seed: 9),
        ]))
    }

    /// Every transaction the wallet's addresses list, by txid.
    static func transactions(_ sim: Simulator, chain: String, indexes: [Int]) async throws -> [String: [String: Any]] {
        var found: [String: [String: Any]] = [:]
        for index in indexes {
            let address = try #require(try await HTTPProbe.get(sim.baseURL + "/control/esplora/hd/w/address/\(chain)/\(index)").object?["address"] as? String)
            for tx in try #require(try await HTTPProbe.get(sim.esploraURL + "/address/" + address + "/txs").array) {
                found[tx["txid"] as! String] = tx
            }
        }
        return found
    }

    /// The txid of a transaction as served, recomputed from what is served.
    static func recomputedTxid(_ tx: [String: Any]) throws -> String? {
        let vin = try #require(tx["vin"] as? [[String: Any]])
        let vout = try #require(tx["vout"] as? [[String: Any]])
        return RawTransaction(
            version: Int32(try #require(tx["version"] as? Int)),
            inputs: try vin.map {
                RawTransaction.Input(previousTxid: try #require($0["txid"] as? String), previousIndex: UInt32(try #require($0["vout"] as? Int)),
                                     scriptSig: Hex.decode(try #require($0["scriptsig"] as? String)) ?? [0xff],
                                     sequence: UInt32(try #require($0["sequence"] as? Int)))
            },
            outputs: try vout.map {
                RawTransaction.Output(value: Int64(try #require($0["value"] as? Int)),
                                      scriptPubKey: Hex.decode(try #require($0["scriptpubkey"] as? String)) ?? [])
            },
            lockTime: UInt32(try #require(tx["locktime"] as? Int))).txid
    }

    @Test func addressesAreTheWallets() async throws {
        try await Fixture.withSimulator(Self.scenario()) { sim in
            // BIP84 "Test vectors": the account's first receive, second receive and first change addresses.
            #expect(try await sim.hdAddress(wallet: "w", index: 0) == "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu")
            #expect(try await sim.hdAddress(wallet: "w", index: 1) == "bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g")
            #expect(try await sim.hdAddress(wallet: "w", chain: .change, index: 0) == "bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el")
            let unknown = try await HTTPProbe.get(sim.baseURL + "/control/esplora/hd/nope/address/receive/0")
            #expect(unknown.status == 404)
        }
    }

    @Test func historyIsMadeOfRealTransactions() async throws {
        try await Fixture.withSimulator(Self.scenario()) { sim in
            let receive = try await Self.transactions(sim, chain: "receive", indexes: [0, 1, 2, 3, 30])
            let change = try await Self.transactions(sim, chain: "change", indexes: [0, 5])
            let all = receive.merging(change) { a, _ in a }
            // 5 deposits (one in the mempool) and 2 spends.
            #expect(all.count == 7)
            #expect(all.values.filter { ($0["status"] as? [String: Any])?["confirmed"] as? Bool == false }.count == 1)
            for (txid, tx) in all {
                #expect(try Self.recomputedTxid(tx) == txid)
                // Every output's script is the one its address stands for.
                for output in tx["vout"] as? [[String: Any]] ?? [] {
                    let address = try Address(try #require(output["scriptpubkey_address"] as? String), network: .bitcoin)
                    #expect(Hex.encode(address.scriptPubKey) == output["scriptpubkey"] as? String)
                }
            }
            // A spend's inputs are earlier outputs of the wallet, with their values. (Deposits spend
            // the faucet's coins, which may be change of an earlier deposit: what makes a spend is
            // the address of the outputs it spends.)
            var own: Set<String> = []
            for (chain, indexes) in [(HDChain.receive, [0, 1, 2, 3, 30]), (.change, [0, 5])] {
                for index in indexes { own.insert(try await sim.hdAddress(wallet: "w", chain: chain, index: index)) }
            }
            let spends = all.values.filter { tx in
                (tx["vin"] as? [[String: Any]])?.allSatisfy { own.contains(($0["prevout"] as? [String: Any])?["scriptpubkey_address"] as? String ?? "") } == true
            }
            #expect(spends.count == 2)
            for spend in spends {
                for input in spend["vin"] as? [[String: Any]] ?? [] {
                    let funding = try #require(all[input["txid"] as! String]?["vout"] as? [[String: Any]])
                    let spent = funding[input["vout"] as! Int]
                    #expect(spent["value"] as? Int == (input["prevout"] as? [String: Any])?["value"] as? Int)
                    #expect(spent["scriptpubkey"] as? String == (input["prevout"] as? [String: Any])?["scriptpubkey"] as? String)
                }
            }
        }
    }

    @Test func scripthashRoutesServeWhatTheAddressRoutesServe() async throws {
        try await Fixture.withSimulator(Self.scenario()) { sim in
            let address = try await sim.hdAddress(wallet: "w", index: 0)
            let hash = Script.esploraScripthash(try Address(address, network: .bitcoin).scriptPubKey)
            let byAddress = try #require(try await HTTPProbe.get(sim.esploraURL + "/address/" + address).object)
            let byScript = try #require(try await HTTPProbe.get(sim.esploraURL + "/scripthash/" + hash).object)
            #expect(byScript["scripthash"] as? String == hash)
            #expect(byScript["chain_stats"] as? NSDictionary == byAddress["chain_stats"] as? NSDictionary)
            #expect((byScript["chain_stats"] as? [String: Any])?["tx_count"] as? Int == 2)
            let txs = try #require(try await HTTPProbe.get(sim.esploraURL + "/scripthash/" + hash + "/txs").array)
            #expect(txs.map { $0["txid"] as? String } == (try await HTTPProbe.get(sim.esploraURL + "/address/" + address + "/txs").array)?.map { $0["txid"] as? String })
            let last = try #require(txs.last?["txid"] as? String)
            #expect(try await HTTPProbe.get(sim.esploraURL + "/scripthash/" + hash + "/txs/chain/" + last).array?.count == 0)
            // A script the chain never saw has empty stats; a malformed key is refused.
            let unseen = try #require(try await HTTPProbe.get(sim.esploraURL + "/scripthash/" + String(repeating: "ab", count: 32)).object)
            #expect((unseen["chain_stats"] as? [String: Any])?["tx_count"] as? Int == 0)
            #expect(try await HTTPProbe.get(sim.esploraURL + "/scripthash/xyz").status == 400)
        }
    }

    @Test func controlAddsDepositsAndSpends() async throws {
        try await Fixture.withSimulator(Self.scenario()) { sim in
            let deposit = try await HTTPProbe.control("POST", sim.baseURL + "/control/esplora/hd/w/deposit",
                                                      json: #"{"index": 40, "value": 70000, "block_height": 870001}"#)
            #expect(deposit.status == 201)
            let address = try await sim.hdAddress(wallet: "w", index: 40)
            let stats = try #require(try await HTTPProbe.get(sim.esploraURL + "/address/" + address).object?["chain_stats"] as? [String: Any])
            #expect(stats["funded_txo_sum"] as? Int == 70_000)
            // A transfer to itself: one output, to the change address, worth the inputs less the fee.
            let spend = try await sim.hdSpend(wallet: "w", pay: 0, changeIndex: 7)
            #expect(spend.outputs.count == 1)
            #expect(spend.outputs[0].address == (try await sim.hdAddress(wallet: "w", chain: .change, index: 7)))
            #expect(spend.inputs.reduce(0) { $0 + $1.value } - spend.fee == spend.outputs[0].value)
            #expect(spend.txid == EsploraTransaction.computedTxid(of: spend))
            let refused = try await HTTPProbe.control("POST", sim.baseURL + "/control/esplora/hd/w/deposit", json: #"{"index": -1}"#)
            #expect(refused.status == 400)
        }
    }

    @Test func blocksStartAtBitcoinsGenesis() async throws {
        try await Fixture.withSimulator(Self.scenario()) { sim in
            // Bitcoin's genesis block hash, which BDK checks before it accepts a chain.
            #expect(try await HTTPProbe.get(sim.esploraURL + "/block-height/0").text == "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f")
            let blocks = try #require(try await HTTPProbe.get(sim.esploraURL + "/blocks").array)
            #expect(blocks.map { $0["height"] as? Int } == (869_991...870_000).reversed().map { $0 })
            #expect(blocks[0]["previousblockhash"] as? String == blocks[1]["id"] as? String)
            #expect(try await HTTPProbe.get(sim.esploraURL + "/block-height/" + String(blocks[3]["height"] as! Int)).text == blocks[3]["id"] as? String)
            #expect(try await HTTPProbe.get(sim.esploraURL + "/block-height/870001").status == 404)
        }
    }

    @Test func badWalletsAreRefusedAtLoad() async throws {
        let bad = Scenario(esplora: EsploraScenario(hdWallets: [HDWalletScenario(name: "w", descriptors: ["wpkh(xpub123)"])]))
        await #expect(throws: SimulatorError.self) { try await Simulator.start(scenario: bad) }
        let noCoins = Scenario(esplora: EsploraScenario(hdWallets: [HDWalletScenario(name: "w", xpub: Self.bip84, change: [0])]))
        await #expect(throws: SimulatorError.self) { try await Simulator.start(scenario: noCoins) }
    }
}
