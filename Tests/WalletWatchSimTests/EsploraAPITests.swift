import Foundation
import Testing
@testable import WalletWatchSim

/// The Esplora side: electrs' paging, ordering, stats and transaction JSON.
@Suite struct EsploraAPITests {
    /// 60 stored confirmed transactions over 30 blocks (two a block) plus one in the mempool.
    static func sixtyConfirmed() -> Scenario {
        var transactions: [EsploraTxSpec] = (0..<60).map { n in
            EsploraTxSpec(
                txid: Fixture.txid(1_000 + n),
                inputs: n % 4 == 3 ? [EsploraTxIO(address: Fixture.address, value: 10_000 + Int64(n))] : [],
                outputs: [EsploraTxIO(address: n % 4 == 3 ? Fixture.otherAddress : Fixture.address, value: 20_000 + Int64(n))],
                fee: 150, blockHeight: 869_900 + n / 2)
        }
        transactions.append(EsploraTxSpec(
            txid: Fixture.txid(5_000), outputs: [EsploraTxIO(address: Fixture.address, value: 42_000)], fee: 141))
        return Scenario(esplora: EsploraScenario(transactions: transactions))
    }

    @Test func pagesOfTwentyFiveAfterTheMempool() async throws {
        try await Fixture.withSimulator(Self.sixtyConfirmed()) { sim in
            let base = sim.esploraURL + "/address/" + Fixture.address
            let first = try #require(try await HTTPProbe.get(base + "/txs").array)
            #expect(first.count == 26, "1 mempool + 25 confirmed")
            #expect(first[0]["txid"] as? String == Fixture.txid(5_000))
            #expect((first[0]["status"] as? [String: Any])?.count == 1, "mempool status is just {confirmed:false}")
            let page1 = Array(first.dropFirst())
            let page2 = try #require(try await HTTPProbe.get(base + "/txs/chain/" + (page1.last!["txid"] as! String)).array)
            let page3 = try #require(try await HTTPProbe.get(base + "/txs/chain/" + (page2.last!["txid"] as! String)).array)
            let page4 = try #require(try await HTTPProbe.get(base + "/txs/chain/" + (page3.last!["txid"] as! String)).array)
            let sizes: [Int] = [page1.count, page2.count, page3.count, page4.count]
            #expect(sizes == [25, 25, 10, 0])
            let all = page1 + page2 + page3
            let txids = all.compactMap { $0["txid"] as? String }
            #expect(Set(txids).count == 60)
            // Newest first: height descending, and within a block the later-added first.
            #expect(txids == (0..<60).reversed().map { Fixture.txid(1_000 + $0) })
            let heights = all.compactMap { ($0["status"] as? [String: Any])?["block_height"] as? Int }
            #expect(heights == heights.sorted(by: >))
            // /txs/chain without a txid is the newest page; an unknown txid gives an empty page.
            let chain = try #require(try await HTTPProbe.get(base + "/txs/chain").array)
            #expect(chain.compactMap { $0["txid"] as? String } == Array(txids.prefix(25)))
            #expect(try await HTTPProbe.get(base + "/txs/chain/" + Fixture.txid(999_999)).array?.count == 0)
            #expect(try await HTTPProbe.get(base + "/txs/mempool").array?.count == 1)
        }
    }

    @Test func statsAreComputedFromTheTransactions() async throws {
        try await Fixture.withSimulator(Self.sixtyConfirmed()) { sim in
            let base = sim.esploraURL + "/address/" + Fixture.address
            let stats = try #require(try await HTTPProbe.get(base).object)
            #expect(stats["address"] as? String == Fixture.address)
            var confirmed: [[String: Any]] = []
            var page = try #require(try await HTTPProbe.get(base + "/txs/chain").array)
            while !page.isEmpty {
                confirmed += page
                page = try #require(try await HTTPProbe.get(base + "/txs/chain/" + (page.last!["txid"] as! String)).array)
            }
            let mempool = try #require(try await HTTPProbe.get(base + "/txs/mempool").array)
            #expect(Self.stats(of: confirmed, for: Fixture.address) == Self.numbers(stats["chain_stats"]))
            #expect(Self.stats(of: mempool, for: Fixture.address) == Self.numbers(stats["mempool_stats"]))
            #expect(Self.numbers(stats["chain_stats"])["tx_count"] == 60)
        }
    }

