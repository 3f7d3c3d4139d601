import Foundation
import Testing
import TestSupport
import WalletWatchSim

extension StressTests {
    @Suite("A crash in the middle of a write")
    struct Crash {
        static let movements = 100_000

        /// A wallet dedicated to a goal before a history of 100,000 movements arrives: the ingest
        /// that brings it writes them in many short transactions that readers cannot see, then
        /// auto-allocates thousands of them when it publishes the pass. Killed (SIGKILL) once it
        /// has committed some of those writes, the database must read as before the pass; the
        /// next ingest must then take the dead pass over, store every movement once and leave
        /// exactly one history row per auto-allocated transaction.
        @Test("SIGKILL during a 100,000-movement ingest that auto-allocates, then a re-run: all or nothing, Rule 1 exactly once")
        func killDuringIngest() async throws {
            let folder = TemporaryDirectory("walletwatch-crash")
            let empty = try await Simulator.start(scenario: Scenario(wallets: [WalletScenario(name: "ark", token: "t")]))
            folder.write("token", "t")
            func writeConfig(_ simulator: Simulator) {
                folder.write("walletwatch.toml", """
                    [[sources]]
                    name = "ark"
                    kind = "barkd"
                    url = "\(simulator.barkdURL("ark"))"
                    token_file = "token"
                    ark_asset = "Ark wallet"
                    """)
            }
            let cli = CLIRunner(folder: folder)
            writeConfig(empty)
            #expect(try await cli.run("ingest").status == 0)
            #expect(try await cli.run("goal", "add", "House", "--currency", "BTC", "--target", "100").status == 0)
            #expect(try await cli.run("allocate", "Ark wallet", "House=100%").status == 0)
            await empty.stop()

            let full = try await Simulator.start(scenario: Scenario(wallets: [
                WalletScenario(name: "ark", token: "t", generatedMovements: GeneratedMovements(count: Self.movements, seed: 11, prerender: true)),
            ]))
            writeConfig(full)
            let database = folder.file("walletwatch.sqlite")
            let wal = database + "-wal"
            let walBefore = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0

            // Start the ingest and kill it once a staging write has committed rows: the WAL grown
            // by 1 MiB says writes are under way, and a reader seeing ledger rows says one of them
            // committed (the WAL alone could be killed between a write's frames and its commit).
            let process = Process()
            process.executableURL = URL(fileURLWithPath: cli.binary)
            process.arguments = ["ingest"]
            process.environment = cli.environment
            process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            var killedMidWrite = false
            let deadline = ContinuousClock.now + .seconds(300)
            while process.isRunning && ContinuousClock.now < deadline {
                let size = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
                if size > walBefore + 1024 * 1024, (Int(try await sqlite(database, "SELECT COUNT(*) FROM ledger")) ?? 0) > 0 {
                    kill(process.processIdentifier, SIGKILL)
                    killedMidWrite = true
                    break
                }
                try await Task.sleep(for: .milliseconds(5))
            }
            while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
            #expect(killedMidWrite, "the ingest ended before its write could be interrupted; make the history longer")
            #expect(process.terminationReason == .uncaughtSignal)

            // All or nothing: the killed pass had committed rows, which no reader sees.
            #expect(try await sqlite(database, "PRAGMA integrity_check") == "ok")
            #expect(try await sqlite(database, "SELECT COUNT(*) FROM ingest_passes") == "1")
            #expect(Int(try await sqlite(database, "SELECT COUNT(*) FROM ledger")) ?? 0 > 0, "the pass was killed after it had staged rows")
            #expect(try await sqlite(database, "SELECT COUNT(*) FROM transactions") == "0")
            #expect(try await sqlite(database, "SELECT COUNT(*) FROM allocation_history WHERE reason = 'rule1'") == "0")

            let rerun = try await cli.run("ingest", "--json")
            #expect(rerun.status == 0, "\(rerun.stderr)")
            let autoAllocated = try #require((rerun.object?["sources"] as? [[String: Any]])?.first?["auto_allocated"] as? Int)
            #expect(autoAllocated > 1000)
            #expect((rerun.object?["sources"] as? [[String: Any]])?.first?["new"] as? Int == Self.movements)
            #expect(try await sqlite(database, "SELECT COUNT(*) FROM transactions") == "\(Self.movements)")
            #expect(try await sqlite(database, "SELECT COUNT(*) FROM ledger") == "\(Self.movements)", "the dead pass's rows were removed")
            #expect(try await sqlite(database, "SELECT COUNT(*) FROM ingest_passes") == "0")
            #expect(try await sqlite(database, "SELECT COUNT(*) FROM allocation_history WHERE reason = 'rule1'") == "\(autoAllocated)")
            #expect(try await sqlite(database, "SELECT COUNT(*) FROM transactions WHERE rule1_applied_at IS NOT NULL") == "\(autoAllocated)")
            #expect(try await sqlite(database, "SELECT COUNT(*) FROM (SELECT txid FROM allocation_history WHERE reason = 'rule1' GROUP BY asset_id, txid HAVING COUNT(*) > 1)") == "0")

            // Later passes allocate nothing again.
            let again = try await cli.run("ingest", "--json")
            #expect((again.object?["sources"] as? [[String: Any]])?.first?["auto_allocated"] as? Int == 0)
            #expect(try await sqlite(database, "SELECT COUNT(*) FROM allocation_history WHERE reason = 'rule1'") == "\(autoAllocated)")
            await full.stop()
        }
    }
}
