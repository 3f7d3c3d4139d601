import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchNet
import WalletWatchSim
import WalletWatchSources
import WalletWatchStore

/// Every fault mode of the simulator against every kind of endpoint walletwatch calls: the
/// barkd wallet and on-chain endpoints, the long poll, Esplora's address summary, history and
/// tip, and both price APIs. A fault must fail what it hits with a one-line reason naming the
/// source and the endpoint, keep the token out of it, change nothing stored, and leave the
/// other source alone.
@Suite("Every fault of the simulator against every endpoint kind")
struct FaultMatrixTests {
    /// A fault, and what its one-line reason must say (any one of the fragments: a streamed
    /// body meets a hostile one element by element, a buffered one as a whole, and plain-text
    /// endpoints such as Esplora's tip read it as text).
    struct Mode: Sendable {
        let name: String
        let fault: FaultKind
        let fragments: [String]

        /// The client's timeout: 2 s against the slow answer, so that it is cut off quickly;
        /// generous otherwise, so that the other source and the fault's own answer are never
        /// timed out by a busy machine, which would hide what the fault itself does.
        var timeoutSeconds: Int {
            if case .slow = fault { return 2 }
            return 60
        }
    }

    /// The longest pause before a retry. The 503 and 429 modes answer `Retry-After: 1` every
    /// time, and the engine retries once: at the default cap of 2 s that is a second of sleep
    /// per mode and endpoint (28 s of the suite), spent on nothing this suite asserts. Capped
    /// here, the retry is still made and refused again; that `Retry-After` is honoured is
    /// IngestTests' `rateLimitedOnce` (through the simulator) and RetryTests' (the client).
    static let maxBackoff = Duration.milliseconds(50)

    /// 1 MiB, with oversized answers of 2 MiB: the limit is what is tested, and the suite
    /// stays light (the stress suite sends 100 MB with the default limits).
    static let maxResponseBytes = 1 << 20

    static let modes: [Mode] = [
        Mode(name: "malformed JSON", fault: .malformedJSON, fragments: ["malformed", "expected", "not closed", "ends before", "block height"]),
        Mode(name: "a wrong type", fault: .wrongType, fragments: ["expected an integer, found a string", "expected a string", "expected a number", "block height"]),
        Mode(name: "a negative amount", fault: .negativeAmount, fragments: ["must not be negative", "must be positive", "block height"]),
        Mode(name: "a missing field", fault: .missingField, fragments: ["is missing", "block height"]),
        Mode(name: "a truncated body", fault: .truncated, fragments: ["closed before the whole body", "truncated"]),
        Mode(name: "401", fault: .status(401), fragments: ["HTTP 401 (the token was refused", "HTTP 401 (access refused"]),
        Mode(name: "500", fault: .status(500), fragments: ["HTTP 500"]),
        Mode(name: "503 with Retry-After", fault: .status(503, retryAfter: 1), fragments: ["HTTP 503"]),
        Mode(name: "429 on every try", fault: .status(429, retryAfter: 1), fragments: ["HTTP 429"]),
        Mode(name: "a slow answer", fault: .slow(seconds: 30), fragments: ["timed out after 2 s"]),
        Mode(name: "an oversized chunked body", fault: .oversized(bytes: 2 << 20), fragments: ["larger than 1048576 bytes", "is missing"]),
        Mode(name: "an oversized announced body", fault: .oversized(bytes: 2 << 20, announceLength: true),
             fragments: ["larger than 1048576 bytes", "is missing"]),
        Mode(name: "a redirect to file://", fault: .redirect(location: "file:///etc/passwd"), fragments: ["file:///etc/passwd refused"]),
        Mode(name: "100,000 levels of nesting", fault: .deepNesting(depth: 100_000),
             fragments: ["nesting deeper than 64", "expected an object", "block height"]),
        Mode(name: "a 2 MiB string", fault: .hugeString(bytes: 2 << 20), fragments: ["larger than 1048576 bytes", "expected an array"]),
    ]

    static let address = SimulatedWorld.esploraAddresses[0]

    /// The endpoints an ingest calls, and the source that calls them.
    static let ingestEndpoints: [(source: String, path: String)] = [
        ("ark", "/barkd/ark/api/v1/wallet/balance"), ("ark", "/barkd/ark/api/v1/onchain/balance"),
        ("ark", "/barkd/ark/api/v1/history"), ("ark", "/barkd/ark/api/v1/onchain/transactions"),
        ("ark", "/barkd/ark/api/v1/wallet/vtxos"), ("ark", "/barkd/ark/api/v1/onchain/utxos"),
        ("ark", "/barkd/ark/api/v1/wallet/ark-info"), ("ark", "/barkd/ark/api/v1/bitcoin/tip"),
        ("cold", "/esplora/address/\(address)"), ("cold", "/esplora/address/\(address)/txs"),
        ("cold", "/esplora/blocks/tip/height"),
    ]

