import Foundation
import TestSupport
import Testing
import WalletWatchBitcoin
@testable import WalletWatchSim

/// A real chain (a scenario's `bitcoin` section): what Esplora serves is the chain of real blocks
/// the Electrum and Core faces serve; payments come from the faucet; made-up transactions stay
/// Esplora's; the control API pays, mines, replaces and reorganises.
@Suite struct RealChainTests {
    @Test func esploraServesTheRealBlocks() async throws {
        try await ChainFixture.withFace(ChainFixture.scenario(tip: 120)) { sim, client in
            let payment = try await sim.pay(ChainFixture.p2sh, value: 33_000, height: 110)
            let served = try #require(try await HTTPProbe.get(sim.esploraURL + "/tx/" + payment.txid).object)
            let status = try #require(served["status"] as? [String: Any])
            let header = try #require(try await client.result("blockchain.block.header", [110]) as? String)
            #expect(status["block_hash"] as? String == (try ChainFixture.blockHash(ofHeader: header)))
            #expect(status["block_time"] as? Int == Int(try BlockHeader(parsing: Hex.decode(header)!).time))
            #expect(try await HTTPProbe.get(sim.esploraURL + "/blocks/tip/hash").text
                == (try ChainFixture.blockHash(ofHeader: try #require(try await client.result("blockchain.block.header", [120]) as? String))))
            #expect(try await HTTPProbe.get(sim.esploraURL + "/block-height/0").text == "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206")
            // Esplora's raw bytes are the Electrum face's.
            let hex = try await HTTPProbe.get(sim.esploraURL + "/tx/" + payment.txid + "/hex").text
            #expect(try await client.result("blockchain.transaction.get", [payment.txid]) as? String == hex)
            // The payment spends a faucet coin mined at least 100 blocks earlier (a mature coinbase).
            let input = try #require(payment.inputs.first)
            #expect(input.address == (await sim.faucetAddress))
            let coinbase = try #require(try await client.result("blockchain.transaction.get", [input.txid!, true]) as? [String: Any])
            #expect((coinbase["confirmations"] as? Int).map { 120 - $0 + 1 <= 10 } == true)
        }
    }

    @Test func madeUpTransactionsAreEsploraOnly() async throws {
        try await ChainFixture.withFace(ChainFixture.scenario(tip: 120)) { sim, client in
            let madeUp = EsploraTxSpec(txid: Fixture.txid(0xCAFE), outputs: [EsploraTxIO(address: ChainFixture.p2wpkh, value: 1_000)], blockHeight: 115)
            #expect(try await HTTPProbe.control("POST", sim.controlURL + "/esplora/transactions", json: String(decoding: try JSONEncoder().encode(madeUp), as: UTF8.self)).status == 201)
            #expect(try await HTTPProbe.get(sim.esploraURL + "/tx/" + madeUp.txid).status == 200)
            #expect(try await client.call("blockchain.transaction.get", [madeUp.txid]).error?.code == 2)
            #expect(try await client.call("blockchain.scripthash.get_history", [ChainFixture.scripthash(ChainFixture.p2wpkh)]).resultText == "[]")
            // A transaction that spends a real output with its real txid is real, though posted by hand.
            let payment = try await sim.pay(ChainFixture.p2pkh, value: 20_000, height: 116)
            var spend = EsploraTxSpec(txid: "", inputs: [EsploraTxIO(address: ChainFixture.p2pkh, value: 20_000, txid: payment.txid, vout: 0)],
                                      outputs: [EsploraTxIO(address: ChainFixture.p2tr, value: 19_000)], fee: 1_000)
            spend.txid = try #require(EsploraTransaction.computedTxid(of: spend))
            try await sim.addEsploraTransaction(spend)
            #expect(try await client.result("blockchain.scripthash.get_history", [ChainFixture.scripthash(ChainFixture.p2tr)]) as? [[String: Any]] != nil)
            #expect(try await client.call("blockchain.scripthash.get_history", [ChainFixture.scripthash(ChainFixture.p2tr)]).resultText
                == ElectrumReply.canonical([["tx_hash": spend.txid, "height": 0, "fee": 1_000]]))
        }
    }

    @Test func controlPaysMinesReplacesAndReorganises() async throws {
        try await ChainFixture.withFace(ChainFixture.scenario(tip: 120)) { sim, _ in
            let paid = try await HTTPProbe.control("POST", sim.controlURL + "/chain/payments",
                                                   json: #"{"address": "\#(ChainFixture.p2wsh)", "value": 45000}"#)
            #expect(paid.status == 201 && paid.object?["block_height"] == nil)
            let txid = try #require(paid.object?["txid"] as? String)
            let replaced = try await HTTPProbe.control("POST", sim.controlURL + "/chain/transactions/\(txid)/replace", json: #"{"fee": 5000}"#)
            #expect(replaced.status == 201 && replaced.object?["evicted"] as? [String] == [txid])
            let replacement = try #require((replaced.object?["replacement"] as? [String: Any])?["txid"] as? String)
            #expect((replaced.object?["replacement"] as? [String: Any])?["fee"] as? Int == 5000)
            let mined = try await HTTPProbe.control("POST", sim.controlURL + "/chain/mine", json: #"{"blocks": 2}"#)
            #expect(mined.object?["mined"] as? [String] == [replacement] && mined.object?["tip_height"] as? Int == 122)
            let chain = try #require(try await HTTPProbe.get(sim.controlURL + "/chain").object)
            #expect(chain["tip_height"] as? Int == 122 && chain["real"] as? Bool == true && chain["network"] as? String == "regtest")
            let reorg = try await HTTPProbe.control("POST", sim.controlURL + "/chain/reorg", json: #"{"depth": 2, "transactions": "drop"}"#)
            #expect(reorg.object?["dropped"] as? [String] == [replacement] && reorg.object?["tip_height"] as? Int == 123)
            // A real chain's tip only rises.
            #expect(try await HTTPProbe.control("PUT", sim.controlURL + "/chain/tip", json: #"{"tip_height": 100}"#).status == 409)
            #expect(try await HTTPProbe.control("PUT", sim.controlURL + "/chain/tip", json: #"{"tip_height": 130}"#).status == 200)
            // A payment to what is not an address is refused.
            #expect(try await HTTPProbe.control("POST", sim.controlURL + "/chain/payments", json: #"{"address": "nope", "value": 1000}"#).status == 400)
        }
    }

    @Test func aReorgCannotReplaceASpentCoinbase() async throws {
        try await Fixture.withSimulator(ChainFixture.scenario(tip: 50)) { sim in
            // Below block 101 no coinbase is mature: the oldest young one is spent (block 1's).
            let early = try await sim.pay(ChainFixture.p2wpkh, value: 10_000, height: 5)
            let coinbase = try #require(early.inputs.first?.txid)
            await #expect(throws: SimulatorError.self) { try await sim.reorg(depth: 50) }
            #expect(try await sim.reorg(depth: 45).forkHeight == 6)
            #expect(try await CoreRPCTests.rpc(sim, CoreRPCTests.json(CoreRPCTests.call("getrawtransaction", [coinbase, 0]))).object?["error"] is NSNull)
        }
    }

    /// A 1000-block chain with 2,000 transactions (an HD wallet's 1,000 events, 1,000 payments)
    /// starts fast: its blocks are built when first read.
    @Test func aThousandBlocksWithTwoThousandTransactionsStartFast() async throws {
        let payments = (0..<1_000).map { PaymentScenario(address: ChainFixture.p2wpkh, value: 10_000 + Int64($0), blockHeight: 200 + $0 % 800) }
        let scenario = ChainFixture.scenario(tip: 1_000, esplora: EsploraScenario(
            hdWallets: [HDWalletScenario(name: "w", xpub: HDScenarioTests.bip84, receive: Array(0..<500), change: Array(0..<500))],
            payments: payments))
        let started = ContinuousClock.now
        try await Fixture.withSimulator(scenario) { sim in
            let loaded = ContinuousClock.now - started
            let client = try await ElectrumTestClient.connect(sim.electrumTCPURL)
            _ = try await client.call("server.version", ["x", "1.4"])
            let tip = try #require(try await client.result("blockchain.headers.subscribe") as? [String: Any])
            let built = ContinuousClock.now - started
            await client.close()
            #expect(tip["height"] as? Int == 1_000)
            let history = try await HTTPProbe.get(sim.esploraURL + "/address/" + ChainFixture.p2wpkh).object
            #expect((history?["chain_stats"] as? [String: Any])?["tx_count"] as? Int == 1_000)
            print("1000 blocks, 2000 transactions: scenario loaded in \(loaded), every header built by \(built)")
            // Debug builds are several times slower than release, where this is a fraction of a second.
            #expect(built < .seconds(5))
        }
    }
}
