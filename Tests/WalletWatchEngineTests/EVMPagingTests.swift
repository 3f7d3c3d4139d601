import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchSources
import WalletWatchStore

extension EVMChainTests {
    /// Histories longer than one page, on real transactions: Etherscan's 1,000 records a request
    /// (paged by block: a full page starts the next at its last block, whose records come again and
    /// are dropped as duplicates) and Otterscan's 25 transactions a page (Erigon never splits a
    /// block, so a page may hold more).
    ///
    /// The node reads a receipt in about 20 ms (py-evm), and every stored transaction needs one: the
    /// explorer's case runs once, on the smallest history that needs a second page, and not again
    /// through Blockscout's `/api`, which the same client pages the same way (EVMIngestTests covers
    /// its dialect).
    @Suite("EVM: histories longer than a page", .serialized)
    struct EVMPagingTests {
        /// `count` payments from the faucet to `holder`, `perBlock` a block, of 1, 2, ... wei.
        static func payments(_ world: EVMWorld, to holder: String, count: Int, perBlock: Int, startingAt first: Int = 1) async throws {
            let faucet = try #require(try await world.node.control("status")["faucet"] as? String)
            let operations: [[String: Any]] = (first..<(first + count)).map { ["type": "transfer", "from": faucet, "to": holder, "value": "\($0)"] }
            let batch = try await world.node.control("batch", ["operations": operations, "perBlock": perBlock])
            let sent = (batch["transactions"] as? [Any])?.count ?? (batch["transactions"] as? Int)
            #expect(sent == count && ((batch["failed"] as? [Any])?.isEmpty ?? (batch["failed"] as? Int == 0)), "\(batch)")
        }

        /// Ingests `source` once and checks that each of the `count` payments is stored once and
        /// the rows add up to the balance.
        static func ingestAndCheck(_ world: EVMWorld, _ source: SourceConfig, count: Int) async throws -> IngestReport {
            let report = try #require(try await world.engine(sources: [source]).ingestor.ingest().first)
            let asset = "\(source.name) ETH"
            #expect(report.ok && report.warnings.isEmpty, "\(source.name): \(report.error ?? "") \(report.warnings)")
            #expect(report.counts.new == count, "\(source.name): \(report.counts.new)")
            let rows = try world.database.transactions().filter { $0.assetName == asset }
            #expect(rows.count == count && Set(rows.map(\.transaction.txid)).count == count, "every payment once")
            #expect(Set(rows.map(\.transaction.amount)) == Set((1...count).map { Int128($0) }), "each amount, once")
            let expected = Int128(count * (count + 1) / 2)
            #expect(rows.map(\.transaction.amount).reduce(0, +) == expected)
            #expect(try world.balance(asset)?.counted == expected)
            return report
        }

        @Test("Etherscan: 1,001 payments, 90 a block: the second page starts inside the block where the first ended, nothing twice")
        func explorerPages() async throws {
            let world = try await EVMWorld()
            let holder = try await world.account("paged-explorer")
            // 1,000 records end 10 payments into the 12th block: the next request asks that block
            // again (its 10 known records dropped) and the 13th, which holds the last payment.
            try await Self.payments(world, to: holder, count: 1001, perBlock: 90)
            try await world.mine()
            _ = try await world.node.control("requestStats", ["reset": true])
            let source = world.source("explorer", addresses: [holder], history: .etherscan)
            let report = try await Self.ingestAndCheck(world, source, count: 1001)
            let stats = try await world.node.control("requestStats")
            let explorer = stats["etherscan"] as? [String: Any]
            #expect(explorer?["account.txlist"] as? Int == 2, "a full page, then the rest: \(stats)")
            // txlist twice, txlistinternal and tokentx once.
            #expect(report.historyRequests == 4, "\(report.historyRequests ?? -1)")
        }

        @Test("Otterscan: blocks of 30 (more than a page of 25, never split) and of 10 (several a page), every payment once")
        func otterscanPages() async throws {
            let world = try await EVMWorld()
            let holder = try await world.account("paged-ots")
            try await Self.payments(world, to: holder, count: 60, perBlock: 30)
            try await Self.payments(world, to: holder, count: 40, perBlock: 10, startingAt: 61)
            try await world.mine()
            _ = try await world.node.control("requestStats", ["reset": true])
            let source = world.source("ots", addresses: [holder], history: .otterscan)
            _ = try await Self.ingestAndCheck(world, source, count: 100)
            let stats = try await world.node.control("requestStats")
            let searches = (stats["methods"] as? [String: Any])?["ots_searchTransactionsAfter"] as? Int ?? 0
            // 30 | 30 | 10+10+10 | 10: at least four pages of at most 25 (a block of 30 is one page).
            #expect(searches >= 4, "\(stats)")
        }

        @Test("a node that caps eth_getLogs at 3 blocks, as providers do: the token's logs come in windows it answers, every transfer once")
        func logWindows() async throws {
            let world = try await EVMWorld()
            let holder = try await world.account("windowed-logs")
            let contract = try #require(try await world.node.control("deployToken", ["name": "USD Coin", "symbol": "USDC", "decimals": 6])["address"] as? String)
            // Eight mints of 1 to 8 units, one a block: a history of at least 8 blocks.
            let mints: [[String: Any]] = (1...8).map { ["type": "mint", "token": contract, "to": holder, "amount": "\($0)"] }
            _ = try await world.node.control("batch", ["operations": mints, "perBlock": 1])
            try await world.mine()
            _ = try await world.node.control("setFaults", ["logsMaxBlocks": 3])
            _ = try await world.node.control("requestStats", ["reset": true])
            let token = EVMSourceConfig.Token(contract: try #require(EVMAddress(contract)), currency: "USDC", asset: "windowed USDC")
            let source = world.source("windowed", addresses: [holder], tokens: [token], history: .none)
            let report = try #require(try await world.engine(sources: [source]).ingestor.ingest().first)
            let stats = try await world.node.control("requestStats")
            _ = try await world.node.control("clearFaults")
            #expect(report.ok && report.warnings.isEmpty, "\(report.error ?? "") \(report.warnings)")
            let rows = try world.database.transactions().filter { $0.assetName == "windowed USDC" }
            #expect(rows.count == 8 && Set(rows.map(\.transaction.txid)).count == 8, "every mint once: \(rows.count)")
            #expect(Set(rows.map(\.transaction.amount)) == Set((1...8).map { Int128($0) }))
            #expect(try world.balance("windowed USDC")?.counted == 36)
            // Two calls a window (the holder as sender, then as receiver): the whole range refused,
            // then at least three windows of at most 3 blocks over the 8 blocks of mints.
            let calls = (stats["methods"] as? [String: Any])?["eth_getLogs"] as? Int ?? 0
            #expect(calls >= 8, "\(stats)")
        }
    }
}
