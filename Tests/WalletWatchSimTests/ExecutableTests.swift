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
