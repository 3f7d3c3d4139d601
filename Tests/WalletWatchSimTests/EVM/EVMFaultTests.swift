import Foundation
import Testing
@testable import WalletWatchSim

/// Every EVM fault changes the answers it names, and only while it is active.
@Suite struct EVMFaultTests {
    @Test func answerFaultsChangeWhatANodeSays() async throws {
        try await Fixture.withSimulator(EVMFixture.simulator()) { sim in
            let alice = try await sim.evmAddress("alice").hex
            try await sim.addEVMFault(.wrongChainID(5))
            #expect(try await EVMFixture.result(sim, "eth_chainId") as? String == "0x5")
            #expect(try await EVMFixture.result(sim, "net_version") as? String == "5")
            #expect(try await EVMFixture.result(sim, "eth_blockNumber") as? String == "0x9")
            try await sim.clearEVMFaults()
            #expect(try await EVMFixture.result(sim, "eth_chainId") as? String == "0x1")

            try await sim.addEVMFault(.nonHexQuantity, on: "eth_getBalance", times: 1)
            let decimal = try #require(try await EVMFixture.result(sim, "eth_getBalance", [alice, "latest"]) as? String)
            let hex = try await EVMFixture.quantity(sim, "eth_getBalance", [alice, "latest"])
            #expect(!decimal.hasPrefix("0x") && Int128(decimal) == hex)
            try await sim.addEVMFault(.nonHexQuantity, on: "eth_getBlockByNumber", times: 1)
            let block = try #require(try await EVMFixture.result(sim, "eth_getBlockByNumber", ["0x4", false]) as? [String: Any])
            #expect(block["number"] as? String == "4" && block["timestamp"] as? String == String(EVMFixture.genesis + 48))
            #expect((block["hash"] as? String)?.hasPrefix("0x") == true, "hashes stay hex")

            try await sim.addEVMFault(.wrongType, on: "eth_getBalance", times: 1)
            #expect(try await EVMFixture.result(sim, "eth_getBalance", [alice, "latest"]) is [String: Any])
            try await sim.addEVMFault(.wrongType, on: "eth_getLogs", times: 1)
            #expect(try await EVMFixture.result(sim, "eth_getLogs", [["fromBlock": "0x0"]]) as? String == "0x1")

            try await sim.addEVMFault(.rpcError(code: -32005, message: "limit exceeded"), on: "eth_get*", times: 1)
            let refused = try await EVMFixture.call(sim, "eth_getBalance", [alice, "latest"])
            #expect((refused["error"] as? [String: Any])?["code"] as? Int == -32005)
            #expect((refused["error"] as? [String: Any])?["message"] as? String == "limit exceeded")
            #expect(try await EVMFixture.call(sim, "eth_getBalance", [alice, "latest"])["result"] is String, "times 1: served once")
            #expect(try await sim.evmFaults().isEmpty)

            try await sim.addEVMFault(.otsUnavailable)
            let ots = try await EVMFixture.call(sim, "ots_getApiLevel")
            #expect((ots["error"] as? [String: Any])?["code"] as? Int == -32601)
            try await sim.clearEVMFaults()
        }
    }

    @Test func aForeignLogAndAnOmittedTransactionBreakTheHistory() async throws {
        try await Fixture.withSimulator(EVMFixture.simulator()) { sim in
            let usdc = try await sim.evmAddress("USDC").hex, bob = try await sim.evmAddress("bob").hex
            try await sim.addEVMFault(.foreignLog)
            let logs = try #require(try await EVMFixture.result(sim, "eth_getLogs", [["fromBlock": "0x0", "address": usdc]]) as? [[String: Any]])
            #expect(logs.count == 3 && logs.last?["address"] as? String == EVMFace.foreignContract.hex)
            #expect(logs.last?["topics"] as? [String] == [EVMSelector.transferTopic, EVMAddress.zero.word, EVMAddress.zero.word])
            try await sim.clearEVMFaults()

            // A provider's cap on the range: wider is refused as BSC's nodes word it, narrower answered.
            try await sim.addEVMFault(.logRangeLimit(3))
            let wide = try await EVMFixture.call(sim, "eth_getLogs", [["fromBlock": "0x1", "toBlock": "0x4", "address": usdc]])
            #expect((wide["error"] as? [String: Any])?["code"] as? Int == -32000)
            #expect((wide["error"] as? [String: Any])?["message"] as? String == "exceed maximum block range: 3")
            #expect(try await EVMFixture.result(sim, "eth_getLogs", [["fromBlock": "0x2", "toBlock": "0x4", "address": usdc]]) is [Any])
            #expect(try await sim.evmRequests().last?.faults == ["log_range_limit"])
            try await sim.clearEVMFaults()

            let transfer = try #require((try await EVMFixture.result(sim, "eth_getBlockByNumber", ["0x4", false]) as? [String: Any])?["transactions"] as? [String])[0]
            let forward = try #require((try await EVMFixture.result(sim, "eth_getBlockByNumber", ["0x6", false]) as? [String: Any])?["transactions"] as? [String])[0]
            try await sim.addEVMFault(.omitTransaction(EVMHash(transfer)!))
            try await sim.addEVMFault(.omitTransaction(EVMHash(forward)!))
            #expect((try await EVMFixture.result(sim, "eth_getLogs", [["fromBlock": "0x0", "address": usdc]]) as? [Any])?.count == 1)
            let search = try #require(try await EVMFixture.result(sim, "ots_searchTransactionsAfter", [bob, 0, 25]) as? [String: Any])
            #expect((search["txs"] as? [[String: Any]])?.map { $0["blockNumber"] as? String } == ["0x5", "0x2"])
            #expect((try await EVMFixture.result(sim, "ots_getInternalOperations", [forward]) as? [Any])?.isEmpty == true)
            let tokentx = try await EVMFixture.explorer(sim.etherscanURL, "chainid=1&module=account&action=tokentx&address=\(bob)")
            #expect((tokentx["result"] as? [[String: String]])?.map { $0["tokenSymbol"] } == ["DAI"])
            let scout = try await EVMFixture.explorer(sim.blockscoutURL, "module=account&action=txlist&address=\(bob)")
            #expect((scout["result"] as? [[String: String]])?.map { $0["blockNumber"] } == ["2", "5"])
            // Balances still count what the histories leave out.
            let word = try #require(try await EVMFixture.result(sim, "eth_call", [["to": usdc, "data": "0x70a08231" + String(repeating: "0", count: 24) + bob.dropFirst(2)], "latest"]) as? String)
            #expect(word == "0x" + EVMFixture.word(2_000_000))
            #expect(try await sim.evmRequests().last { $0.face == "blockscout" }?.faults == ["omit_transaction", "omit_transaction"])
            #expect(try await sim.evmRequests().last?.faults == [], "eth_call tells no history")
        }
    }

