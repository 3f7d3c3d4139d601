import Foundation
import TestSupport
import Testing
import WalletWatchBitcoin
@testable import WalletWatchSim

/// The Bitcoin Core JSON-RPC face answers what ElectrumX 2.0.0 asks of its daemon
/// (`server/daemon.py`), the way it asks: batches of `getblockhash` and `getblock` (hex), a
/// `getrawmempool`, batches of `getrawtransaction`, `estimatesmartfee` without params (to see if
/// it exists: any error but -32601 will do), `getnetworkinfo`, `getindexinfo`, `getmempoolinfo`;
/// each reply with `Content-Type: application/json` exactly and an `error` key.
@Suite struct CoreRPCTests {
    static func rpc(_ sim: Simulator, _ body: String, password: String = "walletwatch") async throws -> ProbeResult {
        let credentials = Data("walletwatch:\(password)".utf8).base64EncodedString()
        return try await HTTPProbe.send("POST", sim.baseURL + "/bitcoind/", headers: ["Authorization": "Basic " + credentials, "Content-Type": "text/plain"],
                                        body: Array(body.utf8))
    }

    static func call(_ method: String, _ params: [Any] = [], id: Int = 1) -> [String: Any] { ["method": method, "params": params, "id": id] }

    static func json(_ value: Any) -> String { String(decoding: try! JSONSerialization.data(withJSONObject: value), as: UTF8.self) }

    @Test func whatElectrumXAsks() async throws {
        try await Fixture.withSimulator(ChainFixture.scenario(tip: 30)) { sim in
            let paid = try await sim.pay(ChainFixture.p2wpkh, value: 70_000, height: 25)
            let pending = try await sim.pay(ChainFixture.p2pkh, value: 8_000)
            // ElectrumX's vector of getblockhash, then getblock with False.
            let hashes = try await Self.rpc(sim, Self.json((0...30).map { Self.call("getblockhash", [$0], id: $0) }))
            #expect(hashes.status == 200 && hashes.headers["content-type"] == "application/json")
            let hashList = try #require(hashes.array).map { $0["result"] as! String }
            #expect(try #require(hashes.array).allSatisfy { $0["error"] is NSNull })
            #expect(hashList[0] == "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206")
            let blocks = try await Self.rpc(sim, Self.json(hashList.enumerated().map { Self.call("getblock", [$0.element, false], id: $0.offset) }))
            // Every block: its header hashes to the hash asked for, links to the one before, and
            // every input spends an output that exists earlier in the chain.
            var outputs: Set<String> = []
            for (height, entry) in try #require(blocks.array).enumerated() {
                let hex = try #require(entry["result"] as? String)
                let bytes = try #require(Hex.decode(hex))
                let header = try BlockHeader(parsing: Array(bytes.prefix(80)))
                #expect(header.hashHex == hashList[height])
                if height > 0 { #expect(header.previousHashHex == hashList[height - 1]) }
                guard height > 0 else { continue }
                let transactions = try Self.transactions(in: Array(bytes.dropFirst(80)))
                #expect(transactions[0].inputs[0].isCoinbase)
                #expect(BlockHeader.merkleRoot(transactions.map { Array(Hex.decode($0.txid!)!.reversed()) }) == header.merkleRoot)
                for transaction in transactions {
                    for input in transaction.inputs where !input.isCoinbase {
                        #expect(outputs.remove("\(input.previousTxid):\(input.previousIndex)") != nil, "block \(height) spends an unknown output")
                    }
                    for index in transaction.outputs.indices { outputs.insert("\(transaction.txid!):\(index)") }
                }
            }
            #expect(outputs.contains("\(paid.txid):0"))
            // The mempool, and its transactions.
            let mempool = try await Self.rpc(sim, Self.json(Self.call("getrawmempool")))
            #expect(mempool.object?["result"] as? [String] == [pending.txid] && mempool.object?["error"] is NSNull)
            let raw = try await Self.rpc(sim, Self.json([Self.call("getrawtransaction", [pending.txid, 0], id: 1),
                                                         Self.call("getrawtransaction", [String(repeating: "0", count: 64), 0], id: 2)]))
            let replies = try #require(raw.array)
            #expect(try ChainFixture.txid(ofHex: try #require(replies[0]["result"] as? String)) == pending.txid)
            #expect((replies[1]["error"] as? [String: Any])?["code"] as? Int == -5 && replies[1]["result"] is NSNull)
            // estimatesmartfee asked without params: an error, but not "method not found".
            let probe = try await Self.rpc(sim, Self.json(Self.call("estimatesmartfee")))
            #expect(((probe.object?["error"] as? [String: Any])?["code"] as? Int).map { $0 != -32601 } == true)
            let fee = try await Self.rpc(sim, Self.json(Self.call("estimatesmartfee", [2])))
            #expect((fee.object?["result"] as? [String: Any])?["feerate"] as? Double == 0.0001)
            let network = try await Self.rpc(sim, Self.json(Self.call("getnetworkinfo")))
            #expect(((network.object?["result"] as? [String: Any])?["version"] as? Int).map { $0 >= 310_000 } == true)
            #expect((network.object?["result"] as? [String: Any])?["relayfee"] as? Double == 0.00001)
            let indexes = try await Self.rpc(sim, Self.json(Self.call("getindexinfo")))
            for index in ["txindex", "txospenderindex"] {
                #expect(((indexes.object?["result"] as? [String: Any])?[index] as? [String: Any])?["synced"] as? Bool == true)
            }
            let info = try await Self.rpc(sim, Self.json(Self.call("getmempoolinfo")))
            #expect((info.object?["result"] as? [String: Any])?["incrementalrelayfee"] as? Double == 0.00001)
            let count = try await Self.rpc(sim, Self.json(Self.call("getblockcount")))
            #expect(count.object?["result"] as? Int == 30)
        }
    }

