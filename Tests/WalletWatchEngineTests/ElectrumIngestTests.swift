import Foundation
import Testing
import TestSupport
import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchEngine
import WalletWatchSim
import WalletWatchStore

/// An HD wallet and a plain address watched through the simulator's Electrum server (SPEC.md
/// section 21), beside the same chain through its Esplora face: the wallet model is one, so the
/// two kinds must store the same transactions, amounts, dates, statuses and balances.
@Suite("Electrum: a wallet through the simulator's Electrum server", .serialized)
struct ElectrumIngestTests {
    /// BIP84's test account (zpub, `abandon ... about`): receive and change chains.
    static let zpub = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs"
    /// A plain address of nobody's key, paid once in a block and once in the mempool.
    static let plain = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"

    /// A real chain of 150 blocks: the wallet's deposits and spends (with a gap of 20 unused
    /// receive addresses before index 25), a deposit in the mempool, and the plain address's.
    static func scenario() -> Scenario {
        Scenario(
            tipHeight: 150,
            esplora: EsploraScenario(
                hdWallets: [HDWalletScenario(name: "w", xpub: zpub, receive: [0, 1, 2, 5, 25, 26], change: [0, 1, 2], mempoolReceive: [3], seed: 21)],
                payments: [PaymentScenario(address: plain, value: 125_000, blockHeight: 120), PaymentScenario(address: plain, value: 7_000)]),
            bitcoin: BitcoinScenario())
    }

    static func wallet(_ world: SimulatedWorld, kind: SourceConfig.Kind, name: String, url: String, pin: String? = nil) throws -> SourceConfig {
        var source = SourceConfig(name: name, kind: kind, url: url, asset: name, addresses: [plain], network: .bitcoin,
                                  wallet: try HDWallet(descriptors: [], xpub: zpub, network: .bitcoin), intervalSeconds: 600)
        source.certificateSHA256 = pin
        return source
    }

    /// Each stored transaction of `asset` as `txid amount status date`, sorted; with
    /// `updated`, also when each row was last written.
    static func ledger(_ database: AppDatabase, asset: String, updated: Bool = false) throws -> [String] {
        try database.transactions().filter { $0.assetName == asset }.map {
            "\($0.transaction.txid) \($0.transaction.amount) \($0.transaction.status.rawValue) \($0.transaction.date.iso8601)"
                + (updated ? " \($0.transaction.lastUpdated.iso8601)" : "")
        }.sorted()
    }

    @Test("an Electrum pass stores what an Esplora pass of the same chain stores, and reports its calls and round trips")
    func sameAsEsplora() async throws {
        let world = try await SimulatedWorld(scenario: Self.scenario())
        let electrum = try Self.wallet(world, kind: .electrum, name: "node", url: world.simulator.electrumTCPURL)
        let esplora = try Self.wallet(world, kind: .esplora, name: "explorer", url: world.simulator.esploraURL)
        let engine = world.engine(sources: [electrum, esplora])
        let reports = try await engine.ingestor.ingest()
        let failures = reports.compactMap(\.error)
        #expect(failures.isEmpty, "\(failures)")
        let node = try Self.ledger(world.database, asset: "node")
        let explorer = try Self.ledger(world.database, asset: "explorer")
        // Six deposits and three spends of the wallet, its mempool deposit, the plain address's two.
        let expected: Int = 6 + 3 + 1 + 2
        #expect(node.count == expected, "\(node)")
        #expect(node == explorer)
        #expect(node.filter { $0.contains(" pending ") }.count == 2, "the mempool deposit and the plain address's")
        let balances = try world.database.onchainBalances()
        #expect(balances["node"]?.balance == balances["explorer"]?.balance)
        #expect((balances["node"]?.balance.confirmed ?? 0) > 0 && (balances["node"]?.balance.untrustedPending ?? 0) > 0)
        // The same window: receive index 26 used, so 47 receive addresses; 3 change used, 23.
        let nodeAddresses = try await world.database.walletAddresses(source: "node")
        let explorerAddresses = try await world.database.walletAddresses(source: "explorer")
        #expect(nodeAddresses.map(\.address) == explorerAddresses.map(\.address))
        #expect(nodeAddresses.map(\.activity.balance) == explorerAddresses.map(\.activity.balance))
        #expect(nodeAddresses.filter { $0.chain == .receive }.count == 47 && nodeAddresses.filter { $0.chain == .change }.count == 23)
        #expect(nodeAddresses.filter(\.activity.isUsed).allSatisfy { $0.status != nil }, "each used script's status is kept")

        // Requests and round trips, as the server saw them.
        let report = try #require(reports.first { $0.source == "node" })
        let log = await world.simulator.electrumRequests()
        #expect(report.requests == log.count, "every JSON-RPC call counted")
        #expect(log.first?.method == "server.version")
        // Every transaction once, and nothing else: a spend's parents are the wallet's own.
        #expect(log.filter { $0.method == "blockchain.transaction.get" }.count == node.count)
        let confirmedDates: Set<String> = Set(node.filter { $0.contains(" confirmed ") }.map { String($0.split(separator: " ")[3]) })
        let headers = log.filter { $0.method == "blockchain.block.header" }.count
        #expect(headers == confirmedDates.count, "one header a block with a transaction")
        // The handshake, then for each round of the window one write of subscriptions and first
        // histories (indexes 0-19 of each chain; 5 used: 20-25; 25 used: 26-45; 26 used: 46),
        // then one write of transactions and one of headers.
        let trips: Int = 1 + 4 + 2
        #expect(report.roundTrips == trips, "\(log.map { "\($0.write):\($0.method)" })")
    }

    @Test("a pass where nothing changed asks for no history, no transaction and no header")
    func noChangePass() async throws {
        let world = try await SimulatedWorld(scenario: Self.scenario())
        let electrum = try Self.wallet(world, kind: .electrum, name: "node", url: world.simulator.electrumTCPURL)
        let engine = world.engine(sources: [electrum])
        #expect(try await engine.ingestor.ingest()[0].ok)
        let before = try Self.ledger(world.database, asset: "node", updated: true)
        await world.simulator.resetElectrumRequests()
        let again = try await world.engine(now: "2026-11-21T12:05:00Z", sources: [electrum]).ingestor.ingest()[0]
        #expect(again.ok && again.counts.new == 0 && again.counts.updated == 0, "\(again)")
        let methods = Set(await world.simulator.electrumRequests().map(\.method))
        #expect(methods == ["server.version", "blockchain.headers.subscribe", "blockchain.scripthash.subscribe"], "\(methods)")
        #expect(again.roundTrips == 2, "the handshake, then every subscription in one write")
        #expect(try Self.ledger(world.database, asset: "node", updated: true) == before, "no row written")
    }
}
