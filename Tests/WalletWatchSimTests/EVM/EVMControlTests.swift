import Foundation
import Testing
@testable import WalletWatchSim

/// The EVM chain changes through the control API: payments, mining, reorgs, finality, new
/// accounts and contracts; and its request log counts what a client asked.
@Suite struct EVMControlTests {
    @Test func paymentsAreMinedAtOnceOrWaitInTheMempool() async throws {
        try await Fixture.withSimulator(EVMFixture.simulator()) { sim in
            let control = sim.controlURL + "/evm"
            let summary = try #require(try await HTTPProbe.get(control).object)
            #expect(summary["chain_id"] as? Int == 1 && summary["tip_height"] as? Int == 9 && summary["finalized"] as? Int == 7)
            #expect((summary["accounts"] as? [[String: Any]])?.map { $0["name"] as? String } == ["alice", "bob", "carol"])
            #expect((summary["mempool"] as? [String])?.count == 1 && summary["faucet"] as? String == EVMChain.faucetAddress.hex)

            let paid = try await HTTPProbe.control("POST", control + "/transactions", json: #"{"type":"transfer","to":"carol","value":"7"}"#)
            #expect(paid.status == 201, "\(paid.text)")
            let sent = try #require(paid.object)
            #expect(sent["block_number"] as? Int == 10 && sent["status"] as? Int == 1 && sent["gas_used"] as? Int == 21_000)
            let price = try #require(Int128(sent["effective_gas_price"] as? String ?? ""))
            #expect(sent["fee"] as? String == String(21_000 * price))
            #expect(try await EVMFixture.result(sim, "eth_blockNumber") as? String == "0xa")
            #expect(try await sim.evmSummary().mempool.count == 1, "the waiting transaction still waits")

            let queued = try #require(try await HTTPProbe.control("POST", control + "/transactions", json: """
                {"type":"token_transfer","token":"USDC","from":"alice","to":"carol","amount":5,"mine":false}
                """).object)
            #expect(queued["block_number"] is NSNull || queued["block_number"] == nil)
            let mined = try #require(try await HTTPProbe.control("POST", control + "/mine", json: #"{"blocks":2}"#).object)
            #expect(mined["tip_height"] as? Int == 12 && (mined["transactions"] as? [String])?.count == 2 && (mined["mined"] as? [String])?.count == 2)
            let state = try #require(try await HTTPProbe.get(control + "/transactions/" + (queued["hash"] as? String ?? "")).object)
            #expect(state["block_number"] as? Int == 11 && state["status"] as? Int == 1)

            let broke = try await HTTPProbe.control("POST", control + "/transactions", json: #"{"type":"transfer","from":"carol","to":"bob","value":"13000000000000000000"}"#)
            #expect(broke.status == 409 && (broke.object?["error"] as? String)?.hasPrefix("insufficient funds for gas * price + value") == true)
            #expect(try await HTTPProbe.control("POST", control + "/transactions", json: #"{"type":"transfer","to":"nobody","value":1}"#).status == 404)
            #expect(try await HTTPProbe.control("POST", control + "/transactions", json: #"{"type":"transfer","to":"bob","value":1,"block":3}"#).status == 400)
            let failing = try #require(try await HTTPProbe.control("POST", control + "/transactions", json: """
                {"type":"internal","from":"alice","to":"carol","value":"1000","fail":true}
                """).object)
            #expect(failing["status"] as? Int == 0)
            let error = try await EVMFixture.result(sim, "ots_getTransactionError", [failing["hash"]!]) as? String
            #expect(error?.hasPrefix("0x08c379a0") == true, "a revert reason: Error(string)")
            let operations = try #require(try await EVMFixture.result(sim, "ots_getInternalOperations", [failing["hash"]!]) as? [Any])
            #expect(operations.count == 1, "a tracer lists the reverted call, as Erigon's does")
            let internalList = try await EVMFixture.explorer(sim.etherscanURL, "chainid=1&module=account&action=txlistinternal&txhash=\(failing["hash"] as? String ?? "")")
            #expect((internalList["result"] as? [[String: String]])?.first?["isError"] == "1")
        }
    }

    @Test func aReorgReplacesBlocksAndDropsWhatItIsTold() async throws {
        try await Fixture.withSimulator(EVMFixture.simulator()) { sim in
            let carol = try await sim.evmAddress("carol").hex
            let paid = try await sim.sendEVM(EVMTransactionSpec(.transfer, to: "carol", value: 1_000))
            let kept = try await sim.sendEVM(EVMTransactionSpec(.transfer, from: "bob", to: "alice", value: 2_000))
            let old = try #require(try await EVMFixture.result(sim, "eth_getBlockByNumber", ["0xb", false]) as? [String: Any])
            #expect(try await EVMFixture.quantity(sim, "eth_getBalance", [carol, "latest"]) == EVMFixture.carolsEther + 1_000)

            let refused = try await HTTPProbe.control("POST", sim.controlURL + "/evm/reorg", json: #"{"depth":5}"#)
            #expect(refused.status == 409 && (refused.object?["error"] as? String)?.contains("finalized block 9") == true)
            let reply = try await sim.reorgEVM(depth: 2, blocks: 3, drop: [paid.hash])
            #expect(reply.forkBlock == 9 && reply.tip == 12 && reply.dropped == [paid.hash] && reply.replaced["11"] == old["hash"] as? String)
            #expect(try await EVMFixture.result(sim, "eth_getBlockByHash", [old["hash"]!, false]) is NSNull)
            #expect(try await EVMFixture.result(sim, "eth_getTransactionReceipt", [paid.hash]) is NSNull)
            #expect(try await EVMFixture.quantity(sim, "eth_getBalance", [carol, "latest"]) == EVMFixture.carolsEther)
            let moved = try await sim.evmTransaction(kept.hash)
            #expect(moved.blockNumber == 10 && moved.blockHash != kept.blockHash && moved.status == 1)
            let receipt = try #require(try await EVMFixture.result(sim, "eth_getTransactionReceipt", [kept.hash]) as? [String: Any])
            #expect(receipt["blockHash"] as? String == moved.blockHash)
            // The mempool's waiting transaction was mined in the first new block with the kept one.
            #expect(try await sim.evmSummary().mempool.isEmpty)

            #expect(try await sim.reorgEVM(depth: 5, force: true).tip == 12)
            let finality = try await sim.setEVMFinality(depth: 0, safeDepth: 1)
            #expect(finality.finalized == 12 && finality.safe == 11)
            #expect((try await EVMFixture.result(sim, "eth_getBlockByNumber", ["finalized", false]) as? [String: Any])?["number"] as? String == "0xc")
        }
    }

    @Test func contractsDeclaredWhileRunningExistOnceCreated() async throws {
        try await Fixture.withSimulator(EVMFixture.simulator()) { sim in
            let eurc = try await sim.addEVMToken(EVMTokenSpec(symbol: "EURC", name: "Euro Coin", decimals: 6))
            let dave = try await sim.addEVMAccount("dave")
            #expect(try await EVMFixture.result(sim, "eth_getCode", [eurc.hex, "latest"]) as? String == "0x")
            let early = try await HTTPProbe.control("POST", sim.controlURL + "/evm/transactions", json: #"{"type":"mint","token":"EURC","to":"dave","amount":1}"#)
            #expect(early.status == 409 && (early.object?["error"] as? String)?.contains("create it first") == true)
            let created = try await sim.sendEVM(EVMTransactionSpec(.create, contract: "EURC"))
            #expect(created.contractAddress == eurc && created.to == nil && created.status == 1)
            #expect((try await EVMFixture.result(sim, "eth_getCode", [eurc.hex, "latest"]) as? String)?.count ?? 0 > 2)
            #expect(try await EVMFixture.result(sim, "eth_getCode", [eurc.hex, "0x9"]) as? String == "0x")
            try await sim.sendEVM(EVMTransactionSpec(.mint, to: "dave", amount: 250, token: "EURC"))
            let word = try #require(try await EVMFixture.result(sim, "eth_call", [["to": eurc.hex, "input": "0x70a08231" + dave.word.dropFirst(2)], "latest"]) as? String)
            #expect(word == "0x" + EVMFixture.word(250))
            let faucet = try await EVMFixture.explorer(sim.etherscanURL, "chainid=1&module=account&action=txlist&address=\(EVMChain.faucetAddress.hex)&sort=desc")
            let creation = try #require((faucet["result"] as? [[String: String]])?.first { $0["contractAddress"] == eurc.hex })
            #expect(creation["to"] == "" && creation["blockNumber"] == String(created.blockNumber ?? -1))
            #expect(try await HTTPProbe.control("POST", sim.controlURL + "/evm/accounts", json: #"{"name":"dave"}"#).status == 409)
            #expect(try await HTTPProbe.control("POST", sim.controlURL + "/evm/accounts", json: #"{"name":"erin","balance":"5"}"#).status == 400)
        }
    }

    @Test func theRequestLogCountsCallsAndTheRequestsTheyCameIn() async throws {
        try await Fixture.withSimulator(EVMFixture.simulator()) { sim in
            _ = try await EVMFixture.result(sim, "eth_blockNumber")
            _ = try await EVMFixture.post(sim, Array("""
                [{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["\(EVMChain.faucetAddress.hex)","latest"]},
                 {"jsonrpc":"2.0","id":2,"method":"eth_getTransactionCount","params":["\(EVMChain.faucetAddress.hex)","latest"]}]
                """.utf8))
            _ = try await EVMFixture.explorer(sim.etherscanURL, "chainid=1&module=account&action=balance&address=\(EVMChain.faucetAddress.hex)&apikey=SECRET")
            let log = try await sim.evmRequests()
            #expect(log.map(\.request) == [1, 2, 2, 3])
            #expect(log.map(\.method) == ["eth_blockNumber", "eth_getBalance", "eth_getTransactionCount", "account.balance"])
            #expect(log.map(\.batch) == [nil, 2, 2, nil] && log.map(\.face) == ["rpc", "rpc", "rpc", "etherscan"])
            #expect(log[3].params?["apikey"] == .string("<redacted>"))
            let overHTTP = try #require(try await HTTPProbe.get(sim.controlURL + "/evm/requests").array)
            #expect(overHTTP.count == 4)
            #expect(try await HTTPProbe.control("DELETE", sim.controlURL + "/evm/requests").status == 204)
            _ = try await EVMFixture.result(sim, "eth_chainId")
            #expect(try await sim.evmRequests().map(\.request) == [1])
        }
    }

    @Test func withoutAnEVMSectionThereIsNoChain() async throws {
        try await Fixture.withSimulator(Scenario()) { (sim: Simulator) async throws in
            #expect(try await HTTPProbe.get(sim.controlURL + "/evm").status == 404)
            #expect(try await EVMFixture.post(sim, Array(#"{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}"#.utf8)).status == 404)
            #expect(try await HTTPProbe.get(sim.etherscanURL + "?chainid=1").status == 404)
        }
    }

    @Test func anEtherscanKeyIsRequiredWhenTheScenarioSetsOne() async throws {
        var evm = EVMFixture.scenario
        evm.etherscanAPIKey = "demo-key"
        try await Fixture.withSimulator(EVMFixture.simulator(evm)) { (sim: Simulator) async throws in
            let query = "chainid=1&module=account&action=balance&address=\(EVMChain.faucetAddress.hex)"
            #expect(try await EVMFixture.explorer(sim.etherscanURL, query)["result"] as? String == "Invalid API Key")
            #expect(try await EVMFixture.explorer(sim.etherscanURL, query + "&apikey=wrong")["result"] as? String == "Invalid API Key")
            #expect(try await EVMFixture.explorer(sim.etherscanURL, query + "&apikey=demo-key")["status"] as? String == "1")
        }
    }
}
