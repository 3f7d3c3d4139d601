import Foundation
import Testing
@testable import WalletWatchSim

/// Each fault does what it promises, on the wire.
@Suite struct FaultTests {
    static let balancePath = "/barkd/ark/api/v1/wallet/balance"

    func withFault<T>(_ kind: FaultKind, at path: String = balancePath, times: Int? = nil,
                      _ body: (Simulator) async throws -> T) async throws -> T {
        try await Fixture.withSimulator(Scenario(wallets: [Fixture.arkWallet(token: nil)])) { sim in
            try await sim.addFault(kind, at: path, times: times)
            return try await body(sim)
        }
    }

    @Test func malformedJSONStartsRightThenBreaks() async throws {
        try await withFault(.malformedJSON, at: "/barkd/ark/api/v1/history") { sim in
            let response = try await HTTPProbe.get(sim.baseURL + "/barkd/ark/api/v1/history")
            #expect(response.status == 200 && response.complete)
            #expect(response.text.hasPrefix(#"[{"id":3,"#))
            #expect(response.json == nil, "must not parse: \(response.text)")
            #expect((try? JSONDecoder().decode(JSONValue.self, from: Data(response.body))) == nil)
        }
    }

    @Test func wrongTypeSendsTheFirstIntegerAsAString() async throws {
        try await withFault(.wrongType, at: "/barkd/ark/api/v1/bitcoin/tip") { sim in
            let response = try await HTTPProbe.get(sim.baseURL + "/barkd/ark/api/v1/bitcoin/tip")
            #expect(response.text == #"{"tip_height":"870000"}"#)
            let history = try await HTTPProbe.get(sim.baseURL + "/barkd/ark/api/v1/history")
            #expect(history.array?.first?["id"] as? Int == 3, "other paths are untouched")
        }
        try await withFault(.wrongType, at: "/barkd/ark/api/v1/history") { sim in
            let history = try #require(try await HTTPProbe.get(sim.baseURL + "/barkd/ark/api/v1/history").array)
            #expect(history[0]["id"] as? String == "3", "streamed bodies too")
            #expect(history[1]["id"] as? Int == 2)
        }
    }

