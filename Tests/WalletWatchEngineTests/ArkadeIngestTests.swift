import Foundation
import Logging
import Testing
import TestSupport
import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchEngine
import WalletWatchNet
import WalletWatchSim
import WalletWatchSources
import WalletWatchStore

/// Arkade's two faces ingested from the simulator over real HTTP (SPEC.md section 27): a
/// Fulmine wallet and a watch-only Ark address, with their faults refused in one line and
/// nothing stored.
@Suite struct ArkadeIngestTests {
    static func scenario() -> Scenario {
        Scenario(arkade: ArkadeScenario(network: "bitcoin", fulmineWallets: ["arkade"], receipts: [
            ArkadeReceipt(wallet: "arkade", amount: 120_000, batch: true),
        ]))
    }

    /// The generator point's x: a key on the curve whatever else changes.
    static let key = Hex.decode("79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")!

    /// The watched address, under the simulator's server.
    static func watchedAddress(_ world: SimulatedWorld) async throws -> String {
        await world.simulator.arkadeAddress(ofKey: key)
    }

    static func sources(_ world: SimulatedWorld, watched: String) throws -> [SourceConfig] {
        var arkd = SourceConfig(name: "ark-watch", kind: .arkd, url: world.simulator.arkdURL, asset: "Ark savings",
                                addresses: [watched], intervalSeconds: 600)
        arkd.arkScripts = [try ArkAddress(watched).vtxoScriptHex]
        return [
            SourceConfig(name: "arkade", kind: .fulmine, url: world.simulator.fulmineURL("arkade"), asset: "Arkade wallet", intervalSeconds: 60),
            arkd,
        ]
    }

    @Test func aFulmineWalletAndAWatchedAddressAreIngested() async throws {
        let world = try await SimulatedWorld(scenario: Self.scenario())
        let watched = try await Self.watchedAddress(world)
        let outpoint = try await world.simulator.arkadeReceive(address: watched, amount: 50_000, batch: true)
        try await world.simulator.arkadeReceive(wallet: "arkade", amount: 30_000)
        let engine = world.engine(sources: try Self.sources(world, watched: watched))
        let reports = try await engine.ingestor.ingest()
        #expect(reports.allSatisfy { $0.ok }, "\(reports.map { $0.error ?? "ok" })")

        let transactions = try world.database.transactions()
        let wallet = transactions.filter { $0.assetName == "Arkade wallet" }
        #expect(wallet.count == 2)
        #expect(wallet.allSatisfy { $0.transaction.txid.hasPrefix("fulmine:arkade:") && $0.transaction.status == .confirmed })
        #expect(Set(wallet.map(\.transaction.amount)) == [120_000, 30_000])
        let savings = transactions.filter { $0.assetName == "Ark savings" }
        #expect(savings.count == 1)
        let receipt = try #require(savings.first)
        #expect(receipt.transaction.txid.hasPrefix("arkd:ark-watch:"))
        #expect(receipt.transaction.amount == 50_000 && receipt.transaction.direction == .incoming && receipt.transaction.status == .confirmed)
        #expect(receipt.transaction.txid != "arkd:ark-watch:" + outpoint.prefix(64), "a batch receipt is keyed by its commitment txid")

        let balances = try world.database.arkBalances()
        #expect(balances["arkade"]?.balance.counted == 150_000)
        #expect(balances["ark-watch"]?.balance.counted == 50_000)
        let vtxos = try world.database.vtxos()
        #expect(vtxos.filter { $0.source == "ark-watch" }.map(\.vtxo.id) == [outpoint])
        #expect(vtxos.filter { $0.source == "arkade" }.count == 2)

        // A second pass with nothing new changes nothing.
        let again = try await engine.ingestor.ingest()
        #expect(again.allSatisfy { $0.ok && $0.counts.new == 0 && $0.counts.updated == 0 }, "\(again.map(\.counts))")
    }

