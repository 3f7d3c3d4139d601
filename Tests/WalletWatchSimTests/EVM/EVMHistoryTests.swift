import Foundation
import Testing
@testable import WalletWatchSim

/// The EVM face's histories: Otterscan's search and the two explorers' account lists, and what a
/// client adds up from them.
@Suite struct EVMHistoryTests {
    /// Bob's call trees hold his funding (block 2), his reverted transfer (5) and his forward (6);
    /// the USDC sent to him and the DAI minted to him are logs, not calls: Erigon's index does
    /// not find them.
    @Test func otterscanSearchesPageByWholeBlocksNewestFirst() async throws {
        try await Fixture.withSimulator(EVMFixture.simulator()) { sim in
            let bob = try await sim.evmAddress("bob").hex
            func page(_ method: String, _ block: Int, _ size: Int) async throws -> (blocks: [String], first: Bool, last: Bool) {
                let answer = try #require(try await EVMFixture.result(sim, method, [bob, block, size]) as? [String: Any])
                let txs = try #require(answer["txs"] as? [[String: Any]]), receipts = try #require(answer["receipts"] as? [[String: Any]])
                #expect(txs.map { $0["hash"] as? String } == receipts.map { $0["transactionHash"] as? String })
                #expect(receipts.allSatisfy { $0["timestamp"] is Int }, "Erigon's receipts carry the block time as a JSON number")
                return (txs.compactMap { $0["blockNumber"] as? String }, answer["firstPage"] as? Bool ?? false, answer["lastPage"] as? Bool ?? false)
            }
            let all = try await page("ots_searchTransactionsAfter", 0, 25)
            #expect(all.blocks == ["0x6", "0x5", "0x2"] && all.first && all.last)
            let first = try await page("ots_searchTransactionsAfter", 0, 1)
            #expect(first.blocks == ["0x2"] && !first.first && first.last)
            let second = try await page("ots_searchTransactionsAfter", 2, 1)
            #expect(second.blocks == ["0x5"] && !second.first && !second.last)
            let third = try await page("ots_searchTransactionsAfter", 5, 1)
            #expect(third.blocks == ["0x6"] && third.first && !third.last)
            let newest = try await page("ots_searchTransactionsBefore", 0, 2)
            #expect(newest.blocks == ["0x6", "0x5"] && newest.first && !newest.last)
            let older = try await page("ots_searchTransactionsBefore", 5, 2)
            #expect(older.blocks == ["0x2"] && !older.first && older.last)
            let tooLarge = try await EVMFixture.call(sim, "ots_searchTransactionsAfter", [bob, 0, 26])
            #expect((tooLarge["error"] as? [String: Any])?["message"] as? String == "max allowed page size: 25")
            #expect(try await EVMFixture.result(sim, "ots_getApiLevel") as? Int == 8)
            let usdc = try await sim.evmAddress("USDC").hex
            #expect(try await EVMFixture.result(sim, "ots_hasCode", [usdc, "latest"]) as? Bool == true)
            #expect(try await EVMFixture.result(sim, "ots_hasCode", [bob, "latest"]) as? Bool == false)
        }
    }