    @Test func explorersLimitRefuseAndLag() async throws {
        try await Fixture.withSimulator(EVMFixture.simulator()) { sim in
            let carol = try await sim.evmAddress("carol").hex
            let query = "chainid=1&module=account&action=txlist&address=\(carol)"
            try await sim.addEVMFault(.rateLimit, times: 2)
            for _ in 0..<2 {
                let limited = try await EVMFixture.explorer(sim.etherscanURL, query)
                #expect(limited["status"] as? String == "0" && limited["message"] as? String == "NOTOK")
                #expect(limited["result"] as? String == "Max rate limit reached")
            }
            #expect(try await EVMFixture.explorer(sim.etherscanURL, query)["status"] as? String == "1")

            try await sim.addEVMFault(.callsPerSecond(3))
            var answers: [String] = []
            for _ in 0..<10 { answers.append(try await EVMFixture.explorer(sim.etherscanURL, query)["result"] as? String ?? "rows") }
            #expect(answers.prefix(3).allSatisfy { $0 == "rows" }, "\(answers)")
            #expect(answers.contains("Max calls per sec rate limit reached (3/sec)"), "\(answers)")
            try await sim.clearEVMFaults()

            try await sim.addEVMFault(.chainUnsupported)
            #expect((try await EVMFixture.explorer(sim.etherscanURL, query)["result"] as? String)?.hasPrefix("Free API access is not supported for this chain") == true)
            #expect(try await EVMFixture.explorer(sim.blockscoutURL, "module=account&action=txlist&address=\(carol)")["status"] as? String == "1")
            try await sim.clearEVMFaults()

            // Carol's funding is in block 7: an index three blocks behind the tip (9) has not seen it.
            try await sim.addEVMFault(.lagBlocks(3))
            #expect(try await EVMFixture.explorer(sim.etherscanURL, query)["message"] as? String == "No transactions found")
            #expect(try await EVMFixture.explorer(sim.etherscanURL, "chainid=1&module=account&action=balance&address=\(carol)")["result"] as? String == "0")
            try await sim.clearEVMFaults()
            try await sim.addEVMFault(.lagBlocks(1))
            let lagging = try #require(try await EVMFixture.explorer(sim.etherscanURL, query)["result"] as? [[String: String]])
            #expect(lagging.first?["confirmations"] == "2", "confirmations count from the explorer's tip (8)")
        }
    }

    @Test func httpFaultsReachTheEVMPaths() async throws {
        try await Fixture.withSimulator(EVMFixture.simulator()) { sim in
            try await sim.addFault(.rateLimited(retryAfter: 2), at: "/evm", times: 1)
            let limited = try await EVMFixture.post(sim, Array(#"{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}"#.utf8))
            #expect(limited.status == 429 && limited.headers["retry-after"] == "2")
            try await sim.addFault(.malformedJSON, at: "/etherscan/*", times: 1)
            let broken = try await HTTPProbe.get(sim.etherscanURL + "?chainid=1&module=account&action=balance&address=\(EVMChain.faucetAddress.hex)")
            #expect(broken.status == 200 && broken.json == nil)
            #expect(try await EVMFixture.result(sim, "eth_blockNumber") as? String == "0x9")
        }
    }

    @Test func faultsAreControlledOverHTTP() async throws {
        try await Fixture.withSimulator(EVMFixture.simulator()) { sim in
            let faults = sim.controlURL + "/evm/faults"
            let added = try await HTTPProbe.control("POST", faults, json: #"{"kind":"rpc_error","method":"eth_chainId","message":"boom","times":1}"#)
            #expect(added.status == 201 && added.object?["code"] as? Int == -32000)
            #expect(try await HTTPProbe.control("POST", faults, json: #"{"kind":"omit_transaction","hash":"0x12"}"#).status == 400)
            #expect(try await HTTPProbe.control("POST", faults, json: #"{"kind":"lag_blocks","blocks":2}"#).status == 201)
            #expect(try await HTTPProbe.get(faults).array?.map { $0["kind"] as? String } == ["rpc_error", "lag_blocks"])
            let refused = try await EVMFixture.call(sim, "eth_chainId")
            #expect((refused["error"] as? [String: Any])?["message"] as? String == "boom")
            #expect(try await HTTPProbe.control("DELETE", faults).status == 204)
            #expect(try await HTTPProbe.get(faults).array?.isEmpty == true)
        }
    }
}
