import ArgumentParser
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct IngestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Fetch balances and transactions from the sources into the database, once.",
        discussion: """
            Each source is fetched and then stored in one database transaction: new transactions \
            are inserted, changed ones updated in place, unconfirmed ones the source no longer \
            reports marked failed. A source that fails changes nothing stored and does not stop \
            the others; the command then exits 1. Esplora sources page through an address only \
            until they reach transactions already stored; --full pages through everything.

            Afterwards the saving plans are brought up to date, as the daemon does every minute: each due date that has come is handled once (an automatic plan's deposit recorded, a reminder's plan.due sent) and reminders are decided by the deposits now stored; run from cron, `ingest` is all a setup without the daemon needs.

            An HD wallet (an esplora source with descriptors or xpub) is asked address by address, [http] concurrency requests at once: each stored address for its stats, and for its history only when those moved; addresses seen for the first time for their whole history. A used address near the end of a chain's window grows the window in the same pass. --full reads every address's whole history again.

            An electrum source (your own node's Electrum server) subscribes every address of the window in one write; only an address whose status moved costs its history, only a transaction not stored yet is fetched. Nothing the server says is stored on its word alone: it must follow the source's network (its genesis block), every confirmed transaction's Merkle proof must lead to its block's header, and headers must link to the checkpoints walletwatch ships (Electrum's), carry their proof of work and be dated at most two hours ahead; headers and proofs are kept. A pass where nothing changed asks for nothing but the handshake and the subscriptions. --full reads every history again and asks for every header and proof again. A pass adds at most max_addresses_per_pass addresses (default 10000) to an HD wallet's window. With --json, each source reports its requests (for electrum: JSON-RPC calls, server.version included) and, for electrum, round_trips (the writes it waited an answer for).

            Examples:
              walletwatch ingest
              walletwatch ingest --source ark --json
              walletwatch ingest --source cold --full
            """)

    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("source"), help: "Only this source (repeatable).") var sources: [String] = []
    @Flag(help: "Esplora and Electrum: read every address's whole history again instead of only what changed (Electrum: and every header and proof).") var full = false
    @OptionGroup var output: JSONOption

    func run() async throws {
        let context = try CommandContext.load(global)
        let reports = try await context.engine.ingestor.ingest(sources: sources, full: full)
        for report in reports {
            for warning in report.warnings { Output.warning("source '\(report.source)': \(warning)") }
        }
        if output.json {
            Output.json(IngestDocument.json(reports))
        } else if reports.isEmpty {
            Output.line("no sources configured; add [[sources]] to \(context.config.file ?? "the config")")
        } else {
            var table = TextTable([.init("SOURCE"), .init("RESULT"), .init("NEW", .right), .init("UPDATED", .right),
                                   .init("DROPPED", .right), .init("AUTO-ALLOCATED", .right), .init("TIME", .right)])
            for report in reports {
                table.add([report.source, report.ok ? "ok" : "failed", "\(report.counts.new)", "\(report.counts.updated)",
                           "\(report.counts.dropped)", "\(report.counts.autoAllocated)", "\(report.duration.milliseconds) ms"])
            }
            Output.lines(table.render())
        }
        // A periodic `ingest` is how a daemon-less setup keeps its saving plans: due dates
        // handled, reminders decided by the deposits just stored (even when a source failed).
        SavingPlanOutput.report(try context.engine.savingPlans.catchUp(), json: output.json)
        let failed = reports.filter { !$0.ok }
        for report in failed { Output.error(report.error ?? "source '\(report.source)' failed") }
        if !failed.isEmpty { throw ExitCode(1) }
    }
}
