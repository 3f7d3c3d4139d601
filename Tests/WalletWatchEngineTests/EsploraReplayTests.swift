import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchStore

/// Real transactions recorded by others (mempool.space's and jabwa's fixtures, see
/// Fixtures/PROVENANCE.md), served as Esplora serves them and ingested through the engine:
/// libcurl, the strict decoders, the ingest session, a database file. Every expected figure is
/// computed here from the recorded JSON, by SPEC.md section 4's rule: outputs paying the
/// watched addresses minus inputs spending them.
@Suite("Esplora: recorded transactions replayed through the engine")
struct EsploraReplayTests {
    static let now = "2026-11-21T12:00:00Z"
    static let later = "2026-11-21T12:05:00Z"

    /// The recorded transactions, by file name (`TXID.json`).
    static let files = ReplayWorld.fixtureFiles("esplora/tx")

    static func load(_ txid: String) throws -> RecordedTransaction {
        try RecordedTransaction(path: ReplayWorld.fixture("esplora/tx/\(txid).json"))
    }

    /// The recorded `GET /address/:a` documents, by address.
    static func addressDocuments() throws -> [String: [UInt8]] {
        var documents: [String: [UInt8]] = [:]
        for folder in ["esplora/original/mempool-docs", "esplora/original/jabwa"] {
            for file in ReplayWorld.fixtureFiles(folder) where file.hasPrefix("address-") {
                let address = String(file.dropFirst("address-".count).dropLast(".json".count))
                documents[address] = try ReplayWorld.fixtureBytes("\(folder)/\(file)")
            }
        }
        return documents
    }

    // MARK: - What the recorded JSON says, computed by hand

    /// Outputs paying `mine` minus inputs spending from it.
    static func amount(_ transaction: RecordedTransaction, for mine: Set<String>) -> Int64 {
        let received = transaction.outputs.filter { $0.address.map(mine.contains) ?? false }.reduce(Int64(0)) { $0 + $1.value }
        let spent = transaction.inputs.filter { $0.address.map(mine.contains) ?? false }.reduce(Int64(0)) { $0 + $1.value }
        return received - spent
    }

    /// The first other party: an output's address when the addresses lose money, an input's
    /// when they gain it; legs without an address do not count.
    static func counterparty(_ transaction: RecordedTransaction, for mine: Set<String>) -> String? {
        let legs = amount(transaction, for: mine) < 0 ? transaction.outputs : transaction.inputs
        return legs.compactMap(\.address).first { !mine.contains($0) }
    }

