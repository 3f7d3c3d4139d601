import Foundation
import GRDB
import Testing
import TestSupport
import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchEngine
import WalletWatchSim
import WalletWatchStore

/// Issue 26: a server (or anyone on a `tcp://` path) that lies consistently, where no status
/// or txid check can catch it, changes nothing stored. Each lie is a fault of the simulator's
/// Electrum face told to every call; each test failed before walletwatch proved what it stores.
@Suite("Electrum: a lying server changes nothing stored", .serialized)
struct ElectrumLyingServerTests {
    /// The wallet of ElectrumIngestTests through Electrum, and the same chain through Esplora.
    static func sources(_ world: SimulatedWorld) throws -> [SourceConfig] {
        [try ElectrumIngestTests.wallet(world, kind: .electrum, name: "node", url: world.simulator.electrumTCPURL),
         try ElectrumIngestTests.wallet(world, kind: .esplora, name: "explorer", url: world.simulator.esploraURL)]
    }

    /// A world whose first pass went well, then `fault` told to every Electrum call; the node's
    /// report of the next pass, and whether it changed what was stored.
    static func lie(_ fault: ElectrumFaultKind, on method: String = "*", before: ((SimulatedWorld) async throws -> Void)? = nil,
                    maxResponseBytes: Int = 8 << 20) async throws -> (report: IngestReport, unchanged: Bool, world: SimulatedWorld) {
        let world = try await SimulatedWorld(scenario: ElectrumIngestTests.scenario())
        let sources = try Self.sources(world)
        let first = try await world.engine(sources: sources).ingestor.ingest().compactMap(\.error)
        #expect(first.isEmpty, "\(first)")
        try await before?(world)
        let stored = try ElectrumRefusalTests.stored(world)
        try await world.simulator.addElectrumFault(fault, on: method)
        let reports = try await world.engine(now: "2026-11-21T12:10:00Z", sources: sources, maxResponseBytes: maxResponseBytes).ingestor.ingest()
        #expect(reports.first { $0.source == "explorer" }?.ok == true, "the other source is still ingested")
        let report = try #require(reports.first { $0.source == "node" })
        #expect(report.error?.contains("\n") != true)
        return (report, try ElectrumRefusalTests.stored(world) == stored, world)
    }

    @Test("a confirmed 5 BTC payment that never existed: its proof leads to another Merkle root than its block's; nothing stored")
    func forgedConfirmedPayment() async throws {
        let address = try await SimulatedWorld.receiveAddress(4)
        let (report, unchanged, _) = try await Self.lie(.forgedPayment(address: address, value: 500_000_000, height: 120))
        #expect(!report.ok && unchanged)
        #expect(report.error?.contains("is not in block 120: its proof leads to another Merkle root than the block's header") == true, "\(String(describing: report.error))")
    }

    @Test("a transaction heavier than Bitcoin's 4,000,000 weight units is refused before it is kept")
    func oversizedTransaction() async throws {
        let address = try await SimulatedWorld.receiveAddress(4)
        let (report, unchanged, _) = try await Self.lie(.forgedPayment(address: address, value: 10_000, padding: 1_100_000))
        #expect(!report.ok && unchanged)
        #expect(report.error?.contains("more than the 4000000 Bitcoin allows a transaction") == true, "\(String(describing: report.error))")
    }

