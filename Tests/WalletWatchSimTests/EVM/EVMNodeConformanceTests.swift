import Foundation
import TestSupport
import Testing
@testable import WalletWatchSim

/// The test that matters most for the EVM face: the same scenario played on the real test node
/// (py-evm through eth-tester, `Tests/Support/evm`) and on the simulator (accounts, native
/// transfers, a 6- and an 18-decimal token deployed and minted, a token transfer and one that
/// reverts, an internal transfer and one that reverts, a transaction in the mempool, mining, a
/// reorg), then every method's answer compared, in kind and in value: every block, transaction,
/// receipt, log, balance, nonce and call at every block and tag, Otterscan's search walked page
/// by page in both directions, and both explorers' lists. The simulator is given each
/// transaction's gas used by the node (it has no EVM); everything else it computes itself, base
/// fees (EIP-1559) and fees included. Then web3.py reads both and must read the same.
@Suite(.serialized) struct EVMNodeConformanceTests {
    @Test func theSimulatorAnswersAsTheRealNode() async throws {
        let node = try await EVMNode.start(chainID: 1, finalityDepth: 2, blockTime: 12, genesisTimestamp: Int(EVMFixture.genesis))
        do {
            let scenario = Scenario(now: SimTime(unixSeconds: EVMFixture.genesis),
                                    evm: EVMScenario(chainID: 1, genesisTime: SimTime(unixSeconds: EVMFixture.genesis), finalityDepth: 2, tipHeight: 0))
            try await Fixture.withSimulator(scenario) { sim in
                let twin = EVMTwin(node: node, sim: sim)
                try await Self.play(twin)
                try await Self.expectAlike(twin, "with a transaction in the mempool")
                _ = try await node.control("mine")
                try await sim.mineEVM()
                _ = try await node.control("setAutomine", ["enabled": true])
                try await twin.mapBlocks()
                try await Self.expectAlike(twin, "after mining it")
                try await Self.expectWeb3ReadsAlike(twin)

                // A reorg of the last two blocks: the mempool's transaction is mined again.
                let old = try #require(try await EVMFixture.result(sim, "eth_getBlockByNumber", ["latest", false]) as? [String: Any])
                let theirs = try await node.control("reorg", ["depth": 2])
                let ours = try await sim.reorgEVM(depth: 2)
                #expect(ours.forkBlock == theirs["forkBlock"] as? Int && ours.mined.count == (theirs["mined"] as? [Any])?.count)
                try await twin.mapBlocks()
                let gone = try await twin.batch([("eth_getBlockByHash", [twin.nodeHash(old["hash"] as! String), false])],
                                               simParams: { _ in [old["hash"]!, false] })
                #expect(gone[0].node["result"] == .null && gone[0].sim["result"] == .null, "the replaced block is gone from both")
                try await Self.expectAlike(twin, "after a reorg")
            }
        } catch {
            Issue.record("the EVM node's log:\n\(node.log.suffix(3000))")
            await node.stop()
            throw error
        }
        await node.stop()
    }

