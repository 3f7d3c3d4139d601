import Foundation
import Testing
@testable import WalletWatchSim

/// The EVM face's JSON-RPC: the scenario's chain as a node serves it, batches, errors, logs.
@Suite struct EVMRPCTests {
    @Test func theScenariosChainIsServedWithItsBalancesFeesAndStates() async throws {
        try await Fixture.withSimulator(EVMFixture.simulator()) { sim in
            #expect(try await EVMFixture.result(sim, "eth_chainId") as? String == "0x1")
            #expect(try await EVMFixture.result(sim, "net_version") as? String == "1")
            #expect(try await EVMFixture.result(sim, "eth_blockNumber") as? String == "0x9")
            let alice = try await sim.evmAddress("alice").hex, bob = try await sim.evmAddress("bob").hex
            let carol = try await sim.evmAddress("carol").hex
            let usdc = try await sim.evmAddress("USDC").hex, dai = try await sim.evmAddress("DAI").hex

            // Each block's transaction, by number (blocks 1 to 7; 7 holds two).
            var hashes: [Int: [String]] = [:]
            for number in 1...9 {
                let block = try #require(try await EVMFixture.result(sim, "eth_getBlockByNumber", [EVMHex.quantity(number), false]) as? [String: Any])
                #expect(block["timestamp"] as? String == EVMHex.quantity(EVMFixture.genesis + Int64(number) * 12))
                hashes[number] = block["transactions"] as? [String] ?? []
            }
            #expect((1...6).allSatisfy { hashes[$0]?.count == 1 } && hashes[7]?.count == 2 && hashes[8] == [] && hashes[9] == [])
            func fee(_ hash: String) async throws -> Int128 {
                let receipt = try #require(try await EVMFixture.result(sim, "eth_getTransactionReceipt", [hash]) as? [String: Any])
                let used = try #require(Int128((receipt["gasUsed"] as? String ?? "").dropFirst(2), radix: 16))
                let price = try #require(Int128((receipt["effectiveGasPrice"] as? String ?? "").dropFirst(2), radix: 16))
                return used * price
            }
            // Alice: funded 5 ETH, paid her USDC transfer's fee, got 123 wei through the forwarder.
            let aliceFee = try await fee(hashes[4]![0])
            #expect(try await EVMFixture.quantity(sim, "eth_getBalance", [alice, "latest"]) == 5 * EVMFixture.ether - aliceFee + 123)
            // Bob: funded 1 ETH, paid the reverted transfer's fee, sent 123 wei and its fee.
            let bobFees = try await fee(hashes[5]![0]) + fee(hashes[6]![0])
            #expect(try await EVMFixture.quantity(sim, "eth_getBalance", [bob, "finalized"]) == EVMFixture.ether - bobFees - 123)
            #expect(try await EVMFixture.result(sim, "eth_getBalance", [carol, "latest"]) as? String == EVMHex.quantity(EVMFixture.carolsEther))
            #expect(try await EVMFixture.result(sim, "eth_getBalance", [carol, "0x6"]) as? String == "0x0")
            #expect(try await EVMFixture.result(sim, "eth_getBalance", [carol, "safe"]) as? String == EVMHex.quantity(EVMFixture.carolsEther))

            // Tokens answer through eth_call, at any block.
            func call(_ token: String, _ data: String, _ block: String = "latest") async throws -> String {
                try #require(try await EVMFixture.result(sim, "eth_call", [["to": token, "data": data], block]) as? String)
            }
            let padded = { (address: String) in String(repeating: "0", count: 24) + address.dropFirst(2) }
            #expect(try await call(usdc, "0x70a08231" + padded(alice)) == "0x" + EVMFixture.word(998_000_000))
            #expect(try await call(usdc, "0x70a08231" + padded(bob)) == "0x" + EVMFixture.word(2_000_000))
            #expect(try await call(usdc, "0x70a08231" + padded(alice), "0x3") == "0x" + EVMFixture.word(1_000_000_000))
            #expect(try await call(usdc, "0x70a08231" + padded(alice), "0x2") == "0x" + EVMFixture.word(0))
            #expect(try await call(dai, "0x70a08231" + padded(bob), "finalized") == "0x" + EVMFixture.word(EVMFixture.daiMint))
            #expect(try await call(usdc, "0x313ce567") == "0x" + EVMFixture.word(6))
            #expect(try await call(dai, "0x313ce567") == "0x" + EVMFixture.word(18))
            // symbol(): an ABI string (offset 32, length 4, "USDC" padded).
            #expect(try await call(usdc, "0x95d89b41") == "0x" + EVMFixture.word(32) + EVMFixture.word(4) + "55534443" + String(repeating: "0", count: 56))
            #expect(try await call(alice, "0x70a08231" + padded(bob)) == "0x", "an account has no code: the call returns nothing")
            let reverted = try await EVMFixture.call(sim, "eth_call", [["to": usdc, "data": "0xdeadbeef"], "latest"])
            #expect((reverted["error"] as? [String: Any])?["code"] as? Int == -32000)
            #expect((reverted["error"] as? [String: Any])?["message"] as? String == "execution reverted")

            // The reverted transfer: status 0, no logs, fee paid; the transfer before it logged.
            let failed = try #require(try await EVMFixture.result(sim, "eth_getTransactionReceipt", [hashes[5]![0]]) as? [String: Any])
            #expect(failed["status"] as? String == "0x0" && (failed["logs"] as? [Any])?.isEmpty == true)
            let sent = try #require(try await EVMFixture.result(sim, "eth_getTransactionReceipt", [hashes[4]![0]]) as? [String: Any])
            let log = try #require((sent["logs"] as? [[String: Any]])?.first)
            #expect(log["topics"] as? [String] == [EVMSelector.transferTopic, "0x" + padded(alice), "0x" + padded(bob)])
            #expect(log["data"] as? String == "0x" + EVMFixture.word(2_000_000) && log["address"] as? String == usdc)
            #expect(sent["status"] as? String == "0x1" && sent["type"] as? String == "0x2" && sent["contractAddress"] is NSNull)

            // The internal transfer: only a tracer sees it.
            let operations = try #require(try await EVMFixture.result(sim, "ots_getInternalOperations", [hashes[6]![0]]) as? [[String: Any]])
            #expect(operations.count == 1 && operations[0]["type"] as? Int == 0 && operations[0]["to"] as? String == alice)
            let forwarder = try await sim.evmAddress("forwarder").hex
            #expect(operations[0]["value"] as? String == "0x7b" && operations[0]["from"] as? String == forwarder)

            // The mempool: a transaction without a block, counted by the pending nonce only.
            let pendingHash = try #require(try await sim.evmSummary().mempool.first)
            let waiting = try #require(try await EVMFixture.result(sim, "eth_getTransactionByHash", [pendingHash]) as? [String: Any])
            #expect(waiting["blockNumber"] is NSNull && waiting["blockHash"] is NSNull && waiting["transactionIndex"] is NSNull)
            #expect(try await EVMFixture.result(sim, "eth_getTransactionReceipt", [pendingHash]) is NSNull)
            #expect(try await EVMFixture.result(sim, "eth_getTransactionCount", [alice, "latest"]) as? String == "0x1")
            #expect(try await EVMFixture.result(sim, "eth_getTransactionCount", [alice, "pending"]) as? String == "0x2")
            #expect(try await EVMFixture.result(sim, "eth_getTransactionByHash", ["0x" + String(repeating: "ab", count: 32)]) is NSNull)
        }
    }

