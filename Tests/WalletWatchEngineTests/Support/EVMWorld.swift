import Foundation
import Logging
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchNet
import WalletWatchSources
import WalletWatchStore

/// The suites on the one shared chain (``EVMChainHost``), one test at a time: a test sets the
/// node's finality and faults, mines, and counts the requests the node saw, which another
/// test's activity on the same chain would change.
@Suite("EVM: on one real py-evm chain", .serialized)
enum EVMChainTests {}

/// One real EVM chain (py-evm through eth-tester, `Tests/Support/evm`) shared by the tests of
/// ``EVMChainTests``, which each make accounts of their own, and engines with a database of
/// their own pointed at it over real HTTP.
actor EVMChainHost {
    static let shared = EVMChainHost()
    private var node: EVMNode?

    /// The chain: id 1, blocks 12 s apart from 2026-01-01, `finalized` two blocks below the tip.
    func node() async throws -> EVMNode {
        if let node, node.isRunning { return node }
        let started = try await EVMNode.start(chainID: 1, finalityDepth: 2, blockTime: 12, genesisTimestamp: 1_767_225_600)
        node = started
        return started
    }
}

final class EVMWorld: @unchecked Sendable {
    let node: EVMNode
    let folder = TemporaryDirectory("walletwatch-evm")
    let logs = LogRecorder()
    let database: AppDatabase
    var databasePath: String { folder.file("walletwatch.sqlite") }

    init() async throws {
        node = try await EVMChainHost.shared.node()
        _ = try await node.control("clearFaults")
        _ = try await node.control("setFinality", ["finalizedDepth": 2, "safeDepth": 1])
        database = try AppDatabase.open(path: folder.file("walletwatch.sqlite"))
    }

    /// A new account the node can send from, funded with `ether` wei by the faucet.
    func account(_ seed: String, wei: String? = nil) async throws -> String {
        let address = try await node.control("newAccount", ["seed": seed + "-" + UUID().uuidString])["address"] as! String
        if let wei { _ = try await node.control("fund", ["to": address, "value": wei]) }
        return address
    }

    /// Mines `blocks` empty blocks (the finality depth is 2: three make everything before final).
    func mine(_ blocks: Int = 3) async throws { _ = try await node.control("mine", ["blocks": blocks]) }

    /// An evm source over the node.
    func source(_ name: String = "eth", addresses: [String], tokens: [EVMSourceConfig.Token] = [], history: EVMSourceConfig.History,
                blockscout: Bool = false, confirmations: Int? = nil) -> SourceConfig {
        var source = SourceConfig(name: name, kind: .evm, url: node.url, intervalSeconds: 2)
        source.evm = EVMSourceConfig(
            chainName: "ethereum", chainID: 1, native: "ETH", urlSecret: nil, addresses: addresses.map { EVMAddress($0)! }, tokens: tokens,
            history: history, historyURL: history == .etherscan ? (blockscout ? node.blockscoutURL : node.etherscanURL) : nil, apiKey: nil,
            confirmations: confirmations, nativeAsset: "\(name) ETH")
        source.asset = "\(name) ETH"
        return source
    }

    func engine(sources: [SourceConfig], now: String = "2026-11-21T12:00:00Z") -> Engine {
        var config = AppConfig(file: nil, database: databasePath, sources: sources)
        config.http = HTTPConfig(timeoutSeconds: 60, retries: 1)
        let logger = logs.logger(label: "test")
        let http = CurlHTTPClient(
            configuration: HTTPClientConfiguration(connectTimeout: .seconds(10), timeout: .seconds(60), retries: 1,
                                                   initialBackoff: .milliseconds(20), maxBackoff: .seconds(2), userAgent: "walletwatch-test"),
            logger: logger)
        return Engine(storage: Storage(database), config: config, clock: .fixed(.at(now)), http: http, logger: logger)
    }

    /// What web3.py reads about `addresses` and `tokens` (Tests/Support/evm/evm_oracle.py), its
    /// integers exact.
    func oracle(addresses: [String], tokens: [String] = []) throws -> JSONValue {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: EVMNode.pythonPath)
        let script = (EVMNode.scriptPath as NSString).deletingLastPathComponent + "/evm_oracle.py"
        process.arguments = [script, node.url] + addresses.flatMap { ["--address", $0] } + tokens.flatMap { ["--token", $0] }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw EVMNodeError("evm_oracle.py exited \(process.terminationStatus)") }
        return try JSONReader.read(Array(data)) { try $0.readValue() }
    }

    /// The stored rows of `asset` as `hash amount fee status` (an adjustment's `adjustment:BLOCK`
    /// for its hash), sorted by txid.
    func ledger(_ asset: String) throws -> [String] {
        try database.transactions().filter { $0.assetName == asset }.map {
            let hash = $0.transaction.txid.split(separator: ":", maxSplits: 2).last!
            return "\(hash) \($0.transaction.amount) \($0.transaction.fee.map { "\($0)" } ?? "-") \($0.transaction.status.rawValue)"
        }.sorted()
    }

    /// The stored balance of `asset`: counted and pending.
    func balance(_ asset: String) throws -> (counted: Int128, pending: Int128)? {
        guard let overview = try database.assetOverviews().first(where: { $0.asset.name == asset }) else { return nil }
        return (overview.balance.counted, overview.balance.pending)
    }
}

extension JSONValue {
    /// An exact integer of an oracle's answer.
    var integer: Int128? {
        switch self {
        case .int(let value): value
        case .number(let text): Int128(text)
        case .string(let text): Int128(text)
        default: nil
        }
    }
}

extension EVMReply {
    /// A decimal-string amount of a control method's answer.
    func amount(_ key: String) -> Int128 { Int128(self[key] as? String ?? "") ?? Int128((self[key] as? Int) ?? -1) }
    var hash: String { (self["hash"] as? String ?? "").lowercased() }
}