    @Test func negativeAmountBreaksAnUnsignedField() async throws {
        try await withFault(.negativeAmount) { sim in
            let balance = try #require(try await HTTPProbe.get(sim.baseURL + Self.balancePath).object)
            #expect(balance["spendable_sat"] as? Int == -150_000)
            let schema = try OpenAPISchema.load()
            #expect(!schema.problems(balance, against: "Balance").isEmpty, "the schema's minimum catches it")
        }
        try await withFault(.negativeAmount, at: "/esplora/*") { sim in
            let stats = try #require(try await HTTPProbe.get(sim.esploraURL + "/address/" + Fixture.address).object)
            #expect(EsploraAPITests.numbers(stats["chain_stats"])["funded_txo_count"] == 0,
                    "counts are not amounts; the first amount is funded_txo_sum")
            #expect(EsploraAPITests.numbers(stats["chain_stats"])["funded_txo_sum"] == -1)
        }
    }

    @Test func missingFieldDropsTheFirstKey() async throws {
        try await withFault(.missingField) { sim in
            let balance = try #require(try await HTTPProbe.get(sim.baseURL + Self.balancePath).object)
            #expect(balance["spendable_sat"] == nil && balance["pending_board_sat"] != nil)
        }
        try await withFault(.missingField, at: "/barkd/ark/api/v1/history") { sim in
            let history = try #require(try await HTTPProbe.get(sim.baseURL + "/barkd/ark/api/v1/history").array)
            #expect(history[0]["id"] == nil && history[0]["status"] != nil && history[1]["id"] != nil)
        }
        try await withFault(.missingField, at: "/coingecko/*") { sim in
            // The first key's whole value goes with it.
            let prices = try await HTTPProbe.get(sim.coingeckoURL + "/simple/price?ids=bitcoin&vs_currencies=usd")
            #expect(prices.status == 200 && prices.text == "{}")
        }
    }

    @Test func statusFaultsCarryErrorBodiesAndRetryAfter() async throws {
        for code in [401, 500, 502, 503, 504] {
            try await withFault(.status(code)) { sim in
                let response = try await HTTPProbe.get(sim.baseURL + Self.balancePath)
                #expect(response.status == code)
                #expect(response.headers["content-type"] == "application/json")
                #expect(response.object?["message"] is String, "\(code): \(response.text)")
            }
        }
        try await withFault(.rateLimited(retryAfter: 7)) { sim in
            let response = try await HTTPProbe.get(sim.baseURL + Self.balancePath)
            #expect(response.status == 429 && response.headers["retry-after"] == "7")
        }
        try await withFault(.status(503, retryAfter: 2)) { sim in
            let response = try await HTTPProbe.get(sim.baseURL + Self.balancePath)
            #expect(response.status == 503 && response.headers["retry-after"] == "2")
        }
    }

    @Test func slowWaitsBeforeTheHead() async throws {
        try await withFault(.slow(seconds: 0.6)) { sim in
            let started = ContinuousClock.now
            let response = try await HTTPProbe.get(sim.baseURL + Self.balancePath)
            #expect(ContinuousClock.now - started >= .milliseconds(550))
            #expect(response.status == 200 && response.object?["spendable_sat"] as? Int == 150_000)
        }
    }

    @Test func truncatedBodyAnnouncesMoreThanItSends() async throws {
        try await withFault(.truncated) { sim in
            let response = try await HTTPProbe.get(sim.baseURL + Self.balancePath)
            let announced = try #require(response.headers["content-length"].flatMap(Int.init))
            #expect(!response.complete, "the connection closed early")
            #expect(response.bodyBytes > 0 && response.bodyBytes < announced)
        }
        try await withFault(.truncated, at: "/barkd/ark/api/v1/history") { sim in
            let response = try await HTTPProbe.get(sim.baseURL + "/barkd/ark/api/v1/history")
            #expect(!response.complete && response.json == nil)
        }
    }

    @Test func oversizedBodiesStreamExactlyTheirSize() async throws {
        let size = 20_000_000
        try await withFault(.oversized(bytes: size)) { sim in
            let response = try await HTTPProbe.send("GET", sim.baseURL + Self.balancePath, keepBody: false)
            #expect(response.headers["content-length"] == nil && response.chunked)
            #expect(response.complete && response.bodyBytes == size)
        }
        try await withFault(.oversized(bytes: 3_000_000, announceLength: true)) { sim in
            let response = try await HTTPProbe.get(sim.baseURL + Self.balancePath)
            #expect(response.headers["content-length"] == "3000000" && response.bodyBytes == 3_000_000)
            let records = try #require(response.array, "valid-looking JSON")
            #expect(records.count > 3_000 && records[0]["amount_sat"] is Int)
        }
    }

    @Test func redirectPointsAtAFileURL() async throws {
        try await withFault(.redirect()) { sim in
            let response = try await HTTPProbe.get(sim.baseURL + Self.balancePath)
            #expect(response.status == 302 && response.headers["location"] == "file:///etc/passwd")
        }
    }

    @Test func deepNestingAndHugeStrings() async throws {
        try await withFault(.deepNesting(depth: 100_000)) { sim in
            let response = try await HTTPProbe.get(sim.baseURL + Self.balancePath)
            #expect(response.bodyBytes == 200_000)
            #expect(response.body.prefix(100_000).allSatisfy { $0 == UInt8(ascii: "[") })
            #expect(response.body.suffix(100_000).allSatisfy { $0 == UInt8(ascii: "]") })
        }
        try await withFault(.hugeString(bytes: 10_000_000)) { sim in
            let response = try await HTTPProbe.get(sim.baseURL + Self.balancePath)
            #expect(response.bodyBytes == 10_000_000 + #"{"data":""}"#.utf8.count)
            let object = try #require(response.object)
            #expect((object["data"] as? String)?.utf8.count == 10_000_000)
        }
        try await withFault(.hugeString(bytes: 1_000_000, inArray: true)) { sim in
            let response = try await HTTPProbe.get(sim.baseURL + Self.balancePath)
            let list = try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]]
            #expect((list?.first?["data"] as? String)?.utf8.count == 1_000_000)
        }
    }

    @Test func recordedAnswersByteForByte() async throws {
        // mempool's -1 for a currency it has no price for, with the spacing a recording keeps.
        let body = "{\n  \"time\": 1703252411,\n  \"USD\": 43753,\n  \"EUR\": -1\n}\n"
        try await withFault(.recorded(body: body), at: "/mempool/*") { sim in
            let response = try await HTTPProbe.get(sim.mempoolURL + "/v1/prices")
            #expect(response.status == 200 && response.headers["content-type"] == "application/json")
            #expect(response.text == body)
            #expect(await sim.requests().map(\.fault) == ["recorded"])
        }
        try await Fixture.withSimulator(Scenario(wallets: [Fixture.arkWallet(token: nil)])) { sim in
            let json = #"{"path":"/coingecko/*","kind":"recorded","body":"{\"bitcoin\":{\"usd\":67187.33,\"eur\":null}}"}"#
            let added = try await HTTPProbe.control("POST", sim.controlURL + "/faults", json: json)
            #expect(added.status == 201)
            #expect(try await HTTPProbe.get(sim.coingeckoURL + "/simple/price?ids=bitcoin&vs_currencies=usd,eur").text == #"{"bitcoin":{"usd":67187.33,"eur":null}}"#)
            #expect(try await HTTPProbe.control("POST", sim.controlURL + "/faults", json: #"{"path":"/x","kind":"recorded"}"#).status == 400,
                    "a recorded answer needs its body")
        }
    }

    @Test func faultsCountDownMatchPrefixesAndAreLogged() async throws {
        try await withFault(.status(503), at: "/esplora/*", times: 2) { sim in
            let url = sim.esploraURL + "/blocks/tip/height"
            #expect(try await HTTPProbe.get(url).status == 503)
            #expect(try await HTTPProbe.get(sim.esploraURL + "/address/" + Fixture.address).status == 503)
            #expect(try await HTTPProbe.get(url).status == 200, "cleared itself after two")
            #expect(try await HTTPProbe.get(sim.baseURL + Self.balancePath).status == 200, "other prefixes untouched")
            let log = await sim.requests()
            #expect(log.map(\.fault) == ["status 503", "status 503", nil, nil])
            #expect(await sim.faults().isEmpty)

            _ = try await HTTPProbe.control("POST", sim.controlURL + "/faults", json: #"{"path":"/esplora/blocks/tip/height","kind":"rate_limited","retry_after":3}"#)
            let limited = try await HTTPProbe.get(url)
            #expect(limited.status == 429 && limited.headers["retry-after"] == "3")
            #expect(try await HTTPProbe.control("DELETE", sim.controlURL + "/faults").status == 204)
            #expect(try await HTTPProbe.get(url).status == 200)
            #expect(try await HTTPProbe.control("POST", sim.controlURL + "/faults", json: #"{"path":"/x","kind":"sideways"}"#).status == 400)
        }
    }
}
