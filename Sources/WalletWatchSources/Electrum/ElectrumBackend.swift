import Synchronization
import WalletWatchBitcoin
import WalletWatchCore

/// An Electrum server as a wallet's chain backend (SPEC.md section 21). One backend serves one
/// pass, on a session that may outlive it (the daemon's).
///
/// Reading a round of scripts costs at most two round trips: one write subscribes the scripts
/// the session does not follow yet and asks for the history of every script read for the first
/// time (its status and history come back together); a second asks for the history of each
/// script whose status differs from the stored one. A script whose status did not move costs
/// nothing more, and on the daemon's live session not even its subscription. Each history is
/// checked against its status. Once the wallet's window stops growing, ``complete(_:now:)``
/// fetches, in one write each, the transactions no earlier pass stored, the parents a spend's
/// fee needs, and the headers of new heights.
public final class ElectrumBackend: ChainBackend {
    let session: ElectrumSession
    let network: Network
    let store: ElectrumStore
    /// The histories read in this pass, by script hex, with the status each was checked against.
    private let read = Mutex<[String: (status: String?, history: [ScriptHistoryEntry])]>([:])
    /// Whether this pass is a full one (`ingest --full`): every header and proof asked again.
    private let full = Mutex(false)
    /// The scripts whose stored confirmed transactions lack a proof that holds, once the pass's
    /// first round has looked (and checked the server's tip against what is stored).
    private let unproven = Mutex<Set<String>?>(nil)

    /// A backend for one pass over `session`, reading addresses of `network`, with what earlier
    /// passes kept in `store`.
    public init(session: ElectrumSession, network: Network, store: ElectrumStore) {
        self.session = session
        self.network = network
        self.store = store
    }

    var client: ElectrumClient { session.client }

    /// The Electrum protocol's key for an address's script.
    static func scripthash(_ address: WalletAddress) -> String {
        Script.electrumScripthash(Hex.decode(address.script) ?? [])
    }

    public func read(_ entries: [WalletAddress], full: Bool, now: Instant) async throws -> ChainRead {
        self.full.withLock { $0 = $0 || full }
        let unproven = try await startPass()
        let before = session.connection.counts
        let hashes = entries.map(Self.scripthash)
        // One write: subscriptions the session lacks, and the histories of scripts read for
        // the first time (or again, on a full pass).
        var calls: [ElectrumCall] = []
        var wanted: [Int: (subscription: Int?, history: Int?)] = [:]
        for (index, entry) in entries.enumerated() {
            var subscription: Int?
            var history: Int?
            let whole = full || entry.syncedAt == nil
            if session.cachedStatus(hashes[index]) == nil || whole {
                subscription = calls.count
                calls.append(session.subscription(hashes[index]))
            }
            if whole {
                history = calls.count
                calls.append(ElectrumCall("blockchain.scripthash.get_history", [.string(hashes[index])]))
            }
            wanted[index] = (subscription, history)
        }
        let replies = try await client.numberedReplies(calls)
        var histories: [Int: [ScriptHistoryEntry]] = [:]
        for (index, slot) in wanted {
            if let position = slot.subscription {
                let status = try decode(replies[position].reply, calls[position].method, ElectrumClient.status)
                session.remember(hashes[index], status: status, line: replies[position].line)
            }
            if let position = slot.history {
                histories[index] = try decode(replies[position].reply, calls[position].method, ElectrumClient.history)
            }
        }
        // A second write for the scripts whose status moved since the last pass.
        let moved = entries.indices.filter { histories[$0] == nil && statusNow(hashes[$0]) != entries[$0].status }
        for (index, history) in zip(moved, try await client.histories(moved.map { hashes[$0] })) {
            histories[index] = history
        }
        // Scripts whose status did not move but whose stored confirmed transactions lack a
        // proof that holds (stored before walletwatch proved them, or whose block a reorg
        // replaced): their stored history is read again and completed, which proves them.
        let unprovenEntries = entries.indices.filter { histories[$0] == nil && unproven.contains(entries[$0].script) }
        if !unprovenEntries.isEmpty {
            let stored = try await store.histories(unprovenEntries.map { entries[$0].script })
            for index in unprovenEntries { histories[index] = stored[entries[index].script] }
        }
        try await verify(&histories, hashes: hashes, labels: entries.map(\.label))

        var readings: [ScriptReading] = []
        for (index, entry) in entries.enumerated() {
            var address = entry
            if let sent = histories[index] {
                // The status of the history kept (verify checked it against the server's), not
                // the session's latest: a notification taken in since then must still look
                // like a change to the next pass.
                address.status = ElectrumClient.status(of: sent)
                let history = try unique(sent, of: entry.label)
                // Whether it is used is all the window needs now; its sums follow in complete().
                address.activity.chainTxCount = Int64(history.filter(\.isConfirmed).count)
                address.activity.mempoolTxCount = Int64(history.count) - address.activity.chainTxCount
                address.syncedAt = now
                read.withLock { $0[entry.script] = (address.status, history) }
            }
            readings.append(ScriptReading(address: address, transactions: []))
        }
        let after = session.connection.counts
        return ChainRead(readings: readings, requests: after.requests - before.requests, roundTrips: after.roundTrips - before.roundTrips)
    }

