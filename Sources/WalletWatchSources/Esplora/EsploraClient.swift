import WalletWatchCore
import WalletWatchNet

/// Reads addresses from any Esplora explorer (Blockstream, mempool.space, your own).
public struct EsploraClient: Sendable {
    /// Confirmed transactions come 25 to a page, newest first.
    public static let pageSize = 25
    /// A history's first page lists at most this many mempool transactions.
    public static let mempoolLimit = 50

    let requester: SourceRequester

    public init(source: String, baseURL: String, http: any HTTPClient, route: NetworkRoute? = nil) {
        requester = SourceRequester(source: source, baseURL: baseURL, token: nil, http: http, route: route)
    }

    /// `GET /address/:a`.
    public func summary(of address: String) async throws -> AddressSummary {
        try await requester.get("/address/\(address)", decode: EsploraDecoding.summary)
    }

    /// `GET /address/:a/txs` (mempool, then the newest confirmed) or, after `lastSeen`,
    /// `GET /address/:a/txs/chain/:lastSeen` (the next page of confirmed ones).
    public func transactions(of address: String, after lastSeen: String?) async throws -> [ChainTransaction] {
        let path = lastSeen.map { "/address/\(address)/txs/chain/\($0)" } ?? "/address/\(address)/txs"
        return try await requester.get(path, decode: EsploraDecoding.transactions)
    }

    /// `GET /scripthash/:hash`: the stats of a script, keyed by ``Script/esploraScripthash(_:)``.
    public func summary(ofScripthash scripthash: String) async throws -> AddressSummary {
        try await requester.get("/scripthash/\(scripthash)", decode: EsploraDecoding.summary)
    }

    /// `GET /scripthash/:hash/txs`, or after `lastSeen` `GET /scripthash/:hash/txs/chain/:lastSeen`.
    public func transactions(ofScripthash scripthash: String, after lastSeen: String?) async throws -> [ChainTransaction] {
        let path = lastSeen.map { "/scripthash/\(scripthash)/txs/chain/\($0)" } ?? "/scripthash/\(scripthash)/txs"
        return try await requester.get(path, decode: EsploraDecoding.transactions)
    }

    /// `GET /blocks/tip/height` (plain text).
    public func tipHeight() async throws -> Int64 {
        let path = "/blocks/tip/height"
        let body = try await requester.getBody(path)
        let text = String(decoding: body, as: UTF8.self).trimmingSpaces
        guard let height = Int64(text), height >= 0 else {
            throw requester.failure(path, "expected a block height, got \(JSONReader.shown(text))")
        }
        return height
    }

    /// Syncs the addresses of one asset.
    ///
    /// For an address an earlier pass synced whole (`synced`), paging stops at the first page
    /// that reaches a confirmed transaction already stored (`knownConfirmed`): passes are stored
    /// whole or not at all, so everything older was stored by an earlier pass. One new
    /// transaction therefore costs two requests an address (its summary and its first page).
    /// Any other address (new in the config) pages through its whole history: a transaction it
    /// shares with another address may be known without its older ones being stored. `full`
    /// pages through every address's whole history.
    public func sync(addresses: [String], knownConfirmed: Set<String>, synced: Set<String>, full: Bool) async throws -> EsploraSync {
        let addressSet = Set(addresses)
        var requests = 0
        var confirmed: Int64 = 0
        var mempoolDelta: Int64 = 0
        var seen: Set<String> = []
        var transactions: [ObservedTransaction] = []
        for address in addresses {
            let summary = try await self.summary(of: address)
            requests += 1
            (confirmed, mempoolDelta) = try adding(summary, to: (confirmed, mempoolDelta))
            let incremental = !full && synced.contains(address)
            var lastSeen: String? = nil
            while true {
                let page = try await self.transactions(of: address, after: lastSeen)
                requests += 1
                var confirmedInPage = 0
                var reachedKnown = false
                for transaction in page {
                    if transaction.confirmed {
                        confirmedInPage += 1
                        lastSeen = transaction.txid
                        if knownConfirmed.contains(transaction.txid) { reachedKnown = true }
                    }
                    if seen.insert(transaction.txid).inserted {
                        // The decoder bounded each side of the transaction: its amount always is.
                        guard let observed = transaction.observed(for: addressSet) else {
                            throw requester.failure("/address", "transaction \(transaction.txid) moves more than the 21 million BTC that can exist")
                        }
                        transactions.append(observed)
                    }
                }
                if confirmedInPage < Self.pageSize || (reachedKnown && incremental) { break }
            }
        }
        guard confirmed >= 0 else {
            throw requester.failure("/address", "the addresses' chain stats add up to a negative balance (\(confirmed) sat)")
        }
        var tip: Int64? = nil
        if full {
            tip = try await tipHeight()
            requests += 1
        }
        let balance = OnchainBalance(
            total: confirmed + mempoolDelta, trustedSpendable: confirmed, immature: 0, trustedPending: 0,
            untrustedPending: mempoolDelta, confirmed: confirmed)
        return EsploraSync(balance: balance, transactions: transactions, requests: requests, tipHeight: tip)
    }

    /// Only the balance of the addresses (one request an address), for the balance cache.
    public func balance(addresses: [String]) async throws -> OnchainBalance {
        var confirmed: Int64 = 0
        var mempoolDelta: Int64 = 0
        for address in addresses {
            (confirmed, mempoolDelta) = try adding(try await self.summary(of: address), to: (confirmed, mempoolDelta))
        }
        return OnchainBalance(total: confirmed + mempoolDelta, trustedSpendable: confirmed, immature: 0,
                              trustedPending: 0, untrustedPending: mempoolDelta, confirmed: confirmed)
    }

    /// `totals` plus an address's confirmed and mempool figures, refused once a sum leaves the
    /// 21 million BTC that can exist (each figure is bounded when read; their sum over many
    /// addresses must be too, and must never trap).
    private func adding(_ summary: AddressSummary, to totals: (confirmed: Int64, mempool: Int64)) throws -> (Int64, Int64) {
        guard let confirmed = BitcoinSupply.add(totals.confirmed, summary.chain.delta),
              let mempool = BitcoinSupply.add(totals.mempool, summary.mempool.delta) else {
            throw requester.failure("/address", "the addresses' stats add up to more than the 21 million BTC that can exist")
        }
        return (confirmed, mempool)
    }
}
