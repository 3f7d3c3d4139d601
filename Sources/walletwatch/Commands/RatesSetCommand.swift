import ArgumentParser
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

extension RatesCommand {
    struct SetPrice: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Record one price by hand: 1 CODE costs PRICE QUOTE.",
            discussion: """
                For a unit no provider prices (one added with `walletwatch currency add` without \
                --coingecko: an ETF share, a gram of gold), or to correct a day. The price is \
                stored like a provider's: in the rate history at its time, and as the pair's \
                latest rate unless a newer one is stored; from then on goals, the month, the \
                portfolio and values at dates convert with it, directly or through a cross rate \
                (a GOLD price in USD also values GOLD in EUR through BTC). Prices set by hand are \
                never stale. Setting the same pair and time again replaces the price.

                --at is a day (2026-10-01: from 00:00 UTC, the day's price) or an ISO 8601 \
                instant; by default now. A time in the future is refused (exit 65).

                JSON: {"base", "quote", "rate", "fetched_at", "provider", "stale", "latest", "replaced"}.

                Examples:
                  walletwatch rates set GOLD USD 75.20
                  walletwatch rates set VWCE.DE EUR 118.34 --at 2026-10-01
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The currency priced (one unit of it).") var code: String
        @Argument(help: "The currency the price is in.") var quote: String
        @Argument(help: "The price, a positive decimal such as 75.20.") var price: String
        @Option(help: ArgumentHelp("When the price holds from: a day or an ISO 8601 instant (default: now).", valueName: "time"))
        var at: String?
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global)
            let result = try await context.engine.rates.setPrice(code: code, quote: quote, price: price, at: at)
            let rate = result.rate
            if output.json {
                let table = RateTable(rates: [rate], now: context.engine.clock.now, maxAgeSeconds: Int64(context.engine.config.rates.maxAgeSeconds))
                guard case .object(var members) = RatesDocument.json(rate, in: table) else { return }
                members.append(.init("latest", .bool(result.latest)))
                members.append(.init("replaced", .bool(result.replaced)))
                Output.json(.object(members))
                return
            }
            var line = "\(rate.pair) = \(rate.rate) from \(rate.fetchedAt.iso8601), set by hand"
            if result.replaced { line += " (replacing the price set before for that time)" }
            Output.line(line)
            if !result.latest {
                Output.line("a newer \(rate.pair) rate is stored: conversions now use that one; this price counts at its time")
            } else if result.providerPrices {
                Output.line("the \(context.engine.config.rates.provider.rawValue) provider prices \(rate.pair) too: its next refresh replaces the latest rate")
            }
        }
    }
}
