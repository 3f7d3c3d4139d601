import Foundation

/// A real ElectrumX 2.0.0 (the Electrum developers' server, installed by `scripts/setup` in
/// `.build/python-tools`) run by a test against a Bitcoin Core JSON-RPC endpoint (the
/// simulator's Core face), in a fresh database folder, with TCP and SSL services on free ports.
/// It polls its daemon every `pollMilliseconds` (ElectrumX's stock 5,000 when nil). Its output is
/// kept for failure messages; ``stop()`` ends it (SIGTERM, SIGKILL after a grace period), and
/// dropping it kills it.
///
/// ```swift
/// let sim = try await Simulator.start(scenario: Scenario(bitcoin: BitcoinScenario(), ...))
/// let electrumx = try await ElectrumXServer.start(daemonURL: sim.coreRPCURL, certificatePath: sim.certificatePath,
///                                                 keyPath: sim.keyPath, indexedHeight: await sim.tipHeight)
/// let client = try await ElectrumTestClient.connect(electrumx.tcpURL)
/// ...
/// await electrumx.stop()
/// await sim.stop()
/// ```
public final class ElectrumXServer: Sendable {
    /// The TCP service's port.
    public let tcpPort: Int
    /// The SSL service's port.
    public let sslPort: Int
    private let process: BackgroundProcess
    private let database: TemporaryDirectory

    /// `tcp://127.0.0.1:PORT`.
    public var tcpURL: String { "tcp://127.0.0.1:\(tcpPort)" }
    /// `ssl://127.0.0.1:PORT`.
    public var sslURL: String { "ssl://127.0.0.1:\(sslPort)" }

    /// What ElectrumX printed so far (its log goes to stderr).
    public var log: String { process.stdout + process.stderr }

    /// Whether it is still running.
    public var isRunning: Bool { process.isRunning }

    private init(tcpPort: Int, sslPort: Int, process: BackgroundProcess, database: TemporaryDirectory) {
        self.tcpPort = tcpPort
        self.sslPort = sslPort
        self.process = process
        self.database = database
    }

    /// `.build/python-tools/bin/electrumx_server` of this package, where `scripts/setup` installs it.
    public static var executablePath: String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/python-tools/bin/electrumx_server").path
    }

    /// Whether `scripts/setup` has installed ElectrumX.
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executablePath) }

    /// Starts ElectrumX (COIN=Bitcoin, NET=regtest) against `daemonURL` (with its credentials:
    /// `http://USER:PASSWORD@HOST:PORT/PATH/`), serving TCP and SSL with the given certificate and
    /// key; returns once it answers on TCP and, when `indexedHeight` is given, has indexed up to
    /// that height. `environment` adds or overrides ElectrumX settings.
    public static func start(
        daemonURL: String, certificatePath: String, keyPath: String, pollMilliseconds: Int? = 150, environment: [String: String] = [:],
        indexedHeight: Int? = nil, within timeout: Duration = .seconds(60)
    ) async throws -> ElectrumXServer {
        guard isInstalled else {
            throw ElectrumTestError("ElectrumX is not installed at \(executablePath): run scripts/setup (it installs e-x 2.0.0 and plyvel into .build/python-tools)")
        }
        let database = TemporaryDirectory("walletwatch-electrumx")
        let (tcpPort, sslPort) = (unusedLoopbackPort(), unusedLoopbackPort())
        var settings = [
            // ElectrumX 2.0.0 has no default engine (env.py, `db_engine_enum`); plyvel is what setup installs.
            "COIN": "Bitcoin", "NET": "regtest", "DB_ENGINE": "leveldb", "DB_DIRECTORY": database.path, "DAEMON_URL": daemonURL,
            "SERVICES": "tcp://127.0.0.1:\(tcpPort),ssl://127.0.0.1:\(sslPort)", "SSL_CERTFILE": certificatePath, "SSL_KEYFILE": keyPath,
            // Tests make many requests quickly from one address; peers are of no use on loopback.
            "COST_SOFT_LIMIT": "0", "COST_HARD_LIMIT": "0", "PEER_DISCOVERY": "off", "PEER_ANNOUNCE": "", "LOG_LEVEL": "info",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": database.path,
        ]
        if getuid() == 0 { settings["ALLOW_ROOT"] = "1" }
        if let pollMilliseconds {
            settings["DAEMON_POLL_INTERVAL_BLOCKS"] = String(pollMilliseconds)
            settings["DAEMON_POLL_INTERVAL_MEMPOOL"] = String(pollMilliseconds)
        }
        settings.merge(environment) { _, given in given }
        // Foundation's Process starts the child with the spawning thread's signal mask, and Swift
        // concurrency's threads block SIGTERM: ElectrumX (asyncio) would never see it. Its own
        // Python unblocks every signal, then runs the server.
        let python = (executablePath as NSString).deletingLastPathComponent + "/python"
        let bootstrap = "import runpy, signal, sys; signal.pthread_sigmask(signal.SIG_UNBLOCK, range(1, signal.NSIG)); "
            + "sys.argv = [sys.argv[1]]; runpy.run_path(sys.argv[0], run_name='__main__')"
        let process = try BackgroundProcess(python, ["-c", bootstrap, executablePath], environment: settings, currentDirectory: database.path)
        let server = ElectrumXServer(tcpPort: tcpPort, sslPort: sslPort, process: process, database: database)
        do {
            try await server.waitUntilIndexed(height: indexedHeight ?? 0, within: timeout)
        } catch {
            await server.stop()
            throw error
        }
        return server
    }

    /// Returns once ElectrumX answers on TCP with a tip at `height` or above (polling, with a
    /// deadline); throws with its log otherwise.
    public func waitUntilIndexed(height: Int, within timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        var last = "no answer yet"
        while ContinuousClock.now < deadline {
            guard process.isRunning else { throw ElectrumTestError("ElectrumX exited before indexing height \(height):\n\(logTail)") }
            do {
                let indexed = try await tipHeight()
                if indexed >= height { return }
                last = "indexed up to \(indexed)"
            } catch {
                last = "\(error)"
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ElectrumTestError("ElectrumX did not index height \(height) within \(timeout) (\(last)):\n\(logTail)")
    }

    /// The height of its tip, asked on a new connection.
    public func tipHeight() async throws -> Int {
        let client = try await ElectrumTestClient.connect(tcpURL, timeout: .seconds(5))
        do {
            _ = try await client.call("server.version", ["walletwatch-tests", ["1.4", "1.6"]])
            let tip = try await client.call("blockchain.headers.subscribe")
            await client.close()
            guard let height = (tip.result as? [String: Any])?["height"] as? Int else { throw ElectrumTestError("no tip in \(tip)") }
            return height
        } catch {
            await client.close()
            throw error
        }
    }

    /// The end of its log, for failure messages.
    public var logTail: String { log.split(separator: "\n", omittingEmptySubsequences: false).suffix(40).joined(separator: "\n") }

    /// Stops it: SIGTERM (it flushes its database, about two seconds), then SIGKILL after
    /// `grace`; returns once it has exited.
    public func stop(grace: Duration = .seconds(10)) async {
        guard process.isRunning else { return }
        process.send(SIGTERM)
        // Polled: BackgroundProcess's exit stream can be awaited once.
        if await !eventually(within: grace, { !process.isRunning }) {
            process.send(SIGKILL)
            _ = await eventually(within: .seconds(5)) { !process.isRunning }
        }
    }
}