    @Test func aVTXOReceivedThenSpentIsOneIncomingAndOneOutgoingTransaction() async throws {
        let world = try await SimulatedWorld(scenario: Self.scenario())
        let watched = try await Self.watchedAddress(world)
        let engine = world.engine(sources: try Self.sources(world, watched: watched))
        let outpoint = try await world.simulator.arkadeReceive(address: watched, amount: 80_000)
        _ = try await engine.ingestor.ingest(sources: ["ark-watch"])
        let arkTxid = try await world.simulator.arkadeSpend(outpoint, change: 15_000)
        let reports = try await engine.ingestor.ingest(sources: ["ark-watch"])
        #expect(reports.first?.ok == true, "\(reports.first?.error ?? "")")

        let rows = try world.database.transactions().filter { $0.assetName == "Ark savings" }.map(\.transaction)
        #expect(rows.count == 2)
        let incoming = try #require(rows.first { $0.direction == .incoming })
        let outgoing = try #require(rows.first { $0.direction == .outgoing })
        #expect(incoming.amount == 80_000 && incoming.status == .confirmed)
        #expect(incoming.txid == "arkd:ark-watch:" + outpoint.prefix(64), "a preconfirmed receipt is keyed by the Ark transaction that made it")
        // The change came back in the spending transaction: netted into one outgoing row.
        #expect(outgoing.txid == "arkd:ark-watch:" + arkTxid)
        #expect(outgoing.amount == -65_000 && outgoing.status == .confirmed)
        #expect(try world.database.arkBalances()["ark-watch"]?.balance.counted == 15_000)

        // Swept and unrolled VTXOs are marked; an unroll is an exit.
        let change = "\(arkTxid):1"
        try await world.simulator.arkadeSweep(change)
        _ = try await engine.ingestor.ingest(sources: ["ark-watch"])
        #expect(try world.database.vtxos().first { $0.vtxo.id == change }?.vtxo.state == "swept")
        #expect(try world.database.arkBalances()["ark-watch"]?.balance.counted == 15_000, "a swept VTXO is recoverable, still counted")
        try await world.simulator.arkadeUnroll(change)
        _ = try await engine.ingestor.ingest(sources: ["ark-watch"])
        #expect(try world.database.vtxos().first { $0.vtxo.id == change }?.vtxo.state == "unrolled")
        let exit = try #require(try world.database.transactions().first { $0.transaction.type == .exit })
        #expect(exit.transaction.amount == -15_000 && exit.transaction.txid == "arkd:ark-watch:\(change)")
    }

    @Test func fulmineSendsAndBoardingsHaveTheirStatuses() async throws {
        let world = try await SimulatedWorld(scenario: Self.scenario())
        let engine = world.engine(sources: try Self.sources(world, watched: try await Self.watchedAddress(world)))
        let received = try await world.simulator.arkadeReceive(wallet: "arkade", amount: 40_000)
        try await world.simulator.arkadeSpend(received, change: 10_000)
        let boardingTxid = try await world.simulator.arkadeBoard(wallet: "arkade", amount: 25_000)
        _ = try await engine.ingestor.ingest(sources: ["arkade"])
        let rows = try world.database.transactions().filter { $0.assetName == "Arkade wallet" }.map(\.transaction)
        let sent = try #require(rows.first { $0.direction == .outgoing })
        #expect(sent.amount == -30_000 && sent.status == .confirmed && sent.type == .ark)
        let boarding = try #require(rows.first { $0.txid == "fulmine:arkade:" + boardingTxid })
        #expect(boarding.status == .pending && boarding.type == .board && boarding.boardTxid == boardingTxid)
        let balance = try #require(try world.database.arkBalances()["arkade"]?.balance)
        #expect(balance.counted == 130_000 && balance.pendingBoard == 25_000)

        try await world.simulator.arkadeSettle(wallet: "arkade", boardingTxid: boardingTxid)
        _ = try await engine.ingestor.ingest(sources: ["arkade"])
        let settled = try #require(try world.database.transactions(txid: "fulmine:arkade:" + boardingTxid).first)
        #expect(settled.transaction.status == .confirmed)
        #expect(try world.database.arkBalances()["arkade"]?.balance.counted == 155_000)
    }

