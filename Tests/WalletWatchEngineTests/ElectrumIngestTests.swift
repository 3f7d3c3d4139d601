import Foundation
import GRDB
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
    /// The BIP84 account of `abandon ... about` on the test networks, as the Bitcoin Dev Kit
    /// writes it: receive and change chains. Regtest: the chain the simulator's Electrum face
    /// serves (its genesis block is regtest's, and a server of another chain is refused).
    static let descriptors = RegtestWallet.descriptors
    /// A plain regtest address of nobody's key (BIP173's program), paid once in a block and once in the mempool.
    static let plain = RegtestWallet.stranger

    /// A real chain of 150 blocks: the wallet's deposits and spends (with a gap of 20 unused
    /// receive addresses before index 25), a deposit in the mempool, and the plain address's.
    static func scenario() -> Scenario {
        Scenario(
            tipHeight: 150,
            esplora: EsploraScenario(
                hdWallets: [HDWalletScenario(name: "w", descriptors: descriptors, network: "regtest", receive: [0, 1, 2, 5, 25, 26], change: [0, 1, 2],
                                             mempoolReceive: [3], seed: 21)],
                payments: [PaymentScenario(address: plain, value: 125_000, blockHeight: 120), PaymentScenario(address: plain, value: 7_000)]),
            bitcoin: BitcoinScenario())
    }

    static func wallet(_ world: SimulatedWorld, kind: SourceConfig.Kind, name: String, url: String, pin: String? = nil) throws -> SourceConfig {
        var source = SourceConfig(name: name, kind: kind, url: url, asset: name, addresses: [plain], network: .regtest,
                                  wallet: try HDWallet(descriptors: descriptors, xpub: nil, network: .regtest), intervalSeconds: 600)
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
        // The chain's headers, verified from the genesis block (regtest has no checkpoint) to
        // the tip in one call, and one proof for each confirmed transaction.
        let headers = log.filter { $0.method == "blockchain.block.headers" }
        #expect(headers.count == 1 && headers.first?.params == .array([.int(1), .int(150)]), "\(headers.map(\.params))")
        #expect(!log.contains { $0.method == "blockchain.block.header" })
        #expect(log.filter { $0.method == "blockchain.transaction.get_merkle" }.count == node.filter { $0.contains(" confirmed ") }.count)
        // The handshake, then for each round of the window one write of subscriptions and first
        // histories (indexes 0-19 of each chain; 5 used: 20-25; 25 used: 26-45; 26 used: 46),
        // then one write each of transactions, headers and proofs.
        let trips: Int = 1 + 4 + 3
        #expect(report.roundTrips == trips, "\(log.map { "\($0.write):\($0.method)" })")
        let stored = try await DatabaseQueue(path: world.databasePath).read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM block_headers WHERE source = 'node' AND length(raw) = 80") ?? 0,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM transaction_proofs WHERE source = 'node'") ?? 0)
        }
        #expect(stored.0 == 150 && stored.1 == node.filter { $0.contains(" confirmed ") }.count, "the chain's headers and each proof are kept: \(stored)")
    }

    @Test("fixed addresses alone, no HD wallet: the same ledger and balance as Esplora's plain-address source")
    func addressesOnly() async throws {
        let world = try await SimulatedWorld(scenario: Self.scenario())
        let electrum = SourceConfig(name: "node", kind: .electrum, url: world.simulator.electrumTCPURL, asset: "node", addresses: [Self.plain],
                                    network: .regtest, intervalSeconds: 600)
        let esplora = SourceConfig(name: "explorer", kind: .esplora, url: world.simulator.esploraURL, asset: "explorer", addresses: [Self.plain],
                                   network: .regtest, intervalSeconds: 600)
        let failures = try await world.engine(sources: [electrum, esplora]).ingestor.ingest().compactMap(\.error)
        #expect(failures.isEmpty, "\(failures)")
        let node = try Self.ledger(world.database, asset: "node")
        let explorer = try Self.ledger(world.database, asset: "explorer")
        #expect(node.count == 2 && node == explorer, "\(node)")
        let balances = try world.database.onchainBalances()
        #expect(balances["node"]?.balance == balances["explorer"]?.balance)
        #expect(balances["node"]?.balance.confirmed == 125_000 && balances["node"]?.balance.untrustedPending == 7_000)
        let chains = try await world.database.walletAddresses(source: "node").map(\.chain)
        #expect(chains == [.listed])
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
        #expect(methods == ["server.version", "blockchain.headers.subscribe", "server.features", "blockchain.scripthash.subscribe"], "\(methods)")
        #expect(again.roundTrips == 2, "the handshake, then every subscription in one write")
        #expect(try Self.ledger(world.database, asset: "node", updated: true) == before, "no row written")
    }
}

