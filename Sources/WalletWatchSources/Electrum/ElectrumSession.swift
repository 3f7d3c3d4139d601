import Synchronization
import WalletWatchBitcoin
import WalletWatchCore

/// A negotiated Electrum connection that remembers the status of every script it subscribed
/// to: from the subscription's answer, then from each notification the server pushes. The
/// daemon keeps one open per electrum source and passes run on it, so that a pass on a live
/// session asks nothing about a script whose status has not moved; a one-shot `ingest` opens
/// one for its pass.
public final class ElectrumSession: Sendable {
    /// The typed calls.
    public let client: ElectrumClient
    /// What `server.version` agreed on.
    public let version: ElectrumClient.ServerVersion
    /// The chain the server follows (by its genesis block), one of the configured network's.
    public let chain: ChainParameters
    private let state: Mutex<State>

    private struct State {
        /// By scripthash: subscribed scripts, their latest status (nil: no history) and the
        /// number of the line that said so.
        var statuses: [String: (status: String?, line: Int)] = [:]
        /// Scripts whose subscription was asked for: the only ones a notification may name.
        var asked: Set<String> = []
        var tip: (height: Int64, header: BlockHeader)
    }

    /// What a notification changed.
    public enum Change: Sendable, Equatable {
        /// A subscribed script's status moved.
        case status(scripthash: String)
        /// A new tip.
        case tip(height: Int64)
        /// A notification the session could not read (malformed, or of a method it does not
        /// know): something may have changed, so it wakes a pass rather than being dropped.
        case unreadable(method: String)
    }

    private init(client: ElectrumClient, version: ElectrumClient.ServerVersion, chain: ChainParameters, tip: (height: Int64, header: BlockHeader)) {
        self.client = client
        self.version = version
        self.chain = chain
        state = Mutex(State(tip: tip))
        updatePadding(tip: tip.height)
    }

    /// ElectrumX holds small replies back (``ElectrumConnection``): small batches carry a request
    /// for the last seven headers below the tip, whose 1,120 bytes it sends at once.
    private func updatePadding(tip: Int64) {
        guard version.software.lowercased().hasPrefix("electrumx") else { return }
        client.connection.padding = ElectrumCall("blockchain.block.headers", [.integer(max(0, tip - 6)), .integer(7)])
    }

    /// Negotiates the protocol on `connection` (`server.version` first, as servers require),
    /// subscribes to the chain's tip and asks which chain the server follows, in one round
    /// trip. A server of another chain than `network`'s (a testnet server for a mainnet wallet,
    /// or one whose genesis block walletwatch does not know) is refused, naming both: every
    /// payment would otherwise look gone from the chain.
    public static func open(_ connection: ElectrumConnection, clientName: String, network: Network) async throws -> ElectrumSession {
        let client = ElectrumClient(connection: connection)
        let (version, tip, genesis) = try await client.negotiateAndSubscribeHeaders(clientName: clientName)
        guard let chain = ChainParameters.chain(genesisHash: genesis), chain.network == network else {
            let theirs = ChainParameters.chain(genesisHash: genesis).map { "\($0.name) (genesis block \(genesis))" }
                ?? "a chain walletwatch does not know (genesis block \(genesis))"
            throw connection.problem("the server follows \(theirs), not \(network): this source's network is \(network); point it at a \(network) server, or set its network to the one the server follows",
                                     method: "server.features")
        }
        return ElectrumSession(client: client, version: version, chain: chain, tip: tip)
    }

    /// The connection the session runs on.
    public var connection: ElectrumConnection { client.connection }

    /// The chain's tip as last answered or notified.
    public var tip: (height: Int64, header: BlockHeader) { state.withLock { $0.tip } }

    /// The call that subscribes `scripthash`; the session takes in notifications for it from now on.
    func subscription(_ scripthash: String) -> ElectrumCall {
        _ = state.withLock { $0.asked.insert(scripthash.lowercased()) }
        return ElectrumCall("blockchain.scripthash.subscribe", [.string(scripthash)])
    }

    /// Whether `scripthash` is subscribed, and its status if so.
    func cachedStatus(_ scripthash: String) -> String?? {
        state.withLock { $0.statuses[scripthash].map(\.status) }
    }

    /// Records a status learnt from a subscription's answer, which arrived on `line`.
    ///
    /// Statuses are kept in the order the server sent them, not the order the tasks reading
    /// them get to run: a pass takes in its subscriptions' answers once its whole batch is in,
    /// by when a notification sent after one of them (a payment arriving during the pass) may
    /// already be recorded. The older answer must not overwrite it, or the pass that
    /// notification wakes would find nothing moved.
    func remember(_ scripthash: String, status: String?, line: Int) {
        state.withLock { state in
            if let known = state.statuses[scripthash], known.line > line { return }
            state.statuses[scripthash] = (status, line)
        }
    }

    /// Takes in a notification: a script's new status or a new tip. A scripthash is matched
    /// whatever its case, and parameters past the ones the protocol defines are ignored (a
    /// server may add some). Anything malformed or of an unknown method is ``Change/unreadable``:
    /// a pass reads what it needs anyway, and one that might have been a payment must not wait
    /// for the hourly pass. A status for a script whose subscription's answer has not been
    /// taken in yet (the pass subscribing it is still waiting for the rest of its batch) is
    /// recorded too, and ``remember(_:status:line:)`` will not overwrite it with the older
    /// answer. One for a script never asked for is ignored (nil): a server cannot grow the
    /// session's memory, or wake passes, by naming scripts of its own.
    public func apply(_ notification: ElectrumNotification) -> Change? {
        let unreadable = Change.unreadable(method: ElectrumMessage.oneLine(String(notification.method.prefix(100))))
        switch notification.method {
        case "blockchain.scripthash.subscribe":
            guard let (scripthash, status) = try? JSONReader.read(notification.parameters, { reader -> (String, String?) in
                var scripthash: String?
                var status: String??
                try reader.readArray { reader, index in
                    switch index {
                    case 0: scripthash = try reader.readString().lowercased()
                    case 1: status = .some(try ElectrumClient.status(&reader))
                    default: try reader.skipValue()
                    }
                }
                guard let scripthash, let status else { throw reader.error("expected [scripthash, status]") }
                return (scripthash, status)
            }) else { return unreadable }
            let taken = state.withLock { state -> Bool in
                guard state.asked.contains(scripthash) else { return false }
                if let known = state.statuses[scripthash], known.line > notification.line { return true }
                state.statuses[scripthash] = (status, notification.line)
                return true
            }
            return taken ? .status(scripthash: scripthash) : nil
        case "blockchain.headers.subscribe":
            guard let tip = try? JSONReader.read(notification.parameters, { reader -> (height: Int64, header: BlockHeader) in
                var tip: (height: Int64, header: BlockHeader)?
                try reader.readArray { reader, index in
                    if index == 0 { tip = try ElectrumClient.tip(&reader) } else { try reader.skipValue() }
                }
                guard let tip else { throw reader.error("expected [header]") }
                return tip
            }) else { return unreadable }
            state.withLock { $0.tip = tip }
            updatePadding(tip: tip.height)
            return .tip(height: tip.height)
        default:
            return unreadable
        }
    }
}