    /// What a pass checks once, before its first round: that the server's chain reaches every
    /// block a stored history lists (a server still syncing, or on another chain, would make
    /// every payment above its tip look gone: the pass is refused instead), and which scripts
    /// hold unproven confirmed transactions.
    private func startPass() async throws -> Set<String> {
        if let known = unproven.withLock({ $0 }) { return known }
        let tip = session.tip.height
        if let highest = try await store.highestConfirmedHeight(), highest > tip {
            throw session.connection.problem(
                "the server's chain ends at block \(tip), below block \(highest) where it listed a confirmed transaction before: it is still syncing, or follows another chain; nothing was changed",
                method: "blockchain.headers.subscribe")
        }
        let scripts = try await store.unprovenScripts()
        unproven.withLock { $0 = scripts }
        return scripts
    }

    /// The status the session holds for `scripthash` now (nil: no history).
    private func statusNow(_ scripthash: String) -> String? {
        session.cachedStatus(scripthash) ?? nil
    }

    /// Checks each history against the status the server gave. A script whose status moved
    /// between the two answers (a payment arriving just then) is asked for both again, once;
    /// a second mismatch is a server that contradicts itself, and the pass is refused.
    private func verify(_ histories: inout [Int: [ScriptHistoryEntry]], hashes: [String], labels: [String]) async throws {
        let mismatched = histories.keys.sorted().filter { ElectrumClient.status(of: histories[$0]!) != statusNow(hashes[$0]) }
        guard !mismatched.isEmpty else { return }
        var calls: [ElectrumCall] = []
        for index in mismatched {
            calls.append(session.subscription(hashes[index]))
            calls.append(ElectrumCall("blockchain.scripthash.get_history", [.string(hashes[index])]))
        }
        let replies = try await client.numberedReplies(calls)
        for (position, index) in mismatched.enumerated() {
            let status = try decode(replies[2 * position].reply, calls[2 * position].method, ElectrumClient.status)
            let history = try decode(replies[2 * position + 1].reply, calls[2 * position + 1].method, ElectrumClient.history)
            session.remember(hashes[index], status: status, line: replies[2 * position].line)
            guard ElectrumClient.status(of: history) == status else {
                throw session.connection.problem(
                    "the status \(status ?? "null") of \(labels[index]) does not match the history the server sent for it (\(history.count) transactions, status \(ElectrumClient.status(of: history) ?? "null"))",
                    method: "blockchain.scripthash.get_history")
            }
            histories[index] = history
        }
    }

    /// `history` with each transaction once (SPEC.md section 24). The status is computed over
    /// the list as the server sent it; no real server lists a transaction twice, and one listed
    /// with two heights cannot be placed.
    private func unique(_ history: [ScriptHistoryEntry], of label: String) throws -> [ScriptHistoryEntry] {
        do {
            return try withoutRepeats(history, id: \.txid)
        } catch {
            throw session.connection.problem("the history of \(label) lists transaction \(error.id) twice with different heights",
                                             method: "blockchain.scripthash.get_history")
        }
    }

    /// `reply`'s result read by `body`, or a one-line error naming `method`.
    func decode<T>(_ reply: ElectrumReply, _ method: String, _ body: (inout JSONReader) throws -> T) throws -> T {
        try client.decode(try client.result(of: reply, method), method, body)
    }

    public func activities(of entries: [WalletAddress]) async throws -> ChainActivities {
        let before = session.connection.counts
        let hashes = entries.map(Self.scripthash)
        let calls = hashes.map { ElectrumCall("blockchain.scripthash.get_balance", [.string($0)]) }
            + hashes.map { ElectrumCall("blockchain.scripthash.get_history", [.string($0)]) }
        let replies = try await client.replies(calls)
        let activities = try entries.indices.map { index -> AddressActivity in
            let (confirmed, unconfirmed) = try decode(replies[index], calls[index].method, Self.balance)
            let history = try unique(try decode(replies[entries.count + index], calls[entries.count + index].method, ElectrumClient.history),
                                     of: entries[index].label)
            let chainCount = Int64(history.filter(\.isConfirmed).count)
            // The server's balance, not the inputs and outputs behind it: funded holds it whole.
            return AddressActivity(chainTxCount: chainCount, funded: confirmed, spent: 0, mempoolTxCount: Int64(history.count) - chainCount,
                                   mempoolDelta: unconfirmed)
        }
        return ChainActivities(activities: activities, requests: session.connection.counts.requests - before.requests)
    }

    /// `get_balance`'s answer: `{"confirmed", "unconfirmed"}` in sats (unconfirmed may be negative).
    static func balance(_ reader: inout JSONReader) throws -> (confirmed: Int64, unconfirmed: Int64) {
        var confirmed: Int64?
        var unconfirmed: Int64?
        try reader.readObject { reader, key in
            if key.is("confirmed") { confirmed = try reader.readSats() }
            else if key.is("unconfirmed") { unconfirmed = try reader.readSats(signed: true) }
            else { try reader.skipValue() }
        }
        guard let confirmed else { throw reader.missing("confirmed") }
        return (confirmed, unconfirmed ?? 0)
    }

    /// The session's tip, which it follows without asking.
    public func tip(full: Bool) async throws -> (height: Int64?, requests: Int) {
        (session.tip.height, 0)
    }

    /// The histories read in this pass, by script hex.
    var histories: [String: (status: String?, history: [ScriptHistoryEntry])] { read.withLock { $0 } }

    /// Whether the pass reads everything again.
    var fullPass: Bool { full.withLock { $0 } }
}
