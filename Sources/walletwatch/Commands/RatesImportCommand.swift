import ArgumentParser
import Foundation
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

extension RatesCommand {
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import daily prices from a CSV file into the rate history.",
            discussion: """
                The file starts with a header naming the columns date, base, quote and rate (any \
                order; other columns are ignored), then one price a line: one BASE cost RATE QUOTE \
                on DATE. A date (2026-10-01) means from 00:00 UTC that day; a full ISO 8601 instant \
                is taken as written. With these, cost basis, gains and value timelines work for \
                transactions older than the first fetched rate (a figure's price at a date is the \
                latest rate at or before it).

                A malformed line (a bad date or currency, a rate that is not a positive decimal, a \
                date in the future, the same pair and date twice) imports nothing, and the error \
                names the lines (exit 65). A price for a pair and date imported before is refused \
                the same way unless --replace, which overwrites it. Fetched rates are never \
                touched. Everything is imported in one transaction.

                Examples:
                  walletwatch rates import btc-usd-daily.csv
                  walletwatch rates import prices.csv --replace --json

                A file:
                  date,base,quote,rate
                  2026-10-01,BTC,USD,61250.50
                  2026-10-01,BTC,EUR,56410.00
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The CSV file.") var file: String
        @Flag(help: "Overwrite prices imported before for the same pair and date.") var replace = false
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global)
            let text = try InputFile.text(file)
            let (result, rates) = try context.engine.rates.importCSV( text, source: file, replace: replace)
            let pairs = Set(rates.map(\.pair)).sorted().map(\.description)
            let first = rates.map(\.instant).min()!, last = rates.map(\.instant).max()!
            if output.json {
                Output.json(.object([
                    "imported": .int(Int64(result.imported)),
                    "replaced": .int(Int64(result.replaced)),
                    "pairs": .array(pairs.map(JSONValue.string)),
                    "first": .string(first.iso8601),
                    "last": .string(last.iso8601),
                    "latest_updated": .array(result.latestUpdated.map { .string($0.description) }),
                ]))
                return
            }
            Output.line("imported \(result.imported) price(s) of \(pairs.joined(separator: ", ")) from \(first.day) to \(last.day)"
                        + (result.replaced > 0 ? "; \(result.replaced) replaced earlier imports" : ""))
            if !result.latestUpdated.isEmpty {
                Output.line("now the latest rate of \(result.latestUpdated.map(\.description).joined(separator: ", ")) (the provider's next fetch replaces it)")
            }
        }
    }
}