    @Test func etherscanAndBlockscoutListTheAccounts() async throws {
        try await Fixture.withSimulator(EVMFixture.simulator()) { sim in
            let alice = try await sim.evmAddress("alice").hex, bob = try await sim.evmAddress("bob").hex
            let etherscan = { (query: String) in try await EVMFixture.explorer(sim.etherscanURL, "chainid=1&module=account&" + query) }
            let blockscout = { (query: String) in try await EVMFixture.explorer(sim.blockscoutURL, "module=account&" + query) }

            let txlist = try await etherscan("action=txlist&address=\(bob)&startblock=0&endblock=99999999&sort=asc")
            #expect(txlist["status"] as? String == "1" && txlist["message"] as? String == "OK")
            let rows = try #require(txlist["result"] as? [[String: String]], "every value a string")
            #expect(rows.map { $0["blockNumber"] } == ["2", "5", "6"])
            #expect(rows.map { $0["isError"] } == ["0", "1", "0"] && rows.map { $0["txreceipt_status"] } == ["1", "0", "1"])
            #expect(rows[0]["timeStamp"] == String(EVMFixture.genesis + 24) && rows[0]["confirmations"] == "8")
            #expect(rows[1]["functionName"] == "transfer(address _to, uint256 _value)" && rows[1]["methodId"] == "0xa9059cbb")
            #expect(rows[0]["value"] == "1000000000000000000" && rows[2]["value"] == "123")
            #expect(Array(try #require(txlist["result"] as? [[String: Any]])[0].keys).count == 20)

            let newestFirst = try await etherscan("action=txlist&address=\(bob)&page=2&offset=1&sort=desc")
            #expect((newestFirst["result"] as? [[String: String]])?.map { $0["blockNumber"] } == ["5"])
            let beyond = try await etherscan("action=txlist&address=\(bob)&page=4&offset=1")
            #expect(beyond["status"] as? String == "0" && beyond["message"] as? String == "No transactions found")
            #expect((beyond["result"] as? [Any])?.isEmpty == true)
            let window = try await etherscan("action=txlist&address=\(bob)&page=11&offset=1000")
            #expect(window["message"] as? String == "NOTOK")
            #expect(window["result"] as? String == "Result window is too large, PageNo x Offset size must be less than or equal to 10000")

            let internalList = try await etherscan("action=txlistinternal&address=\(alice)")
            let operation = try #require((internalList["result"] as? [[String: String]])?.first)
            #expect(operation["value"] == "123" && operation["type"] == "call" && operation["traceId"] == "0" && operation["isError"] == "0")
            #expect(operation["from"] == (try await sim.evmAddress("forwarder")).hex && operation["to"] == alice)
            let byHash = try await etherscan("action=txlistinternal&txhash=\(operation["hash"] ?? "")")
            #expect((byHash["result"] as? [[String: String]])?.count == 1)

            let tokens = try await etherscan("action=tokentx&address=\(bob)")
            let transfers = try #require(tokens["result"] as? [[String: String]])
            #expect(transfers.map { $0["tokenSymbol"] } == ["USDC", "DAI"] && transfers.map { $0["tokenDecimal"] } == ["6", "18"])
            #expect(transfers[1]["value"] == "1000000000000000000000000" && transfers[1]["from"] == EVMAddress.zero.hex)
            let onlyDAI = try await etherscan("action=tokentx&address=\(bob)&contractaddress=\((try await sim.evmAddress("DAI")).hex)")
            #expect((onlyDAI["result"] as? [Any])?.count == 1)
            #expect(try await etherscan("action=balance&address=\(bob)&tag=latest")["result"] as? String
                    == String(try await EVMFixture.quantity(sim, "eth_getBalance", [bob, "latest"])))

            // Blockscout's dialect: its own fields, empty texts and errors.
            let scoutInternal = try #require(try await blockscout("action=txlistinternal&address=\(alice)")["result"] as? [[String: String]])
            #expect(scoutInternal[0]["transactionHash"] == operation["hash"] && scoutInternal[0]["index"] == "1" && scoutInternal[0]["hash"] == nil)
            let scoutTokens = try #require(try await blockscout("action=tokentx&address=\(bob)")["result"] as? [[String: String]])
            #expect(scoutTokens.map { $0["logIndex"] } == ["0", "0"] && scoutTokens[0]["input"]?.hasPrefix("0xa9059cbb") == true)
            let carol = try await sim.evmAddress("carol").hex
            #expect(try await blockscout("action=tokentx&address=\(carol)")["message"] as? String == "No token transfers found")
            #expect(try await blockscout("action=txlistinternal&address=\(carol)")["message"] as? String == "No internal transactions found")
            let badAddress = try await blockscout("action=balance&address=0x12")
            #expect(badAddress["message"] as? String == "Invalid address hash" && badAddress["result"] is NSNull)

            // Etherscan's own refusals.
            let noChain = try await EVMFixture.explorer(sim.etherscanURL, "module=account&action=txlist&address=\(bob)")
            #expect((noChain["result"] as? String)?.hasPrefix("Missing or unsupported chainid parameter") == true)
            #expect(try await etherscan("action=txlist&address=0xnothex")["result"] as? String == "Error! Invalid address format")
            #expect(try await etherscan("action=nothing&address=\(bob)")["result"] as? String == "Error! Missing Or invalid Action name")
        }
    }

    /// What a client does with an explorer: the native flows (received, sent with fees, through
    /// contracts) of txlist and txlistinternal add up to eth_getBalance, and tokentx to
    /// balanceOf, for the watched addresses of the benchmark's 2,000-transaction chain.
    @Test func theBenchmarksChainReconcilesThroughTheExplorer() async throws {
        let scenario = Scenario(now: SimTime(unixSeconds: EVMFixture.genesis), evm: EVMScenario(generated: EVMGeneratedHistory(transactions: 2_000, perBlock: 20)))
        try await Fixture.withSimulator(scenario) { sim in
            let summary = try await sim.evmSummary()
            #expect(summary.tipHeight == 102 && summary.accounts.map(\.name) == ["bench-alice", "bench-bob", "bench-carol"])
            #expect(summary.tokens.map(\.symbol) == ["USDC", "USDT", "DAI"])
            for name in EVMGeneratedHistory.watched {
                let address = try #require(summary.address(of: name)).hex
                var native: Int128 = 0
                let txlist = try #require(try await EVMFixture.explorer(sim.etherscanURL, "chainid=1&module=account&action=txlist&address=\(address)&offset=10000")["result"] as? [[String: String]])
                for row in txlist {
                    let value = Int128(row["value"]!)!, fee = Int128(row["gasUsed"]!)! * Int128(row["gasPrice"]!)!
                    if row["to"] == address, row["isError"] == "0" { native += value }
                    if row["from"] == address { native -= fee + (row["isError"] == "0" ? value : 0) }
                }
                let internalRows = try #require(try await EVMFixture.explorer(sim.etherscanURL, "chainid=1&module=account&action=txlistinternal&address=\(address)")["result"] as? [[String: String]])
                for row in internalRows where row["to"] == address && row["isError"] == "0" { native += Int128(row["value"]!)! }
                #expect(try await EVMFixture.quantity(sim, "eth_getBalance", [address, "latest"]) == native, "\(name)")
                #expect(txlist.count > 600 && internalRows.count > 50)

                let tokentx = try #require(try await EVMFixture.explorer(sim.etherscanURL, "chainid=1&module=account&action=tokentx&address=\(address)")["result"] as? [[String: String]])
                for token in summary.tokens {
                    let rows = tokentx.filter { $0["contractAddress"] == token.address.hex }
                    let units = rows.reduce(Int128(0)) { $0 + ($1["to"] == address ? 1 : -1) * Int128($1["value"]!)! }
                    let word = try #require(try await EVMFixture.result(sim, "eth_call", [["to": token.address.hex, "data": "0x70a08231" + String(repeating: "0", count: 24) + address.dropFirst(2)], "latest"]) as? String)
                    #expect(Int128(word.dropFirst(2), radix: 16) == units, "\(name) \(token.symbol)")
                }
            }
        }
    }
}
