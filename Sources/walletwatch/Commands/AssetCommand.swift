import ArgumentParser
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct AssetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "asset",
        abstract: "Add, list and inspect assets (wallets, address sets, manual accounts).",
        discussion: """
            Assets fed by sources are created by `walletwatch ingest`; manual assets (cash, a bank \
            account) are added here and fed with `walletwatch tx add`.
            """,
        subcommands: [Add.self, List.self, Show.self, History.self, Addresses.self, Edit.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a manual asset.",
            discussion: """
                Examples:
                  walletwatch asset add Cash --currency USD
                  walletwatch asset add "Paper wallet" --currency BTC
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "A unique name.") var name: String
        @Option(help: "ISO 4217 code (USD, EUR, JPY) or BTC.") var currency: String
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global)
            let asset = try context.engine.ledger.addManualAsset(name: name, currency: try context.engine.currencies.currency(currency))
            if output.json {
                Output.json(AssetDocument.detail(try context.engine.ledger.assetOverview(named: asset.name)))
            } else {
                Output.line("added manual asset '\(asset.name)' in \(asset.currency.code)")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List assets with their balances.",
            discussion: "Example:\n  walletwatch asset list --json")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global)
            let overviews = try context.engine.ledger.assetOverviews()
            if output.json {
                Output.json(.array(overviews.map { AssetDocument.listItem($0, now: context.now) }))
                return
            }
            guard !overviews.isEmpty else {
                Output.line("no assets yet: add sources to the config and run `walletwatch ingest`, or `walletwatch asset add NAME --currency CUR`")
                return
            }
            var table = TextTable([.init("NAME"), .init("KIND"), .init("SOURCE"), .init("BALANCE", .right),
                                   .init("PENDING", .right), .init("UNALLOCATED", .right), .init("UPDATED")])
            for overview in overviews {
                let asset = overview.asset
                table.add([
                    asset.name, asset.kind.rawValue, asset.source ?? "-",
                    Display.readable(overview.balance.counted, asset.currency),
                    overview.balance.pending == 0 ? "-" : Display.readable(overview.balance.pending, asset.currency),
                    Display.readable(overview.summary.unallocated, asset.currency),
                    overview.balance.lastUpdated.map { Display.time($0, context.engine.preferences.displayTimeZone) } ?? "-",
                ])
            }
            Output.lines(table.render())
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show an asset's balance and how it is allocated across goals.",
            discussion: """
                allocated = targets of active goals; spent = targets of finished goals; \
                unallocated = balance - allocated - spent (never below 0); shortfall = how far the \
                targets exceed the balance.

                Example:
                  walletwatch asset show Cash --json
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The asset's name.") var name: String
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global)
            let overview = try context.engine.ledger.assetOverview(named: name)
            if output.json {
                Output.json(AssetDocument.detail(overview))
                return
            }
            AssetOutput.printDetail(overview)
        }
    }

    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "Show an asset's allocation history, oldest first.",
            discussion: """
                Every change of a target: yours (allocate), Rule 1's (a confirmed deposit or \
                withdrawal on a dedicated asset), and the zeroing of a cancelled goal.

                Example:
                  walletwatch asset history "Ark wallet" --json
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The asset's name.") var name: String
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global)
            let (asset, entries) = try context.engine.allocations.history(asset: name)
            if output.json {
                Output.json(.array(entries.map { entry in
                    .object([
                        "goal": .string(entry.goal), "amount": .int(entry.amount), "timestamp": .string(entry.timestamp.iso8601),
                        "reason": .string(entry.reason.rawValue), "txid": .string(entry.txid),
                    ])
                }))
                return
            }
            guard !entries.isEmpty else {
                Output.line("no allocations yet: walletwatch allocate \"\(asset.name)\" GOAL=AMOUNT")
                return
            }
            var table = TextTable([.init("TIME"), .init("GOAL"), .init("TARGET", .right), .init("BY"), .init("TXID")])
            for entry in entries {
                table.add([Display.time(entry.timestamp, context.engine.preferences.displayTimeZone), entry.goal,
                           Display.readable(entry.amount, asset.currency), entry.reason.rawValue, entry.txid ?? ""])
            }
            Output.lines(table.render())
        }
    }

    struct Addresses: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "addresses",
            abstract: "List an HD wallet's addresses; --deep looks past the gap limit.",
            discussion: """
                An HD wallet (an esplora source with `descriptors` or `xpub`) watches each chain from index 0 up to gap_limit (receive) or change_gap_limit (change) unused addresses after the last used one. This lists every address of that window as the last `walletwatch ingest` left it: the receive chain first, then change, then the fixed addresses the config lists, each with its transaction count, confirmed balance and the goal it is reserved for (`walletwatch goal address`).

                A wallet used with a larger gap than walletwatch's (many addresses handed out and never paid) has funds the window does not reach. --deep N derives the next N addresses of each chain, asks the explorer about them now, and shows the used ones marked beyond the gap, with a warning naming the gap limit that would find them. They join the wallet only when you raise that limit in the config.

                Examples:
                  walletwatch asset addresses "Cold wallet"
                  walletwatch asset addresses "Cold wallet" --deep 100 --json
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The HD wallet's asset name.") var name: String
        @Option(help: "Also ask about this many addresses past each chain's window (1 to 10000).") var deep: Int?
        @OptionGroup var output: JSONOption

        func validate() throws {
            if let deep, !(1...10_000).contains(deep) { throw ValidationError("--deep \(deep) is not accepted; give 1 to 10000 addresses") }
        }

        func run() async throws {
            let context = try CommandContext.load(global)
            let listing = try await context.engine.walletAddresses.list(asset: name, deep: deep ?? 0)
            for warning in listing.warnings { Output.warning(warning) }
            if output.json {
                Output.json(WalletAddressDocument.listing(listing))
                return
            }
            guard !listing.rows.isEmpty else {
                Output.line("no addresses stored yet for '\(listing.asset.name)': run `walletwatch ingest`")
                return
            }
            var table = TextTable([.init("CHAIN"), .init("INDEX", .right), .init("ADDRESS"), .init("TXS", .right),
                                   .init("BALANCE", .right), .init("RESERVED FOR"), .init("")])
            for row in listing.rows {
                let address = row.address
                table.add([address.chain.rawValue, address.chain == .listed ? "-" : "\(address.index)", address.address,
                           "\(address.activity.chainTxCount + address.activity.mempoolTxCount)",
                           Display.readable(Int128(address.activity.balance), listing.asset.currency), row.reservedFor ?? "",
                           row.beyondGap ? "beyond the gap limit" : ""])
            }
            Output.lines(table.render())
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Rename an asset or change its currency.",
            discussion: """
                The currency is locked once the asset has a transaction. Renaming an asset fed by \
                a source also needs the new name in the config (ark_asset, onchain_asset, asset).

                Examples:
                  walletwatch asset edit Cash --name "Cash box"
                  walletwatch asset edit Savings --currency EUR
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The asset's current name.") var name: String
        @Option(name: .customLong("name"), help: "A new name.") var newName: String?
        @Option(help: "A new currency (only while the asset has no transactions).") var currency: String?

        func validate() throws {
            guard newName != nil || currency != nil else { throw ValidationError("nothing to change: give --name or --currency") }
        }

        func run() async throws {
            let context = try CommandContext.load(global)
            let asset = try context.engine.ledger.editAsset(named: name, newName: newName, newCurrency: try currency.map { try context.engine.currencies.currency($0) })
            Output.line("asset '\(asset.name)' in \(asset.currency.code)")
        }
    }
}

/// How `asset show` and `allocate` print an asset.
enum AssetOutput {
    static func printDetail(_ overview: AssetOverview) {
        let asset = overview.asset
        let summary = overview.summary
        let money = { (minor: Int128) in Display.readable(minor, asset.currency) }
        Output.line("\(asset.name) (\(asset.kind.rawValue)\(asset.source.map { ", source \($0)" } ?? ""))")
        Output.line("  balance      \(money(summary.balance))")
        if overview.balance.pending != 0 { Output.line("  pending      \(money(overview.balance.pending)) (not counted yet)") }
        Output.line("  allocated    \(money(summary.allocated))")
        if summary.spent > 0 { Output.line("  spent        \(money(summary.spent)) (finished goals)") }
        Output.line("  unallocated  \(money(summary.unallocated))")
        if summary.shortfall > 0 { Output.line("  underfunded by \(money(summary.shortfall))") }
        guard !overview.allocations.isEmpty else { return }
        var table = TextTable([.init("GOAL"), .init("TARGET", .right), .init("PERCENT", .right),
                               .init("FUNDED", .right), .init("STATUS")])
        for allocation in overview.allocations {
            table.add([
                allocation.goal.name, money(allocation.amount),
                summary.percentHundredths(of: allocation.amount).map { Money.majorString(Int128($0), exponent: 2) + "%" } ?? "-",
                money(summary.funded[allocation.goal.id!] ?? 0), allocation.goal.status.rawValue,
            ])
        }
        Output.line()
        Output.lines(table.render())
    }
}