    /// Faults that only touch a field walletwatch does not read, so the answer is rightly
    /// accepted: ark-info's first integer (`nb_round_nonces`) and first amount
    /// (`min_board_amount_sat`), barkd's tip (no amount in it), the address summary's first
    /// key (`address`) and first integer (`funded_txo_count`), and a transaction's first
    /// integer (`version`).
    static let unread: Set<String> = [
        "/barkd/ark/api/v1/wallet/ark-info a wrong type", "/barkd/ark/api/v1/wallet/ark-info a negative amount",
        "/barkd/ark/api/v1/bitcoin/tip a negative amount",
        "/esplora/address/\(address) a wrong type", "/esplora/address/\(address) a missing field",
        "/esplora/address/\(address)/txs a wrong type",
    ]

    @Test("an ingest endpoint's fault fails its source in one line, changes nothing stored; the other source still ingests",
          arguments: ingestEndpoints.map(\.path))
    func ingestEndpoint(path: String) async throws {
        let source = try #require(Self.ingestEndpoints.first { $0.path == path }).source
        let other = source == "ark" ? "cold" : "ark"
        let world = try await SimulatedWorld()
        _ = try await world.engine().ingestor.ingest()
        var changes = 0
        // Something new at the source, so that a pass that wrongly succeeded would change the store.
        func changeTheSource() async throws {
            changes += 1
            if source == "ark" {
                _ = try await world.simulator.addMovement(BarkdMovement(
                    subsystem: .init(name: "bark.arkoor", kind: "receive"), effectiveBalanceSat: Int64(900 + changes),
                    time: .init(createdAt: SimTime(unixSeconds: 1_795_260_000 + Int64(changes)))), to: "ark")
            } else {
                try await world.simulator.addEsploraTransaction(EsploraTxSpec(
                    txid: String(format: "%064x", 0xfa17 + changes), inputs: [],
                    outputs: [EsploraTxIO(address: Self.address, value: Int64(7000 + changes))], fee: 150,
                    blockHeight: 870_000, blockTime: 1_795_260_000))
            }
        }
        try await changeTheSource()
        var before = try world.fingerprint(source: source)
        // A wallet's address is named by its place, never as it is (issue 26).
        let endpoint = path.replacingOccurrences(of: source == "ark" ? "/barkd/ark" : "/esplora", with: "")
            .replacingOccurrences(of: SimulatedWorld.esploraAddresses[0], with: "[listed address 1 of 'Cold storage']")
            .replacingOccurrences(of: SimulatedWorld.esploraAddresses[1], with: "[listed address 2 of 'Cold storage']")

        for mode in Self.modes {
            await world.simulator.clearFaults()
            try await world.simulator.addFault(mode.fault, at: path)
            let engine = world.engine(now: "2026-11-21T12:30:00Z", timeoutSeconds: mode.timeoutSeconds, maxResponseBytes: Self.maxResponseBytes,
                                      maxBackoff: Self.maxBackoff)
            // --full, so that the Esplora pass asks for the tip too.
            let reports = try await engine.ingestor.ingest(sources: [source, other], full: true)
            #expect(reports[1].ok, "\(mode.name) at \(path): the other source must still ingest, got \(reports[1].error ?? "")")
            if Self.unread.contains("\(path) \(mode.name)") {
                #expect(reports[0].ok && reports[0].counts.new == 1, "\(mode.name) at \(path): \(reports[0].error ?? "\(reports[0].counts)")")
                try await changeTheSource()
                before = try world.fingerprint(source: source)
                continue
            }
            let reason = reports[0].error ?? ""
            #expect(!reports[0].ok, "\(mode.name) at \(path) did not fail the source")
            #expect(!reason.contains("\n"), "\(mode.name): \(reason)")
            #expect(reason.hasPrefix("source '\(source)': GET "), "\(mode.name): \(reason)")
            #expect(reason.contains(endpoint), "\(mode.name): \(reason)")
            #expect(mode.fragments.contains { reason.contains($0) }, "\(mode.name) at \(path): \(reason)")
            #expect(!reason.contains("demo-token"))
            #expect(!SimulatedWorld.esploraAddresses.contains { reason.contains($0) }, "\(mode.name): \(reason)")
            #expect(try world.fingerprint(source: source) == before, "\(mode.name) at \(path) changed stored data")
        }
        let logged = world.logs.entries.map(\.text)
        #expect(logged.contains { $0.contains("ingest failed") }, "the failures were logged")
        #expect(!logged.joined().contains("demo-token"), "the token reached the logs")
    }