/// A payment's life through Electrum, beside Esplora's view of the same chain: in the mempool,
/// mined (dated by its block), reorganised out and mined again, replaced.
@Suite("Electrum: a payment's life, reorgs and replacements", .serialized)
struct ElectrumPaymentLifeTests {
    @Test("mempool, mined, reorganised back to pending, mined again; a replaced payment fails; the same as Esplora at every step")
    func life() async throws {
        let world = try await SimulatedWorld(scenario: ElectrumIngestTests.scenario())
        let sources = [try ElectrumIngestTests.wallet(world, kind: .electrum, name: "node", url: world.simulator.electrumTCPURL),
                       try ElectrumIngestTests.wallet(world, kind: .esplora, name: "explorer", url: world.simulator.esploraURL)]
        var minute = 0
        func ingest() async throws -> [String] {
            minute += 1
            let reports = try await world.engine(now: "2026-11-21T12:\(String(format: "%02d", minute)):00Z", sources: sources).ingestor.ingest()
            let failures = reports.compactMap(\.error)
            #expect(failures.isEmpty, "\(failures)")
            let node = try ElectrumIngestTests.ledger(world.database, asset: "node")
            #expect(node == (try ElectrumIngestTests.ledger(world.database, asset: "explorer")))
            return node
        }
        func row(_ txid: String, _ rows: [String]) -> String? { rows.first { $0.hasPrefix(txid + " ") } }
        _ = try await ingest()

        let deposit = try await world.simulator.hdDeposit(wallet: "w", index: 4, value: 40_000)
        #expect(row(deposit.txid, try await ingest())?.contains(" 40000 pending ") == true)

        _ = try await world.simulator.mine()
        let mined = try #require(row(deposit.txid, try await ingest()))
        #expect(mined.contains(" 40000 confirmed "), "\(mined)")

        // The block that held it is replaced by two others that do not: back to pending.
        _ = try await world.simulator.reorg(depth: 1, transactions: .mempool)
        #expect(row(deposit.txid, try await ingest())?.contains(" 40000 pending ") == true)
        _ = try await world.simulator.mine()
        let again = try #require(row(deposit.txid, try await ingest()))
        #expect(again.contains(" 40000 confirmed ") && again != mined, "mined again, in another block: \(again)")

        // A payment replaced by one with a higher fee (RBF): the original fails, the new one is pending.
        let first = try await world.simulator.hdDeposit(wallet: "w", index: 6, value: 55_000)
        _ = try await ingest()
        let (replacement, evicted) = try await world.simulator.replace(first.txid)
        #expect(evicted.contains(first.txid))
        let rows = try await ingest()
        #expect(row(first.txid, rows)?.contains(" failed ") == true, "\(rows)")
        #expect(row(replacement.txid, rows)?.contains(" pending ") == true)
        #expect(try world.database.transactions().filter { $0.assetName == "node" }.count == rows.count, "nothing deleted")
    }
}

/// SPEC.md section 21's refused answers, each served by the simulator's Electrum face: the pass
/// fails with one line naming what was wrong, nothing stored changes, and the other source is
/// still ingested.
@Suite("Electrum: a broken or hostile server changes nothing stored", .serialized)
struct ElectrumRefusalTests {
    static let cases: [(ElectrumFaultKind, String, String)] = [
        (.wrongTransaction, "blockchain.transaction.get", "not the transaction asked for"),
        (.shortHeader(bytes: 79), "blockchain.block.headers", "a block header is 80 bytes, not 79"),
        (.wrongStatus, "blockchain.scripthash.subscribe", "of receive address 0 does not match the history the server sent for it"),
        (.notJSONRPC, "blockchain.scripthash.get_history", "is not JSON-RPC"),
        (.garbage, "blockchain.scripthash.get_history", "is not JSON-RPC"),
        (.error(code: 2, message: "daemon error: disk full"), "blockchain.scripthash.get_history",
         "blockchain.scripthash.get_history: the server answered with an error: daemon error: disk full (code 2)"),
        (.longLine(bytes: 2_000_000), "blockchain.scripthash.get_history", "a line longer than 1048576 bytes"),
        (.historyTooLarge, "blockchain.scripthash.get_history", "raise its limit (ElectrumX: MAX_SEND; Fulcrum: max_history)"),
        (.version("1.7"), "server.version", "speaks protocol version 1.7; walletwatch speaks 1.4 to 1.6"),
        (.drop(after: 0), "blockchain.transaction.get", "the server closed the connection"),
        (.stall(seconds: 30), "blockchain.scripthash.get_history", "within"),
        (.repeatedEntry, "blockchain.scripthash.*", "twice with different heights"),
    ]

