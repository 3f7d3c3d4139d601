import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchSources
import WalletWatchStore

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

    @Test("another chain than configured is refused, naming both")
    func wrongChain() async throws {
        try await Self.refused(["chainId": 5], expected: "chain id 5")
    }

    @Test("a node without Otterscan's namespace is refused, saying which history to use instead")
    func noOtterscan() async throws {
        try await Self.refused(["otsUnavailable": true], history: .otterscan, expected: "needs an Erigon node")
    }

    @Test("a log of another contract than asked is refused")
    func foreignLogs() async throws {
        // Another token's transfer to the same address, which the node then returns unasked.
        try await Self.refused(["foreignLogs": true], history: .none, token: true, expected: "which was not asked")
    }

    @Test("an explorer refusing the chain names it; a rate limit is retried")
    func explorerAnswers() async throws {
        try await Self.refused(["etherscanChainUnsupported": true], expected: "ethereum (1)")
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
