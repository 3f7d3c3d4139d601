import Logging
import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchSources

/// The daemon's pushed changes from Arkade (SPEC.md section 27), as barkd's long poll: a
/// Fulmine wallet's notification stream, or an Ark server's script subscription stream for an
/// arkd source. A message about VTXOs wakes the source's ingest at once.
///
/// Each stream is opened after its subscription is made, and every (re)opening wakes one pass,
/// which compares the VTXOs with what is stored: nothing that happened while no stream was open
/// is missed. A stream that ends, breaks, or sends what its API does not document is logged in
/// one line and opened again after 1, 2, 4... up to 60 seconds (a stream that lasted
/// ``steadyAfter`` starts again from 1 s). Nothing is stored by the watcher itself: only passes
/// store, and they check every answer.
///
/// Fulmine's stream carries the events of the addresses subscribed with `POST /v1/subscribe`
/// only (its wallet's own are not subscribed by itself): the watcher subscribes the addresses
/// of every VTXO the wallet reports (made from their scripts and the server's signer key). A
/// payment to an address the wallet has not used yet arrives on no stream; the source's
/// interval (60 s by default) finds it.
struct ArkadeWatcher: Sendable {
    let source: SourceConfig
    let clients: SourceClients
    let logger: Logger
    /// How long one stream may stay open before it is opened again (and compared again).
    var streamTimeout: Duration = .seconds(3600)
    /// How long a stream must have lasted for its loss to start the backoff again from 1 s.
    var steadyAfter: Duration = .seconds(60)

    func run(wakeup: Wakeup, stopping: @escaping @Sendable () -> Bool) async {
        var failures = 0
        while !stopping() {
            let opened = ContinuousClock.now
            do {
                try await follow(wakeup: wakeup)
            } catch {
                guard !stopping() else { break }
                failures = Self.failures(after: failures, lasted: ContinuousClock.now - opened, steadyAfter: steadyAfter)
                let pause = Self.pause(failures: failures)
                logger.warning("notification stream lost; reopening", metadata: [
                    "source": "\(source.name)", "error": "\((error as? any Classified)?.description ?? "\(error)")", "retry_in_s": "\(pause)",
                ])
                try? await Task.sleep(for: .seconds(pause))
            }
        }
    }

    /// The count of failures in a row once a stream that was open for `lasted` is lost: one
    /// more, or 1 again after a stream that stayed up `steadyAfter`.
    static func failures(after previous: Int, lasted: Duration, steadyAfter: Duration) -> Int {
        lasted < steadyAfter ? previous + 1 : 1
    }

    /// Seconds to wait before opening a stream again after `failures` losses in a row: 1, 2,
    /// 4... up to 60 (a server that is down is not asked more than once a minute).
    static func pause(failures: Int) -> Int {
        min(60, 1 << min(max(failures, 1) - 1, 6))
    }

    /// Subscribes, wakes a pass, then follows the stream until it ends (always with an error).
    private func follow(wakeup: Wakeup) async throws {
        let onEvent: @Sendable (ArkadeStreamEvent) -> Void = { [logger, source] event in
            guard event == .change else { return }
            logger.info("Arkade pushed a change; ingesting now", metadata: ["source": "\(source.name)"])
            Task { await wakeup.fire() }
        }
        switch source.kind {
        case .fulmine:
            let client = clients.fulmine(source)
            async let info = client.info()
            async let vtxos = client.vtxos()
            let addresses = Self.addresses(of: try await vtxos, server: try await info)
            if !addresses.isEmpty { try await client.subscribe(addresses: addresses) }
            await wakeup.fire()
            try await client.followNotifications(timeout: streamTimeout, onEvent: onEvent)
        case .arkd:
            let client = clients.arkd(source)
            let id = try await client.subscribe(scripts: source.arkScripts)
            await wakeup.fire()
            try await client.followSubscription(id, timeout: streamTimeout, onEvent: onEvent)
        default:
            return
        }
    }

    /// The Ark addresses of `vtxos`' scripts under the server's signer key.
    static func addresses(of vtxos: [ArkadeVtxo], server: ArkadeInfo) -> [String] {
        guard let signer = Hex.decode(server.signerPubkey), signer.count == 33 else { return [] }
        let network: Network = server.addressPrefix == "ark" ? .bitcoin : .testnet
        var seen: Set<String> = []
        return vtxos.compactMap { vtxo in
            guard seen.insert(vtxo.script).inserted, let script = Hex.decode(vtxo.script), script.count == 34 else { return nil }
            return ArkAddress.encode(network: network, signerKey: Array(signer.dropFirst()), vtxoTaprootKey: Array(script.dropFirst(2)))
        }
    }
}