    @Test func generatedHistoriesPageAndAddUp() async throws {
        let scenario = Scenario(esplora: EsploraScenario(
            transactions: [EsploraTxSpec(txid: Fixture.txid(7), outputs: [EsploraTxIO(address: Fixture.address, value: 1)],
                                              blockHeight: 869_999)],
            generated: [GeneratedAddressHistory(address: Fixture.address, count: 110, seed: 9)]))
        try await Fixture.withSimulator(scenario) { sim in
            let base = sim.esploraURL + "/address/" + Fixture.address
            var seen: [[String: Any]] = []
            var page = try #require(try await HTTPProbe.get(base + "/txs").array)
            while !page.isEmpty {
                seen += page
                page = try #require(try await HTTPProbe.get(base + "/txs/chain/" + (page.last!["txid"] as! String)).array)
            }
            #expect(seen.count == 111)
            #expect(Set(seen.compactMap { $0["txid"] as? String }).count == 111)
            #expect(seen.first?["txid"] as? String == Fixture.txid(7), "the stored tx in the newest block comes first")
            let stats = try #require(try await HTTPProbe.get(base).object)
            #expect(Self.stats(of: seen, for: Fixture.address) == Self.numbers(stats["chain_stats"]))
            let spent = Self.numbers(stats["chain_stats"])
            #expect(spent["spent_txo_sum"]! <= spent["funded_txo_sum"]!)
            // A generated transaction is reachable by txid, with the right shape.
            let txid = try #require(seen[5]["txid"] as? String)
            let tx = try #require(try await HTTPProbe.get(sim.esploraURL + "/tx/" + txid).object)
            #expect(tx["txid"] as? String == txid)
            for key in ["version", "locktime", "vin", "vout", "size", "weight", "fee", "status"] {
                #expect(tx[key] != nil, "missing \(key)")
            }
            let vin = try #require((tx["vin"] as? [[String: Any]])?.first)
            let prevout = try #require(vin["prevout"] as? [String: Any])
            #expect(Set(prevout.keys).isSuperset(of: ["scriptpubkey", "scriptpubkey_address", "scriptpubkey_type", "value"]))
            #expect(vin["is_coinbase"] as? Bool == false && vin["sequence"] != nil)
        }
    }

    @Test func tipTransactionsAndErrors() async throws {
        try await Fixture.withSimulator(Self.sixtyConfirmed()) { sim in
            let tip = try await HTTPProbe.get(sim.esploraURL + "/blocks/tip/height")
            #expect(tip.text == "870000")
            #expect(tip.headers["content-type"]?.hasPrefix("text/plain") == true)
            let tx = try #require(try await HTTPProbe.get(sim.esploraURL + "/tx/" + Fixture.txid(1_001)).object)
            let status = try #require(tx["status"] as? [String: Any])
            #expect(status["confirmed"] as? Bool == true)
            #expect(status["block_height"] as? Int == 869_900)
            #expect((status["block_hash"] as? String)?.count == 64)
            #expect(status["block_time"] as? Int == Int(Scenario.defaultReferenceTime.unixSeconds) - 100 * 600)
            #expect(try await HTTPProbe.get(sim.esploraURL + "/tx/" + Fixture.txid(424_242)).status == 404)
            #expect(try await HTTPProbe.get(sim.esploraURL + "/tx/nothex").status == 400)
            #expect(try await HTTPProbe.get(sim.esploraURL + "/address/x!y").status == 400)
            let empty = try #require(try await HTTPProbe.get(sim.esploraURL + "/address/bc1qnothinghereatall0000").object)
            #expect(Self.numbers(empty["chain_stats"])["tx_count"] == 0)
        }
    }

    @Test func pricesAsTheProvidersServeThem() async throws {
        let scenario = Scenario(prices: PriceTable(["USD": Decimal(string: "65000.12")!, "EUR": Decimal(string: "60012.5")!]))
        try await Fixture.withSimulator(scenario) { sim in
            let gecko = try await HTTPProbe.get(sim.coingeckoURL + "/simple/price?ids=bitcoin&vs_currencies=usd,eur")
            #expect(gecko.text == #"{"bitcoin":{"usd":65000.12,"eur":60012.5}}"#)
            let onlyUSD = try await HTTPProbe.get(sim.coingeckoURL + "/simple/price?ids=bitcoin&vs_currencies=usd,jpy")
            #expect(onlyUSD.text == #"{"bitcoin":{"usd":65000.12}}"#)
            #expect(try await HTTPProbe.get(sim.coingeckoURL + "/simple/price?ids=bitcoin").status == 400)
            let mempool = try #require(try await HTTPProbe.get(sim.mempoolURL + "/v1/prices").object)
            #expect(mempool["USD"] as? Double == 65000.12)
            #expect(mempool["EUR"] as? Double == 60012.5)
            let time = try #require(mempool["time"] as? Int)
            #expect(abs(time - Int(Date().timeIntervalSince1970)) < 60)
        }
    }

    /// Esplora's stats for `address` computed independently from transaction JSON.
    static func stats(of transactions: [[String: Any]], for address: String) -> [String: Int] {
        var result = ["funded_txo_count": 0, "funded_txo_sum": 0, "spent_txo_count": 0, "spent_txo_sum": 0, "tx_count": 0]
        for tx in transactions {
            let outputs = (tx["vout"] as? [[String: Any]] ?? []).filter { $0["scriptpubkey_address"] as? String == address }
            let inputs = (tx["vin"] as? [[String: Any]] ?? []).compactMap { $0["prevout"] as? [String: Any] }
                .filter { $0["scriptpubkey_address"] as? String == address }
            guard !outputs.isEmpty || !inputs.isEmpty else { continue }
            result["funded_txo_count"]! += outputs.count
            result["funded_txo_sum"]! += outputs.reduce(0) { $0 + ($1["value"] as? Int ?? 0) }
            result["spent_txo_count"]! += inputs.count
            result["spent_txo_sum"]! += inputs.reduce(0) { $0 + ($1["value"] as? Int ?? 0) }
            result["tx_count"]! += 1
        }
        return result
    }

    static func numbers(_ value: Any?) -> [String: Int] {
        (value as? [String: Any] ?? [:]).compactMapValues { $0 as? Int }
    }
}
