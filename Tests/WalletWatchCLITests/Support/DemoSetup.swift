import Foundation
import TestSupport
import WalletWatchSim

/// The demo: the simulator in this process serving Config/demo-scenario.json, and a folder
/// with Config/demo.toml pointed at it, for running the built binary against.
final class DemoSetup: @unchecked Sendable {
    static let configFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Config")

    let simulator: Simulator
    let folder = TemporaryDirectory("walletwatch-demo")

    init() async throws {
        simulator = try await Simulator.start(scenario: try Scenario.load(from: Self.configFolder.appendingPathComponent("demo-scenario.json").path))
        let template = try String(contentsOf: Self.configFolder.appendingPathComponent("demo.toml"), encoding: .utf8)
        folder.write("walletwatch.toml", template.replacingOccurrences(of: "{{SIM}}", with: simulator.baseURL))
        folder.write("demo-barkd.token", try String(contentsOf: Self.configFolder.appendingPathComponent("demo-barkd.token"), encoding: .utf8))
        // As scripts/demo does: a token file others can read gets a warning on every command.
        chmod(folder.file("demo-barkd.token"), 0o600)
    }

    func cli(_ now: String = "2026-11-21T12:00:00Z") -> CLIRunner { CLIRunner(folder: folder, now: now) }

    deinit {
        let simulator = self.simulator
        Task { await simulator.stop() }
    }
}
