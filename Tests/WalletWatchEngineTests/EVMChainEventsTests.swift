import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchSources
import WalletWatchStore

extension EVMChainTests {
    /// Finality, reorganisations and every bad answer of SPEC.md section 26 on the real chain: a
    /// bad answer fails the pass with one line, and nothing stored changes.
    @Suite("EVM: finality, reorgs and bad answers on a real chain", .serialized)
    struct EVMChainEventsTests {
        /// A watched address with some history, ingested once.
        static func ingested(_ world: EVMWorld, history: EVMSourceConfig.History = .etherscan, token: Bool = false)
            async throws -> (address: String, engine: Engine, source: SourceConfig, token: String?) {
            let address = try await world.account("watched", wei: "3000000000000000000")
            var tokens: [EVMSourceConfig.Token] = []
            var contract: String? = nil
            if token {
                contract = try await world.node.control("deployToken", ["name": "USD Coin", "symbol": "USDC", "decimals": 6])["address"] as? String
                _ = try await world.node.control("mintToken", ["token": contract!, "to": address, "amount": "5000000"])
                tokens = [EVMSourceConfig.Token(contract: EVMAddress(contract!)!, currency: "USDC", asset: "eth USDC")]
            }
            try await world.mine()
            let source = world.source(addresses: [address], tokens: tokens, history: history)
            let engine = world.engine(sources: [source])
            let report = try #require(try await engine.ingestor.ingest().first)
            #expect(report.ok, "\(report.error ?? "")")
            return (address, engine, source, contract)
        }

        /// Everything an evm pass can change.
        static func fingerprint(_ world: EVMWorld) throws -> String {
            let rows = try world.database.transactions().map {
                "\($0.assetName) \($0.transaction.txid) \($0.transaction.amount) \($0.transaction.status) \($0.transaction.lastUpdated)"
            }.sorted()
            let balances = try world.database.assetOverviews().map { "\($0.asset.name) \($0.balance.counted) \($0.balance.pending) \($0.balance.lastUpdated.map { "\($0)" } ?? "-")" }
            return (rows + balances).joined(separator: "\n")
        }

        @Test("a payment is pending until its block is finalized, its amount in the balance's pending part until then")
        func finality() async throws {
            let world = try await EVMWorld()
            let (address, engine, _, _) = try await Self.ingested(world)
            let payment = try await world.node.control("fund", ["to": address, "value": "2000000000000000000"])
            _ = try #require(try await engine.ingestor.ingest().first)
            #expect(try world.ledger("eth ETH").contains("\(payment.hash) 2000000000000000000 - pending"))
            #expect(try world.balance("eth ETH")?.pending == 2_000_000_000_000_000_000)
            try await world.mine()
            let report = try #require(try await engine.ingestor.ingest().first)
            #expect(report.ok && report.counts.updated == 1, "\(report)")
            #expect(try world.ledger("eth ETH").contains("\(payment.hash) 2000000000000000000 - confirmed"))
            #expect(try world.balance("eth ETH")?.counted == 5_000_000_000_000_000_000)
            #expect(try world.balance("eth ETH")?.pending == 0)
        }

        @Test("a pending payment a reorg removes stays pending until its height is final, then fails; one re-mined moves to its new block")
        func reorg() async throws {
            let world = try await EVMWorld()
            let (address, engine, _, _) = try await Self.ingested(world)
            let dropped = try await world.node.control("fund", ["to": address, "value": "7000"])
            _ = try await engine.ingestor.ingest()
            #expect(try world.ledger("eth ETH").contains("\(dropped.hash) 7000 - pending"))
            _ = try await world.node.control("reorg", ["depth": 1, "drop": [dropped.hash], "blocks": 1])
            let afterReorg = try #require(try await engine.ingestor.ingest().first)
            #expect(afterReorg.ok, "\(afterReorg.error ?? "")")
            #expect(try world.ledger("eth ETH").contains("\(dropped.hash) 7000 - pending"), "gone, but its height is not final yet")
            try await world.mine()
            _ = try await engine.ingestor.ingest()
            #expect(try world.ledger("eth ETH").contains("\(dropped.hash) 7000 - failed"))

            // Re-mined in another block: still pending, then confirmed there.
            let moved = try await world.node.control("fund", ["to": address, "value": "9000"])
            _ = try await engine.ingestor.ingest()
            let reorg = try await world.node.control("reorg", ["depth": 1, "blocks": 2])
            #expect((reorg["replaced"] as? [String: Any])?.isEmpty == false)
            _ = try await engine.ingestor.ingest()
            #expect(try world.ledger("eth ETH").contains("\(moved.hash) 9000 - pending"))
            try await world.mine()
            _ = try await engine.ingestor.ingest()
            #expect(try world.ledger("eth ETH").contains("\(moved.hash) 9000 - confirmed"))
            let rows = try world.database.transactions().filter { $0.assetName == "eth ETH" && $0.transaction.status == .confirmed }
            #expect(rows.map(\.transaction.amount).reduce(0, +) == (try world.balance("eth ETH")?.counted))
        }

