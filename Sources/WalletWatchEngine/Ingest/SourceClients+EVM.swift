import Foundation
import Synchronization
import WalletWatchCore
import WalletWatchNet
import WalletWatchSources

extension SourceClients {
    /// The sync of an evm source: its URL and API key read from the file or environment named
    /// in the config (never printed), its currencies resolved in `registry` (the database's, so
    /// that a unit of the user's own can be a token's or a chain's currency).
    func evm(_ source: SourceConfig, registry: CurrencyRegistry) throws -> EVMSync {
        guard let config = source.evm else { preconditionFailure("evm(_:) for a source of kind \(source.kind)") }
        let url = try config.urlSecret.map { reference in
            if case .file(let path) = reference { secretFiles.check(path, what: "source '\(source.name)': url_file") }
            return try reference.readSecret(source: source.name, key: reference.isFile ? "url_file" : "url_env").value
        } ?? source.url
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
            throw SecretError(message: "source '\(source.name)': the URL in \(config.urlSecret?.description ?? "url") is not an http:// or https:// URL")
        }
        var apiKey: BearerToken? = nil
        if let reference = config.apiKey {
            if case .file(let path) = reference { secretFiles.check(path, what: "source '\(source.name)': api_key_file") }
            apiKey = try reference.readSecret(source: source.name, key: reference.isFile ? "api_key_file" : "api_key_env")
        }
        func currency(_ code: String, what: String) throws -> Currency {
            do { return try registry.currency(code) } catch {
                throw Refusal("source '\(source.name)': \(what) \(code) is not a known currency; add it with `walletwatch currency add \(code) --decimals N`")
            }
        }
        let history: EVMWatch.History = switch config.history {
        case .etherscan: .etherscan(url: config.historyURL ?? EVMSourceConfig.etherscanURL, apiKey: apiKey)
        case .otterscan: .otterscan
        case .none: .none
        }
        let watch = EVMWatch(
            source: source.name, chainID: config.chainID, chainName: config.chainLabel,
            native: try currency(config.native, what: "the chain's coin"), addresses: config.addresses,
            tokens: try config.tokens.map { EVMToken(contract: $0.contract, currency: try currency($0.currency, what: "the token")) },
            confirmations: config.confirmations.map { .blocks($0) } ?? .finalized, history: history)
        return EVMSync(watch: watch, url: url, http: http, route: route(source), urlIsSecret: config.urlSecret != nil)
    }
}

extension SecretReference {
    var isFile: Bool { if case .file = self { true } else { false } }

    /// A secret other than barkd's token (an evm source's URL or API key), named by its config key.
    func readSecret(source: String, key: String) throws -> BearerToken {
        do { return try readToken(source: source) } catch let error as SecretError {
            throw SecretError(message: error.message.replacingOccurrences(of: "token_file", with: key).replacingOccurrences(of: "token_env", with: key))
        }
    }
}

/// The evm sources whose chain id and token decimals this process has checked: once a session
/// (SPEC.md section 26), so that a daemon's pass that finds nothing new costs one request.
final class EVMSessions: Sendable {
    private let checked = Mutex<Set<String>>([])

    func isChecked(_ key: String) -> Bool { checked.withLock { $0.contains(key) } }
    func markChecked(_ key: String) { _ = checked.withLock { $0.insert(key) } }
}
