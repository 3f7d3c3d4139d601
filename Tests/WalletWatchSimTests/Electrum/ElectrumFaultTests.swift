import Foundation
import TestSupport
import Testing
import WalletWatchBitcoin
@testable import WalletWatchSim

/// Every fault of the Electrum face, each scoped to a method (or all of them) and counted down.
@Suite struct ElectrumFaultTests {
    static let scenario = ChainFixture.scenario(esplora: EsploraScenario(payments: [
        PaymentScenario(address: ChainFixture.p2wpkh, value: 50_000, blockHeight: 120),
    ]))
    static let scripthash = ChainFixture.scripthash(ChainFixture.p2wpkh)

    @Test func dropBeforeAnswering() async throws {
        try await ChainFixture.withFace(Self.scenario) { sim, client in
            try await sim.addElectrumFault(.drop(), on: "blockchain.scripthash.get_history")
            _ = try await client.result("server.ping")
            try await client.send(raw: #"{"jsonrpc":"2.0","method":"blockchain.scripthash.get_history","params":[""# + Self.scripthash + "\"],\"id\":77}\n")
            #expect(await client.isClosed(within: .seconds(5)))
            #expect(try await client.nextLine(within: .seconds(1)) == nil)
            #expect(await sim.electrumRequests().last?.fault == "drop")
        }
    }

    @Test func dropAfterSomeAnswersOfABatch() async throws {
        try await ChainFixture.withFace(Self.scenario) { sim, client in
            try await sim.addElectrumFault(ElectrumFault(.drop(after: 2), on: "blockchain.block.header", times: 1))
            try await client.send(raw: "[" + (1...5).map { #"{"jsonrpc":"2.0","method":"blockchain.block.header","params":[\#($0)],"id":\#($0)}"# }
                .joined(separator: ",") + "]\n")
            let line = try #require(try await client.nextLine())
            let answers = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [[String: Any]])
            #expect(answers.map { $0["id"] as? Int } == [1, 2])
            #expect(await client.isClosed(within: .seconds(5)))
            let remaining = try await HTTPProbe.get(sim.controlURL + "/electrum/faults").array
            #expect(remaining?.isEmpty == true)
        }
    }

    @Test func stallHoldsTheAnswer() async throws {
        try await ChainFixture.withFace(Self.scenario) { sim, client in
            try await sim.addElectrumFault(.stall(seconds: 0.6), on: "server.ping", times: 1)
            let start = ContinuousClock.now
            _ = try await client.result("server.ping")
            #expect(ContinuousClock.now - start >= .milliseconds(600))
            let again = ContinuousClock.now
            _ = try await client.result("server.ping")
            #expect(ContinuousClock.now - again < .milliseconds(500))
        }
    }

    @Test func aTransactionWhoseHashIsNotTheTxid() async throws {
        try await ChainFixture.withFace(Self.scenario) { sim, client in
            let payment = try await sim.pay(ChainFixture.p2pkh, value: 12_345)
            try await sim.addElectrumFault(.wrongTransaction, on: "blockchain.transaction.get", times: 1)
            let wrong = try #require(try await client.result("blockchain.transaction.get", [payment.txid]) as? String)
            #expect(try RawTransaction(hex: wrong).outputs.count == 2)
            #expect(try ChainFixture.txid(ofHex: wrong) != payment.txid)
            let right = try #require(try await client.result("blockchain.transaction.get", [payment.txid]) as? String)
            #expect(try ChainFixture.txid(ofHex: right) == payment.txid)
        }
    }

    @Test func headersThatAreNotEightyBytes() async throws {
        try await ChainFixture.withFace(Self.scenario) { sim, client in
            try await sim.addElectrumFault(.shortHeader(), on: "blockchain.block.*")
            #expect((try await client.result("blockchain.block.header", [5]) as? String)?.count == 158)
            let headers = try #require(try await client.result("blockchain.block.headers", [5, 2]) as? [String: Any])
            #expect((headers["headers"] as? [String])?.map(\.count) == [158, 158])
            try await sim.addElectrumFault(.shortHeader(bytes: 81), on: "blockchain.headers.subscribe")
            #expect(((try await client.result("blockchain.headers.subscribe") as? [String: Any])?["hex"] as? String)?.count == 162)
        }
    }

    @Test func aStatusThatIsNotTheHistorys() async throws {
        try await ChainFixture.withFace(Self.scenario) { sim, client in
            try await sim.addElectrumFault(.wrongStatus, on: "blockchain.scripthash.subscribe", times: 1)
            let history = try #require(try await client.result("blockchain.scripthash.get_history", [Self.scripthash]) as? [[String: Any]])
            let expected = ChainFixture.status(history.map { ($0["tx_hash"] as! String, $0["height"] as! Int) })
            let wrong = try await client.result("blockchain.scripthash.subscribe", [Self.scripthash]) as? String
            #expect(wrong != nil && wrong != expected)
            #expect(try await client.result("blockchain.scripthash.subscribe", [Self.scripthash]) as? String == expected)
        }
    }

    @Test func jsonThatIsNotJSONRPCAndErrorObjects() async throws {
        try await ChainFixture.withFace(Self.scenario) { sim, client in
            try await sim.addElectrumFault(.notJSONRPC, on: "server.ping", times: 1)
            try await client.send(raw: #"{"jsonrpc":"2.0","method":"server.ping","params":[],"id":5}"# + "\n")
            let line = try #require(try await client.nextLine())
            let odd = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            #expect(odd["id"] as? Int == 5 && odd["result"] == nil && odd["error"] == nil && odd["jsonrpc"] == nil)
            try await sim.addElectrumFault(.error(code: -32603, message: "internal trouble"), on: "*", times: 1)
            let error = try await client.call("blockchain.estimatefee", [1]).error
            #expect(error?.code == -32603 && error?.message == "internal trouble")
            // The JSON form through the control API.
            let posted = try await HTTPProbe.control("POST", sim.controlURL + "/electrum/faults",
                                                     json: #"{"method": "blockchain.scripthash.get_history", "kind": "history_too_large"}"#)
            #expect(posted.status == 201)
            let tooLarge = try await client.call("blockchain.scripthash.get_history", [Self.scripthash]).error
            #expect(tooLarge?.code == 10001 && tooLarge?.message == "history too large")
            #expect(try await HTTPProbe.control("DELETE", sim.controlURL + "/electrum/faults").status == 204)
            #expect(try await client.call("blockchain.scripthash.get_history", [Self.scripthash]).error == nil)
            let unknown = try await HTTPProbe.control("POST", sim.controlURL + "/electrum/faults", json: #"{"method": "*", "kind": "nope"}"#)
            #expect(unknown.status == 400)
        }
    }

    @Test func aLineLongerThanAskedAndGarbage() async throws {
        try await ChainFixture.withFace(Self.scenario) { sim, client in
            try await sim.addElectrumFault(.longLine(bytes: 300_000), on: "server.banner", times: 1)
            try await client.send(raw: #"{"jsonrpc":"2.0","method":"server.banner","params":[],"id":9}"# + "\n")
            let long = try #require(try await client.nextLine())
            #expect(long.count == 300_000)
            #expect((try JSONSerialization.jsonObject(with: Data(long)) as? [String: Any])?["id"] as? Int == 9)
            try await sim.addElectrumFault(.garbage, on: "server.ping", times: 1)
            try await client.send(raw: #"{"jsonrpc":"2.0","method":"server.ping","params":[],"id":10}"# + "\n")
            let garbage = try #require(try await client.nextLine())
            #expect((try? JSONSerialization.jsonObject(with: Data(garbage), options: [.fragmentsAllowed])) == nil)
            #expect(try await client.result("server.ping") is NSNull)
        }
    }

    @Test func aBatchAnsweredInAnotherOrder() async throws {
        try await ChainFixture.withFace(Self.scenario) { sim, client in
            try await sim.addElectrumFault(.reversedBatch, on: "blockchain.block.header", times: 1)
            try await client.send(raw: "[" + (1...3).map { #"{"jsonrpc":"2.0","method":"blockchain.block.header","params":[\#($0)],"id":\#($0)}"# }
                .joined(separator: ",") + "]\n")
            let line = try #require(try await client.nextLine())
            let answers = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [[String: Any]])
            #expect(answers.map { $0["id"] as? Int } == [3, 2, 1])
            // The client matches them by id.
            let matched = try await client.batch([("blockchain.block.header", [1]), ("blockchain.block.header", [2])])
            #expect(matched.map(\.resultText) == [answers[2], answers[1]].map { ElectrumReply.canonical($0["result"] ?? "") })
        }
    }

    @Test func aVersionOutsideOneFourToOneSix() async throws {
        try await Fixture.withSimulator(Self.scenario) { sim in
            try await sim.addElectrumFault(.version("1.3"), on: "server.version", times: 1)
            let client = try await ElectrumTestClient.connect(sim.electrumTCPURL)
            #expect((try await client.call("server.version", ["x", ["1.4", "1.6"]]).result as? [String]) == ["walletwatch-sim 1.0", "1.3"])
            await client.close()
            let log = await sim.electrumRequests()
            #expect(log.last?.fault == "version")
        }
    }
}