        @Test("confirmations = N: a row is confirmed once its block has N confirmations, whatever the finalized block says")
        func blockCount() async throws {
            let world = try await EVMWorld()
            _ = try await world.node.control("setFinality", ["finalizedDepth": 50, "safeDepth": 1])
            let address = try await world.account("depth")
            let payment = try await world.node.control("fund", ["to": address, "value": "1234"])
            let source = world.source(addresses: [address], history: .otterscan, confirmations: 3)
            let engine = world.engine(sources: [source])
            _ = try await engine.ingestor.ingest()
            #expect(try world.ledger("eth ETH") == ["\(payment.hash) 1234 - pending"])
            #expect(try world.balance("eth ETH")?.pending == 1234)
            try await world.mine(1)
            _ = try await engine.ingestor.ingest()
            #expect(try world.ledger("eth ETH") == ["\(payment.hash) 1234 - pending"], "two confirmations are not three")
            #expect(try world.balance("eth ETH")?.counted == 0)
            try await world.mine(1)
            _ = try await engine.ingestor.ingest()
            #expect(try world.ledger("eth ETH") == ["\(payment.hash) 1234 - confirmed"], "three confirmations: its block and two more")
            #expect(try world.balance("eth ETH")?.counted == 1234)
            #expect(try world.balance("eth ETH")?.pending == 0)
        }

        @Test("a token of your own unit: { contract, currency } with a currency added by the user")
        func customCurrency() async throws {
            let world = try await EVMWorld()
            let address = try await world.account("custom")
            let token = try await world.node.control("deployToken", ["name": "Gold gram", "symbol": "GLD", "decimals": 3])["address"] as! String
            _ = try await world.node.control("mintToken", ["token": token, "to": address, "amount": "1500"])
            try await world.mine()
            let source = world.source(addresses: [address], tokens: [EVMSourceConfig.Token(contract: EVMAddress(token)!, currency: "GOLDG", asset: "Gold")],
                                      history: .etherscan)
            let engine = world.engine(sources: [source])
            let unknown = try #require(try await engine.ingestor.ingest().first)
            #expect(!unknown.ok && (unknown.error ?? "").contains("GOLDG is not a known currency"), "\(unknown.error ?? "")")
            #expect(try !(unknown.error ?? "").contains("\n") && world.database.assetOverviews().isEmpty, "one line, nothing stored")
            _ = try engine.currencies.add(code: "GOLDG", decimals: 3, coingeckoID: nil, name: "a gram of gold")
            let report = try #require(try await engine.ingestor.ingest().first)
            #expect(report.ok, "\(report.error ?? "")")
            #expect(try world.balance("Gold")?.counted == 1500)
            #expect(try world.ledger("Gold").count == 1)
        }

        @Test("a token whose decimals() is not its currency's is refused, naming both")
        func wrongDecimals() async throws {
            let world = try await EVMWorld()
            let address = try await world.account("decimals")
            // A Binance-Peg-like USDC: 18 decimals, where the currency USDC has 6.
            let token = try await world.node.control("deployToken", ["name": "USD Coin", "symbol": "USDC", "decimals": 18])["address"] as! String
            let source = world.source(addresses: [address], tokens: [EVMSourceConfig.Token(contract: EVMAddress(token)!, currency: "USDC", asset: "eth USDC")],
                                      history: .none)
            let report = try #require(try await world.engine(sources: [source]).ingestor.ingest().first)
            #expect(!report.ok && (report.error ?? "").contains("has 18 decimals, but USDC has 6"), "\(report.error ?? "")")
            #expect(!(report.error ?? "").contains("\n"), "one line")
            #expect(try world.database.assetOverviews().isEmpty && world.database.transactions().isEmpty, "nothing stored")
        }

