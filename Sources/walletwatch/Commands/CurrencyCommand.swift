import ArgumentParser
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct CurrencyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "currency",
        abstract: "List the currencies walletwatch knows; add units of your own.",
        discussion: """
            Every amount is an exact count of its currency's smallest unit: cents, satoshis, wei \
            (ETH has 18 decimals, amounts far beyond 64 bits). walletwatch knows ISO 4217 money \
            (USD, EUR, JPY...), the coins and tokens BTC, ETH, POL, BNB, SOL, LTC, USDC, USDT, \
            DAI, EURC and WBTC (each priced through its CoinGecko id), and the units you add: an \
            ETF share, a gram of gold, a coin that is not built in. A unit with a CoinGecko id is \
            priced like the built-in coins; one without is priced by you with `walletwatch rates set`.
            """,
        subcommands: [List.self, Add.self, Remove.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List every currency: ISO money, built-in coins and tokens, your units.",
            discussion: """
                JSON: [{"code", "decimals", "coingecko_id", "name", "kind": "iso"|"builtin"|"custom"}].

                Examples:
                  walletwatch currency list
                  walletwatch currency list --json
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: JSONOption

        func run() async throws {
            let definitions = try CommandContext.load(global).engine.currencies.list()
            if output.json {
                Output.json(CurrencyDocument.json(definitions))
                return
            }
            // ISO money is long and well known: the table lists coins and your units, and says
            // how many ISO codes there are.
            var table = TextTable([.init("CODE"), .init("DECIMALS", .right), .init("KIND"), .init("COINGECKO"), .init("NAME")])
            for definition in definitions where definition.kind != .iso {
                table.add([definition.code, "\(definition.decimals)", definition.kind.rawValue, definition.coingeckoID ?? "-", definition.name ?? ""])
            }
            Output.lines(table.render())
            let iso = definitions.filter { $0.kind == .iso }.count
            Output.line("and \(iso) ISO 4217 currencies (USD, EUR, JPY...): `walletwatch currency list --json` lists them all")
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a unit of your own: a share, a gram of gold, a coin not built in.",
            discussion: """
                CODE is 2 to 10 letters, digits or dots, and not an ISO or built-in code. \
                --decimals is how many decimal places its amounts have (0 to 18): a whole share \
                has 0, gold in grams with milligrams 3. With --coingecko ID (the id in the coin's \
                page URL at coingecko.com) its price comes from CoinGecko; without, record prices \
                with `walletwatch rates set CODE QUOTE PRICE`.

                Examples:
                  walletwatch currency add VWCE --decimals 0 --name "Vanguard FTSE All-World"
                  walletwatch currency add XAUT --decimals 6 --coingecko tether-gold
                  walletwatch rates set VWCE EUR 118.42
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The code, such as GOLD or VWCE.") var code: String
        @Option(help: "Decimal places of its amounts, 0 to 18.") var decimals: Int
        @Option(help: "Its CoinGecko id, when CoinGecko prices it.") var coingecko: String?
        @Option(help: "A name to show beside the code.") var name: String?
        @OptionGroup var output: JSONOption

        func run() async throws {
            let definition = try CommandContext.load(global).engine.currencies.add(code: code, decimals: decimals, coingeckoID: coingecko, name: name)
            if output.json {
                Output.json(CurrencyDocument.json(definition))
                return
            }
            let priced = definition.coingeckoID.map { "priced by CoinGecko ('\($0)')" }
                ?? "no price source: record prices with `walletwatch rates set \(definition.code) USD PRICE`"
            Output.line("added currency \(definition.code) with \(definition.decimals) decimals, \(priced)")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a unit you added, while nothing uses it.",
            discussion: """
                Refused (exit 65) while an asset, a goal, a saving plan, a rate or the display \
                currency uses it, naming the first such use. ISO and built-in codes stay.

                Example:
                  walletwatch currency remove GOLD
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The code.") var code: String

        func run() async throws {
            try CommandContext.load(global).engine.currencies.remove(code: code)
            Output.line("removed currency \(code.uppercased())")
        }
    }
}
