import Foundation
import TestSupport
import Testing
@testable import WalletWatchSim

/// Framing and negotiation: batches are answered by one array, several lines in one write are
/// each answered, the request log counts calls, writes and batches; `server.version` comes
/// first, once, and only versions 1.4 to 1.6 are spoken.
@Suite struct ElectrumFramingTests {
    @Test func batchesAndPipelinedLinesAreLoggedByWriteAndBatch() async throws {
        try await ChainFixture.withFace(ChainFixture.scenario()) { sim, client in
            let a = ChainFixture.scripthash(ChainFixture.p2wpkh), b = ChainFixture.scripthash(ChainFixture.p2pkh)
            let answers = try await client.batch([
                ("blockchain.scripthash.get_history", [a]), ("blockchain.scripthash.get_balance", [b]), ("blockchain.block.header", [3]),
            ])
            #expect(answers.count == 3)
            #expect(answers.map { $0.resultText } == [
                "[]", ElectrumReply.canonical(["confirmed": 0, "unconfirmed": 0]),
                ElectrumReply.canonical(try await client.result("blockchain.block.header", [3]) ?? ""),
            ])
            let pipelined = try await client.pipeline([("server.ping", []), ("blockchain.estimatefee", [2]), ("server.ping", [])])
            #expect(pipelined.map(\.resultText) == ["null", "0.0001", "null"])
            let log = await sim.electrumRequests()
            // server.version; the batch of three; block.header; three lines in one write.
            #expect(log.map(\.method) == ["server.version", "blockchain.scripthash.get_history", "blockchain.scripthash.get_balance",
                                          "blockchain.block.header", "blockchain.block.header", "server.ping", "blockchain.estimatefee",
                                          "server.ping"])
            #expect(log.map(\.batch) == [nil, 1, 1, 1, nil, nil, nil, nil])
            #expect(log.map(\.write) == [1, 2, 2, 2, 3, 4, 4, 4])
            #expect(Set(log.map(\.connection)).count == 1 && log.allSatisfy { $0.transport == "tcp" })
            #expect(log[1].params == .array([.string(a)]))
            // Through the control API, and reset.
            let listed = try await HTTPProbe.get(sim.controlURL + "/electrum/requests").array
            #expect(listed?.count == 8 && listed?[2]["batch"] as? Int == 1)
            #expect(try await HTTPProbe.control("DELETE", sim.controlURL + "/electrum/requests").status == 204)
            #expect(await sim.electrumRequests().isEmpty)
        }
    }

    @Test func malformedLinesAndUnknownMethodsGetErrorObjects() async throws {
        try await ChainFixture.withFace(ChainFixture.scenario()) { _, client in
            try await client.send(raw: "{not json\n")
            let invalid = try #require(try await client.nextLine())
            #expect(String(decoding: invalid, as: UTF8.self) == #"{"jsonrpc":"2.0","error":{"code":-32700,"message":"invalid JSON"},"id":null}"#)
            try await client.send(raw: "[]\n")
            #expect(String(decoding: try #require(try await client.nextLine()), as: UTF8.self).contains("batch is empty"))
            #expect(try await client.call("no.such.method").error?.code == -32601)
            #expect(try await client.call("server.version", ["again", "1.4"]).error?.message == "server.version already sent")
        }
    }

    @Test func serverVersionFirstAndOnlyWithinOneFourToOneSix() async throws {
        try await Fixture.withSimulator(ChainFixture.scenario()) { sim in
            // Another method first: an error, then the connection closes (as ElectrumX does).
            let eager = try await ElectrumTestClient.connect(sim.electrumTCPURL)
            let refused = try await eager.call("blockchain.headers.subscribe")
            #expect(refused.error?.message == "use server.version to identify client")
            #expect(await eager.isClosed(within: .seconds(5)))
            await eager.close()
            // Versions outside 1.4-1.6 only: refused, closed.
            let future = try await ElectrumTestClient.connect(sim.electrumTCPURL)
            #expect(try await future.call("server.version", ["x", ["1.7", "1.8"]]).error?.message == "unsupported protocol version: ['1.7', '1.8']")
            #expect(await future.isClosed(within: .seconds(5)))
            await future.close()
            // The highest common version is chosen.
            for (asked, answered) in [(["1.2", "1.9"], "1.6"), (["1.4", "1.5"], "1.5"), (["1.0", "1.4"], "1.4")] {
                let client = try await ElectrumTestClient.connect(sim.electrumTCPURL)
                let reply = try await client.call("server.version", ["x", asked])
                #expect((reply.result as? [String])?.last == answered)
                await client.close()
            }
            let plain = try await ElectrumTestClient.connect(sim.electrumTCPURL)
            #expect((try await plain.call("server.version", ["x", "1.4"]).result as? [String]) == ["walletwatch-sim 1.0", "1.4"])
            await plain.close()
        }
    }

    @Test func aChainThatIsNotRealHasNoElectrumFace() async throws {
        try await Fixture.withSimulator(Scenario()) { sim in
            let electrum = try await HTTPProbe.get(sim.controlURL + "/electrum")
            let core = try await HTTPProbe.control("POST", sim.baseURL + "/bitcoind/", json: #"{"method":"getblockcount","id":1}"#)
            #expect(sim.endpoints == nil && electrum.status == 404 && core.status == 404)
        }
    }
}
