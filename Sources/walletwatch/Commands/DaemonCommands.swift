import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation
import WalletWatchWeb

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "The daemon: ingest every source on its interval, react to barkd at once.",
        discussion: """
            Each source is ingested when the daemon starts and then every interval_seconds (with \
            a little jitter); after a failure it waits 2, 4, then 8 intervals, and back to one \
            after a success. barkd's notifications trigger an ingest of that source at once. An \
            electrum source keeps one session open with every address subscribed: the server's \
            notification of a payment starts a pass at once (within about two seconds of the \
            node seeing it), a ping every two minutes keeps the session alive, and a lost \
            connection is opened again after 1 to 60 seconds, its first pass comparing every \
            status; interval_seconds (3600 for electrum) is then only a safety net.

            Rates are refreshed every max_age_seconds. Saving plans are brought up to date at \
            start, every minute and after each ingest that stored something new (automatic \
            deposits recorded, plan.due sent, reminders decided). With [backup] every_hours set, \
            a backup is made whenever the newest in [backup] folder is that old, and the folder keeps \
            the newest [backup] keep. With [[notify]] entries it also sends their webhooks \
            from the outbox, in order per target, retrying for 24 h (`walletwatch notify \
            --help`); a slow target never delays an ingest.

            Logs go to stderr (level info; set WALLETWATCH_LOG_LEVEL). SIGINT or SIGTERM stop it cleanly: no new work starts and a \
            running ingest is given up, nothing of it stored (a pass is stored whole or not at all). Config/walletwatch.service \
            runs `serve` (this plus the web view) as a system service.

            One daemon per database: run and serve lock the database file itself (any path or \
            hard link to it finds the lock) and write their pid to DATABASE.daemon.lock beside \
            it; a second one exits 1 at once naming the pid that holds it (two would send \
            webhooks twice). One-shot commands (ingest, tag, allocate...) work beside it as usual.

            Example:
              walletwatch run
            """)

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        Signals.unblock()
        // The lock before the database is opened: a second daemon must not even open it.
        let config = try CommandContext.loadConfig(global)
        let lock = try DaemonLock.acquire(database: config.database, command: "run")
        defer { withExtendedLifetime(lock) {} }
        let context = try CommandContext.open(config, label: "walletwatch.run", logLevel: .info)
        if context.config.sources.isEmpty {
            context.engine.logger.warning("no sources configured; only rates are refreshed (add [[sources]] to \(context.config.file ?? "the config"))")
        }
        try await Daemon.run([Scheduler(engine: context.engine)], logger: context.engine.logger)
    }
}

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "The daemon plus the web view: a live page, server-sent events, a JSON API, metrics.",
        discussion: """
            Routes: / (the page, updated live), /events (server-sent events on every change), \
            /api/v1/status (the month status JSON), /api/v1/balances, /api/v1/transactions, \
            /metrics (Prometheus), /healthz. It listens on 127.0.0.1:8477 unless --listen or \
            [serve] listen says otherwise; off loopback it refuses to start without \
            [serve] token_file, and then every route but /healthz needs \
            Authorization: Bearer <token> (browsers: open /?token=<token> once; the \
            cookie it sets lasts until serve restarts). Without a token, only requests for \
            127.0.0.1, localhost or [::1] are answered (421 otherwise): no other web site can \
            read the view through a name of its own pointed at this machine. Like run, it \
            holds the database's daemon lock: a second run or serve exits 1 naming its pid.

            A connection idle for 60 s is closed; an open /events stream is not idle (it gets \
            a comment line every 15 s). A request with a Transfer-Encoding other than chunked \
            gets 501, and one whose absolute-form target (GET http://host/...) names another \
            host than its Host header gets 421; both close the connection. The page fits a \
            phone's screen: long texts wrap and the tables become one card per row.

            Examples:
              walletwatch serve
              walletwatch serve --listen 127.0.0.1:9000
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("host:port to listen on (default: [serve] listen).", valueName: "addr:port")) var listen: String?
    @Option(help: ArgumentHelp("Write the port actually bound to this file (useful with port 0).", valueName: "path")) var portFile: String?

    func run() async throws {
        Signals.unblock()
        let config = try CommandContext.loadConfig(global)
        let lock = try DaemonLock.acquire(database: config.database, command: "serve")
        defer { withExtendedLifetime(lock) {} }
        let context = try CommandContext.open(config, label: "walletwatch.serve", logLevel: .info)
        let text = listen ?? context.config.serve.listen
        guard let address = ListenAddress(text) else {
            throw UsageError("--listen '\(text)' is not host:port; write it like 127.0.0.1:8477")
        }
        let token = try context.config.serve.tokenFile.map { path in
            context.engine.secretFiles.check(path, what: "[serve] token_file")
            return try Self.readToken(path)
        }
        if !address.isLoopback && token == nil {
            throw Refusal("refusing to listen on \(address) without a token: anyone on the network could read your finances; set [serve] token_file in \(context.config.file ?? "the config"), or listen on 127.0.0.1")
        }
        let logger = context.engine.logger
        let portFile = self.portFile
        let application = buildApplication(engine: context.engine, configuration: WebConfiguration(
            host: address.host, port: address.port, token: token,
            onRunning: { port in
                logger.info("web view listening", metadata: ["url": "http://\(ListenAddress("\(address.host):\(port)")?.description ?? "\(port)")"])
                if let portFile { try? Self.writePort(port, to: portFile) }
            }))
        try await Daemon.run([Scheduler(engine: context.engine), application], logger: logger)
    }

    static func readToken(_ path: String) throws -> String {
        let token: String
        do { token = try String(contentsOfFile: path, encoding: .utf8).trimmingSpaces } catch {
            throw ConfigError(file: path, message: "[serve] token_file cannot be read (\(error.localizedDescription))")
        }
        guard token.count >= 16 else {
            throw ConfigError(file: path, message: "[serve] token_file holds a token shorter than 16 characters; use a long random one (e.g. openssl rand -hex 32)")
        }
        return token
    }

    /// Written to a temporary name, then renamed: a reader never sees a half-written port.
    static func writePort(_ port: Int, to path: String) throws {
        let temporary = path + ".tmp"
        try "\(port)\n".write(toFile: temporary, atomically: false, encoding: .utf8)
        _ = rename(temporary, path)
    }
}

/// Runs long-running services until SIGINT or SIGTERM, then shuts them down gracefully
/// (escalating to cancellation after a minute).
enum Daemon {
    static func run(_ services: [any Service], logger: Logger) async throws {
        var configuration = ServiceGroupConfiguration(services: services.map { .init(service: $0) }, logger: logger)
        configuration.gracefulShutdownSignals = [.sigterm, .sigint]
        configuration.maximumGracefulShutdownDuration = .seconds(60)
        try await ServiceGroup(configuration: configuration).run()
    }
}
