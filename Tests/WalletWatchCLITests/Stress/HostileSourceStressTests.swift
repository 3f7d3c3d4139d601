import Foundation
import Testing
import TestSupport
import WalletWatchSim

extension StressTests {
    @Suite("Hostile sources")
    struct HostileSources {
        struct Case: Sendable, CustomTestStringConvertible {
            let name: String
            let endpoint: String
            let fault: FaultKind
            let reason: String
            var testDescription: String { "\(name) at \(endpoint)" }
        }

        /// With the default limits: the history is streamed (no size limit, 1 MiB a movement),
        /// the other endpoints are read whole up to `max_response_bytes` (64 MiB).
        static let cases: [Case] = [
            Case(name: "100,000 levels of nesting", endpoint: "history", fault: .deepNesting(depth: 100_000),
                 reason: "field [0]: nesting deeper than 64 levels"),
            Case(name: "a 100 MB string in a movement", endpoint: "history", fault: .hugeString(bytes: 100_000_000, inArray: true),
                 reason: "field [0]: "),
            Case(name: "100,000 levels of nesting", endpoint: "wallet/vtxos", fault: .deepNesting(depth: 100_000),
                 reason: "field [0]: expected an object, found an array"),
            Case(name: "a 100 MB string", endpoint: "wallet/balance", fault: .hugeString(bytes: 100_000_000),
                 reason: "response larger than 67108864 bytes"),
        ]

        /// A hostile answer fails its source with a one-line reason, in bounded time and
        /// memory (the peak resident size of the whole `walletwatch ingest` process), and
        /// nothing stored changes.
        @Test("a hostile source answering deeply nested JSON or a 100 MB string fails cleanly in bounded memory", arguments: cases)
        func hostile(_ hostile: Case) async throws {
            let demo = try await DemoSetup()
            let cli = demo.cli()
            let database = demo.folder.file("walletwatch.sqlite")
            #expect(try await cli.run("ingest").status == 0)
            _ = try await demo.simulator.addMovement(BarkdMovement(
                subsystem: .init(name: "bark.arkoor", kind: "receive"), effectiveBalanceSat: 4242,
                time: .init(createdAt: SimTime(unixSeconds: 1_795_260_000))), to: "ark")
            let snapshot = "SELECT txid, amount, status, last_updated FROM transactions ORDER BY txid; SELECT * FROM ark_balances;"
            let before = try await sqlite(database, snapshot)
            try await demo.simulator.addFault(hostile.fault, at: "/barkd/ark/api/v1/" + hostile.endpoint)

            let started = ContinuousClock.now
            let (result, peakKiB) = try await cli.runMeasuringPeakMemory(["ingest", "--source", "ark"])
            let elapsed = ContinuousClock.now - started
            let lines = result.stderr.split(separator: "\n")
            #expect(result.status == 1)
            #expect(lines.count == 1, "\(result.stderr)")
            #expect(result.stderr.contains("source 'ark': GET ") && result.stderr.contains("/api/v1/\(hostile.endpoint)"), "\(result.stderr)")
            #expect(result.stderr.contains(hostile.reason), "\(result.stderr)")
            #expect(peakKiB < 160 * 1024, "peak memory \(peakKiB) KiB")
            #expect(elapsed < .seconds(60), "took \(elapsed)")
            #expect(try await sqlite(database, snapshot) == before, "stored data changed")
            print("hostile source, \(hostile.testDescription): failed in \(elapsed), peak memory \(peakKiB / 1024) MiB")
        }
    }
}
