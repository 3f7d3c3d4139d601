import ArgumentParser
import Foundation
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

extension RatesCommand {
    struct Backfill: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "backfill",
            abstract: "Fetch daily prices of every coin in use from the provider into the rate history.",
            discussion: """
                Portfolio figures (cost basis, gains, the time-weighted return, the value timeline) and each transaction's value at its date need a price at every date. This asks the [rates] provider for one price per UTC day of every priced coin (BTC, and each coin held or saved towards that has a CoinGecko id) in each quote currency (the [rates] currencies, the display currency, the goals' money), over the ledger's span (the first transaction's day through today) or from --since, and keeps each day's price in the rate history with the provider's name. Only days without a daily price are asked for: a second run asks for nothing already known, and `walletwatch run` and `serve` do the same at start, each new day, and when a coin comes into use.

                coingecko answers one request per coin, currency and run of missing days (coins/ID/market_chart/range), but its public API only for the past 365 days; older days, when the ledger reaches further back, are reported with the way to fill them: `walletwatch rates import FILE`. mempool answers BTC's whole history (from 2010) in one request per currency, USD included with any other; the other coins' history comes from CoinGecko ([rates] coingecko_url) with its 365 days. A unit without a CoinGecko id has no provider history: `rates import` or `rates set --at` fills it. static has no history.

                A point the provider answers without a usable price (null, zero, negative, not a number) or with a timestamp that repeats or breaks the answer's order is skipped, counted in one warning, and never stored; an answer without the documented shape is refused, naming the field. 429 answers are retried after their Retry-After. A failed request stops the run (exit 1); what was stored before it is kept.

                A progress bar (days done of days wanted) is drawn on stderr when it is a terminal, never with --json.

                Examples:
                  walletwatch rates backfill
                  walletwatch rates backfill --since 2024-01-01 --json
                """)

        @OptionGroup var global: GlobalOptions
        @Option(help: ArgumentHelp("Backfill from this UTC day (default: the first transaction's day).", valueName: "yyyy-MM-dd"))
        var since: String?
        @OptionGroup var output: JSONOption

        func validate() throws {
            if let since, Day(since) == nil {
                throw ValidationError("--since '\(since)' is not a date; write it like 2024-01-01")
            }
        }

        func run() async throws {
            let context = try CommandContext.load(global)
            let bar = TerminalProgress(unit: "days", wanted: !output.json)
            let result: BackfillResult
            do {
                result = try await context.engine.backfill.run(since: since.flatMap(Day.init)) { progress in
                    bar.update(done: progress.done, total: progress.wanted)
                }
                bar.finish()
            } catch {
                bar.finish()
                throw error
            }
            for warning in result.warnings { Output.warning(warning) }
            if output.json {
                Output.json(BackfillDocument.json(result))
                return
            }
            guard let span = result.span else { return }
            Output.line("\(result.provider): \(result.requests) request(s) for \(span.lowerBound) through \(span.upperBound)")
            var table = TextTable([.init("PAIR"), .init("DAYS ADDED", .right), .init("FIRST"), .init("LAST"), .init("STILL MISSING", .right)])
            for line in result.pairs {
                table.add([line.pair.description, "\(line.daysAdded)", line.first?.description ?? "-", line.last?.description ?? "-", "\(line.daysMissing)"])
            }
            Output.lines(table.render())
        }
    }
}