    @Test("the long poll's faults are one-line errors naming the endpoint")
    func longPoll() async throws {
        let world = try await SimulatedWorld()
        let path = "/barkd/ark/api/v1/notifications/wait"
        _ = try await world.simulator.addMovement(BarkdMovement(
            subsystem: .init(name: "bark.arkoor", kind: "receive"), effectiveBalanceSat: 999,
            time: .init(createdAt: SimTime(unixSeconds: 1_795_260_000))), to: "ark")
        for mode in Self.modes {
            await world.simulator.clearFaults()
            try await world.simulator.addFault(mode.fault, at: path)
            let engine = world.engine(timeoutSeconds: mode.timeoutSeconds, maxResponseBytes: Self.maxResponseBytes, maxBackoff: Self.maxBackoff)
            let client = BarkdClient(source: "ark", baseURL: world.simulator.barkdURL("ark"), token: BearerToken("demo-token"), http: engine.http)
            do {
                let batch = try await client.waitForNotifications(since: nil, timeout: .seconds(mode.timeoutSeconds))
                Issue.record("\(mode.name) was accepted: \(batch)")
            } catch {
                let reason = "\(error)"
                #expect(!reason.contains("\n") && !reason.contains("demo-token"), "\(mode.name): \(reason)")
                #expect(reason.hasPrefix("source 'ark': GET ") && reason.contains("/api/v1/notifications/wait"), "\(mode.name): \(reason)")
                #expect(mode.fragments.contains { reason.contains($0) } || mode.name == "a slow answer" && reason.contains("timed out"),
                        "\(mode.name): \(reason)")
            }
        }
    }

    @Test("a price API's fault is a one-line error naming it, and the stored rates stay",
          arguments: [RatesConfig.Provider.coingecko, .mempool])
    func priceEndpoint(provider: RatesConfig.Provider) async throws {
        let world = try await SimulatedWorld()
        let path = provider == .coingecko ? "/coingecko/api/v3/simple/price" : "/mempool/api/v1/prices"
        func engine(_ now: String, timeoutSeconds: Int = 60) -> Engine {
            let base = world.engine(now: now, timeoutSeconds: timeoutSeconds, sources: [], maxResponseBytes: Self.maxResponseBytes,
                                   maxBackoff: Self.maxBackoff)
            var config = base.config
            config.rates = RatesConfig(provider: provider, url: provider == .coingecko ? world.simulator.coingeckoURL : world.simulator.mempoolURL,
                                       currencies: [.usd, .eur], maxAgeSeconds: 300)
            return Engine(storage: base.storage, config: config, clock: base.clock, http: base.http, logger: base.logger)
        }
        _ = try await engine("2026-11-21T12:00:00Z").rates.refresh()
        let stored = try world.database.latestRates()
        await world.simulator.setPrices(PriceTable(["USD": 70000, "EUR": 64000]))
        for mode in Self.modes {
            await world.simulator.clearFaults()
            try await world.simulator.addFault(mode.fault, at: path)
            if mode.fault == .negativeAmount {
                // A price API's value that is no price (mempool's -1 for a currency it cannot
                // price, or any negative) leaves that currency out; the rest of the answer is
                // kept. The first price (USD) is the one negated.
                let refreshed = try await engine("2026-11-21T12:30:00Z").rates.refresh()
                #expect(refreshed.unpriced.map(\.pair) == [CurrencyPair(base: .btc, quote: .usd)] && refreshed.unpriced.first?.answered == "-70000", "\(refreshed.unpriced)")
                #expect(refreshed.rates.map(\.pair.quote) == [.eur] && refreshed.rates.first?.rate == 64000)
                let latest = try world.database.latestRates()
                #expect(latest.first { $0.pair.quote == .usd } == stored.first { $0.pair.quote == .usd }, "the earlier USD rate stays")
                #expect(latest.first { $0.pair.quote == .eur }?.rate == 64000)
                try await world.database.saveRates(stored)
                continue
            }
            do {
                let rates = try await engine("2026-11-21T12:30:00Z", timeoutSeconds: mode.timeoutSeconds).rates.refresh()
                Issue.record("\(mode.name) at \(path) was accepted: \(rates)")
            } catch {
                let reason = "\(error)"
                #expect(!reason.contains("\n"), "\(mode.name): \(reason)")
                #expect(reason.contains("GET ") && reason.contains(path.split(separator: "/").last.map(String.init) ?? path), "\(mode.name): \(reason)")
                #expect(reason.hasPrefix("source 'rates': GET "), "\(mode.name): \(reason)")
                #expect(mode.fragments.contains { reason.contains($0) }, "\(mode.name): \(reason)")
            }
            #expect(try world.database.latestRates() == stored, "\(mode.name) at \(path) changed the stored rates")
        }
    }
}