    /// Each fault: the pass fails with one line naming the source and the problem, and nothing
    /// stored changes (the fingerprint covers transactions, balances and VTXOs).
    @Test(arguments: [
        ("page_repeats", "ark-watch", "is on page 1 and again on page 2"),
        ("unknown_enum", "arkade", "is not a transaction type"),
        ("amount_not_integer", "arkade", "is not an unsigned 64-bit integer"),
        ("amount_not_integer", "ark-watch", "is not an unsigned 64-bit integer"),
    ])
    func faultsAreRefusedInOneLineAndNothingIsStored(fault: String, source: String, expected: String) async throws {
        let world = try await SimulatedWorld(scenario: Self.scenario())
        let watched = try await Self.watchedAddress(world)
        // Enough VTXOs for the indexer's pages (walletwatch pages 500 a page; the fault is on page 2).
        for amount in 1...3 { try await world.simulator.arkadeReceive(address: watched, amount: Int64(amount) * 1000) }
        let engine = world.engine(sources: try Self.sources(world, watched: watched))
        _ = try await engine.ingestor.ingest()
        let before = try Self.stored(world)
        for amount in 4...600 where fault == "page_repeats" {
            try await world.simulator.arkadeReceive(address: watched, amount: Int64(amount) * 1000)
        }
        await world.simulator.setArkadeFault(ArkadeFault(try #require(ArkadeFault.Kind(rawValue: fault))))
        let report = try #require(try await engine.ingestor.ingest(sources: [source]).first)
        #expect(!report.ok)
        let error = try #require(report.error)
        #expect(error.hasPrefix("source '\(source)': "), "\(error)")
        #expect(error.contains(expected), "\(error)")
        #expect(!error.contains("\n"))
        #expect(try Self.stored(world) == before, "a refused pass stored something")
    }

    static func stored(_ world: SimulatedWorld) throws -> String {
        let rows = try world.database.transactions().map { "\($0.transaction.txid)|\($0.transaction.amount)|\($0.transaction.status)" }.sorted()
        let balances = try world.database.arkBalances().map { "\($0.key)|\($0.value.balance)" }.sorted()
        let vtxos = try world.database.vtxos().map { "\($0.source)|\($0.vtxo)" }.sorted()
        return (rows + balances + vtxos).joined(separator: "\n")
    }

    @Test func anAddressOfAnotherNetworkIsRefusedWhenTheServerSaysSo() async throws {
        // The config matched the address to `network`; a server on another network is refused.
        let world = try await SimulatedWorld(scenario: Scenario(arkade: ArkadeScenario(network: "regtest")))
        let mainnet = ArkAddress.encode(network: .bitcoin, signerKey: Self.key, vtxoTaprootKey: Self.key)
        let engine = world.engine(sources: try Self.sources(world, watched: mainnet).filter { $0.kind == .arkd })
        let report = try #require(try await engine.ingestor.ingest().first)
        #expect(report.error?.contains("the Ark server runs on regtest") == true, "\(report.error ?? "")")
        #expect(try world.database.transactions().isEmpty)
    }
}

/// `doctor`'s word on Fulmine's unauthenticated API (no request is made: the url is only read).
@Suite struct FulmineDoctorWarningTests {
    @Test(arguments: [
        ("http://127.0.0.1:7001/api", false), ("http://localhost:7001/api", false), ("http://[::1]:7001/api", false),
        ("http://127.0.0.2:7001/api", false), ("http://192.168.1.20:7001/api", true), ("https://fulmine.example/api", true),
        ("http://127.0.0.1.example:7001/api", true),
    ])
    func aURLOffLoopbackIsWarnedAbout(url: String, warned: Bool) {
        let source = SourceConfig(name: "arkade", kind: .fulmine, url: url, intervalSeconds: 60)
        let warning = Doctor.unauthenticatedWarning(source)
        #expect((warning != nil) == warned, "\(url): \(warning ?? "none")")
        if let warning { #expect(warning.contains("no authentication") && warning.hasPrefix("warning: ")) }
    }
}

/// The streams' own faults, through the clients the daemon's watcher uses: a stream that ends
/// is an error of one line (the watcher logs it and opens another), and what was stored before
/// stays as it was (only passes store).
@Suite struct ArkadeStreamFaultTests {
    static func http() -> CurlHTTPClient {
        CurlHTTPClient(configuration: HTTPClientConfiguration(connectTimeout: .seconds(10), timeout: .seconds(30), retries: 0,
                                                              userAgent: "walletwatch-test"),
                       logger: Logger(label: "test"))
    }

    @Test func aStreamThatEndsIsAOneLineErrorAndNothingStoredChanges() async throws {
        let world = try await SimulatedWorld(scenario: ArkadeIngestTests.scenario())
        let watched = await world.simulator.arkadeAddress(ofKey: ArkadeIngestTests.key)
        try await world.simulator.arkadeReceive(address: watched, amount: 50_000)
        let engine = world.engine(sources: try ArkadeIngestTests.sources(world, watched: watched))
        #expect(try await engine.ingestor.ingest().allSatisfy(\.ok))
        let before = try ArkadeIngestTests.stored(world)
        #expect(!before.isEmpty)

        let arkd = ArkdClient(source: "ark-watch", baseURL: world.simulator.arkdURL, http: Self.http())
        let id = try await arkd.subscribe(scripts: [try ArkAddress(watched).vtxoScriptHex])
        await world.simulator.setArkadeFault(ArkadeFault(.streamEnds, times: 2))
        // A stream still open when the timeout passes fails with curl's timeout instead: the
        // exact line below is the stream's end.
        let ended = try await #require(throws: SourceError.self) { try await arkd.followSubscription(id, timeout: .seconds(20)) { _ in } }
        #expect(ended.description == "source 'ark-watch': GET \(world.simulator.arkdURL)/v1/indexer/script/subscription/\(id): the subscription stream ended")
        let fulmine = FulmineClient(source: "arkade", baseURL: world.simulator.fulmineURL("arkade"), http: Self.http())
        let closed = try await #require(throws: SourceError.self) { try await fulmine.followNotifications(timeout: .seconds(20)) { _ in } }
        #expect(closed.description == "source 'arkade': GET \(world.simulator.fulmineURL("arkade"))/v1/notifications: the notification stream ended")
        #expect(!ended.description.contains("\n") && !closed.description.contains("\n"))
        #expect(await world.simulator.arkadeStreamCount() == 0, "both streams were ended by the fault")
        #expect(try ArkadeIngestTests.stored(world) == before, "a stream that ends changed what was stored")
    }

    @Test func aSubscriptionTheServerDoesNotKnowIsRefused() async throws {
        // The client asks for server-sent events (without them arkd answers 501); a server
        // that has lost the subscription answers with a Status, shown in the one line.
        let world = try await SimulatedWorld(scenario: ArkadeIngestTests.scenario())
        let arkd = ArkdClient(source: "ark-watch", baseURL: world.simulator.arkdURL, http: Self.http())
        let missing = try await #require(throws: SourceError.self) { try await arkd.followSubscription("nope", timeout: .seconds(20)) { _ in } }
        #expect(missing.description.contains("HTTP 404") && missing.description.contains("subscription nope not found"), "\(missing)")
    }
}
