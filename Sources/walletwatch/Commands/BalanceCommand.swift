import ArgumentParser
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct BalanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "balance",
        abstract: "Show every asset's balance, from a 5-minute cache.",
        discussion: """
            Balances stored less than balance_cache_seconds ago (default 300) are shown without \
            asking the sources at all; older ones are fetched from the balance endpoints only. \
            When a source cannot be reached, its stored balance is shown marked stale, with a \
            warning giving its age (exit 0); with nothing stored, the command fails (exit 1). \
            VTXOs that expire within 144 blocks get a warning.

            Examples:
              walletwatch balance
              walletwatch balance --refresh --json
            """)

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Ask the sources even when the cache is fresh.") var refresh = false
    @OptionGroup var output: JSONOption

    func run() async throws {
        let context = try CommandContext.load(global)
        let report = try await context.engine.balances.current(refresh: refresh)
        for warning in report.warnings { Output.warning(warning) }
        if output.json {
            Output.json(BalanceDocument.json(report))
            return
        }
        guard !report.assets.isEmpty else {
            Output.line("no assets yet: add sources to the config and run `walletwatch ingest`")
            return
        }
        let statusBySource = Dictionary(uniqueKeysWithValues: report.sources.map { ($0.source.name, $0) })
        var table = TextTable([.init("ASSET"), .init("SOURCE"), .init("BALANCE", .right), .init("PENDING", .right),
                               .init("SENDING", .right), .init("AGE", .right), .init("FROM")])
        for overview in report.assets {
            let asset = overview.asset
            let balance = overview.balance
            let status = asset.source.flatMap { statusBySource[$0] }
            let from = status.map { $0.stale ? "stale cache" : ($0.fromCache ? "cache" : "source") } ?? (asset.kind == .manual ? "ledger" : "-")
            table.add([
                asset.name, asset.source ?? "-", Display.readable(balance.counted, asset.currency),
                balance.pending == 0 ? "-" : Display.readable(balance.pending, asset.currency),
                balance.sending == 0 ? "-" : Display.readable(balance.sending, asset.currency),
                balance.lastUpdated.map { Display.age(seconds: report.now.seconds(since: $0)) } ?? "-", from,
            ])
        }
        Output.lines(table.render())
    }
}