    @Test func coreErrorsStatusesAndAuthentication() async throws {
        try await Fixture.withSimulator(ChainFixture.scenario(tip: 30)) { sim in
            let range = try await Self.rpc(sim, Self.json(Self.call("getblockhash", [31])))
            #expect(range.status == 500 && (range.object?["error"] as? [String: Any])?["code"] as? Int == -8)
            let unknown = try await Self.rpc(sim, Self.json(Self.call("getblock", [String(repeating: "1", count: 64), false])))
            #expect((unknown.object?["error"] as? [String: Any])?["code"] as? Int == -5)
            let missing = try await Self.rpc(sim, Self.json(Self.call("sendrawtransaction", ["00"])))
            #expect(missing.status == 404 && (missing.object?["error"] as? [String: Any])?["code"] as? Int == -32601)
            // JSON-RPC 2.0: a result without an error key, status 200 also for errors.
            let modern = try await Self.rpc(sim, #"{"jsonrpc":"2.0","method":"getblockhash","params":[99],"id":"x"}"#)
            #expect(modern.status == 200 && modern.object?["result"] == nil && modern.object?["id"] as? String == "x")
            let garbage = try await Self.rpc(sim, "{nope")
            #expect(garbage.headers["content-type"] == "application/json" && (garbage.object?["error"] as? [String: Any])?["code"] as? Int == -32700)
            let refused = try await Self.rpc(sim, Self.json(Self.call("getblockcount")), password: "wrong")
            #expect(refused.status == 401)
            // Verbose forms.
            let tip = try #require((try await Self.rpc(sim, Self.json(Self.call("getbestblockhash")))).object?["result"] as? String)
            let block = try #require((try await Self.rpc(sim, Self.json(Self.call("getblock", [tip, 1])))).object?["result"] as? [String: Any])
            #expect(block["height"] as? Int == 30 && block["confirmations"] as? Int == 1 && (block["tx"] as? [String])?.count == 1)
        }
    }

    @Test func replacedBlocksAreStillServedByHash() async throws {
        try await Fixture.withSimulator(ChainFixture.scenario(tip: 30)) { sim in
            let old = await sim.blockHash(30)
            _ = try await sim.reorg(depth: 1)
            #expect(await sim.blockHash(30) != old)
            let stale = try await Self.rpc(sim, Self.json(Self.call("getblock", [old, false])))
            let hex = try #require(stale.object?["result"] as? String)
            let bytes = try #require(Hex.decode(hex))
            #expect(try BlockHeader(parsing: Array(bytes.prefix(80))).hashHex == old)
            let verbose = try await Self.rpc(sim, Self.json(Self.call("getblock", [old, 1])))
            #expect((verbose.object?["result"] as? [String: Any])?["confirmations"] as? Int == -1)
        }
    }

    /// The transactions of a block's body (after its header).
    static func transactions(in body: [UInt8]) throws -> [RawTransaction] {
        var offset = 1
        let count = Int(body[0])
        var found: [RawTransaction] = []
        // Each transaction parses only at its own length: try growing prefixes (blocks here are small).
        for _ in 0..<count {
            var end = offset + 60
            while end <= body.count {
                if let transaction = try? RawTransaction(parsing: Array(body[offset..<end])) {
                    found.append(transaction)
                    offset = end
                    break
                }
                end += 1
            }
        }
        #expect(offset == body.count && found.count == count)
        return found
    }
}
