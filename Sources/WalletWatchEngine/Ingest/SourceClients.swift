import Synchronization
import WalletWatchCore
import WalletWatchNet
import WalletWatchSources

/// Makes the client of a configured source: barkd's with its bearer token read (and its file's
/// mode checked) only when needed, Esplora's as it is, an Electrum server's session. Each goes
/// the way SPEC.md section 22 says: through `[http] proxy` unless `no_proxy` names its host, or
/// through the source's own `proxy`. Shared by the ingest, the balance cache, the doctor and
/// the daemon.
public struct SourceClients: Sendable {
    let http: any HTTPClient
    let config: HTTPConfig
    let secretFiles: SecretFileWarnings
    /// The daemon's open Electrum sessions, which passes share.
    let sessions: ElectrumSessions
    /// The evm sources whose chain this process has checked.
    let evmSessions: EVMSessions

    init(http: any HTTPClient, config: HTTPConfig, secretFiles: SecretFileWarnings, sessions: ElectrumSessions = ElectrumSessions(),
         evmSessions: EVMSessions = EVMSessions()) {
        self.http = http
        self.config = config
        self.secretFiles = secretFiles
        self.sessions = sessions
        self.evmSessions = evmSessions
    }

    /// How connections to `source` leave the machine.
    public func route(_ source: SourceConfig) -> NetworkRoute {
        config.routing.route(own: source.proxy)
    }

    /// A client for a barkd source, with its token read from the file or environment named in
    /// the config. A token file other users can read earns one warning.
    func barkd(_ source: SourceConfig) throws -> BarkdClient {
        if case .file(let path) = source.token { secretFiles.check(path, what: "source '\(source.name)': token_file") }
        let token = try source.token?.readToken(source: source.name)
        return BarkdClient(source: source.name, baseURL: source.url, token: token, http: http, route: route(source))
    }

    /// A client for an Esplora source.
    func esplora(_ source: SourceConfig) -> EsploraClient {
        EsploraClient(source: source.name, baseURL: source.url, http: http, route: route(source))
    }

    /// A client for a fulmine source (its API has no authentication).
    func fulmine(_ source: SourceConfig) -> FulmineClient {
        FulmineClient(source: source.name, baseURL: source.url, http: http, route: route(source))
    }

    /// A client for an arkd source's indexer.
    func arkd(_ source: SourceConfig) -> ArkdClient {
        ArkdClient(source: source.name, baseURL: source.url, http: http, route: route(source))
    }

    /// What opens sessions to an electrum source's server.
    func electrum(_ source: SourceConfig) -> ElectrumConnector {
        ElectrumConnector(
            source: source.name, url: source.url, certificateSHA256: source.certificateSHA256, route: route(source),
            limits: ElectrumConnection.Limits(maxLineBytes: config.maxResponseBytes, timeout: .seconds(config.timeoutSeconds)),
            connectTimeout: .seconds(min(30, config.timeoutSeconds)), clientName: "walletwatch \(WalletWatchVersion.current)", network: source.network)!
    }

    /// Runs `body` with a chain backend for an esplora or electrum source that keeps nothing
    /// between calls (the balance cache's and `--deep`'s questions), on a session of its own
    /// or the daemon's for electrum.
    func withChainBackend<T: Sendable>(_ source: SourceConfig, _ body: (any ChainBackend) async throws -> T) async throws -> T {
        switch source.kind {
        case .electrum:
            let lease = try await electrumSession(for: source)
            defer { lease.release() }
            return try await body(ElectrumBackend(session: lease.session, network: source.network, store: .empty))
        default:
            return try await body(EsploraBackend(client: esplora(source), knownConfirmed: [], concurrency: config.concurrency))
        }
    }

    /// A session for one pass over `source`: the daemon's live one when it has one, else a new
    /// one that `release()` closes.
    func electrumSession(for source: SourceConfig) async throws -> ElectrumLease {
        if let live = sessions.live(source.name) { return ElectrumLease(session: live, owned: false) }
        return ElectrumLease(session: try await electrum(source).open(), owned: true)
    }
}

/// A session lent to one pass.
struct ElectrumLease: Sendable {
    let session: ElectrumSession
    /// Opened for this pass, and closed by `release()`; the daemon's live sessions stay open.
    let owned: Bool

    func release() {
        if owned { session.connection.close() }
    }
}

/// The daemon's open Electrum sessions, one per electrum source, which its watchers keep up
/// (subscribed, pinged, reconnected) and its passes share.
final class ElectrumSessions: Sendable {
    private let sessions = Mutex<[String: ElectrumSession]>([:])

    /// `source`'s live session, unless its connection has failed.
    func live(_ source: String) -> ElectrumSession? {
        sessions.withLock { sessions in
            guard let session = sessions[source], session.connection.failure == nil else { return nil }
            return session
        }
    }

    /// Makes `session` `source`'s live one (nil: it has none).
    func set(_ session: ElectrumSession?, for source: String) {
        sessions.withLock { $0[source] = session }
    }
}