    @Test("a block dated 2106: its header is more than two hours past the clock, however well it links")
    func blockFromTheFuture() async throws {
        let (report, unchanged, _) = try await Self.lie(.retimed(height: 151, time: UInt32.max)) { world in
            _ = try await world.simulator.hdDeposit(wallet: "w", index: 7, value: 33_000)
            _ = try await world.simulator.mine()
        }
        #expect(!report.ok && unchanged)
        #expect(report.error?.contains("the header of block 151 is dated 2106-02-07T06:28:15Z, more than two hours past the clock") == true,
                "\(String(describing: report.error))")
    }

    @Test("a history listing a transaction at a height of Int64.max is refused: the chain ends far below")
    func absurdHeight() async throws {
        let (report, unchanged, _) = try await Self.lie(.height(Int64.max), on: "blockchain.scripthash.*") { world in
            _ = try await world.simulator.hdDeposit(wallet: "w", index: 7, value: 33_000)
        }
        #expect(!report.ok && unchanged)
        #expect(report.error?.contains("in block 9223372036854775807, but the server's chain ends at block 150") == true, "\(String(describing: report.error))")
    }

    @Test("a server still syncing (its chain ends below stored payments) fails the pass; no payment turns pending or failed")
    func serverBehind() async throws {
        let (report, unchanged, world) = try await Self.lie(.behind(height: 100))
        #expect(!report.ok && unchanged)
        #expect(report.error?.contains("the server's chain ends at block 100, below block") == true, "\(String(describing: report.error))")
        #expect(try world.database.transactions().filter { $0.assetName == "node" && $0.transaction.status == .failed }.isEmpty)
    }

    @Test("a server of another network: the pass fails naming both networks, before anything is asked")
    func otherNetwork() async throws {
        let world = try await SimulatedWorld(scenario: ElectrumIngestTests.scenario())
        let mainnet = SourceConfig(name: "node", kind: .electrum, url: world.simulator.electrumTCPURL, asset: "node",
                                   addresses: ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"], network: .bitcoin, intervalSeconds: 600)
        let report = try await world.engine(sources: [mainnet]).ingestor.ingest()[0]
        #expect(!report.ok)
        let regtest = Network.regtest.genesisHeader.hashHex
        #expect(report.error?.contains("the server follows regtest (genesis block \(regtest)), not bitcoin") == true, "\(String(describing: report.error))")
        #expect(!(await world.simulator.electrumRequests()).contains { $0.method.hasPrefix("blockchain.scripthash") })
        #expect(try world.database.transactions().isEmpty)
    }

    /// A false block time once stored was kept for good: neither a pass nor `ingest --full`
    /// asked for the header again.
    @Test("a false block time (an hour early, a consistent chain) is stored, and ingest --full asks every header again and puts it right")
    func falseTimeIsNotKept() async throws {
        let world = try await SimulatedWorld(scenario: ElectrumIngestTests.scenario())
        let sources = try Self.sources(world)
        #expect(try await world.engine(sources: sources).ingestor.ingest().allSatisfy(\.ok))
        let deposit = try await world.simulator.hdDeposit(wallet: "w", index: 7, value: 33_000)
        _ = try await world.simulator.mine()
        func date(_ asset: String) throws -> Instant? {
            try world.database.transactions().first { $0.assetName == asset && $0.transaction.txid == deposit.txid }?.transaction.date
        }
        // The block's true time, as the chain's Esplora face shows it.
        #expect(try await world.engine(now: "2026-11-21T12:05:00Z", sources: [sources[1]]).ingestor.ingest()[0].ok)
        let real = try #require(try date("explorer"))
        let early = Instant(millisecondsSinceEpoch: real.millisecondsSinceEpoch - 3_600_000)
        try await world.simulator.addElectrumFault(.retimed(height: 151, time: UInt32(early.millisecondsSinceEpoch / 1000)), on: "*")
        #expect(try await world.engine(now: "2026-11-21T12:10:00Z", sources: [sources[0]]).ingestor.ingest()[0].ok)
        #expect(try date("node") == early, "the lie is stored: it links, its work is done, it is in the past")
        await world.simulator.clearElectrumFaults()
        await world.simulator.resetElectrumRequests()
        #expect(try await world.engine(now: "2026-11-21T12:20:00Z", sources: [sources[0]]).ingestor.ingest()[0].ok)
        #expect(await world.simulator.electrumRequests().allSatisfy { $0.method != "blockchain.block.headers" }, "a pass where nothing changed asks no header")
        #expect(try date("node") == early)
        let full = try await world.engine(now: "2026-11-21T12:30:00Z", sources: [sources[0]]).ingestor.ingest(full: true)[0]
        #expect(full.ok, "\(String(describing: full.error))")
        #expect(try date("node") == real, "the full pass asked every header again")
    }

    /// A server that calls every address used grew the window without end (563 MB after 45 s).
    @Test("a server that calls every address used: the pass adds max_addresses_per_pass and ends with a warning; the next goes on")
    func everyAddressUsed() async throws {
        let world = try await SimulatedWorld(scenario: ElectrumIngestTests.scenario())
        var node = try Self.sources(world)[0]
        node.maxAddressesPerPass = 100
        #expect(try await world.engine(sources: [node]).ingestor.ingest()[0].ok)
        let before = try await world.database.walletAddresses(source: "node").count
        try await world.simulator.addElectrumFault(.everyScriptUsed, on: "blockchain.scripthash.*")
        let ingestor = world.engine(now: "2026-11-21T12:10:00Z", sources: [node]).ingestor
        let report = try await Self.within(.seconds(120)) { try await ingestor.ingest()[0] }
        #expect(report.ok, "\(String(describing: report.error))")
        #expect(report.warnings.contains { $0.contains("max_addresses_per_pass = 100") && $0.contains("asset addresses 'node' --deep N") }, "\(report.warnings)")
        let after = try await world.database.walletAddresses(source: "node").count
        #expect(after == before + 100, "\(before) then \(after)")
        let next = world.engine(now: "2026-11-21T12:20:00Z", sources: [node]).ingestor
        let again = try await Self.within(.seconds(120)) { try await next.ingest()[0] }
        let grown = try await world.database.walletAddresses(source: "node").count
        #expect(again.ok && grown == after + 100, "\(after) then \(grown)")
    }

    /// `body`'s result, or a failure once `limit` has passed (a pass that never ends).
    static func within<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let result = try await group.next() ?? nil else { throw CancellationError() }
            return result
        }
    }
}

extension SimulatedWorld {
    /// Receive address `index` of ElectrumIngestTests' regtest wallet.
    static func receiveAddress(_ index: UInt32) async throws -> String {
        let wallet = try HDWallet(descriptors: RegtestWallet.descriptors, xpub: nil, network: .regtest)
        return try #require(try wallet.derive(chain: .receive, indexes: index..<index + 1).first).address
    }
}
