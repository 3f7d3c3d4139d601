import WalletWatchCore
import WalletWatchNet
import WalletWatchSources

extension Doctor {
    /// An evm source: the node answers for the configured chain (chain id, each token's
    /// decimals), its tip; the stored rows add up to the stored balance (`history incomplete`
    /// otherwise); tokens seen that are not watched; and what the source reveals to whom.
    func evmCheck(_ source: SourceConfig) async -> DoctorCheck {
        let name = "source \(source.name)"
        guard let config = source.evm else { return DoctorCheck(name: name, ok: false, detail: "not an evm source") }
        let sync: EVMSync
        do {
            sync = try clients.evm(source, registry: try database.currencyRegistry())
        } catch {
            return DoctorCheck(name: name, ok: false, detail: (error as? any Classified)?.description ?? "\(error)")
        }
        var ok = true
        var detail: String
        do {
            let tip = try await sync.checkChain(tip: true) ?? 0
            detail = "the node answers for \(config.chainLabel): tip \(tip), \(config.tokens.count) token(s) with the expected decimals"
        } catch {
            ok = false
            detail = Self.diagnose(error, api: "an Ethereum JSON-RPC node", hasToken: false, urlHint: "the node's JSON-RPC URL, e.g. http://127.0.0.1:8545")
        }
        do {
            for asset in try database.evmReconciliation(source: source.name) where asset.difference != 0 {
                ok = false
                detail += "; history incomplete: \(asset.asset)'s confirmed rows add up to \(asset.rows), its balance is \(asset.counted) (\(asset.difference) \(asset.currency.code) smallest units unexplained); run `walletwatch ingest --full`, or check the history source"
            }
            let unlisted = try await database.evmUnlistedTokens(source: source.name)
            if !unlisted.isEmpty {
                detail += "; tokens seen but not watched (never stored; add one to tokens as { contract, currency } to watch it): \(unlisted.joined(separator: ", "))"
            }
        } catch {
            detail += "; the stored figures could not be read: \(error)"
        }
        detail += "; privacy: " + Self.evmPrivacy(config)
        return DoctorCheck(name: name, ok: ok, detail: detail)
    }

    /// What an evm source reveals, and to whom (SPEC.md section 26, "Privacy").
    static func evmPrivacy(_ config: EVMSourceConfig) -> String {
        let node = "the JSON-RPC node learns every watched address (your own node: nothing leaves the box; a provider: it learns them)"
        switch config.history {
        case .etherscan:
            let free = EVMChain.allCases.first { $0.chainID == config.chainID }.map { $0.etherscanFreeTier ? "" : " (Etherscan's free tier does not serve \($0.rawValue): use a paid key or a Blockscout)" } ?? ""
            return "\(node); history = \"etherscan\": the explorer at \(URLRedaction.redact(config.historyURL ?? EVMSourceConfig.etherscanURL)) learns the addresses and their tokens\(free)"
        case .otterscan:
            return "\(node); history = \"otterscan\": the history comes from the same node, nothing else is asked"
        case .none:
            return "\(node); history = \"none\": the history comes from the same node's logs, nothing else is asked"
        }
    }
}