        /// Runs a pass with `faults` set, expects it to fail with a line containing `expected`, and
        /// nothing stored to change.
        static func refused(_ faults: [String: Any], history: EVMSourceConfig.History = .etherscan, token: Bool = false, expected: String) async throws {
            let world = try await EVMWorld()
            let (address, engine, source, contract) = try await Self.ingested(world, history: history, token: token)
            _ = try await world.node.control("fund", ["to": address, "value": "1000"])
            if let contract {
                // The watched token moves (its logs are asked), and another token pays the address too.
                _ = try await world.node.control("mintToken", ["token": contract, "to": address, "amount": "1"])
                let other = try await world.node.control("deployToken", ["name": "Spam", "symbol": "SPAM", "decimals": 18])["address"] as! String
                _ = try await world.node.control("mintToken", ["token": other, "to": address, "amount": "1"])
            }
            try await world.mine()
            let before = try Self.fingerprint(world)
            _ = try await world.node.control("setFaults", faults)
            // A new session, so that the chain id is asked too.
            let report = try #require(try await world.engine(sources: [source]).ingestor.ingest().first)
            _ = try await world.node.control("clearFaults")
            #expect(!report.ok)
            let error = report.error ?? ""
            #expect(error.contains(expected), "\(error)")
            #expect(!error.contains("\n"), "one line")
            #expect(try Self.fingerprint(world) == before, "nothing stored changed")
            _ = engine
        }

        @Test("a JSON-RPC error is refused, its message shown")
        func rpcError() async throws {
            try await Self.refused(["rpcError": ["eth_getBalance": "backend unavailable"]], expected: "backend unavailable")
        }

        @Test("a quantity that is not hex is refused")
        func nonHex() async throws {
            try await Self.refused(["nonHexQuantity": ["eth_getBalance"]], expected: "expected a 0x-hex quantity")
        }

        @Test("a result of the wrong type is refused")
        func wrongType() async throws {
            try await Self.refused(["wrongType": ["eth_getTransactionCount"]], expected: "JSON-RPC eth_getTransactionCount: result: expected a string, got an object")
        }

        /// A fault on one method of one history mode, and what the refusal must say.
        struct Fault: Sendable, CustomTestStringConvertible {
            let kind: String
            let method: String
            let history: EVMSourceConfig.History
            var token = false
            let expected: String
            var testDescription: String { "\(kind) on \(method) (history \(history))" }
        }

        /// Every call a pass makes is checked, not only the first: the tip, the confirmation
        /// block's header, receipts, the history's own answers.
        static let everyCall: [Fault] = [
            Fault(kind: "nonHexQuantity", method: "eth_blockNumber", history: .etherscan, expected: "JSON-RPC eth_blockNumber: result: expected a 0x-hex quantity"),
            Fault(kind: "wrongType", method: "eth_getBlockByNumber", history: .none, expected: "JSON-RPC eth_getBlockByNumber: result"),
            Fault(kind: "nonHexQuantity", method: "eth_getTransactionReceipt", history: .etherscan, expected: "JSON-RPC eth_getTransactionReceipt: result"),
            Fault(kind: "wrongType", method: "ots_searchTransactionsAfter", history: .otterscan, expected: "JSON-RPC ots_searchTransactionsAfter: result"),
            Fault(kind: "wrongType", method: "ots_getInternalOperations", history: .otterscan, expected: "JSON-RPC ots_getInternalOperations"),
            Fault(kind: "wrongType", method: "eth_getLogs", history: .none, token: true, expected: "JSON-RPC eth_getLogs: result"),
            Fault(kind: "wrongType", method: "eth_call", history: .none, token: true, expected: "JSON-RPC eth_call"),
        ]

        @Test("a bad answer to any call of the pass is refused, naming the call", arguments: everyCall)
        func everyCallChecked(_ fault: Fault) async throws {
            try await Self.refused([fault.kind: [fault.method]], history: fault.history, token: fault.token, expected: fault.expected)
        }

        @Test("another chain than configured is refused, naming both")
        func wrongChain() async throws {
            try await Self.refused(["chainId": 5], expected: "the node serves chain id 5, but the source is configured for ethereum (1)")
        }

        @Test("a node without Otterscan's namespace is refused, saying which history to use instead")
        func noOtterscan() async throws {
            try await Self.refused(["otsUnavailable": true], history: .otterscan, expected: "needs an Erigon node")
        }

        @Test("an eth_getLogs error that halving the range does not cure fails the pass in one line, the node's message shown")
        func logsRefused() async throws {
            // Every range is refused, down to one block: then the range was not the problem.
            try await Self.refused(["rpcError": ["eth_getLogs": "backend unavailable"]], history: .none, token: true, expected: "backend unavailable")
        }

        @Test("a log of another contract than asked is refused")
        func foreignLogs() async throws {
            // Another token's transfer to the same address, which the node then returns unasked.
            try await Self.refused(["foreignLogs": true], history: .none, token: true, expected: "which was not asked")
        }

