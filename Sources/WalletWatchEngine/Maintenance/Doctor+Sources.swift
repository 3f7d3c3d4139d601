import Foundation
import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchNet
import WalletWatchSources

extension Doctor {
    /// Asks a source what an ingest asks first, with the ingest's own client: barkd its balance,
    /// Ark server info and tip (and its on-chain balance when that asset is tracked); Esplora its
    /// tip height, the first listed address's summary and an HD wallet's first receive address's;
    /// an Electrum server its software and protocol, its tip and the first address's history.
    /// The history is left alone (it may be large). The detail ends with the source's route:
    /// directly, or through which proxy (SPEC.md section 22).
    func check(_ source: SourceConfig) async -> DoctorCheck {
        let check = await checkAPI(source)
        let route = clients.route(source)
        var note = "; route: \(route.summary(for: source.host))"
        let proxy = route.proxy(for: source.host)
        if let proxy {
            note += check.ok ? " (the proxy answers)" : (await Self.proxyAnswers(proxy) ? " (the proxy answers)" : " (the proxy does not answer: is Tor running?)")
        }
        if proxy?.lowercased().hasPrefix("socks5://") == true {
            note += "; socks5:// looks names up on this machine (your DNS sees them): use socks5h:// to let the proxy resolve them"
        }
        return DoctorCheck(name: check.name, ok: check.ok, detail: check.detail + note)
    }

    /// Whether something listens at the proxy's host and port.
    static func proxyAnswers(_ proxy: String) async -> Bool {
        guard let url = URL(string: proxy), let host = url.host, let port = url.port else { return false }
        guard let stream = try? await CurlStream.connect(to: StreamEndpoint(host: host, port: port, security: .plain),
                                                         configuration: StreamConfiguration(connectTimeout: .seconds(5), route: .direct))
        else { return false }
        stream.close()
        return true
    }

