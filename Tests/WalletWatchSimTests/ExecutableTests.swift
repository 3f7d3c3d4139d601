import Foundation
import Testing
import TestSupport
@testable import WalletWatchSim

/// `walletwatch-sim` as a program: port file, the one stdout line, clean stop on SIGTERM.
@Suite struct ExecutableTests {
    @Test func servesTheDemoScenarioAndStopsOnSIGTERM() async throws {
        let sim = try await SimulatorProcess(scenarioPath: ScenarioTests.demoPath)
        let tip = try await HTTPProbe.get(sim.baseURL + "/barkd/ark/api/v1/bitcoin/tip", token: "demo-token")
        #expect(tip.text == #"{"tip_height":870000}"#)
        try await sim.stop()
        #expect(!sim.process.isRunning)
        #expect(sim.process.terminationReason == .exit && sim.process.terminationStatus == 0)
        let output = try String(contentsOfFile: sim.stdoutPath, encoding: .utf8)
        #expect(output == "walletwatch-sim listening on \(sim.baseURL)\n")
        #expect(!FileManager.default.fileExists(atPath: sim.portFile), "the port file goes with the server")
    }

    /// A real chain: the Electrum face's line, the endpoints file, the TLS folder asked for.
    @Test func publishesARealChainsEndpoints() async throws {
        let folder = TemporaryDirectory("ww-sim-endpoints")
        let scenario = folder.write("scenario.json", #"{"bitcoin": {"network": "regtest", "rpc_user": "u", "rpc_password": "p"}, "tip_height": 50}"#)
        let endpointsFile = folder.file("endpoints.json")
        let sim = try await SimulatorProcess(scenarioPath: scenario, arguments: ["--endpoints-file", endpointsFile, "--tls-dir", folder.file("tls")])
        let endpoints = try JSONDecoder().decode(BitcoinEndpoints.self, from: Data(contentsOf: URL(fileURLWithPath: endpointsFile)))
        #expect(endpoints.http == sim.baseURL && endpoints.coreRPC == sim.baseURL.replacingOccurrences(of: "http://", with: "http://u:p@") + "/bitcoind/")
        #expect(endpoints.certificatePath == folder.file("tls/electrum-certificate.pem") && endpoints.network == "regtest")
        let client = try await ElectrumTestClient.connect(endpoints.electrumTLS)
        _ = try await client.call("server.version", ["x", "1.4"])
        #expect(((try await client.call("blockchain.headers.subscribe").result as? [String: Any])?["height"] as? Int) == 50)
        await client.close()
        try await sim.stop()
        let output = try String(contentsOfFile: sim.stdoutPath, encoding: .utf8)
        #expect(output == "walletwatch-sim listening on \(sim.baseURL)\nwalletwatch-sim electrum on \(endpoints.electrumTCP) and \(endpoints.electrumTLS), certificate sha256 \(endpoints.certificateSHA256)\n")
        #expect(!FileManager.default.fileExists(atPath: endpointsFile), "the endpoints file goes with the server")
        #expect(FileManager.default.fileExists(atPath: endpoints.certificatePath), "a folder the user named is kept")
    }

    @Test func refusesABadScenarioWith65() async throws {
        let binary = SimulatorProcess.binary
        try #require(FileManager.default.isExecutableFile(atPath: binary))
        let path = NSTemporaryDirectory() + "ww-sim-bad-\(UUID().uuidString).json"
        try Data(#"{"wallets":[{"token":"x"}]}"#.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await ProcessRunner.run(binary, ["--scenario", path], environment: [:], currentDirectory: "/")
        #expect(result.status == 65)
        #expect(result.stderr.contains("name"), "\(result.stderr)")
    }
}
