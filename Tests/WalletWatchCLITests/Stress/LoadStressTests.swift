import Foundation
import Testing
import TestSupport
import WalletWatchSim

extension StressTests {
    @Suite("CLI writes while the daemon ingests every second")
    struct Load {
        static let duration: Duration = .seconds(60)

        /// For a minute, `run` ingests every second (and at once on every barkd notification)
        /// while new movements keep arriving, and the CLI tags transactions and reallocates the
        /// wallet between two goals as fast as it can. Every command must succeed (a writer
        /// waits for the other instead of failing with "database is locked") and every write
        /// must be there at the end.
        @Test("tag add and allocate from the CLI while run ingests every second for a minute: no 'database is locked', nothing lost")
        func writesDuringIngests() async throws {
            let demo = try await DemoSetup()
            let config = try String(contentsOfFile: demo.folder.file("walletwatch.toml"), encoding: .utf8)
            #expect(config.contains("\ntimeout_seconds = 10\n"), "the demo config's [http] timeout, raised below")
            // The demo's 10 s request timeout is raised: the simulator is a debug build sharing two
            // cores with this loop and the stress suite's other test (a 200 MB tag import), and
            // a clean clone's run once saw three of its answers take longer than 10 s. What is
            // tested is the database's lock, not the simulator's speed.
            demo.folder.write("walletwatch.toml", config
                .replacingOccurrences(of: "interval_seconds = 60", with: "interval_seconds = 1")
                .replacingOccurrences(of: "interval_seconds = 600", with: "interval_seconds = 1")
                .replacingOccurrences(of: "timeout_seconds = 10", with: "timeout_seconds = 60"))
            let cli = demo.cli()
            let database = demo.folder.file("walletwatch.sqlite")
            #expect(try await cli.run("ingest").status == 0)
            for goal in ["House", "Car"] {
                #expect(try await cli.run("goal", "add", goal, "--currency", "BTC", "--target", "1").status == 0)
            }
            let daemon = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: demo.folder.path)
            let runsBefore = Int(try await sqlite(database, "SELECT COUNT(*) FROM ingest_runs")) ?? 0

            // New movements all along: each one also wakes the daemon through the long poll.
            let feeder = Task {
                var added = 0
                while !Task.isCancelled {
                    _ = try? await demo.simulator.addMovement(BarkdMovement(
                        subsystem: .init(name: "bark.arkoor", kind: "receive"), effectiveBalanceSat: Int64(1000 + added),
                        time: .init(createdAt: SimTime(unixSeconds: 1_795_260_000 + Int64(added)))), to: "ark")
                    added += 1
                    try? await Task.sleep(for: .milliseconds(300))
                }
                return added
            }

            var tagged = 0, allocated = 0
            var failures: [String] = []
            let end = ContinuousClock.now + Self.duration
            while ContinuousClock.now < end {
                let tag = try await cli.run("tag", "add", "ark:ark:\(tagged % 12 + 1)", "load-\(tagged)")
                if tag.status == 0 { tagged += 1 } else { failures.append(tag.stderr) }
                // Alternating sets, so that every command changes both pairs: two history rows each.
                let set = allocated.isMultiple(of: 2) ? ["House=0.001", "Car=0.002"] : ["House=0.002", "Car=0.001"]
                let allocate = try await cli.run(["allocate", "Ark wallet"] + set)
                if allocate.status == 0 { allocated += 1 } else { failures.append(allocate.stderr) }
            }
            feeder.cancel()
            let movementsAdded = await feeder.value
            daemon.send(SIGINT)
            #expect(await daemon.exitStatus(within: .seconds(60)) == 0, "\(daemon.stderr)")

            #expect(failures.isEmpty, "\(failures.count) commands failed, first: \(failures.first ?? "")")
            #expect(!daemon.stderr.contains("locked"), "\(daemon.stderr.split(separator: "\n").filter { $0.contains("locked") }.prefix(3))")
            #expect(tagged > 50 && allocated > 50, "too little load: \(tagged) tags, \(allocated) allocations")
            // The daemon really ingested all along, and none of its passes failed.
            let runs = Int(try await sqlite(database, "SELECT COUNT(*) FROM ingest_runs")) ?? 0
            #expect(runs - runsBefore >= 60, "only \(runs - runsBefore) ingests in a minute")
            let failedRuns = try await sqlite(database, "SELECT error FROM ingest_runs WHERE ok = 0 LIMIT 3")
            #expect(failedRuns.isEmpty, "failed ingests: \(failedRuns)")

            // Nothing lost: every tag, every allocation, every movement.
            #expect(try await sqlite(database, "SELECT COUNT(*) FROM tag_assignments") == "\(tagged)")
            #expect(try await sqlite(database, "SELECT COUNT(*) FROM allocation_history WHERE reason = 'allocate'") == "\(2 * allocated)")
            // The last command's set: an odd count of commands ended on the first set.
            let last = allocated.isMultiple(of: 2) ? "Car=100000\nHouse=200000" : "Car=200000\nHouse=100000"
            #expect(try await sqlite(database, """
                SELECT g.name || '=' || a.amount FROM asset_allocations a JOIN goals g ON g.id = a.goal_id ORDER BY g.name
                """) == last)
            #expect(try await cli.run("ingest", "--source", "ark").status == 0)
            #expect(try await sqlite(database, "SELECT COUNT(*) FROM transactions WHERE txid LIKE 'ark:ark:%'") == "\(12 + movementsAdded)")
            #expect(try await sqlite(database, "PRAGMA integrity_check") == "ok")
            print("a minute of load: \(tagged) tag add, \(allocated) allocate, \(runs - runsBefore) ingests, \(movementsAdded) new movements")
        }
    }
}
