import Foundation
import Testing
@testable import WalletWatchSim

/// A generated history far larger than any buffer is streamed while it is generated: the
/// simulator's memory stays flat and the body is one valid JSON array of the right length.
/// The simulator runs as its own process so that its memory is measured alone.
///
/// Part of the stress suite (`WALLETWATCH_STRESS=1`, run on its own by `scripts/test`): the
/// test checks 140 MB of JSON element by element, which keeps a core busy for half a minute
/// and would starve the timing checks of the tests running beside it.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["WALLETWATCH_STRESS"] == "1",
                "set WALLETWATCH_STRESS=1 to run the stress suite (scripts/test does)"))
struct StreamingStressTests {
    @Test func twoHundredThousandMovementsStreamInBoundedMemory() async throws {
        let count = 200_000
        let scenario = Scenario(wallets: [WalletScenario(
            name: "big", token: "t", balance: BarkdBalance(spendableSat: 1),
            generatedMovements: GeneratedMovements(count: count, seed: 2026))])
        let scenarioPath = NSTemporaryDirectory() + "ww-sim-big-\(UUID().uuidString).json"
        try scenario.jsonData().write(to: URL(fileURLWithPath: scenarioPath))
        defer { try? FileManager.default.removeItem(atPath: scenarioPath) }
        let sim = try await SimulatorProcess(scenarioPath: scenarioPath)

        let baseline = sim.memory("VmRSS")
        let scanner = Locked(JSONArrayScanner { bytes in
            guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
                return "not a JSON object"
            }
            for key in ["id", "status", "subsystem", "intended_balance_sat", "effective_balance_sat", "offchain_fee_sat",
                        "sent_to", "received_on", "input_vtxos", "output_vtxos", "exited_vtxos", "time"]
            where object[key] == nil {
                return "missing \(key)"
            }
            return nil
        })
        let response = try await HTTPProbe.send(
            "GET", sim.baseURL + "/barkd/big/api/v1/history", headers: ["Authorization": "Bearer t"], keepBody: false,
            timeoutSeconds: 300
        ) { chunk in
            scanner.withLock { $0.feed(chunk) }
        }
        let peak = sim.memory("VmHWM")
        try await sim.stop()

        #expect(response.status == 200 && response.complete && response.chunked)
        let (elements, error, finished) = scanner.withLock { ($0.elementCount, $0.error, $0.finished) }
        #expect(error == nil, "\(error ?? "")")
        #expect(finished)
        #expect(elements == count)
        let bodySize = response.bodyBytes
        #expect(bodySize > 100_000_000, "about 700 bytes a movement: \(bodySize)")
        // The body is over 100 MB; the simulator may only ever hold chunks of it.
        #expect(baseline > 0 && peak > 0, "no /proc figures")
        #expect(peak - baseline < 40_000_000,
                "simulator grew from \(baseline / 1_000_000) MB to a peak of \(peak / 1_000_000) MB for \(bodySize / 1_000_000) MB")
    }
}
