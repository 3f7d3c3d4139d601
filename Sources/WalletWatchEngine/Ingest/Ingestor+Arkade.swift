import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchNet
import WalletWatchSources
import WalletWatchStore

/// Passes over Arkade's two faces (SPEC.md section 27): a Fulmine wallet and Ark addresses
/// watched through an Ark server's indexer. Like barkd's, each feeds one Ark asset of the
/// source: every answer is fetched and checked first, then the pass compares and writes only
/// the changes and publishes them with the balance, the VTXOs and the server's info at once.
extension Ingestor {
    func ingestFulmine(_ source: SourceConfig, startedAt: Instant) async throws -> PassResult {
        let client = clients.fulmine(source)
        async let amount = client.balance()
        async let history = client.transactions()
        async let vtxos = client.vtxos()
        async let info = client.info()
        let (total, entries, wallet, server) = try await (amount, history, vtxos, info)
        let now = clock.now
        var pass = try await claim(source.name, now: now)
        do {
            let asset = try await pass.asset(.ark, named: source.asset ?? source.name)
            try await pass.record(entries.map { ArkadeMapping.transaction($0, source: source.name) }, in: asset)
            try await pass.markVanished(in: asset)
            let balance = ArkadeMapping.balance(amount: total, history: entries)
            let unspent = wallet.filter { !$0.isSpent }.map { $0.stored(at: now) }
            let counts = try await pass.publish(startedAt: startedAt) { publication in
                try publication.save(balance)
                try publication.replace(unspent)
                try publication.save(server.serverInfo)
            }
            return PassResult(counts: counts, warnings: [], requests: nil, roundTrips: nil)
        } catch {
            await giveUp(pass, source: source.name)
            throw error
        }
    }

    func ingestArkd(_ source: SourceConfig, startedAt: Instant) async throws -> PassResult {
        let client = clients.arkd(source)
        async let info = client.info()
        async let vtxos = client.vtxos(scripts: source.arkScripts)
        let (server, found) = try await (info, vtxos)
        let prefix = ArkAddress.hrp(for: source.network)
        guard server.addressPrefix == prefix else {
            throw SourceError(source: source.name, request: "GET \(URLRedaction.redact(source.url))/v1/info",
                              problem: "the Ark server runs on \(server.network), whose addresses start '\(server.addressPrefix)1', but the source watches \(source.network) addresses ('\(prefix)1...'); check url and network")
        }
        let watched = Set(source.arkScripts)
        if let stray = found.first(where: { !watched.contains($0.script) }) {
            throw SourceError(source: source.name, request: "GET \(URLRedaction.redact(source.url))/v1/indexer/vtxos",
                              problem: "VTXO \(stray.outpoint) has script \(stray.script), which was not asked about")
        }
        let warnings = Self.signerWarnings(source, server: server)
        let now = clock.now
        var pass = try await claim(source.name, now: now)
        do {
            let asset = try await pass.asset(.ark, named: source.asset ?? source.name)
            try await pass.record(ArkadeMapping.transactions(of: found, source: source.name), in: asset)
            try await pass.markVanished(in: asset)
            let balance = ArkadeMapping.balance(of: found)
            let unspent = found.filter { !$0.isSpent }.map { $0.stored(at: now) }
            let counts = try await pass.publish(startedAt: startedAt) { publication in
                try publication.save(balance)
                try publication.replace(unspent)
                try publication.save(server.serverInfo)
            }
            return PassResult(counts: counts, warnings: warnings, requests: nil, roundTrips: nil)
        } catch {
            await giveUp(pass, source: source.name)
            throw error
        }
    }

    /// An address names the server key its VTXOs are made with; one made for another key (an
    /// older signer, or another server) is worth a warning: this server may not hold its VTXOs.
    static func signerWarnings(_ source: SourceConfig, server: ArkadeInfo) -> [String] {
        guard server.signerPubkey.count == 66 else { return [] }
        let signer = String(server.signerPubkey.lowercased().dropFirst(2))
        return source.addresses.compactMap { text in
            guard let address = try? ArkAddress(text), Hex.encode(address.signerKey) != signer else { return nil }
            return "Ark address \(text.prefix(14))… was made for signer key \(Hex.encode(address.signerKey).prefix(16))…, not this server's (\(signer.prefix(16))…); its VTXOs may be held by another server"
        }
    }
}
