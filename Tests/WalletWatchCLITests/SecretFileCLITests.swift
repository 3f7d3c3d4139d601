import Foundation
import Testing
import TestSupport
import WalletWatchSim

/// A token file that other users can read works, with one warning per file per process.
@Suite("CLI: token files others can read")
struct SecretFileCLITests {
    /// A barkd wallet in the simulator and a folder whose config reads its token from
    /// `barkd.token` (created with `mode`), ingested every second by the daemon.
    func setup(tokenMode: mode_t, webTokenMode: mode_t? = nil) async throws -> (Simulator, TemporaryDirectory, CLIRunner) {
        let simulator = try await Simulator.start(scenario: Scenario(wallets: [
            WalletScenario(name: "ark", token: "barkd-secret", generatedMovements: GeneratedMovements(count: 3, seed: 7)),
        ]))
        let folder = TemporaryDirectory("walletwatch-secret-files")
        folder.write("barkd.token", "barkd-secret\n")
        #expect(chmod(folder.file("barkd.token"), tokenMode) == 0)
        var config = """
            [[sources]]
            name = "ark"
            kind = "barkd"
            url = "\(simulator.barkdURL("ark"))"
            token_file = "barkd.token"
            interval_seconds = 1
            [rates]
            provider = "static"
            [rates.static]
            "BTC/USD" = "65000"

            """
        if let webTokenMode {
            folder.write("web.token", "web-secret-web-secret-web-secret\n")
            #expect(chmod(folder.file("web.token"), webTokenMode) == 0)
            config += "[serve]\ntoken_file = \"web.token\"\n"
        }
        folder.write("walletwatch.toml", config)
        return (simulator, folder, CLIRunner(folder: folder))
    }

    /// The stderr lines that name `path`.
    func lines(_ stderr: String, naming path: String) -> [Substring] {
        stderr.split(separator: "\n").filter { $0.contains(path) }
    }

    @Test("ingest with a 0644 token file: one warning naming it with the fix, and the token still used")
    func readableByOthers() async throws {
        let (simulator, folder, cli) = try await setup(tokenMode: 0o644)
        let path = folder.file("barkd.token")
        let ingest = try await cli.run("ingest")
        #expect(ingest.status == 0, "the token is still used: \(ingest.stderr)")
        #expect(lines(ingest.stderr, naming: path) == [
            "warning: source 'ark': token_file \(path) can be read by other users (mode 0644); run chmod 600 \(path)",
        ], "\(ingest.stderr)")
        #expect(try await sqlite(folder.file("walletwatch.sqlite"), "SELECT COUNT(*) FROM transactions") == "3")
        await simulator.stop()
    }

    @Test("a 0600 token file gives no warning")
    func privateFile() async throws {
        let (simulator, folder, cli) = try await setup(tokenMode: 0o600)
        let ingest = try await cli.run("ingest")
        #expect(try await sqlite(folder.file("walletwatch.sqlite"), "SELECT COUNT(*) FROM transactions") == "3")
        #expect(ingest.status == 0)
        #expect(!ingest.stderr.contains("warning"), "\(ingest.stderr)")
        await simulator.stop()
    }

    @Test("the daemon reads the token on every pass and warns once")
    func daemonWarnsOnce() async throws {
        let (simulator, folder, cli) = try await setup(tokenMode: 0o640)
        let database = folder.file("walletwatch.sqlite")
        let daemon = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: folder.path)
        // Each pass reads the token file again (a rotated token is picked up without a restart).
        #expect(try await eventually(within: .seconds(60)) {
            Int(try await sqlite(database, "SELECT COUNT(*) FROM ingest_runs WHERE source = 'ark' AND ok = 1")) ?? 0 >= 3
        }, "three passes: \(daemon.stderr)")
        daemon.send(SIGTERM)
        #expect(await daemon.exitStatus(within: .seconds(60)) == 0)
        let path = folder.file("barkd.token")
        let warnings = lines(daemon.stderr, naming: path)
        #expect(warnings.count == 1, "\(daemon.stderr)")
        #expect(warnings.first?.hasPrefix("warning: source 'ark': token_file \(path) can be read by other users (mode 0640)") == true)
        #expect(warnings.first?.hasSuffix("run chmod 600 \(path)") == true)
        await simulator.stop()
    }

    @Test("serve: the web token_file and barkd's, each warned about once; private ones not at all")
    func serveWarnsOncePerFile() async throws {
        for (mode, expected) in [(mode_t(0o666), 1), (mode_t(0o600), 0)] {
            let (simulator, folder, cli) = try await setup(tokenMode: mode, webTokenMode: mode)
            let database = folder.file("walletwatch.sqlite")
            let server = try BackgroundProcess(cli.binary, ["serve", "--listen", "127.0.0.1:0"], environment: cli.environment,
                                               currentDirectory: folder.path)
            #expect(try await eventually(within: .seconds(60)) {
                Int(try await sqlite(database, "SELECT COUNT(*) FROM ingest_runs WHERE source = 'ark' AND ok = 1")) ?? 0 >= 3
            }, "three passes: \(server.stderr)")
            server.send(SIGTERM)
            #expect(await server.exitStatus(within: .seconds(60)) == 0)
            let web = lines(server.stderr, naming: folder.file("web.token"))
            let barkd = lines(server.stderr, naming: folder.file("barkd.token"))
            #expect(web.count == expected && barkd.count == expected, "mode \(String(mode, radix: 8)): \(server.stderr)")
            if expected == 1 {
                #expect(web.first?.hasPrefix("warning: [serve] token_file \(folder.file("web.token")) can be read and changed by other users (mode 0666)") == true)
            }
            #expect(!server.stderr.contains("web-secret") && !server.stderr.contains("barkd-secret"), "a token reached stderr")
            await simulator.stop()
        }
    }
}