    @Test("a refused answer fails only that source's pass, in one line, with nothing stored", arguments: 0..<cases.count)
    func refused(_ index: Int) async throws {
        let (fault, method, message) = Self.cases[index]
        let world = try await SimulatedWorld(scenario: ElectrumIngestTests.scenario())
        let sources = [try ElectrumIngestTests.wallet(world, kind: .electrum, name: "node", url: world.simulator.electrumTCPURL),
                       try ElectrumIngestTests.wallet(world, kind: .esplora, name: "explorer", url: world.simulator.esploraURL)]
        let first = try await world.engine(sources: sources).ingestor.ingest().compactMap(\.error)
        #expect(first.isEmpty, "\(first)")
        // Something new for every kind of call to be needed: a deposit, mined in a new block.
        _ = try await world.simulator.hdDeposit(wallet: "w", index: 7, value: 33_000)
        _ = try await world.simulator.mine()
        let before = try Self.stored(world)
        try await world.simulator.addElectrumFault(fault, on: method)
        let reports = try await world.engine(now: "2026-11-21T12:10:00Z", timeoutSeconds: 2, sources: sources, maxResponseBytes: 1 << 20)
            .ingestor.ingest()
        let node = try #require(reports.first { $0.source == "node" })
        #expect(!node.ok)
        let error = node.error ?? ""
        #expect(error.hasPrefix("source 'node': \(world.simulator.electrumTCPURL)"), "\(error)")
        #expect(error.contains(message), "\(error)")
        #expect(!error.contains("\n"))
        // The line names the source and asset, never the wallet's addresses or scripts (issue 26).
        for address in try await world.database.walletAddresses(source: "node") {
            let script = Hex.decode(address.script) ?? []
            for token in [address.address, address.script, Script.electrumScripthash(script), Script.esploraScripthash(script)] {
                #expect(!error.contains(token), "\(error) names \(address.label)")
            }
        }
        #expect(try Self.stored(world) == before, "nothing stored changed")
        #expect(reports.first { $0.source == "explorer" }?.ok == true, "the other source is still ingested")
    }

    /// Everything an electrum pass writes: its ledger rows, addresses with statuses, balance and records.
    static func stored(_ world: SimulatedWorld) throws -> String {
        let ledger = try ElectrumIngestTests.ledger(world.database, asset: "node", updated: true)
        let tables = try DatabaseQueue(path: world.databasePath).read { db in
            try ["script_histories", "block_headers", "chain_transactions"].map { table in
                "\(table) \(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? -1)"
            } + [try String.fetchAll(db, sql: "SELECT address || ' ' || IFNULL(script_status, '-') FROM derived_addresses WHERE source = 'node' ORDER BY 1")
                .joined(separator: ",")]
        }
        return (ledger + tables + ["\(try world.database.onchainBalances()["node"].map { "\($0.balance)|\($0.lastUpdated)" } ?? "-")"]).joined(separator: "\n")
    }
}

/// What an HD wallet offers besides its ledger, through Electrum exactly as through Esplora:
/// the addresses past the gap (`asset addresses --deep`), a goal's deposit address and Rule 1b,
/// and the balance cache's refresh.
@Suite("Electrum: addresses past the gap, a goal's deposit address, the balance refresh", .serialized)
struct ElectrumWalletFeatureTests {
    @Test("--deep finds used addresses past the gap; a goal's reserved address paid goes to the goal (Rule 1b); balance --refresh asks the server")
    func features() async throws {
        var scenario = ElectrumIngestTests.scenario()
        // Index 60 is 34 past the last address the window reaches (26): only --deep finds it.
        scenario.esplora.hdWallets[0].receive.append(60)
        let world = try await SimulatedWorld(scenario: scenario)
        let electrum = try ElectrumIngestTests.wallet(world, kind: .electrum, name: "node", url: world.simulator.electrumTCPURL)
        let engine = world.engine(sources: [electrum])
        #expect(try await engine.ingestor.ingest()[0].ok)

        let listing = try await engine.walletAddresses.list(asset: "node", deep: 40)
        let beyond = listing.rows.filter(\.beyondGap)
        #expect(beyond.map(\.address.index) == [60] && beyond.first?.address.chain == .receive, "\(beyond)")
        #expect(beyond.first?.address.activity.balance ?? 0 > 0)
        #expect(listing.warnings.first?.contains("gap_limit = 34 would include it") == true, "\(listing.warnings)")
        let asked: Int = 2 * 2 * 40
        #expect(listing.requests == asked, "a balance and a history an address, 40 a chain")

        _ = try engine.goals.add(name: "Trip", currency: .btc, target: Money(minorUnits: 1_000_000, currency: .btc), deadline: nil)
        let reserved = try await engine.walletAddresses.reserve(goal: "Trip", asset: "node")
        let deposit = try await world.simulator.pay(reserved.address, value: 80_000, height: nil)
        _ = try await world.simulator.mine()
        let report = try await world.engine(now: "2026-11-21T12:10:00Z", sources: [electrum]).ingestor.ingest()[0]
        #expect(report.ok && report.counts.autoAllocated == 1, "\(report)")
        let history = try engine.allocations.history(asset: "node").entries
        #expect(history.last.map { "\($0.goal) \($0.amount) \($0.reason.rawValue)" } == "Trip 80000 rule1b", "\(history)")
        #expect(try world.database.transactions().contains { $0.transaction.txid == deposit.txid && $0.transaction.status == .confirmed })

        // The balance cache's refresh asks the server for the stored addresses' balances.
        let stored = try world.database.onchainBalances()["node"]?.balance
        await world.simulator.resetElectrumRequests()
        let refreshed = try await world.engine(now: "2026-11-21T12:30:00Z", sources: [electrum]).balances.current(refresh: true)
        #expect(refreshed.sources.first?.onchain?.balance == stored)
        #expect(Set(await world.simulator.electrumRequests().map(\.method)).contains("blockchain.scripthash.get_balance"))
    }
}
