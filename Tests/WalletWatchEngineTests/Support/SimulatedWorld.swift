import Foundation
import Logging
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchNet
import WalletWatchSim
import WalletWatchStore

/// The demo scenario served by an in-process simulator, and engines pointed at it over real
/// HTTP (libcurl) with a database in a temporary folder.
final class SimulatedWorld: @unchecked Sendable {
    static let esploraAddresses = ["bc1qdpekljy00yhuluyl4kehf5wq0stu2zkjsjdq86", "bc1q60jp3q4f7y4wqr2ktkrzx7xv2pz0xr5amnxn3j"]

    let simulator: Simulator
    let folder = TemporaryDirectory("walletwatch-engine")
    let logs = LogRecorder()
    let database: AppDatabase
    var databasePath: String { folder.file("walletwatch.sqlite") }

    init(scenario: Scenario? = nil) async throws {
        simulator = try await Simulator.start(scenario: try scenario ?? Self.demoScenario())
        database = try AppDatabase.open(path: folder.file("walletwatch.sqlite"))
        folder.write("barkd.token", "demo-token\n")
    }

    static func demoScenario() throws -> Scenario {
        let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Config/demo-scenario.json")
        return try Scenario.load(from: config.path)
    }

    func sources(onchain: Bool = true) -> [SourceConfig] {
        [
            SourceConfig(name: "ark", kind: .barkd, url: simulator.barkdURL("ark"), token: .file(folder.file("barkd.token")),
                         arkAsset: "Ark wallet", onchainAsset: onchain ? "Ark on-chain" : nil, intervalSeconds: 60),
            SourceConfig(name: "cold", kind: .esplora, url: simulator.esploraURL, asset: "Cold storage",
                         addresses: Self.esploraAddresses, intervalSeconds: 600),
        ]
    }

    /// An engine at `now` with small retry delays. The default timeout is generous, so that a
    /// busy machine does not fail a test about something else; timeout tests pass a short one.
    /// `maxBackoff` caps every pause before a retry, a `Retry-After` included: 2 s lets a test
    /// see a `Retry-After: 1` honoured; a test about what a retried fault leaves passes less.
    func engine(now: String = "2026-11-21T12:00:00Z", timeoutSeconds: Int = 60, retries: Int = 1, sources: [SourceConfig]? = nil,
                balanceCacheSeconds: Int = 300, maxResponseBytes: Int = 8 << 20, maxBackoff: Duration = .seconds(2)) -> Engine {
        var config = AppConfig(file: nil, database: databasePath, balanceCacheSeconds: balanceCacheSeconds, sources: sources ?? self.sources())
        config.rates = RatesConfig(provider: .coingecko, url: simulator.coingeckoURL)
        // The same limits for the connections the engine makes itself (an Electrum session).
        config.http = HTTPConfig(timeoutSeconds: timeoutSeconds, maxResponseBytes: maxResponseBytes, retries: retries)
        let logger = logs.logger(label: "test")
        let http = CurlHTTPClient(
            configuration: HTTPClientConfiguration(connectTimeout: .seconds(10), timeout: .seconds(timeoutSeconds), maxResponseBytes: maxResponseBytes,
                                                   retries: retries, initialBackoff: .milliseconds(20), maxBackoff: maxBackoff,
                                                   userAgent: "walletwatch-test"),
            logger: logger)
        return Engine(storage: Storage(database), config: config, clock: .fixed(.at(now)), http: http, logger: logger)
    }

    /// Everything stored for a source that its ingest could change, to prove a failed one
    /// changed nothing.
    func fingerprint(source: String = "ark") throws -> String {
        let transactions = try database.transactions().filter { $0.assetName.hasPrefix(source == "ark" ? "Ark" : "Cold") }.map {
            "\($0.transaction.txid)|\($0.assetName)|\($0.transaction.amount)|\($0.transaction.status)|\($0.transaction.date)|\($0.transaction.lastUpdated)"
        }
        let balances = [try database.arkBalances()[source].map { "\($0.balance)|\($0.lastUpdated)" } ?? "-",
                        try database.onchainBalances()[source].map { "\($0.balance)|\($0.lastUpdated)" } ?? "-"]
        let vtxos = try database.vtxos().filter { $0.source == source }.map { "\($0.vtxo)" }
        let tip = try database.chainTips()[source].map(String.init) ?? "-"
        return (transactions + balances + vtxos + [tip]).joined(separator: "\n")
    }

    deinit {
        let simulator = self.simulator
        Task { await simulator.stop() }
    }
}
