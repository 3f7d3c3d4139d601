import ArgumentParser
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct RatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rates",
        abstract: "Show the exchange rates walletwatch converts with.",
        discussion: """
            Every coin you hold or save towards is priced: BTC, and each asset's or goal's coin \
            with a CoinGecko id (the built-in coins and tokens, your units added with \
            --coingecko), in the display currency, the goals' money and the [rates] currencies. \
            coingecko prices all of them in one request; mempool prices BTC and leaves the other \
            coins to CoinGecko ([rates] coingecko_url); static uses the rates written in the \
            config. Other pairs are derived: the inverse, or a cross through one or two \
            currencies (BTC first, then the display currency): EUR to ETH from ETH/USD, BTC/USD \
            and BTC/EUR. Rates older than max_age_seconds are refreshed before use when the \
            provider answers, and used marked stale when it does not. A missing rate is never \
            taken as zero: the figure is shown as missing, naming the pair.

            A unit without a CoinGecko id (a share, a gram of gold) is priced by you: \
            `walletwatch rates set CODE QUOTE PRICE` records one price, now or at a past time, \
            and `walletwatch rates import FILE` adds many.

            `walletwatch rates backfill` fetches one price per day for every priced pair into \
            the rate history (portfolio figures and values at transaction dates need them).

            Examples:
              walletwatch rates
              walletwatch rates --refresh --json
              walletwatch rates set GOLD USD 75.20
              walletwatch rates set VWCE.DE EUR 118.34 --at 2026-10-01
              walletwatch rates backfill
              walletwatch rates import btc-usd-daily.csv
            """,
        subcommands: [SetPrice.self, Import.self, Backfill.self])

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Ask the provider now.") var refresh = false
    @OptionGroup var output: JSONOption

    func run() async throws {
        let context = try CommandContext.load(global)
        let engine = context.engine
        let planned = try engine.rates.plannedPairs()
        let state = await engine.rates.current(for: Set(planned), refresh: refresh ? .always : .ifNeeded)
        // Asked to refresh with nothing stored to fall back on: that is the error (exit 1), in
        // one `error:` line like every other.
        if refresh && state.table.rates.isEmpty, let reason = state.warnings.first {
            for warning in state.warnings.dropFirst() { Output.warning(warning) }
            throw RateUnavailable(reason)
        }
        for warning in state.warnings { Output.warning(warning) }
        if output.json {
            Output.json(RatesDocument.json(state.table))
            return
        }
        guard !state.table.rates.isEmpty else {
            Output.line("no rates stored yet; `walletwatch rates --refresh` asks the \(engine.config.rates.provider.rawValue) provider")
            return
        }
        var table = TextTable([.init("PAIR"), .init("RATE", .right), .init("FETCHED"), .init("PROVIDER"), .init("STALE")])
        for rate in state.table.rates.values.sorted(by: { $0.pair < $1.pair }) {
            table.add([rate.pair.description, "\(rate.rate)", Display.time(rate.fetchedAt, engine.preferences.displayTimeZone), rate.provider,
                       state.table.isStale(rate) ? "yes" : "no"])
        }
        Output.lines(table.render())
    }
}

struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show and change settings kept in the database.",
        discussion: """
            Keys: display_currency (month figures; default the first [rates] currency), \
            undo_grace_hours (how long month undo-start/undo-complete stay possible; default 24), \
            time_zone (tables; default the config's, else UTC), monthly_budget (optional).
            """,
        subcommands: [List.self, Get.self, Set.self, Unset.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List every setting with its value.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: JSONOption

        func run() async throws {
            let settings = try CommandContext.load(global).engine.preferences.list()
            if output.json {
                Output.json(.object(settings.map { JSONValue.Member($0.key.rawValue, .string($0.value)) }))
                return
            }
            var table = TextTable([.init("KEY"), .init("VALUE"), .init("")])
            for setting in settings { table.add([setting.key.rawValue, setting.value ?? "-", setting.isDefault ? "(default)" : ""]) }
            Output.lines(table.render())
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "get", abstract: "Print one setting.", discussion: "Example:\n  walletwatch settings get display_currency")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The key.") var key: String

        func run() async throws {
            Output.line(try CommandContext.load(global).engine.preferences.value(key) ?? "")
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change a setting.",
            discussion: """
                Examples:
                  walletwatch settings set display_currency EUR
                  walletwatch settings set undo_grace_hours 48
                  walletwatch settings set time_zone Europe/Berlin
                  walletwatch settings set monthly_budget "500 EUR"
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The key.") var key: String
        @Argument(help: "The value.") var value: String

        func run() async throws {
            let stored = try CommandContext.load(global).engine.preferences.set(key, value)
            Output.line("\(key) = \(stored)")
        }
    }

    struct Unset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unset", abstract: "Return a setting to its default.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The key.") var key: String

        func run() async throws {
            try CommandContext.load(global).engine.preferences.unset(key)
            Output.line("\(key) is back to its default")
        }
    }
}
