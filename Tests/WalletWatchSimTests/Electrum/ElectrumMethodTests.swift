import Foundation
import TestSupport
import Testing
import WalletWatchBitcoin
@testable import WalletWatchSim

/// Every method of the Electrum face, against a chain whose answers the test works out from the
/// transactions it made: two payments to one address in block 120 (in that order), one to
/// another in block 130, one in the mempool, and an HD wallet's mempool deposit spent by a
/// mempool spend (height -1).
@Suite struct ElectrumMethodTests {
    struct World {
        let sim: Simulator
        let first, second, other, pending, deposit, spend: EsploraTxSpec
        let change: String
    }

    static func world(_ sim: Simulator) async throws -> World {
        let first = try await sim.pay(ChainFixture.p2wpkh, value: 100_000, height: 120)
        let second = try await sim.pay(ChainFixture.p2wpkh, value: 20_000, height: 120)
        let other = try await sim.pay(ChainFixture.p2pkh, value: 30_000, height: 130)
        let pending = try await sim.pay(ChainFixture.p2wpkh, value: 5_000)
        let deposit = try await sim.hdDeposit(wallet: "w", index: 0, value: 80_000)
        let spend = try await sim.hdSpend(wallet: "w", pay: 10_000, changeIndex: 0)
        return World(sim: sim, first: first, second: second, other: other, pending: pending, deposit: deposit, spend: spend,
                     change: try await sim.hdAddress(wallet: "w", chain: .change, index: 0))
    }

    static let scenario = ChainFixture.scenario(esplora: EsploraScenario(hdWallets: [
        HDWalletScenario(name: "w", xpub: HDScenarioTests.bip84, network: "bitcoin"),
    ]))

