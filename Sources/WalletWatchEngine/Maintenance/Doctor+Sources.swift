import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchNet
import WalletWatchSources

extension Doctor {
    /// Asks a source what an ingest asks first, with the ingest's own client: barkd its balance,
    /// Ark server info and tip (and its on-chain balance when that asset is tracked); Esplora its
    /// tip height, the first listed address's summary and an HD wallet's first receive address's. The history is left alone (it may be large).
    func check(_ source: SourceConfig) async -> DoctorCheck {
        let name = "source \(source.name)"
        switch source.kind {
        case .barkd:
            let client: BarkdClient
            do {
                client = try clients.barkd(source)
            } catch {
                return DoctorCheck(name: name, ok: false, detail: "no token: \((error as? any Classified)?.description ?? "\(error)")")
            }
            do {
                let balance = try await client.balance()
                let info = try await client.arkInfo()
                let tip = try await client.tipHeight()
                if source.onchainAsset != nil { _ = try await client.onchainBalance() }
                let token = source.token == nil ? "no token configured" : "token accepted"
                return DoctorCheck(name: name, ok: true, detail: """
                    \(URLRedaction.redact(source.url)) answers like barkd, \(token): network \(info.network), \(balance.spendable) sat spendable, tip \(tip)
                    """)
            } catch {
                return DoctorCheck(name: name, ok: false, detail: Self.diagnose(error, api: "the barkd API", hasToken: source.token != nil,
                                                                               urlHint: "the daemon's address without /api/v1, e.g. http://127.0.0.1:3000"))
            }
        case .esplora:
            let client = clients.esplora(source)
            do {
                let tip = try await client.tipHeight()
                var shown = ""
                if let address = source.addresses.first {
                    let summary = try await client.summary(of: address)
                    shown = "; \(address) has \(summary.chain.transactionCount) confirmed transaction(s)"
                }
                // An HD wallet is synced through the scripthash routes, which not every
                // Esplora-like server has: its first receive address is asked about there.
                if let wallet = source.wallet {
                    let script = try wallet.scriptPubKey(chain: .receive, index: 0)
                    let summary = try await client.summary(ofScripthash: Script.esploraScripthash(script))
                    shown += "; the wallet's first receive address \(try wallet.address(chain: .receive, index: 0)) has \(summary.chain.transactionCount) confirmed transaction(s)"
                }
                return DoctorCheck(name: name, ok: true, detail: "\(URLRedaction.redact(source.url)) answers like Esplora: tip height \(tip)\(shown)")
            } catch {
                return DoctorCheck(name: name, ok: false, detail: Self.diagnose(error, api: "an Esplora API", hasToken: false,
                                                                               urlHint: "the part before /address/..., e.g. https://mempool.space/api"))
            }
        }
    }

    /// Asks the rate provider for the configured currencies' prices, storing nothing.
    func ratesCheck() async -> DoctorCheck {
        let provider = config.rates.provider
        do {
            let answer = try await rates.probe()
            let prices = answer.rates.map { "\($0.pair) \($0.rate)" }.joined(separator: ", ")
            let origin = provider == .static ? "static rates from the config" : "\(provider.rawValue) at \(URLRedaction.redact(config.rates.url))"
            guard answer.unpriced.isEmpty else {
                let missing = answer.unpriced.map { "\($0.currency.code) (it answered \($0.answered))" }.joined(separator: ", ")
                return DoctorCheck(name: "rates", ok: false, detail: "\(origin) has no price for \(missing); remove it from [rates] currencies or use another provider")
            }
            return DoctorCheck(name: "rates", ok: true, detail: "\(origin): \(prices.isEmpty ? "no currencies asked for" : prices)")
        } catch {
            let api = provider == .coingecko ? "the CoinGecko API" : "mempool's price API"
            return DoctorCheck(name: "rates", ok: false, detail: Self.diagnose(error, api: api, hasToken: false,
                                                                               urlHint: "the provider's base URL, e.g. \(RatesConfig.defaultURL(provider))"))
        }
    }

    /// The cause of a source's failure first (down, token refused, wrong URL, not this API),
    /// then the evidence: the request and what came back.
    static func diagnose(_ error: any Error, api: String, hasToken: Bool, urlHint: String) -> String {
        guard let error = error as? SourceError else { return (error as? any Classified)?.description ?? "\(error)" }
        let evidence = "\(error.request): \(error.problem)"
        switch error.cause {
        case .transport(.connectionFailed):
            return "down or unreachable: \(evidence); is it running, and is the url's host and port right?"
        case .transport(.timedOut):
            return "no answer in time: \(evidence); is it overloaded, or behind a firewall that drops packets?"
        case .transport(.tls):
            return "TLS failed: \(evidence); check the certificate, or the url's scheme (http or https)"
        case .transport:
            return "the connection failed: \(evidence)"
        case .status(401), .status(403):
            // The evidence already says what to check (the token, or the url of an open API).
            return hasToken ? "token refused: \(evidence)" : "access refused: \(evidence)"
        case .status(404), .status(405):
            return "wrong URL (no such path): \(evidence); the url should be \(urlHint)"
        case .status(let status) where status >= 500:
            return "the server failed (HTTP \(status)): \(evidence); try again later"
        case .status:
            return "refused: \(evidence)"
        case .answer:
            return "answers, but not like \(api): \(evidence); is the url that of \(api)?"
        }
    }
}