        @Test("an explorer refusing the chain names it; a rate limit is retried")
        func explorerAnswers() async throws {
            // The explorer's own text is shown, and the chain named.
            try await Self.refused(["etherscanChainUnsupported": true], expected: "does not serve chain ethereum (1) to this API key: Free API access is not supported for this chain")
            let world = try await EVMWorld()
            let (address, engine, _, _) = try await Self.ingested(world)
            _ = try await world.node.control("fund", ["to": address, "value": "1000"])
            try await world.mine()
            _ = try await world.node.control("setFaults", ["etherscanRateLimit": 2])
            let report = try #require(try await engine.ingestor.ingest().first)
            _ = try await world.node.control("clearFaults")
            #expect(report.ok, "\(report.error ?? "")")
            #expect(try world.ledger("eth ETH").count == 2)
        }

        @Test("the free tier's 3 calls a second: the refused calls are retried after a pause, every row stored")
        func callsPerSecond() async throws {
            let world = try await EVMWorld()
            let first = try await world.account("persecond-a", wei: "1000")
            let second = try await world.account("persecond-b", wei: "2000")
            try await world.mine()
            _ = try await world.node.control("setFaults", ["etherscanCallsPerSecond": 3])
            // Two addresses: six explorer calls in a row, more than three within a second.
            let report = try #require(try await world.engine(sources: [world.source(addresses: [first, second], history: .etherscan)]).ingestor.ingest().first)
            let stats = try await world.node.control("requestStats")
            _ = try await world.node.control("clearFaults")
            #expect(report.ok && report.warnings.isEmpty, "\(report.error ?? "") \(report.warnings)")
            #expect(try world.ledger("eth ETH").count == 2)
            #expect(try world.balance("eth ETH")?.counted == 3000)
            let explorerCalls = (stats["etherscan"] as? [String: Any] ?? [:]).values.compactMap { $0 as? Int }.reduce(0, +)
            #expect(explorerCalls > 6, "some calls were refused and asked again: \(stats)")
        }

        @Test("an explorer a block behind the tip: the payment it does not know yet is pending in the balance, no warning, then stored")
        func explorerLag() async throws {
            let world = try await EVMWorld()
            let (address, engine, _, _) = try await Self.ingested(world)
            _ = try await world.node.control("setFaults", ["etherscanLagBlocks": 1])
            let payment = try await world.node.control("fund", ["to": address, "value": "555"])
            let behind = try #require(try await engine.ingestor.ingest().first)
            #expect(behind.ok && behind.warnings.isEmpty, "\(behind.error ?? "") \(behind.warnings)")
            #expect(!(try world.ledger("eth ETH").contains { $0.hasPrefix(payment.hash) }), "the explorer does not know it yet")
            #expect(try world.balance("eth ETH")?.pending == 555)
            _ = try await world.node.control("clearFaults")
            try await world.mine()
            let caughtUp = try #require(try await engine.ingestor.ingest().first)
            #expect(caughtUp.ok && caughtUp.warnings.isEmpty, "\(caughtUp.warnings)")
            #expect(try world.ledger("eth ETH").contains("\(payment.hash) 555 - confirmed"))
            #expect(try world.balance("eth ETH")?.counted == 3_000_000_000_000_000_000 + 555)
        }

        @Test("a history that leaves a transaction out is reported as incomplete, never absorbed")
        func incomplete() async throws {
            let world = try await EVMWorld()
            let (address, engine, source, _) = try await Self.ingested(world)
            let hidden = try await world.node.control("fund", ["to": address, "value": "4242"])
            try await world.mine()
            _ = try await world.node.control("setFaults", ["omitTransactions": [hidden.hash]])
            let report = try #require(try await engine.ingestor.ingest().first)
            #expect(report.ok)
            #expect(report.warnings.contains { $0.hasPrefix("history incomplete") && $0.contains("4242") }, "\(report.warnings)")
            #expect(try world.balance("eth ETH")?.counted == 3_000_000_000_000_000_000 + 4242)
            let checks = await world.engine(sources: [source]).doctor.run()
            let check = try #require(checks.first { $0.name == "source eth" })
            #expect(!check.ok && check.detail.contains("history incomplete"), "\(check.detail)")
            // Once the history has it, the next pass finds it (the state was kept where it was).
            _ = try await world.node.control("clearFaults")
            let healed = try #require(try await engine.ingestor.ingest().first)
            #expect(healed.ok && healed.warnings.isEmpty, "\(healed.warnings)")
            #expect(try world.ledger("eth ETH").contains("\(hidden.hash) 4242 - confirmed"))
        }
    }
}
