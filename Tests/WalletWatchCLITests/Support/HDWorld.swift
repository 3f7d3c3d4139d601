import Foundation
import TestSupport
import WalletWatchSim

/// The simulator serving HD wallets in this process, and a folder whose config watches them
/// through its Esplora, for running the built binary against.
final class HDWorld: @unchecked Sendable {
    let simulator: Simulator
    let folder = TemporaryDirectory("walletwatch-hd")

    /// `sources`: the config's `[[sources]]` tables, with `{{ESPLORA}}` for the explorer's URL.
    init(_ wallets: [HDWalletScenario], sources: String, extra: String = "") async throws {
        simulator = try await Simulator.start(scenario: Scenario(esplora: EsploraScenario(hdWallets: wallets)))
        writeConfig(sources: sources, extra: extra)
    }

    func writeConfig(sources: String, extra: String = "") {
        folder.write("walletwatch.toml", """
            database = "walletwatch.sqlite"
            \(sources.replacingOccurrences(of: "{{ESPLORA}}", with: simulator.esploraURL))
            [rates]
            provider = "static"
            [rates.static]
            "BTC/USD" = "65000"
            \(extra)
            """)
    }

    func cli(_ now: String = "2026-11-21T12:00:00Z") -> CLIRunner { CLIRunner(folder: folder, now: now) }

    /// The Esplora requests since the last reset, and a reset.
    func takeRequests() async -> [RequestRecord] {
        let requests = await simulator.requests(matching: "/esplora/")
        await simulator.resetRequests()
        return requests
    }

    /// The simulator's chain tip.
    func tip() async throws -> Int {
        try await get("/esplora/blocks/tip/height") as? Int ?? -1
    }

    /// A JSON document the simulator serves, fetched with curl.
    func get(_ path: String) async throws -> Any {
        try await Self.get(path, from: simulator)
    }

    /// A JSON document `simulator` serves, fetched with curl.
    static func get(_ path: String, from simulator: Simulator) async throws -> Any {
        let result = try await ProcessRunner.run("/usr/bin/curl", ["-sf", "--max-time", "60", simulator.baseURL + path],
                                                 environment: [:], currentDirectory: "/")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: [.fragmentsAllowed])
    }

    /// What the explorer says about the wallet's used addresses, worked out here from its
    /// address routes (stats and listings), not by walletwatch: the confirmed balance, the
    /// mempool delta, and each transaction's amount for the wallet (outputs to its addresses
    /// minus inputs from them).
    struct Truth {
        var confirmed: Int64 = 0
        var pending: Int64 = 0
        var amounts: [String: Int64] = [:]
        var confirmedTxids: Set<String> = []
    }

    func truth(wallet: String, receive: [Int], change: [Int]) async throws -> Truth {
        try await Self.truth(of: simulator, wallet: wallet, receive: receive, change: change)
    }

    /// ``truth(wallet:receive:change:)`` of a wallet `simulator` serves.
    static func truth(of simulator: Simulator, wallet: String, receive: [Int], change: [Int]) async throws -> Truth {
        func get(_ path: String) async throws -> Any { try await Self.get(path, from: simulator) }
        var addresses: [String] = []
        for index in receive { addresses.append(try await simulator.hdAddress(wallet: wallet, index: index)) }
        for index in change { addresses.append(try await simulator.hdAddress(wallet: wallet, chain: .change, index: index)) }
        let own = Set(addresses)
        var truth = Truth()
        var transactions: [String: [String: Any]] = [:]
        for address in Set(addresses) {
            let stats = try await get("/esplora/address/\(address)") as? [String: Any]
            let chain = stats?["chain_stats"] as? [String: Any] ?? [:]
            let mempool = stats?["mempool_stats"] as? [String: Any] ?? [:]
            truth.confirmed += Int64(chain["funded_txo_sum"] as! Int) - Int64(chain["spent_txo_sum"] as! Int)
            truth.pending += Int64(mempool["funded_txo_sum"] as! Int) - Int64(mempool["spent_txo_sum"] as! Int)
            for tx in try await get("/esplora/address/\(address)/txs") as? [[String: Any]] ?? [] {
                transactions[tx["txid"] as! String] = tx
            }
        }
        for (txid, tx) in transactions {
            let paid = (tx["vout"] as? [[String: Any]] ?? []).filter { own.contains($0["scriptpubkey_address"] as? String ?? "") }
            let spent = (tx["vin"] as? [[String: Any]] ?? []).compactMap { $0["prevout"] as? [String: Any] }
                .filter { own.contains($0["scriptpubkey_address"] as? String ?? "") }
            truth.amounts[txid] = Int64(paid.reduce(0) { $0 + ($1["value"] as! Int) }) - Int64(spent.reduce(0) { $0 + ($1["value"] as! Int) })
            if (tx["status"] as? [String: Any])?["confirmed"] as? Bool == true { truth.confirmedTxids.insert(txid) }
        }
        return truth
    }

    deinit {
        let simulator = self.simulator
        Task { await simulator.stop() }
    }
}

/// Keys from the BIPs' test vectors, for the wallets the tests watch.
enum VectorKeys {
    /// BIP84 "Test vectors": the account key m/84'/0'/0' of "abandon ... about".
    static let bip84Zpub = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs"
    /// BIP86 "Test vectors": the account key m/86'/0'/0'.
    static let bip86Xpub = "xpub6BgBgsespWvERF3LHQu6CnqdvfEvtMcQjYrcRzx53QJjSxarj2afYWcLteoGVky7D3UKDP9QyrLprQ3VCECoY49yfdDEHGCtMMj92pReUsQ"
    /// SLIP-132 "Bitcoin Test Vectors": the ypub of m/49'/0'/0'.
    static let slip132Ypub = "ypub6Ww3ibxVfGzLrAH1PNcjyAWenMTbbAosGNB6VvmSEgytSER9azLDWCxoJwW7Ke7icmizBMXrzBx9979FfaHxHcrArf3zbeJJJUZPf663zsP"
    /// BIP32 test vectors 1, 2 and 3: their master keys (three cosigners).
    static let cosigners = [
        "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8",
        "xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB",
        "xpub661MyMwAqRbcEZVB4dScxMAdx6d4nFc9nvyvH3v4gJL378CSRZiYmhRoP7mBy6gSPSCYk6SzXPTf3ND1cZAceL7SfJ1Z3GC8vBgp2epUt13",
    ]

    /// The BIP84 account as a wallet exports it (key origin, multipath, checksum), as written by
    /// the Bitcoin Dev Kit (bdkpython 3.1.1: `str(Descriptor(...))` of the account's xpub).
    static let sparrowDescriptor = "wpkh([73c5da0a/84'/0'/0']xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V/<0;1>/*)#hpg6d6w2"
}