    /// The balance the replay server's Esplora reports for `addresses` (SPEC.md section 6): from
    /// the recorded address document when there is one (chain funded minus spent; mempool
    /// funded minus spent), else the coins the transaction spends (received before it, confirmed)
    /// plus its amount when it is confirmed; its amount is pending while it is not.
    static func balance(of addresses: [String], after transaction: RecordedTransaction,
                        documents: [String: [UInt8]]) throws -> (confirmed: Int64, pending: Int64) {
        var confirmed: Int64 = 0
        var pending: Int64 = 0
        for address in addresses {
            if let document = documents[address] {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(document)) as? [String: Any])
                func delta(_ key: String) throws -> Int64 {
                    let stats = try #require(object[key] as? [String: Any])
                    return try #require(stats["funded_txo_sum"] as? NSNumber).int64Value - #require(stats["spent_txo_sum"] as? NSNumber).int64Value
                }
                confirmed += try delta("chain_stats")
                pending += try delta("mempool_stats")
                continue
            }
            let own = amount(transaction, for: [address])
            confirmed += transaction.inputs.filter { $0.address == address }.reduce(0) { $0 + $1.value }
            if transaction.confirmed { confirmed += own } else { pending += own }
        }
        return (confirmed, pending)
    }

    @Test("the fixtures are the 14 recorded transactions, each named by its txid")
    func fixtures() throws {
        #expect(Self.files.count == 14)
        for file in Self.files {
            let transaction = try Self.load(String(file.dropLast(".json".count)))
            #expect(file == transaction.txid + ".json")
        }
    }

    /// One source for each address the transaction touches (every distinct address among its
    /// outputs and its inputs' prevouts; an empty `scriptpubkey_address` is none), and one for
    /// all of them together, ingested in one pass.
    @Test("each recorded transaction is stored, for each address it touches, as its JSON says",
          arguments: files.map { String($0.dropLast(".json".count)) })
    func replay(txid: String) async throws {
        let transaction = try Self.load(txid)
        let documents = try Self.addressDocuments()
        let addresses = transaction.addresses
        #expect(!addresses.isEmpty)
        try await ReplayServer.run { server in
            server.serveEsplora([transaction], addressDocuments: documents)
            let world = try ReplayWorld(server: server)
            var sources = addresses.enumerated().map { world.esplora("a\($0.offset)", asset: "address \($0.offset)", addresses: [$0.element]) }
            if addresses.count > 1 { sources.append(world.esplora("all", asset: "all addresses", addresses: addresses)) }
            let reports = try await world.engine(now: Self.now, sources: sources).ingestor.ingest()
            for report in reports {
                #expect(report.ok, "\(txid) \(report.source): \(report.error ?? "")")
                #expect(report.counts == IngestCounts(new: 1), "\(txid) \(report.source)")
            }
            let balances = try world.database.balances()
            for source in sources {
                let mine = Set(source.addresses)
                let rows = try world.database.transactions(TransactionFilter(asset: source.asset))
                #expect(rows.count == 1, "\(txid) for \(source.addresses)")
                guard let stored = rows.first?.transaction else { continue }
                let context = "\(txid) for \(source.addresses)"
                let expected = Self.amount(transaction, for: mine)
                #expect(stored.txid == txid, "\(context)")
                #expect(stored.amount == expected, "\(context)")
                #expect(stored.direction == (expected < 0 ? .outgoing : .incoming), "\(context)")
                #expect(stored.type == .onchain, "\(context)")
                #expect(stored.status == (transaction.confirmed ? .confirmed : .pending), "\(context)")
                #expect(stored.date == (transaction.blockTime.map { Instant(millisecondsSinceEpoch: $0 * 1000) } ?? .at(Self.now)), "\(context)")
                #expect(stored.fee == transaction.fee.map { Int128($0) }, "\(context)")
                #expect(stored.counterparty == Self.counterparty(transaction, for: mine), "\(context)")

                let (confirmed, pending) = try Self.balance(of: source.addresses, after: transaction, documents: documents)
                let row = try #require(try world.database.onchainBalances()[source.name], "\(context)")
                #expect(row.balance.confirmed == confirmed && row.balance.untrustedPending == pending, "\(context): \(row.balance)")
                let asset = try world.database.asset(named: source.asset!)
                #expect(balances[asset.id!]?.counted == Int128(confirmed) && balances[asset.id!]?.pending == Int128(pending), "\(context)")
            }
            // The same data again changes nothing.
            let again = try await world.engine(now: Self.later, sources: sources).ingestor.ingest()
            #expect(again.map(\.counts) == Array(repeating: IngestCounts(), count: sources.count), "\(txid)")
        }
    }

    /// Which transaction replaced which, as mempool's fixtures record it:
    /// transactions-replaced.json and transactions-rbfs.json list the replaced and the
    /// replacing transactions (paired by the coin both spend), and details_rbf_tx02_api_rbf.json
    /// says which one tx02 replaces.
    static func replacements() throws -> [(original: String, replacement: String)] {
        func txids(_ file: String) throws -> [String] {
            try #require(try ReplayWorld.fixtureJSON("esplora/original/mempool/\(file)") as? [[String: Any]]).compactMap { $0["txid"] as? String }
        }
        var pairs: [(String, String)] = []
        for original in try txids("transactions-replaced.json") {
            let spent = Set(try load(original).inputs.map(\.outpoint))
            for replacement in try txids("transactions-rbfs.json") where !spent.isDisjoint(with: try load(replacement).inputs.map(\.outpoint)) {
                pairs.append((original, replacement))
            }
        }
        let details = try #require(try ReplayWorld.fixtureJSON("esplora/original/mempool/details_rbf_tx02_api_rbf.json") as? [String: Any])
        let replacing = try #require(((details["replacements"] as? [String: Any])?["tx"] as? [String: Any])?["txid"] as? String)
        for original in try #require(details["replaces"] as? [String]) { pairs.append((original, replacing)) }
        return pairs
    }

    @Test("the recorded replacements are three pairs, each spending a coin the other spends")
    func replacementPairs() throws {
        let pairs = try Self.replacements()
        #expect(pairs.count == 3)
        for (original, replacement) in pairs {
            let spent = Set(try Self.load(original).inputs.map(\.outpoint))
            #expect(!spent.isDisjoint(with: try Self.load(replacement).inputs.map(\.outpoint)))
            #expect(Self.files.contains("\(original).json") && Self.files.contains("\(replacement).json"))
        }
    }

    /// Pass 1 serves the original (in the mempool), pass 2 the replacement instead: an
    /// explorer forgets a replaced transaction. For each address either touches, the
    /// original ends failed (never deleted, dated when first seen), the replacement is new
    /// and pending.
    @Test("a replaced transaction ends failed and its replacement is new and pending", arguments: [0, 1, 2])
    func replacement(pair: Int) async throws {
        let (originalID, replacementID) = try Self.replacements()[pair]
        let original = try Self.load(originalID)
        let replacement = try Self.load(replacementID)
        #expect(!original.confirmed && !replacement.confirmed)
        let addresses = original.addresses + replacement.addresses.filter { !original.addresses.contains($0) }
        try await ReplayServer.run { server in
            let world = try ReplayWorld(server: server)
            let sources = addresses.enumerated().map { world.esplora("a\($0.offset)", asset: "address \($0.offset)", addresses: [$0.element]) }
            server.serveEsplora([original])
            let first = try await world.engine(now: Self.now, sources: sources).ingestor.ingest()
            server.serveEsplora([replacement])
            let second = try await world.engine(now: Self.later, sources: sources).ingestor.ingest()
            for (index, source) in sources.enumerated() {
                let address = source.addresses[0]
                let context = "\(originalID) -> \(replacementID) for \(address)"
                let inOriginal = original.touches(address), inReplacement = replacement.touches(address)
                #expect(first[index].ok && second[index].ok, "\(context): \(first[index].error ?? "") \(second[index].error ?? "")")
                #expect(first[index].counts == IngestCounts(new: inOriginal ? 1 : 0), "\(context)")
                #expect(second[index].counts == IngestCounts(new: inReplacement ? 1 : 0, dropped: inOriginal ? 1 : 0), "\(context)")
                let rows = Dictionary(uniqueKeysWithValues: try world.database.transactions(TransactionFilter(asset: source.asset)).map {
                    ($0.transaction.txid, $0.transaction)
                })
                #expect(rows.count == (inOriginal ? 1 : 0) + (inReplacement ? 1 : 0), "\(context)")
                if inOriginal {
                    let stored = try #require(rows[originalID], "\(context)")
                    #expect(stored.status == .failed && stored.amount == Self.amount(original, for: [address]), "\(context)")
                    #expect(stored.date == .at(Self.now) && stored.lastUpdated == .at(Self.later), "\(context)")
                }
                if inReplacement {
                    let stored = try #require(rows[replacementID], "\(context)")
                    #expect(stored.status == .pending && stored.amount == Self.amount(replacement, for: [address]), "\(context)")
                    #expect(stored.date == .at(Self.later) && stored.fee == replacement.fee.map { Int128($0) }, "\(context)")
                }
                // The mempool delta is the replacement's amount now; the original's is gone.
                let row = try #require(try world.database.onchainBalances()[source.name])
                #expect(row.balance.untrustedPending == (inReplacement ? Self.amount(replacement, for: [address]) : 0), "\(context)")
            }
        }
    }

    /// mempool.space's API documentation and jabwa's model comments give `GET /address/:a`
    /// answers; walletwatch's balance of such an address is chain funded minus spent,
    /// with the mempool's delta pending (SPEC.md section 6).
    @Test("a recorded address summary becomes the stored balance", arguments: try! addressDocuments().keys.sorted())
    func addressSummary(address: String) async throws {
        let documents = try Self.addressDocuments()
        let document = try #require(documents[address])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(document)) as? [String: Any])
        #expect(object["address"] as? String == address)
        let chain = try #require(object["chain_stats"] as? [String: Any]), mempool = try #require(object["mempool_stats"] as? [String: Any])
        func sats(_ stats: [String: Any], _ key: String) throws -> Int64 { try #require(stats[key] as? NSNumber).int64Value }
        let confirmed = try sats(chain, "funded_txo_sum") - sats(chain, "spent_txo_sum")
        let pending = try sats(mempool, "funded_txo_sum") - sats(mempool, "spent_txo_sum")
        // The transactions served beside it: those of the recordings that touch the address.
        let transactions = try Self.files.map { try Self.load(String($0.dropLast(".json".count))) }.filter { $0.touches(address) }
        try await ReplayServer.run { server in
            server.serveEsplora(transactions, addressDocuments: documents)
            let world = try ReplayWorld(server: server)
            let source = world.esplora("watch", asset: "watched", addresses: [address])
            let report = try #require(try await world.engine(now: Self.now, sources: [source]).ingestor.ingest().first)
            #expect(report.ok, "\(report.error ?? "")")
            #expect(report.counts.new == transactions.count)
            let row = try #require(try world.database.onchainBalances()["watch"])
            #expect(row.balance.confirmed == confirmed && row.balance.untrustedPending == pending && row.balance.total == confirmed + pending)
            let asset = try world.database.asset(named: "watched")
            #expect(try world.database.balances()[asset.id!] == AssetBalance(counted: Int128(confirmed), pending: Int128(pending), lastUpdated: .at(Self.now)))
        }
    }
}