    /// The scenario, step by step on both.
    static func play(_ twin: EVMTwin) async throws {
        let ether = EVMFixture.ether
        for name in ["alice", "bob", "carol"] { try await twin.account(name) }
        let a = twin.addresses
        try await twin.step("fund", ["to": a["alice"]!, "value": String(5 * ether)], EVMTransactionSpec(.transfer, to: "alice", value: EVMAmount(5 * ether)))
        try await twin.step("fund", ["to": a["bob"]!, "value": String(ether)], EVMTransactionSpec(.transfer, to: "bob", value: EVMAmount(ether)))
        try await twin.step("fund", ["to": a["carol"]!, "value": String(EVMFixture.carolsEther)],
                            EVMTransactionSpec(.transfer, to: "carol", value: EVMAmount(EVMFixture.carolsEther)))
        for (symbol, name, decimals) in [("USDC", "USD Coin", 6), ("DAI", "Dai Stablecoin", 18)] {
            let reply = try await twin.node.control("deployToken", ["name": name, "symbol": symbol, "decimals": decimals])
            let address = try #require(reply["address"] as? String).lowercased()
            try await twin.sim.addEVMToken(EVMTokenSpec(symbol: symbol, name: name, decimals: decimals, address: EVMAddress(address)))
            let sent = try await twin.sim.sendEVM(EVMTransactionSpec(.create, contract: symbol, gasUsed: Int(try #require(reply["gasUsed"] as? String))))
            try twin.record(sim: sent.hash, node: try #require(reply["hash"] as? String))
            #expect(sent.contractAddress?.hex == address && reply["fee"] as? String == sent.fee?.description, "\(symbol) deployed alike")
        }
        let usdc = try await twin.sim.evmAddress("USDC").hex, dai = try await twin.sim.evmAddress("DAI").hex
        try await twin.step("mintToken", ["token": usdc, "to": a["alice"]!, "amount": "1000000000"],
                            EVMTransactionSpec(.mint, to: "alice", amount: 1_000_000_000, token: "USDC"))
        try await twin.step("tokenTransfer", ["token": usdc, "from": a["alice"]!, "to": a["bob"]!, "amount": "2000000"],
                            EVMTransactionSpec(.tokenTransfer, from: "alice", to: "bob", amount: 2_000_000, token: "USDC"))
        let reverted = try await twin.step("tokenTransfer", ["token": usdc, "from": a["bob"]!, "to": a["alice"]!, "amount": "9000000"],
                                           EVMTransactionSpec(.tokenTransfer, from: "bob", to: "alice", amount: 9_000_000, token: "USDC"))
        #expect(reverted.node["status"] as? Int == 0 && reverted.sim.status == 0, "more than bob holds: reverted on both")
        try await twin.step("mintToken", ["token": dai, "to": a["bob"]!, "amount": String(EVMFixture.daiMint)],
                            EVMTransactionSpec(.mint, to: "bob", amount: EVMAmount(EVMFixture.daiMint), token: "DAI"))
        let forwarder = try await twin.node.control("deployForwarder", [:])
        let forwarderAddress = try #require(forwarder["address"] as? String).lowercased()
        try await twin.sim.addEVMContract(EVMContractSpec(name: "fwd", address: EVMAddress(forwarderAddress)))
        let created = try await twin.sim.sendEVM(EVMTransactionSpec(.create, contract: "fwd", gasUsed: Int(try #require(forwarder["gasUsed"] as? String))))
        try twin.record(sim: created.hash, node: try #require(forwarder["hash"] as? String))
        try await twin.step("forward", ["forwarder": forwarderAddress, "from": a["bob"]!, "to": a["alice"]!, "value": "123"],
                            EVMTransactionSpec(.internal, from: "bob", to: "alice", value: 123, via: "fwd"))
        let undone = try await twin.step("forward", ["forwarder": forwarderAddress, "from": a["alice"]!, "to": a["carol"]!, "value": "1000", "revert": true],
                                         EVMTransactionSpec(.internal, from: "alice", to: "carol", value: 1_000, via: "fwd", fail: true))
        #expect(undone.node["status"] as? Int == 0 && undone.sim.status == 0)
        _ = try await twin.node.control("mine", ["blocks": 2])
        try await twin.sim.mineEVM(blocks: 2)
        // A payment waiting in the mempool.
        _ = try await twin.node.control("setAutomine", ["enabled": false])
        try await twin.step("transfer", ["from": a["alice"]!, "to": a["bob"]!, "value": "1000"],
                            EVMTransactionSpec(.transfer, from: "alice", to: "bob", value: 1_000), mined: false)
        try await twin.mapBlocks()
    }

    /// Every comparison, reported together.
    static func expectAlike(_ twin: EVMTwin, _ moment: String) async throws {
        var comparison = EVMAnswerComparison(twin)
        let sim = twin.sim
        let tip = try await sim.evmSummary().tipHeight
        let names = ["faucet", "alice", "bob", "carol"]
        let contracts = ["USDC", "DAI", "fwd"]
        var addresses = names.compactMap { twin.addresses[$0] }
        for name in contracts { addresses.append(try await sim.evmAddress(name).hex) }
        addresses.append(EVMAddress.zero.hex)
        let blocks = ["latest", "safe", "finalized", "earliest", "pending", EVMHex.quantity(tip + 1)] + (0...tip).map { EVMHex.quantity($0) }

        func compare(_ what: String, _ calls: [(String, [Any])], bytecode: Bool = false, simParams: ((Int) -> [Any])? = nil) async throws {
            for (index, pair) in try await twin.batch(calls, simParams: simParams).enumerated() {
                comparison.compare("\(what) \(calls[index].0)\(calls[index].1)", pair, bytecode: bytecode)
            }
        }
        try await compare("chain", ["eth_chainId", "net_version", "eth_blockNumber", "eth_syncing", "eth_gasPrice", "eth_maxPriorityFeePerGas",
                                    "ots_getApiLevel", "eth_nothing"].map { ($0, [Any]()) })
        for method in ["eth_getBalance", "eth_getTransactionCount"] {
            try await compare("state", addresses.flatMap { address in blocks.map { (method, [address, $0]) } })
        }
        try await compare("code", addresses.flatMap { address in ["latest", "0x1", "finalized"].map { ("eth_getCode", [address, $0]) } }, bytecode: true)
        try await compare("ots_hasCode", addresses.map { ("ots_hasCode", [$0, "latest"]) })

        // Calls: every token function for every holder, at several blocks, and what reverts.
        var calls: [(String, [Any])] = []
        for contract in contracts {
            let address = try await sim.evmAddress(contract).hex
            for block in ["latest", "finalized", "0x1", "0x5"] {
                for data in ["0x313ce567", "0x95d89b41", "0x06fdde03", "0x18160ddd", "0xdeadbeef"] + addresses.map({ "0x70a08231" + String(repeating: "0", count: 24) + $0.dropFirst(2) }) {
                    calls.append(("eth_call", [["to": address, "data": data], block]))
                }
            }
            calls.append(("eth_call", [["to": address, "data": "0x" + EVMSelector.forwardAndRevert + String(repeating: "0", count: 64)], "latest"]))
        }
        calls.append(("eth_call", [["to": twin.addresses["alice"]!, "data": "0x70a08231"], "latest"]))
        try await compare("calls", calls)

        // Blocks, in both forms, by number, tag and hash.
        try await compare("blocks", blocks.flatMap { [("eth_getBlockByNumber", [$0, false]), ("eth_getBlockByNumber", [$0, true])] })
        var nodeBlockHashes: [String] = []
        for number in 0...tip {
            let block = try #require(try await twin.node.call("eth_getBlockByNumber", [EVMHex.quantity(number), false]).result as? [String: Any])
            nodeBlockHashes.append(try #require(block["hash"] as? String))
        }
        let unknown = "0x" + String(repeating: "ab", count: 32)
        try await compare("blocks by hash", (nodeBlockHashes + [unknown]).map { ("eth_getBlockByHash", [$0, true]) },
                          simParams: { [twin.simHash((nodeBlockHashes + [unknown])[$0]), true] })
        try await compare("block receipts", blocks.map { ("eth_getBlockReceipts", [$0]) })

        // Every transaction, its receipt, trace and error.
        let hashes = twin.transactions + [unknown]
        for method in ["eth_getTransactionByHash", "eth_getTransactionReceipt", "ots_getInternalOperations", "ots_getTransactionError"] {
            try await compare("transactions", hashes.map { (method, [$0]) }, simParams: { [twin.simHash(hashes[$0])] })
        }

        // Logs: by range, address, topics and block hash.
        let usdc = try await sim.evmAddress("USDC").hex, dai = try await sim.evmAddress("DAI").hex
        let topic = { (name: String) in "0x" + String(repeating: "0", count: 24) + twin.addresses[name]!.dropFirst(2) }
        let filters: [[String: Any]] = [
            ["fromBlock": "0x0", "toBlock": "latest"], ["fromBlock": "earliest"], [:], ["fromBlock": "0x0", "address": usdc],
            ["fromBlock": "0x0", "address": [usdc, dai]], ["fromBlock": "0x0", "topics": [EVMSelector.transferTopic, NSNull(), topic("bob")]],
            ["fromBlock": "0x0", "topics": [NSNull(), [topic("alice"), topic("bob")]]], ["fromBlock": "0x3", "toBlock": "0x7"],
            ["fromBlock": "0x0", "toBlock": "finalized", "topics": [[EVMSelector.transferTopic]]], ["fromBlock": "0x9", "toBlock": "0x2"],
            ["fromBlock": EVMHex.quantity(tip + 5)],
        ]
        try await compare("logs", filters.map { ("eth_getLogs", [$0]) })
        try await compare("logs by block", nodeBlockHashes.map { ("eth_getLogs", [["blockHash": $0]]) },
                          simParams: { [["blockHash": twin.simHash(nodeBlockHashes[$0])]] })

        // Otterscan's search, page by page, in both directions.
        for address in addresses {
            for size in [1, 2, 25] {
                for forward in [true, false] {
                    let method = forward ? "ots_searchTransactionsAfter" : "ots_searchTransactionsBefore"
                    var start = 0
                    for _ in 0..<40 {
                        let pair = try await twin.batch([(method, [address, start, size])])[0]
                        comparison.compare("\(method)(\(address), \(start), \(size))", pair)
                        guard let result = pair.node["result"], let txs = result["txs"]?.array, !txs.isEmpty,
                              result[forward ? "firstPage" : "lastPage"] == .bool(false),
                              let edge = (forward ? txs.first : txs.last)?["blockNumber"]?.string, let number = Int(edge.dropFirst(2), radix: 16) else { break }
                        start = number
                    }
                }
            }
            try await compare("ots errors", [("ots_searchTransactionsAfter", [address, 0, 26])])
        }

        // Both explorers' lists, pages and errors.
        for dialect in [EVMFace.Dialect.etherscan, .blockscout] {
            let prefix = dialect == .etherscan ? "chainid=1&module=account&" : "module=account&"
            var queries: [String] = []
            for address in addresses {
                for action in ["txlist", "txlistinternal", "tokentx"] {
                    for window in ["", "&sort=desc", "&page=2&offset=2", "&startblock=3&endblock=8", "&endblock=latest&sort=asc&offset=1000"] {
                        queries.append("action=\(action)&address=\(address)\(window)")
                    }
                }
                queries += ["action=tokentx&address=\(address)&contractaddress=\(dai)", "action=balance&address=\(address)",
                            "action=balance&address=\(address)&tag=latest", "action=balance&address=\(address)&tag=3"]
            }
            queries += twin.transactions.map { "action=txlistinternal&txhash=\($0)" }
            queries += ["action=txlist", "action=txlist&address=0x12", "action=balance&address=0xnothex", "action=unknown&address=\(addresses[1])",
                        "action=txlist&address=\(addresses[1])&page=11&offset=1000", "action=balance&address=\(addresses[1])&tag=999"]
            for query in queries {
                var pair = try await twin.explorer(dialect, prefix + query)
                if query.hasPrefix("action=txlistinternal&txhash=") {
                    // The same query with each side's hash.
                    let hash = String(query.dropFirst("action=txlistinternal&txhash=".count))
                    pair.sim = try await twin.explorer(dialect, prefix + "action=txlistinternal&txhash=" + twin.simHash(hash)).sim
                }
                comparison.compare("\(dialect.rawValue) \(query)", pair)
            }
            if dialect == .etherscan {
                comparison.compare("etherscan without chainid", try await twin.explorer(.etherscan, "module=account&action=txlist&address=\(addresses[1])"))
                comparison.compare("etherscan wrong module", try await twin.explorer(.etherscan, "chainid=1&module=block&action=txlist"))
            }
        }
        #expect(comparison.compared > 1_000)
        if !comparison.differences.isEmpty {
            Issue.record(Comment(rawValue: "\(moment): the node and the simulator differ in \(comparison.differences.count) places:\n"
                                 + comparison.differences.prefix(60).joined(separator: "\n")))
        }
    }

    /// web3.py (the Ethereum Foundation's client, `Tests/Support/evm/evm_oracle.py`) reads the
    /// balances, token metadata and Transfer logs of the three accounts from both, and must read
    /// the same figures, digit for digit.
    static func expectWeb3ReadsAlike(_ twin: EVMTwin) async throws {
        let tokens = [try await twin.sim.evmAddress("USDC").hex, try await twin.sim.evmAddress("DAI").hex]
        func read(_ url: String) async throws -> OrderedJSON {
            var arguments = [EVMNode.scriptPath.replacingOccurrences(of: "evm_node.py", with: "evm_oracle.py"), url]
            for name in ["alice", "bob", "carol"] { arguments += ["--address", twin.addresses[name]!] }
            for token in tokens { arguments += ["--token", token] }
            let folder = TemporaryDirectory("walletwatch-web3")
            let result = try await ProcessRunner.run(EVMNode.pythonPath, arguments, environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path,
                                                                                                  "PYTHONDONTWRITEBYTECODE": "1"],
                                                     currentDirectory: folder.path)
            #expect(result.status == 0, "web3.py on \(url): \(result.stderr.suffix(1500))")
            return try #require(OrderedJSON.parse(Array(result.stdout.utf8)), "web3.py: \(result.stdout.prefix(300))")
        }
        let theirs = try await read(twin.node.url), ours = try await read(twin.sim.evmURL)
        var comparison = EVMAnswerComparison(twin)
        comparison.compare("web3.py", (theirs, ours))
        #expect(comparison.differences.isEmpty, "web3.py reads differently:\n\(comparison.differences.prefix(10).joined(separator: "\n"))")
        // The figures themselves: carol holds 12.345678901234567891 ether, bob 10^24 DAI units
        // (web3.py names addresses checksummed; ours are lower case).
        func member(_ value: OrderedJSON?, _ address: String) -> OrderedJSON? {
            guard case .object(let members)? = value else { return nil }
            return members.first { $0.key.lowercased() == address }?.value
        }
        #expect(member(ours["native"], twin.addresses["carol"]!)?["latest"] == .number(String(EVMFixture.carolsEther)))
        let dai = member(ours["tokens"], tokens[1])
        #expect(member(dai?["balances"], twin.addresses["bob"]!)?["finalized"] == .number(String(EVMFixture.daiMint)))
        #expect(dai?["decimals"] == .number("18") && dai?["symbol"] == .string("DAI"))
    }
}
