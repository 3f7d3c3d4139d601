import WalletWatchNet
import WalletWatchSources

/// Makes the client of a configured source: barkd's with its bearer token read (and its file's
/// mode checked) only when needed, Esplora's as it is. Shared by the ingest, the balance cache
/// and the daemon's notification loop.
public struct SourceClients: Sendable {
    let http: any HTTPClient
    let secretFiles: SecretFileWarnings

    init(http: any HTTPClient, secretFiles: SecretFileWarnings) {
        self.http = http
        self.secretFiles = secretFiles
    }

    /// A client for a barkd source, with its token read from the file or environment named in
    /// the config. A token file other users can read earns one warning.
    func barkd(_ source: SourceConfig) throws -> BarkdClient {
        if case .file(let path) = source.token { secretFiles.check(path, what: "source '\(source.name)': token_file") }
        let token = try source.token?.readToken(source: source.name)
        return BarkdClient(source: source.name, baseURL: source.url, token: token, http: http)
    }

    /// A client for an Esplora source.
    func esplora(_ source: SourceConfig) -> EsploraClient {
        EsploraClient(source: source.name, baseURL: source.url, http: http)
    }
}
