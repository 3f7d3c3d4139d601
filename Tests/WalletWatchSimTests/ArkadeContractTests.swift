import Foundation
import Testing
import TestSupport
import WalletWatchBitcoin
@testable import WalletWatchSim

/// Every answer of the simulator's Fulmine and arkd faces, stream messages and errors included,
/// validated against the pinned contracts (Fixtures/specs/, PROVENANCE.md there) by
/// openapi-schema-validator from PyPI: the simulator cannot drift from the real APIs unseen.
/// The validator finds each answer's schema from its method, path and status in the document
/// (the test never names one), and reports any operation of the document no answer exercised.
@Suite struct ArkadeContractTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let fulmineSpec = fixtures.appendingPathComponent("specs/fulmine-v0.3.24.openapi.json").path
    static let arkdSpec = fixtures.appendingPathComponent("specs/arkd-v0.9.15.openapi.json").path

    /// One answer: the request it answered (`path` below the face's base, as the document
    /// names it), its status and its JSON body (one message, for a stream).
    struct Sample {
        let label: String
        let method: String
        let path: String
        let status: Int
        let body: Any

        init(_ method: String, _ path: String, status: Int = 200, body: Any, label: String? = nil) {
            self.label = label ?? "\(method) \(path) \(status)"
            self.method = method
            self.path = path
            self.status = status
            self.body = body
        }
    }

    @Test func everyAnswerOfBothFacesMatchesThePinnedContracts() async throws {
        let scenario = Scenario(arkade: ArkadeScenario(network: "regtest", fulmineWallets: ["w"], receipts: [
            ArkadeReceipt(wallet: "w", amount: 100_000, batch: true), ArkadeReceipt(wallet: "w", amount: 40_000),
        ]))
        try await Fixture.withSimulator(scenario) { sim in
            let world = await sim.state.arkade
            let walletAddress = try #require(try await HTTPProbe.get(sim.controlURL + "/arkade").object?["wallets"] as? [String: [String: String]])["w"]!["address"]!
            let watched = world.address(ofKey: ArkadeKeys.xOnly(seed: "contract test watched"))
            let watchedScript = try ArkAddress(watched).vtxoScriptHex
            var fulmine: [Sample] = [], arkd: [Sample] = []
            let fulmineBase = sim.fulmineURL("w") + "/v1", arkdBase = sim.arkdURL + "/v1"

            // Subscriptions and their streams, open before anything changes.
            let subscribed = try await HTTPProbe.control("POST", fulmineBase + "/subscribe", json: #"{"addresses":["\#(walletAddress)"]}"#)
            #expect(subscribed.status == 200)
            fulmine.append(Sample("POST", "/v1/subscribe", body: try #require(subscribed.json)))
            let subscription = try await HTTPProbe.control("POST", arkdBase + "/indexer/script/subscribe", json: #"{"scripts":["\#(watchedScript)"]}"#)
            let subscriptionID = try #require(subscription.object?["subscriptionId"] as? String)
            arkd.append(Sample("POST", "/v1/indexer/script/subscribe", body: try #require(subscription.json)))
            async let fulmineStream = HTTPProbe.send("GET", fulmineBase + "/notifications", timeoutSeconds: 30)
            async let arkdStream = HTTPProbe.send("GET", arkdBase + "/indexer/script/subscription/\(subscriptionID)",
                                                  headers: ["Accept": "text/event-stream"], timeoutSeconds: 30)
            try await Self.waitForStreams(2, sim)

            // Every kind of change: receipts (batch and preconfirmed), spends with and without
            // change, a sweep, an unroll, boardings pending and settled.
            let first = try await Self.control(sim, "receipts", #"{"wallet":"w","amount":25000}"#)
            _ = try await Self.control(sim, "spends", #"{"outpoint":"\#(first["outpoint"]!)","change":5000}"#)
            let watchedIn = try await Self.control(sim, "receipts", #"{"address":"\#(watched)","amount":70000,"batch":true}"#)
            let watchedIn2 = try await Self.control(sim, "receipts", #"{"address":"\#(watched)","amount":3000}"#)
            _ = try await Self.control(sim, "spends", #"{"outpoint":"\#(watchedIn["outpoint"]!)"}"#)
            _ = try await Self.control(sim, "sweeps", #"{"outpoint":"\#(watchedIn2["outpoint"]!)"}"#)
            let third = try await Self.control(sim, "receipts", #"{"address":"\#(watched)","amount":1000}"#)
            _ = try await Self.control(sim, "unrolls", #"{"outpoint":"\#(third["outpoint"]!)"}"#)
            _ = try await Self.control(sim, "boardings", #"{"wallet":"w","amount":60000}"#)
            let board = try await Self.control(sim, "boardings", #"{"wallet":"w","amount":8000}"#)
            _ = try await Self.control(sim, "settlements", #"{"wallet":"w","boarding_txid":"\#(board["boarding_txid"]!)"}"#)

            for path in ["/balance", "/transactions", "/vtxos", "/vtxos?spendableOnly=true", "/vtxos?spentOnly=true", "/vtxos?recoverableOnly=true", "/info"] {
                let answer = try await HTTPProbe.get(fulmineBase + path)
                #expect(answer.status == 200, "\(path)")
                fulmine.append(Sample("GET", "/v1" + path, body: try #require(answer.json, "\(path)"), label: "GET /v1\(path)"))
            }
            let history = try await HTTPProbe.get(fulmineBase + "/transactions")
            let entries = try #require(history.object?["transactions"] as? [[String: Any]])
            #expect(entries.count == 6, "two scenario receipts, a receipt, a send, two boardings")
            #expect(entries.contains { $0["date"] as? String == "0001-01-01T00:00:00Z" }, "a boarding in the mempool has Go's zero time")

            arkd.append(Sample("GET", "/v1/info", body: try #require(try await HTTPProbe.get(arkdBase + "/info").json)))
            let scripts = "scripts=\(watchedScript)&scripts=\(world.wallets["w"]!.script)"
            let unpaged = try await HTTPProbe.get(arkdBase + "/indexer/vtxos?" + scripts)
            let all = try #require(unpaged.object?["vtxos"] as? [Any])
            #expect(unpaged.object?["page"] is NSNull)
            arkd.append(Sample("GET", "/v1/indexer/vtxos", body: try #require(unpaged.json)))
            var paged = 0
            for index in 1...4 {
                let page = try await HTTPProbe.get(arkdBase + "/indexer/vtxos?\(scripts)&page.size=3&page.index=\(index)")
                let position = try #require(page.object?["page"] as? [String: Any])
                #expect(position["current"] as? Int == index)
                paged += (page.object?["vtxos"] as? [Any])?.count ?? 0
                arkd.append(Sample("GET", "/v1/indexer/vtxos", body: try #require(page.json), label: "GET /v1/indexer/vtxos page \(index)"))
                if position["current"] as? Int == position["total"] as? Int { break }
            }
            #expect(paged == all.count, "the pages hold every VTXO once")

            // Errors are google.rpc.Status bodies.
            for (base, path, status, document) in [
                (sim.fulmineURL("nobody"), "/v1/balance", 404, "fulmine"),
                (sim.fulmineURL("w"), "/v1/vtxos?spentOnly=true&spendableOnly=true", 400, "fulmine"),
                (sim.arkdURL, "/v1/indexer/vtxos?scripts=00", 400, "arkd"),
                (sim.arkdURL, "/v1/indexer/script/subscription/\(subscriptionID)", 501, "arkd"),
                (sim.arkdURL, "/v1/indexer/script/subscription/nope", 501, "arkd"),
            ] {
                let answer = try await HTTPProbe.send("GET", base + path)
                #expect(answer.status == status, "\(path)")
                let sample = Sample("GET", path, status: status, body: try #require(answer.json, "\(path)"))
                if document == "fulmine" { fulmine.append(sample) } else { arkd.append(sample) }
            }
            let missing = try await HTTPProbe.send("GET", arkdBase + "/indexer/script/subscription/nope", headers: ["Accept": "text/event-stream"])
            #expect(missing.status == 404)
            arkd.append(Sample("GET", "/v1/indexer/script/subscription/nope", status: 404, body: try #require(missing.json)))
            let badScript = try await HTTPProbe.control("POST", arkdBase + "/indexer/script/subscribe", json: #"{"scripts":["00"]}"#)
            #expect(badScript.status == 400)
            arkd.append(Sample("POST", "/v1/indexer/script/subscribe", status: 400, body: try #require(badScript.json)))

            // The streams: every message they carried, then they end.
            let ended = try await HTTPProbe.control("POST", sim.controlURL + "/arkade/streams/end")
            #expect(ended.object?["ended"] as? Int == 2)
            let fulmineLines = try await fulmineStream.text.split(separator: "\n")
            #expect(fulmineLines.count >= 3, "the wallet's receipt, its send and its settlement: \(fulmineLines.count)")
            for (index, line) in fulmineLines.enumerated() {
                let message = try JSONSerialization.jsonObject(with: Data(line.utf8))
                fulmine.append(Sample("GET", "/v1/notifications", body: message, label: "stream line \(index + 1)"))
            }
            let events = try await arkdStream
            #expect(events.headers["content-type"] == "text/event-stream")
            let data = events.text.components(separatedBy: "\n\n").filter { !$0.isEmpty }
            #expect(data.count >= 5, "three receipts, a spend, a sweep and an unroll of the watched script: \(data.count)")
            for (index, event) in data.enumerated() {
                #expect(event.hasPrefix("data: "), "\(event)")
                let message = try JSONSerialization.jsonObject(with: Data(event.dropFirst("data: ".count).utf8))
                arkd.append(Sample("GET", "/v1/indexer/script/subscription/\(subscriptionID)", body: message, label: "event \(index + 1)"))
            }

            let fulmineResult = try await Self.validate(fulmine, against: Self.fulmineSpec)
            #expect(fulmineResult.status == 0, "\(fulmineResult.stdout)\(fulmineResult.stderr)")
            #expect(fulmineResult.stdout.contains("validated \(fulmine.count)"))
            #expect(!fulmineResult.stdout.contains("uncovered"), "\(fulmineResult.stdout)")
            let arkdResult = try await Self.validate(arkd, against: Self.arkdSpec)
            #expect(arkdResult.status == 0, "\(arkdResult.stdout)\(arkdResult.stderr)")
            #expect(arkdResult.stdout.contains("validated \(arkd.count)"))
            #expect(!arkdResult.stdout.contains("uncovered"), "\(arkdResult.stdout)")
        }
    }

    /// The validator does refuse what the faces send under a fault: it is not a rubber stamp.
    @Test func theValidatorRefusesAnswersThatBreakTheContract() async throws {
        try await Fixture.withSimulator(Scenario(arkade: ArkadeScenario(fulmineWallets: ["w"], receipts: [ArkadeReceipt(wallet: "w", amount: 5_000)]))) { sim in
            let base = sim.fulmineURL("w") + "/v1"
            _ = try await HTTPProbe.control("PUT", sim.controlURL + "/arkade/fault", json: #"{"kind":"amount_not_integer","times":1}"#)
            let balance = try await HTTPProbe.get(base + "/balance")
            #expect(balance.object?["amount"] as? String == "5000.5")
            _ = try await HTTPProbe.control("PUT", sim.controlURL + "/arkade/fault", json: #"{"kind":"unknown_enum","times":1}"#)
            let history = try await HTTPProbe.get(base + "/transactions")
            let result = try await Self.validate([
                Sample("GET", "/v1/balance", body: try #require(balance.json), label: "balance"),
                Sample("GET", "/v1/transactions", body: try #require(history.json), label: "history"),
                Sample("GET", "/v1/wallets", body: [String: Any](), label: "elsewhere"),
            ], against: Self.fulmineSpec)
            #expect(result.status == 1)
            #expect(result.stdout.contains("balance: GetBalanceResponse at /amount"), "\(result.stdout)")
            #expect(result.stdout.contains("history: GetTransactionHistoryResponse at /transactions/0/type"), "\(result.stdout)")
            #expect(result.stdout.contains("elsewhere: the document has no operation GET /v1/wallets"), "\(result.stdout)")
        }
    }

    // MARK: helpers

    static func control(_ sim: Simulator, _ path: String, _ json: String) async throws -> [String: String] {
        let answer = try await HTTPProbe.control("POST", sim.controlURL + "/arkade/" + path, json: json)
        guard (200...299).contains(answer.status), let object = answer.object else {
            throw HTTPProbe.Failure(description: "control \(path): \(answer.status) \(answer.text)")
        }
        return object.mapValues { "\($0)" }
    }

    static func waitForStreams(_ count: Int, _ sim: Simulator) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while await sim.state.arkadeStreamCount() < count {
            guard ContinuousClock.now < deadline else { throw HTTPProbe.Failure(description: "the streams did not open") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Runs openapi-schema-validator (scripts/setup's .build/python-tools) over `samples`.
    static func validate(_ samples: [Sample], against document: String) async throws -> CommandResult {
        let root = fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let python = root.appendingPathComponent(".build/python-tools/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw HTTPProbe.Failure(description: "no Python tools at \(python): run scripts/setup (it installs openapi-schema-validator into .build/python-tools)")
        }
        let folder = TemporaryDirectory("walletwatch-openapi")
        let list = samples.map { ["label": $0.label, "method": $0.method, "path": $0.path, "status": $0.status, "body": $0.body] as [String: Any] }
        let file = folder.file("samples.json")
        try JSONSerialization.data(withJSONObject: list).write(to: URL(fileURLWithPath: file))
        return try await ProcessRunner.run(python, [fixtures.appendingPathComponent("openapi_validate.py").path, document, file],
                                           environment: ["PATH": "/usr/bin:/bin"], currentDirectory: folder.path)
    }
}

/// The demo's watched Ark address (Config/demo-arkade.toml) is one of the simulated server's:
/// its signer key is the server's, so the demo draws no warning, and the scenario pays it.
@Suite struct ArkadeDemoAddressTests {
    @Test func theDemoAddressBelongsToTheSimulatedServer() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let config = try String(contentsOf: root.appendingPathComponent("Config/demo-arkade.toml"), encoding: .utf8)
        let text = try #require(config.split(separator: "\"").first { $0.hasPrefix("ark1") })
        let address = try ArkAddress(String(text))
        let world = ArkadeWorld(network: "bitcoin")
        #expect(address.signerKey == world.signerKey)
        let scenario = try Scenario.load(from: root.appendingPathComponent("Config/demo-scenario.json").path)
        #expect(scenario.arkade?.receipts.contains { $0.address == String(text) } == true)
    }
}
