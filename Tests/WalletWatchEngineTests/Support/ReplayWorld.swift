import Foundation
import GRDB
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchNet
import WalletWatchStore

/// A database file in a temporary folder, and engines that reach a ``ReplayServer`` over real
/// HTTP (libcurl), with sources built directly (so that an address the config loader would
/// refuse, such as the 14-letter P2A one, is replayed too).
final class ReplayWorld: @unchecked Sendable {
    let server: ReplayServer
    let folder = TemporaryDirectory("walletwatch-replay")
    let logs = LogRecorder()
    let database: AppDatabase
    var databasePath: String { folder.file("walletwatch.sqlite") }

    init(server: ReplayServer) throws {
        self.server = server
        database = try AppDatabase.open(path: folder.file("walletwatch.sqlite"))
        folder.write("barkd.token", "replay-token\n")
    }

    /// An Esplora source of the replay server watching `addresses`, feeding the asset `asset`.
    func esplora(_ name: String, asset: String, addresses: [String]) -> SourceConfig {
        SourceConfig(name: name, kind: .esplora, url: server.url, asset: asset, addresses: addresses, intervalSeconds: 600)
    }

    /// A barkd source of the replay server, with its Ark and on-chain assets.
    func barkd(_ name: String = "bark") -> SourceConfig {
        SourceConfig(name: name, kind: .barkd, url: server.url, token: .file(folder.file("barkd.token")),
                     arkAsset: "\(name) ark", onchainAsset: "\(name) on-chain", intervalSeconds: 60)
    }

    /// An engine at `now` over `sources`, with small retry delays.
    func engine(now: String, sources: [SourceConfig]) -> Engine {
        let config = AppConfig(file: nil, database: databasePath, sources: sources)
        let logger = logs.logger(label: "replay")
        let http = CurlHTTPClient(
            configuration: HTTPClientConfiguration(connectTimeout: .seconds(10), timeout: .seconds(60), maxResponseBytes: 8 << 20,
                                                   retries: 1, initialBackoff: .milliseconds(20), maxBackoff: .seconds(1),
                                                   userAgent: "walletwatch-replay-test"),
            logger: logger)
        return Engine(storage: Storage(database), config: config, clock: .fixed(.at(now)), http: http, logger: logger)
    }

    /// Rows of a table as text, read straight from the database file (for tables walletwatch
    /// has no reader of its own for: `utxos`, `ark_info`).
    func rows(_ sql: String) throws -> [[String: String]] {
        let queue = try DatabaseQueue(path: databasePath)
        return try queue.read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                var values: [String: String] = [:]
                for column in row.columnNames { values[column] = row[column].map { "\($0)" } ?? "null" }
                return values
            }
        }
    }

    /// Everything stored that an ingest of any source could change, to prove a failed one
    /// changed nothing.
    func fingerprint() throws -> String {
        let transactions = try database.transactions().map {
            let t = $0.transaction
            return "\(t.txid)|\($0.assetName)|\(t.amount)|\(t.status)|\(t.date)|\(t.fee.map(String.init) ?? "-")|\(t.counterparty ?? "-")|\(t.lastUpdated)"
        }.sorted()
        let ark = try database.arkBalances().sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.balance)|\($0.value.lastUpdated)" }
        let onchain = try database.onchainBalances().sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.balance)|\($0.value.lastUpdated)" }
        let vtxos = try database.vtxos().map { "\($0.source): \($0.vtxo)" }.sorted()
        let tips = try database.chainTips().sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        let tables = try rows("SELECT * FROM utxos ORDER BY source, outpoint") + rows("SELECT * FROM ark_info ORDER BY source")
            + rows("SELECT * FROM esplora_synced_addresses ORDER BY source, address")
        return (transactions + ark + onchain + vtxos + tips + tables.map { $0.sorted { $0.key < $1.key }.description }).joined(separator: "\n")
    }

    /// The path of a fixture file, relative to `Fixtures/`.
    static func fixture(_ relative: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(relative).path
    }

    /// The bytes of a fixture file.
    static func fixtureBytes(_ relative: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: fixture(relative))))
    }

    /// The parsed JSON of a fixture file.
    static func fixtureJSON(_ relative: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture(relative))))
    }

    /// The file names in a fixture folder, sorted.
    static func fixtureFiles(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: fixture(folder))) ?? []).sorted()
    }
}
