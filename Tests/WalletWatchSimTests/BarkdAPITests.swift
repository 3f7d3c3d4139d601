import Foundation
import Testing
@testable import WalletWatchSim

/// The barkd side served over real HTTP: shapes against the OpenAPI document, barkd's
/// serialisation quirks, authentication and errors.
@Suite struct BarkdAPITests {
    let schema: OpenAPISchema

    init() throws {
        schema = try OpenAPISchema.load()
    }

    @Test func everyEndpointMatchesTheOpenAPISchemas() async throws {
        try await Fixture.withSimulator(Scenario(wallets: [Fixture.arkWallet()])) { sim in
            let base = sim.barkdURL("ark") + "/api/v1"
            let cases: [(String, String, Bool)] = [
                ("/wallet/balance", "Balance", false), ("/onchain/balance", "OnchainBalance", false),
                ("/history", "Movement", true), ("/onchain/transactions", "WalletTxInfo", true),
                ("/wallet/vtxos?all=true", "WalletVtxoInfo", true), ("/onchain/utxos", "UtxoInfo", true),
                ("/wallet/ark-info", "ArkInfo", false), ("/bitcoin/tip", "TipResponse", false),
            ]
            for (path, name, isArray) in cases {
                let response = try await HTTPProbe.get(base + path, token: "t")
                #expect(response.status == 200, "\(path)")
                #expect(response.headers["content-type"] == "application/json", "\(path)")
                let json = try #require(response.json, "\(path) is not JSON")
                let problems = isArray ? schema.problems(array: json, of: name) : schema.problems(json, against: name)
                #expect(problems.isEmpty, "\(path): \(problems)")
                if isArray { #expect(!((json as? [Any]) ?? []).isEmpty, "\(path) is empty") }
            }
            try await sim.addMovement(
                BarkdMovement(subsystem: .arkoorReceive, effectiveBalanceSat: 1_000, time: .pending(since: sim.now)), to: "ark")
            let wait = try await HTTPProbe.get(base + "/notifications/wait", token: "t")
            let waitJSON = try #require(wait.json)
            #expect(schema.problems(waitJSON, against: "WaitNotificationResponse").isEmpty)
        }
    }

    @Test func servesBarkdsSerialisationDetails() async throws {
        try await Fixture.withSimulator(Scenario(wallets: [Fixture.arkWallet(token: nil)])) { sim in
            let base = sim.barkdURL("ark") + "/api/v1"
            let history = try #require(try await HTTPProbe.get(base + "/history").array)
            #expect(history.map { $0["id"] as? Int } == [3, 2, 1], "newest first")
            // Keys in bark-json's order, metadata omitted when absent.
            let raw = try await HTTPProbe.get(base + "/history").text
            #expect(raw.hasPrefix(#"[{"id":3,"status":"successful","subsystem":{"name":"bark.lightning_send","kind":"send"},"intended_balance_sat":-20000,"effective_balance_sat":-20050,"offchain_fee_sat":50,"sent_to":[{"destination":{"type":"invoice","value":"lnbc200u1ptest"},"amount_sat":20000}]"#))

            let pending = try await sim.addMovement(
                BarkdMovement(subsystem: .lightningSend, effectiveBalanceSat: -5_000, time: .pending(since: Fixture.now)),
                to: "ark")
            #expect(pending.id == 4)
            let newest = try #require(try await HTTPProbe.get(base + "/history").array?.first)
            let time = try #require(newest["time"] as? [String: Any])
            #expect(time["completed_at"] == nil, "barkd leaves completed_at out while pending")
            #expect(time["created_at"] as? String == "2026-11-21T12:00:00Z")

            let transactions = try #require(try await HTTPProbe.get(base + "/onchain/transactions").array)
            #expect(transactions.count == 2)
            #expect(transactions[1]["confirmation"] is NSNull, "unconfirmed: confirmation is null")
            #expect(transactions[0]["onchain_fee_sat"] == nil, "unknown fee: omitted")
            #expect((transactions[0]["confirmation"] as? [String: Any])?["height"] as? Int == 869_000)

            let unspent = try #require(try await HTTPProbe.get(base + "/wallet/vtxos").array)
            let all = try #require(try await HTTPProbe.get(base + "/wallet/vtxos?all=true").array)
            #expect(unspent.count == 2 && all.count == 3, "all=true adds the spent VTXO")
            #expect(try await HTTPProbe.get(base + "/wallet/vtxos?all=maybe").status == 400)

            let tip = try await HTTPProbe.get(base + "/bitcoin/tip")
            #expect(tip.text == #"{"tip_height":870000}"#)
            let balance = try #require(try await HTTPProbe.get(base + "/wallet/balance").object)
            #expect(balance["spendable_sat"] as? Int == 150_000)
            #expect(balance["pending_exit_sat"] as? Int == 0)
            let onchain = try #require(try await HTTPProbe.get(base + "/onchain/balance").object)
            #expect(onchain["total_sat"] as? Int == 85_000 && onchain["trusted_spendable_sat"] as? Int == 80_000)

            let filtered = try #require(try await HTTPProbe.get(base + "/history?type=invoice&value=lnbc200u1ptest").array)
            #expect(filtered.map { $0["id"] as? Int } == [3])
            #expect(try await HTTPProbe.get(base + "/history?type=invoice").status == 400)
        }
    }

    @Test func bearerAuthentication() async throws {
        try await Fixture.withSimulator(Scenario(wallets: [Fixture.arkWallet(token: "secret")])) { sim in
            let url = sim.barkdURL("ark") + "/api/v1/wallet/balance"
            let missing = try await HTTPProbe.get(url)
            #expect(missing.status == 401)
            #expect(missing.object?["message"] as? String == "missing auth token")
            let wrong = try await HTTPProbe.get(url, token: "guess")
            #expect(wrong.status == 401)
            #expect(wrong.object?["message"] as? String == "invalid auth token")
            let basic = try await HTTPProbe.send("GET", url, headers: ["Authorization": "Basic c2VjcmV0"])
            #expect(basic.status == 401)
            #expect(try await HTTPProbe.get(url, token: "secret").status == 200)
            // /ping needs no token, like barkd's.
            let ping = try await HTTPProbe.get(sim.barkdURL("ark") + "/ping")
            #expect(ping.status == 200 && ping.text == "pong")
        }
    }

    @Test func unknownPathsWalletsAndMethods() async throws {
        try await Fixture.withSimulator(Scenario(wallets: [Fixture.arkWallet()])) { sim in
            let unknown = try await HTTPProbe.get(sim.barkdURL("ark") + "/api/v1/no/such/thing", token: "t")
            #expect(unknown.status == 404)
            #expect(unknown.object?["message"] as? String == "Route not found")
            #expect(unknown.object?["resources"] as? [String] == ["/api/v1/no/such/thing"])
            #expect(schema.problems(unknown.json as Any, against: "NotFoundError").isEmpty)
            #expect(try await HTTPProbe.get(sim.barkdURL("nobody") + "/api/v1/wallet/balance").status == 404)
            let post = try await HTTPProbe.send("POST", sim.barkdURL("ark") + "/api/v1/wallet/balance", body: [])
            #expect(post.status == 405)
            #expect(try await HTTPProbe.get(sim.baseURL + "/nothing/here").status == 404)
        }
    }

    @Test func generatedHistoryIsRealisticAndDeterministic() async throws {
        let wallet = WalletScenario(name: "big", generatedMovements: GeneratedMovements(count: 2_000, seed: 42))
        let first = try await Fixture.withSimulator(Scenario(wallets: [wallet])) { sim in
            try await HTTPProbe.get(sim.barkdURL("big") + "/api/v1/history")
        }
        let second = try await Fixture.withSimulator(Scenario(wallets: [wallet])) { sim in
            try await HTTPProbe.get(sim.barkdURL("big") + "/api/v1/history")
        }
        #expect(first.body == second.body, "same seed, same bytes")
        let movements = try #require(first.array)
        #expect(movements.count == 2_000)
        #expect(schema.problems(array: movements, of: "Movement").isEmpty)
        #expect(movements.map { $0["id"] as? Int ?? 0 } == Array((1...2_000).reversed()))
        let names = Set(movements.compactMap { ($0["subsystem"] as? [String: Any])?["name"] as? String })
        #expect(names == ["bark.arkoor", "bark.round", "bark.lightning_send", "bark.lightning_receive", "bark.board",
                          "bark.offboard", "bark.exit"])
        let statuses = Set(movements.compactMap { $0["status"] as? String })
        #expect(statuses == ["pending", "successful", "failed", "canceled"])
        for movement in movements {
            let effective = movement["effective_balance_sat"] as? Int ?? 0
            let kind = (movement["subsystem"] as? [String: Any])?["kind"] as? String ?? ""
            if ["receive", "board"].contains(kind) { #expect(effective >= 0, "\(movement)") }
            if ["send", "offboard", "send_onchain", "start", "refresh"].contains(kind) { #expect(effective <= 0, "\(movement)") }
        }
        let created = movements.compactMap { ($0["time"] as? [String: Any])?["created_at"] as? String }
            .compactMap(SimTime.init(iso8601:))
        #expect(created == created.sorted(by: >), "ids grow with time")
        #expect(created.last! >= Scenario.defaultReferenceTime.adding(seconds: -366 * 86_400))
        #expect(created.first! <= Scenario.defaultReferenceTime)
        let size = first.body.count / movements.count
        #expect((400...1_200).contains(size), "about 700 bytes a movement, got \(size)")
    }
}