    @Test func batchesNotificationsAndErrorsAreAnsweredAsGethAnswersThem() async throws {
        try await Fixture.withSimulator(EVMFixture.simulator()) { sim in
            let batch = try await EVMFixture.post(sim, Array("""
                [{"jsonrpc":"2.0","id":7,"method":"eth_blockNumber","params":[]},
                 {"jsonrpc":"2.0","method":"eth_chainId","params":[]},
                 {"jsonrpc":"2.0","id":"b","method":"eth_nothing","params":[]},
                 {"jsonrpc":"2.0","id":9,"method":"eth_getBalance","params":["0x12","latest"]}]
                """.utf8))
            let replies = try #require(batch.array, "\(batch.text)")
            #expect(replies.count == 3, "the notification gets no answer")
            #expect(replies[0]["id"] as? Int == 7 && replies[0]["result"] as? String == "0x9")
            #expect((replies[1]["error"] as? [String: Any])?["code"] as? Int == -32601 && replies[1]["id"] as? String == "b")
            #expect((replies[1]["error"] as? [String: Any])?["message"] as? String == "the method eth_nothing does not exist/is not available")
            #expect((replies[2]["error"] as? [String: Any])?["code"] as? Int == -32602)
            #expect(batch.headers["content-type"] == "application/json")

            let empty = try #require(try await EVMFixture.post(sim, Array("[]".utf8)).object)
            #expect((empty["error"] as? [String: Any])?["message"] as? String == "empty batch")
            let garbage = try #require(try await EVMFixture.post(sim, Array("{not json".utf8)).object)
            #expect((garbage["error"] as? [String: Any])?["code"] as? Int == -32700 && garbage["id"] is NSNull)
            let notification = try await EVMFixture.post(sim, Array(#"{"jsonrpc":"2.0","method":"eth_blockNumber","params":[]}"#.utf8))
            #expect(notification.status == 200 && notification.body.isEmpty)

            let above = try await EVMFixture.call(sim, "eth_getBalance", [EVMChain.faucetAddress.hex, "0xa"])
            #expect((above["error"] as? [String: Any])?["message"] as? String == "header not found")
            #expect(try await EVMFixture.result(sim, "eth_getBlockByNumber", ["0xa", false]) is NSNull)
            let leadingZero = try await EVMFixture.call(sim, "eth_getBlockByNumber", ["0x01", false])
            #expect((leadingZero["error"] as? [String: Any])?["message"] as? String == "invalid argument 0: hex number with leading zero digits")
            let missing = try await EVMFixture.call(sim, "eth_getBalance", [])
            #expect((missing["error"] as? [String: Any])?["message"] as? String == "missing value for required argument 0")

            // A provider's key in the path is served alike; GET is refused.
            let keyed = try await EVMFixture.post(sim, Array(#"{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}"#.utf8), path: "/v3/SECRETKEY")
            #expect(keyed.object?["result"] as? String == "0x1")
            #expect(try await HTTPProbe.get(sim.evmURL).status == 405)

            // Tags and block objects.
            let finalized = try #require(try await EVMFixture.result(sim, "eth_getBlockByNumber", ["finalized", true]) as? [String: Any])
            #expect(finalized["number"] as? String == "0x7" && (finalized["transactions"] as? [[String: Any]])?.count == 2)
            let safe = try #require(try await EVMFixture.result(sim, "eth_getBlockByNumber", ["safe", false]) as? [String: Any])
            #expect(safe["number"] as? String == "0x7")
            let byHash = try #require(try await EVMFixture.result(sim, "eth_getBlockByHash", [finalized["hash"]!, false]) as? [String: Any])
            #expect(byHash["number"] as? String == "0x7" && byHash["parentHash"] != nil)
            let carol = try await sim.evmAddress("carol").hex
            #expect(try await EVMFixture.result(sim, "eth_getBalance", [carol, ["blockHash": finalized["hash"]!]]) as? String
                    == EVMHex.quantity(EVMFixture.carolsEther))
            let receipts = try #require(try await EVMFixture.result(sim, "eth_getBlockReceipts", ["0x7"]) as? [[String: Any]])
            try #require(receipts.map { $0["transactionIndex"] as? String } == ["0x0", "0x1"])
            #expect(receipts[1]["cumulativeGasUsed"] as? String != receipts[1]["gasUsed"] as? String)
        }
    }

    @Test func logsAreFilteredByBlocksAddressesAndTopics() async throws {
        try await Fixture.withSimulator(EVMFixture.simulator()) { sim in
            let alice = "0x" + String(repeating: "0", count: 24) + (try await sim.evmAddress("alice")).hex.dropFirst(2)
            let bob = "0x" + String(repeating: "0", count: 24) + (try await sim.evmAddress("bob")).hex.dropFirst(2)
            let usdc = try await sim.evmAddress("USDC").hex, dai = try await sim.evmAddress("DAI").hex
            func logs(_ filter: [String: Any]) async throws -> [[String: Any]] {
                try #require(try await EVMFixture.result(sim, "eth_getLogs", [filter]) as? [[String: Any]])
            }
            let all = try await logs(["fromBlock": "0x0", "toBlock": "latest", "topics": [EVMSelector.transferTopic]])
            #expect(all.map { $0["blockNumber"] as? String } == ["0x3", "0x4", "0x7"])
            #expect(all.allSatisfy { $0["removed"] as? Bool == false && ($0["blockTimestamp"] as? String)?.hasPrefix("0x") == true })
            #expect(try await logs(["fromBlock": "0x0", "address": usdc]).count == 2)
            #expect(try await logs(["fromBlock": "0x0", "address": [usdc, dai]]).count == 3)
            #expect(try await logs(["fromBlock": "0x0", "topics": [NSNull(), alice]]).map { $0["blockNumber"] as? String } == ["0x4"])
            #expect(try await logs(["fromBlock": "0x0", "topics": [NSNull(), NSNull(), [alice, bob]]]).count == 3)
            #expect(try await logs(["fromBlock": "0x5", "toBlock": "0x6"]).isEmpty)
            #expect(try await logs(["fromBlock": "0x0"]).count == 3, "latest by default")
            #expect(try await logs([:]).isEmpty, "from latest (block 9) to latest")
            let block4 = try #require(try await EVMFixture.result(sim, "eth_getBlockByNumber", ["0x4", false]) as? [String: Any])
            let byHash = try await logs(["blockHash": block4["hash"]!])
            #expect(byHash.count == 1 && byHash[0]["logIndex"] as? String == "0x0" && byHash[0]["blockHash"] as? String == block4["hash"] as? String)
            let inverted = try await EVMFixture.call(sim, "eth_getLogs", [["fromBlock": "0x5", "toBlock": "0x4"]])
            #expect((inverted["error"] as? [String: Any])?["message"] as? String == "invalid block range params")
            let both = try await EVMFixture.call(sim, "eth_getLogs", [["blockHash": block4["hash"]!, "fromBlock": "0x1"]])
            #expect((both["error"] as? [String: Any])?["code"] as? Int == -32602)
        }
    }

    @Test func anOPStackChainsReceiptsCarryTheL1FeeTheSenderPays() async throws {
        var evm = EVMFixture.scenario
        evm.chainID = 10
        evm.l1Fees = true
        try await Fixture.withSimulator(EVMFixture.simulator(evm)) { sim in
            let alice = try await sim.evmAddress("alice").hex
            let block = try #require(try await EVMFixture.result(sim, "eth_getBlockByNumber", ["0x4", false]) as? [String: Any])
            let hash = try #require((block["transactions"] as? [String])?.first)
            let receipt = try #require(try await EVMFixture.result(sim, "eth_getTransactionReceipt", [hash]) as? [String: Any])
            let number = { (key: String) in Int128((receipt[key] as? String ?? "").dropFirst(2), radix: 16) ?? -1 }
            #expect(number("l1Fee") > 0 && number("l1GasUsed") > 0 && number("l1GasPrice") > 0)
            #expect(Array(receipt.keys).contains("l1BaseFeeScalar") && Array(receipt.keys).contains("l1BlobBaseFeeScalar"))
            let paid = number("gasUsed") * number("effectiveGasPrice") + number("l1Fee")
            #expect(try await EVMFixture.quantity(sim, "eth_getBalance", [alice, "latest"]) == 5 * EVMFixture.ether - paid + 123)
            #expect(try await EVMFixture.result(sim, "eth_chainId") as? String == "0xa")
        }
    }
}