    private func checkAPI(_ source: SourceConfig) async -> DoctorCheck {
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
        case .electrum:
            return await electrumCheck(source)
        case .evm:
            return await evmCheck(source)
        case .fulmine:
            let client = clients.fulmine(source)
            do {
                let amount = try await client.balance()
                let info = try await client.info()
                var detail = "\(URLRedaction.redact(source.url)) answers like Fulmine: \(info.addressPrefix == "ark" ? "bitcoin" : "a test network") ('\(info.addressPrefix)1' addresses), \(amount) sat"
                if let warning = Self.unauthenticatedWarning(source) { detail += "; \(warning)" }
                return DoctorCheck(name: name, ok: true, detail: detail)
            } catch {
                // The warning is about the url, not the answer: it holds when the check fails too.
                let warning = Self.unauthenticatedWarning(source).map { "; \($0)" } ?? ""
                return DoctorCheck(name: name, ok: false, detail: Self.diagnose(error, api: "Fulmine's REST API", hasToken: false,
                                                                               urlHint: "the gateway's address with /api, e.g. http://127.0.0.1:7001/api") + warning)
            }
        case .arkd:
            let client = clients.arkd(source)
            do {
                let info = try await client.info()
                let first = try await client.vtxos(scripts: Array(source.arkScripts.prefix(1)))
                var detail = "\(URLRedaction.redact(source.url)) answers like an Ark server's indexer: network \(info.network); \(source.addresses.first.map { "\($0.prefix(14))…" } ?? "") has \(first.count) VTXO(s)"
                if info.addressPrefix != ArkAddress.hrp(for: source.network) {
                    return DoctorCheck(name: name, ok: false, detail: detail + "; but the server's addresses start '\(info.addressPrefix)1' and the source watches \(source.network) ones: check url and network")
                }
                if let warning = Ingestor.signerWarnings(source, server: info).first { detail += "; warning: \(warning)" }
                return DoctorCheck(name: name, ok: true, detail: detail)
            } catch {
                return DoctorCheck(name: name, ok: false, detail: Self.diagnose(error, api: "an Ark server's indexer", hasToken: false,
                                                                               urlHint: "the server's address, e.g. http://127.0.0.1:7070"))
            }
        }
    }

    /// Fulmine's REST API has no authentication (its README says so): whoever reaches it can
    /// spend the wallet. A url off loopback means others on the way may reach it too.
    public static func unauthenticatedWarning(_ source: SourceConfig) -> String? {
        let host = source.host
        guard !(ListenAddress("\(host):0")?.isLoopback ?? false) else { return nil }
        return "warning: Fulmine's API has no authentication and \(host.isEmpty ? "this url" : host) is not on loopback: anyone who reaches it can spend this wallet; keep Fulmine on 127.0.0.1 (an SSH tunnel, or a proxy that authenticates) and watch it there"
    }

    /// An Electrum server: reachable, its certificate accepted (pinned, or verified), the
    /// protocol negotiated (the detail names the server's software and version), its tip, and
    /// the history of the wallet's first address. An unverifiable certificate's SHA-256 is shown.
    func electrumCheck(_ source: SourceConfig) async -> DoctorCheck {
        let name = "source \(source.name)"
        let connector = clients.electrum(source)
        do {
            let session = try await connector.open()
            defer { session.connection.close() }
            var detail = "\(connector.endpoint) answers as \(session.version.software), Electrum protocol \(session.version.protocolVersion): tip height \(session.tip.height)"
            if case .tls(let pin) = connector.endpoint.security {
                detail += pin != nil ? "; its certificate is the pinned one" : "; its certificate is trusted by this system"
            }
            let first = try source.wallet.map { wallet in
                (try wallet.address(chain: .receive, index: 0), try wallet.scriptPubKey(chain: .receive, index: 0))
            } ?? source.addresses.first.flatMap { text in (try? Address(text, network: source.network)).map { (text, $0.scriptPubKey) } }
            if let (address, script) = first {
                let history = try await session.client.histories([Script.electrumScripthash(script)])[0]
                detail += "; \(address) has \(history.count) transaction(s)"
            }
            return DoctorCheck(name: name, ok: true, detail: detail)
        } catch let error as SourceError {
            let evidence = "\(error.request): \(error.problem)"
            switch error.cause {
            case .transport(.connectionFailed):
                return DoctorCheck(name: name, ok: false, detail: "down or unreachable: \(evidence); is the node's Electrum server running, and is the url's host and port right (Umbrel and Start9: 50002 for ssl://, 50001 for tcp://)?")
            case .transport(.tls), .transport(.certificateMismatch):
                return DoctorCheck(name: name, ok: false, detail: "TLS failed: \(evidence)")
            case .transport(.timedOut):
                return DoctorCheck(name: name, ok: false, detail: "no answer in time: \(evidence); over Tor, a first connection can take a while: raise [http] timeout_seconds")
            case .transport:
                return DoctorCheck(name: name, ok: false, detail: "the connection failed: \(evidence)")
            case .status, .answer, .refused:
                return DoctorCheck(name: name, ok: false, detail: "answers, but not like an Electrum server walletwatch can use: \(evidence)")
            }
        } catch {
            return DoctorCheck(name: name, ok: false, detail: (error as? any Classified)?.description ?? "\(error)")
        }
    }

    /// Asks the rate provider for the prices of every coin in use (SPEC.md section 25), storing
    /// nothing: fails when the provider does not answer, answers a pair without a price, does
    /// not know a coin's id, or when a unit without a CoinGecko id has no price set by hand.
    func ratesCheck() async -> DoctorCheck {
        let provider = config.rates.provider
        do {
            let (answer, failures, plan) = try await rates.probe()
            let prices = answer.rates.map { "\($0.pair) \($0.rate)" }.joined(separator: ", ")
            var origin = provider == .static ? "static rates from the config" : "\(provider.rawValue) at \(URLRedaction.redact(config.rates.url))"
            if provider == .mempool && plan.coins.contains(where: { $0.currency != .btc }) {
                origin += " (other coins: CoinGecko at \(URLRedaction.redact(config.rates.coingeckoURL)))"
            }
            var problems = failures
            if !answer.unpriced.isEmpty {
                problems.append("no price for " + answer.unpriced.map { "\($0.pair) (it answered \($0.answered))" }.joined(separator: ", ")
                                + "; remove the currency from [rates] currencies or use another provider")
            }
            if !answer.unknown.isEmpty {
                problems.append("CoinGecko does not know " + answer.unknown.map { "'\($0.id)' (\($0.currency.code))" }.joined(separator: ", ")
                                + "; check the id on the coin's CoinGecko page")
            }
            let stored = Set(try database.latestRates().flatMap { [$0.pair.base, $0.pair.quote] })
            let unpricedUnits = plan.handPriced.filter { !stored.contains($0) }
            if !unpricedUnits.isEmpty {
                problems.append(unpricedUnits.map(\.code).joined(separator: ", ") + " in use without a CoinGecko id and without a price; set one with `walletwatch rates set "
                                + "\(unpricedUnits[0].code) \(plan.quotes.first?.code ?? "USD") PRICE`")
            }
            let hand = plan.handPriced.filter { stored.contains($0) }.map(\.code)
            let handNote = hand.isEmpty ? "" : "; priced by hand: \(hand.joined(separator: ", "))"
            guard problems.isEmpty else {
                return DoctorCheck(name: "rates", ok: false, detail: "\(origin): \(problems.joined(separator: "; "))")
            }
            return DoctorCheck(name: "rates", ok: true, detail: "\(origin): \(prices.isEmpty ? "no currencies asked for" : prices)\(handNote)")
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
        case .status, .refused:
            return "refused: \(evidence)"
        case .answer:
            return "answers, but not like \(api): \(evidence); is the url that of \(api)?"
        }
    }
}