    @Test func scriptsHistoriesStatusesBalancesAndCoins() async throws {
        try await ChainFixture.withFace(Self.scenario) { sim, client in
            let world = try await Self.world(sim)
            let a = ChainFixture.scripthash(ChainFixture.p2wpkh)
            let history: [(String, Int)] = [(world.first.txid, 120), (world.second.txid, 120), (world.pending.txid, 0)]
            let expected: [[String: Any]] = [
                ["tx_hash": world.first.txid, "height": 120], ["tx_hash": world.second.txid, "height": 120],
                ["tx_hash": world.pending.txid, "height": 0, "fee": Int(world.pending.fee)],
            ]
            #expect(try await client.call("blockchain.scripthash.get_history", [a]).resultText == ElectrumReply.canonical(expected))
            #expect(try await client.call("blockchain.scripthash.get_mempool", [a]).resultText == ElectrumReply.canonical([expected[2]]))
            #expect(try await client.result("blockchain.scripthash.subscribe", [a]) as? String == ChainFixture.status(history))
            #expect(try await client.call("blockchain.scripthash.get_balance", [a]).resultText
                == ElectrumReply.canonical(["confirmed": 120_000, "unconfirmed": 5_000]))
            #expect(try await client.call("blockchain.scripthash.listunspent", [a]).resultText == ElectrumReply.canonical([
                ["tx_hash": world.first.txid, "tx_pos": 0, "height": 120, "value": 100_000],
                ["tx_hash": world.second.txid, "tx_pos": 0, "height": 120, "value": 20_000],
                ["tx_hash": world.pending.txid, "tx_pos": 0, "height": 0, "value": 5_000],
            ]))
            // The HD deposit's address: its coin is spent in the mempool by a transaction with an
            // unconfirmed input (-1), which comes after the deposit (0).
            let receive = ChainFixture.scripthash(try await sim.hdAddress(wallet: "w", index: 0))
            #expect(try await client.call("blockchain.scripthash.get_history", [receive]).resultText == ElectrumReply.canonical([
                ["tx_hash": world.deposit.txid, "height": 0, "fee": Int(world.deposit.fee)],
                ["tx_hash": world.spend.txid, "height": -1, "fee": Int(world.spend.fee)],
            ]))
            #expect(try await client.call("blockchain.scripthash.get_balance", [receive]).resultText
                == ElectrumReply.canonical(["confirmed": 0, "unconfirmed": 0]))
            #expect(try await client.call("blockchain.scripthash.listunspent", [receive]).resultText == "[]")
            let change = ChainFixture.scripthash(world.change)
            let changeValue = try #require(world.spend.outputs.last?.value)
            #expect(try await client.call("blockchain.scripthash.get_balance", [change]).resultText
                == ElectrumReply.canonical(["confirmed": 0, "unconfirmed": changeValue]))
            #expect(try await client.result("blockchain.scripthash.subscribe", [change]) as? String
                == ChainFixture.status([(world.spend.txid, -1)]))
            // A script with no history: a null status, empty lists.
            let unused = ChainFixture.scripthash(ChainFixture.p2tr)
            #expect(try await client.result("blockchain.scripthash.subscribe", [unused]) is NSNull)
            #expect(try await client.call("blockchain.scripthash.get_history", [unused]).resultText == "[]")
            #expect(try await client.result("blockchain.scripthash.unsubscribe", [unused]) as? Bool == true)
            #expect(try await client.result("blockchain.scripthash.unsubscribe", [unused]) as? Bool == false)
            #expect(try await client.call("blockchain.scripthash.get_history", ["xyz"]).error?.message == "xyz is not a valid script hash")
        }
    }

    @Test func transactionsAndTheirProofs() async throws {
        try await ChainFixture.withFace(Self.scenario) { sim, client in
            let world = try await Self.world(sim)
            for spec in [world.first, world.second, world.other, world.pending, world.deposit, world.spend] {
                let hex = try #require(try await client.result("blockchain.transaction.get", [spec.txid]) as? String)
                #expect(try ChainFixture.txid(ofHex: hex) == spec.txid)
                let raw = try RawTransaction(hex: hex)
                #expect(raw.outputs.map(\.value) == spec.outputs.map(\.value))
                #expect(raw.outputs.map(\.scriptPubKey) == spec.outputs.map { ChainFixture.script($0.address) })
                #expect(raw.inputs.map { "\($0.previousTxid):\($0.previousIndex)" } == spec.inputs.map { "\($0.txid!):\($0.vout!)" })
            }
            // The second payment of block 120 is third in it, after the coinbase and the first.
            let proof = try #require(try await client.result("blockchain.transaction.get_merkle", [world.second.txid, 120]) as? [String: Any])
            #expect(proof["block_height"] as? Int == 120 && proof["pos"] as? Int == 2)
            let coinbase = try #require(try await client.result("blockchain.transaction.id_from_pos", [120, 0]) as? String)
            let coinbaseHex = try #require(try await client.result("blockchain.transaction.get", [coinbase]) as? String)
            let coinbaseRaw = try RawTransaction(hex: coinbaseHex)
            #expect(coinbaseRaw.inputs.count == 1 && coinbaseRaw.inputs[0].isCoinbase)
            let faucet = await sim.faucetAddress
            #expect(coinbaseRaw.outputs[0].scriptPubKey == ChainFixture.script(faucet))
            // The branch leads from the txid to the header's merkle root.
            let headerHex = try #require(try await client.result("blockchain.block.header", [120]) as? String)
            let header = try BlockHeader(parsing: try #require(Hex.decode(headerHex)))
            var hash = Array(try #require(Hex.decode(world.second.txid)).reversed())
            var position = 2
            for sibling in try #require(proof["merkle"] as? [String]) {
                let other = Array(try #require(Hex.decode(sibling)).reversed())
                hash = BlockHeader.merkleRoot(position % 2 == 0 ? [hash, other] : [other, hash])
                position /= 2
            }
            #expect(hash == header.merkleRoot)
            #expect(try await client.result("blockchain.transaction.id_from_pos", [120, 2]) as? String == world.second.txid)
            let unknown = String(repeating: "ab", count: 32)
            let missing = try await client.call("blockchain.transaction.get", [unknown])
            #expect(missing.error?.code == 2 && missing.error?.message.contains("No such mempool or blockchain transaction") == true)
            #expect(try await client.call("blockchain.transaction.get_merkle", [world.other.txid, 120]).error?.message
                == "tx \(world.other.txid) not in block at height 120")
            // Verbose: Core's JSON for the transaction.
            let verbose = try #require(try await client.result("blockchain.transaction.get", [world.other.txid, true]) as? [String: Any])
            #expect(verbose["txid"] as? String == world.other.txid)
            #expect(verbose["confirmations"] as? Int == 150 - 130 + 1)
        }
    }

    @Test func headersLinkFromGenesisAndCommitToTheirBlocks() async throws {
        try await ChainFixture.withFace(Self.scenario) { sim, client in
            let world = try await Self.world(sim)
            let genesis = try #require(try await client.result("blockchain.block.header", [0]) as? String)
            #expect(try ChainFixture.blockHash(ofHeader: genesis) == "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206")
            var previous = try ChainFixture.blockHash(ofHeader: genesis)
            let listed = try #require(try await client.result("blockchain.block.headers", [1, 200]) as? [String: Any])
            #expect(listed["count"] as? Int == 150 && listed["max"] as? Int == 2016)
            let headers = try #require(listed["headers"] as? [String])
            for (offset, hex) in headers.enumerated() {
                let header = try BlockHeader(parsing: try #require(Hex.decode(hex)))
                #expect(header.previousHashHex == previous, "block \(offset + 1) links to block \(offset)")
                // Its time is what Esplora reports for the block.
                let summary = try #require(try await HTTPProbe.get(sim.esploraURL + "/blocks/\(offset + 1)").array?.first)
                #expect(Int64(header.time) == summary["timestamp"] as? Int64 ?? Int64(summary["timestamp"] as? Int ?? -1))
                #expect(summary["id"] as? String == (try ChainFixture.blockHash(ofHeader: hex)))
                previous = try ChainFixture.blockHash(ofHeader: hex)
            }
            #expect(try await client.result("blockchain.block.header", [120]) as? String == headers[119])
            // Block 120's merkle root is that of its coinbase and the two payments, in order.
            let coinbase = try #require(try await client.result("blockchain.transaction.id_from_pos", [120, 0]) as? String)
            let txids = [coinbase, world.first.txid, world.second.txid].map { Array(Hex.decode($0)!.reversed()) }
            #expect(try BlockHeader(parsing: Hex.decode(headers[119])!).merkleRoot == BlockHeader.merkleRoot(txids))
            let tip = try #require(try await client.result("blockchain.headers.subscribe") as? [String: Any])
            #expect(tip["height"] as? Int == 150 && tip["hex"] as? String == headers[149])
            #expect(try await client.call("blockchain.block.header", [151]).error?.message == "height 151 out of range")
            #expect(try await client.call("blockchain.block.header", [10, 20]).error?.code == 1)
            let beyond = try #require(try await client.result("blockchain.block.headers", [149, 10]) as? [String: Any])
            #expect(beyond["count"] as? Int == 2)
        }
    }

    @Test func serverMethodsAndFees() async throws {
        try await ChainFixture.withFace(Self.scenario) { sim, client in
            let features = try #require(try await client.result("server.features") as? [String: Any])
            #expect(features["genesis_hash"] as? String == "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206")
            #expect(features["protocol_min"] as? String == "1.4" && features["protocol_max"] as? String == "1.6")
            #expect(features["hash_function"] as? String == "sha256")
            #expect(features["server_version"] as? String == "walletwatch-sim 1.0")
            let endpoints = try #require(sim.endpoints)
            #expect(ElectrumReply.canonical(features["hosts"] ?? [:])
                == ElectrumReply.canonical(["127.0.0.1": ["tcp_port": endpoints.electrumTCPPort, "ssl_port": endpoints.electrumTLSPort]]))
            #expect(try await client.result("server.banner") is String)
            #expect(try await client.result("server.ping") is NSNull)
            #expect(try await client.result("blockchain.estimatefee", [6]) as? Double == 0.0001)
            #expect(try await client.result("blockchain.estimatefee", [2, "economical"]) as? Double == 0.0001)
            #expect(try await client.call("blockchain.estimatefee", [2, "fast"]).error?.message == "unknown estimatefee mode: FAST")
            // 1.6 replaced blockchain.relayfee with mempool.get_info.
            #expect(try await client.call("blockchain.relayfee").error?.code == -32601)
            let info = try #require(try await client.result("mempool.get_info") as? [String: Any])
            #expect(info["minrelaytxfee"] as? Double == 0.00001)
            #expect(try await client.call("blockchain.no_such_method").error?.message == "unknown method \"blockchain.no_such_method\"")
        }
    }

    @Test func protocol14AnswersAsElectrumXDoesForIt() async throws {
        try await ChainFixture.withFace(Self.scenario, versions: ["1.4", "1.4"]) { _, client in
            #expect(try await client.result("blockchain.relayfee") as? Double == 0.00001)
            #expect(try await client.call("mempool.get_info").error?.code == -32601)
            // 1.4 (not 1.4.2) has no unsubscribe; its headers come concatenated.
            #expect(try await client.call("blockchain.scripthash.unsubscribe", [String(repeating: "0", count: 64)]).error?.code == -32601)
            let listed = try #require(try await client.result("blockchain.block.headers", [0, 3]) as? [String: Any])
            #expect((listed["hex"] as? String)?.count == 3 * 160 && listed["headers"] == nil)
        }
    }
}
